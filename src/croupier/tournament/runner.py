"""Running a tournament to the end with simulated time: for bots, tests and the benchmark.

Each round every table that may deal starts a hand; the hands are then played and finished in
table order, so balancing moves and eliminations happen while other tables are mid-hand, as in
a room. The clock then moves on by ``seconds_per_hand``; a break is skipped to its end.
"""

from __future__ import annotations

from collections.abc import Callable

from croupier.tournament.clock import ManualClock
from croupier.tournament.core import Tournament
from croupier.tournament.interface import HandPlayer
from croupier.tournament.settings import Break, Level, Purchase, TournamentError, TournamentSettings

__all__ = ["run", "standard_settings"]


def run(
    tournament: Tournament,
    player: HandPlayer,
    clock: ManualClock,
    *,
    seconds_per_hand: float = 120.0,
    after_round: Callable[[Tournament], None] | None = None,
    most_rounds: int = 1_000_000,
) -> int:
    """Play ``tournament`` (started) to its end; returns the number of rounds. ``clock`` must
    be the tournament's clock. A tournament that can deal no hand while registration is
    open has its registration closed, as a director would."""
    rounds = 0
    while not tournament.finished:
        if rounds >= most_rounds:
            raise TournamentError(f"no end after {most_rounds} rounds")
        tournament.tick()
        if tournament.finished:
            break
        if tournament.paused:
            raise TournamentError("the clock is paused: nothing can be dealt")
        if tournament.on_break:
            assert tournament.clock is not None
            end = tournament.clock.ends_at(tournament.settings.stages[tournament.stage].seconds)
            assert end is not None
            clock.now = max(clock.now, end)
            continue
        ready = tournament.ready_tables()
        if not ready:
            if tournament.registration_open:
                tournament.close_registration()
                continue
            raise TournamentError(f"no table can deal a hand: tables {tournament.tables}")
        setups = [tournament.next_hand(table) for table in ready]
        for setup in setups:
            tournament.finish_hand(setup.table, player.play(setup))
        clock.advance(seconds_per_hand)
        rounds += 1
        if after_round is not None:
            after_round(tournament)
    return rounds


def standard_settings(
    *,
    table_size: int = 9,
    minutes: int = 20,
    buy_in: Purchase | None = None,
    late_until_level: int = 0,
    re_entries: int = 0,
) -> TournamentSettings:
    """A usual no-limit hold'em structure from 10,000 chips: 20-minute levels from 25/50, antes
    from level 4, a break every four levels, colour-ups as the denominations fall out."""
    blinds = [
        (25, 50, 0), (50, 100, 0), (75, 150, 0), (100, 200, 25), (150, 300, 25),
        (200, 400, 50), (250, 500, 50), (300, 600, 75), (400, 800, 100), (500, 1000, 100),
        (600, 1200, 200), (800, 1600, 200), (1000, 2000, 500), (1500, 3000, 500),
        (2000, 4000, 500), (2500, 5000, 500), (3000, 6000, 1000), (4000, 8000, 1000),
        (5000, 10000, 1000), (6000, 12000, 2000), (8000, 16000, 2000), (10000, 20000, 3000),
        (15000, 30000, 5000), (20000, 40000, 5000), (25000, 50000, 5000), (30000, 60000, 10000),
        (40000, 80000, 10000), (50000, 100000, 15000), (60000, 120000, 20000),
        (80000, 160000, 20000), (100000, 200000, 25000), (150000, 300000, 50000),
        (200000, 400000, 50000), (300000, 600000, 100000), (400000, 800000, 100000),
        (500000, 1000000, 100000),
    ]  # fmt: skip
    stages: list[Level | Break] = []
    for number, (small, big, ante) in enumerate(blinds, start=1):
        stages.append(Level(small, big, minutes * 60, ante=ante))
        if number % 4 == 0 and number < len(blinds):
            stages.append(Break(10 * 60))
    return TournamentSettings(
        stages=tuple(stages),
        buy_in=buy_in or Purchase(price=11000, chips=10000, fee=1000),
        denominations=(25, 100, 500, 1000, 5000, 25000, 100000),
        table_size=table_size,
        late_until_level=late_until_level,
        re_entries=re_entries,
    )
