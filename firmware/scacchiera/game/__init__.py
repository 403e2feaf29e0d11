"""The game on the board: rules, recognised moves, claims and results, as events."""
