"""Move recognition: from per-square presence changes to moves of the game."""
