"""Host-side tools for Scacchiera: perft, simulator, docs generators. They reuse ``scacchiera``."""
