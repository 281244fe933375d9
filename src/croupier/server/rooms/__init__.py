"""The rooms floor: one table in play (the actor, its seats, waiting list and clock)."""
