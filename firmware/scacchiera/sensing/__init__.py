"""From raw switch rows to stable per-square presence changes."""
