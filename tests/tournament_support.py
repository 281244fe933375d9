"""Helpers for the tournament tests: small settings, and a fast stand-in for a table engine."""

from __future__ import annotations

import random

from croupier.tournament import (
    Break,
    HandResult,
    HandSetup,
    Level,
    ManualClock,
    Purchase,
    Tournament,
    TournamentSettings,
)


def small_settings(**changes: object) -> TournamentSettings:
    """Five-minute levels from 25/50, a break after level 2, 1,000 chips for 100 (10 fee)."""
    fields: dict[str, object] = {
        "stages": (
            Level(25, 50, 300),
            Level(50, 100, 300),
            Break(120),
            Level(100, 200, 300, ante=25),
            Level(200, 400, 300),
            Level(300, 600, 300, big_blind_ante=600),
            Level(500, 1000, 300),
        ),
        "buy_in": Purchase(price=100, chips=1000, fee=10),
        "denominations": (25, 100, 500),
        "table_size": 9,
    }
    fields.update(changes)
    return TournamentSettings(**fields)  # type: ignore[arg-type]


def started(
    players: int, settings: TournamentSettings | None = None, seed: int = 7
) -> tuple[Tournament, ManualClock]:
    clock = ManualClock(1_000.0)
    tournament = Tournament(settings or small_settings(), seed=seed, clock=clock)
    for index in range(players):
        tournament.register(f"p{index + 1}")
    tournament.start()
    return tournament, clock


class RandomResults:
    """Plays no cards: each hand a random dealt player wins chips from the others, who each
    lose a random part of their stack, sometimes all of it. Chips are conserved; the same
    setup gives the same result."""

    def __init__(self, bust_chance: float = 0.3) -> None:
        self.bust_chance = bust_chance

    def play(self, setup: HandSetup) -> HandResult:
        rng = random.Random(setup.seed)
        stacks = {s.seat: s.chips for s in setup.seats}
        winner = rng.choice([s.seat for s in setup.seats if not s.absent] or list(stacks))
        for seat, chips in list(stacks.items()):
            if seat == winner:
                continue
            unit = setup.forced.chip_unit
            loss = (
                chips if rng.random() < self.bust_chance else rng.randint(0, chips // unit) * unit
            )
            stacks[seat] -= loss
            stacks[winner] += loss
        return HandResult(stacks)
