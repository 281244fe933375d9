"""Live tables: a dealer with real cards and croupier as the assistant (table.py)."""
