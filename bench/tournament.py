"""A 1,000-player tournament with bots, from the seat draw to the winner.

The tournament (croupier.tournament) runs under the standard structure (20-minute levels from
25/50 with 10,000 chips, two minutes of simulated time per hand); every hand is dealt by the
hand engine with the tournament's forced bets and played by bots through their seats' views
(the driver, ``EngineHands``). Two fields: ``random`` bots (``croupier.bots.RandomBot``, which
often moves all in, so the tournament is over in a few hundred hands) and ``tight`` bots
(``croupier.tournament.bots.TightBot``: fold three times in four when facing a bet, rarely
raise: thousands of hands, every level and colour-up).

Printed for each: hands, hands per second and total time for the whole tournament (best of
``--rounds``); then the same hands played by the driver alone (replayed from the tournament's
log with the same seeds, checked to end the same), so that the tournament's own share of the
time shows. No peer runs multi-table tournaments with the cards dealt (PokerTH and
PyPokerEngine have none; the tools directors use deal no cards), so there is no peer figure.
Timings are printed, never asserted.

    python bench/tournament.py [--players N] [--table-size K] [--seed S] [--rounds R]
                               [--bots random,tight]
"""

from __future__ import annotations

import argparse
import platform
import time

from croupier.bots import Bot
from croupier.tournament import (
    EngineHands,
    HandSetup,
    ManualClock,
    SeatInHand,
    Tournament,
    run,
    standard_settings,
)
from croupier.tournament import events as ev
from croupier.tournament.bots import BOTS
from machine import cpu_model, engine


def one_tournament(
    players: int, table_size: int, seed: int, bot: Bot
) -> tuple[Tournament, EngineHands, float]:
    clock = ManualClock()
    tournament = Tournament(standard_settings(table_size=table_size), seed=seed, clock=clock)
    for index in range(players):
        tournament.register(f"bot{index + 1}")
    hands = EngineHands(bot_for=lambda name: bot)
    start = time.perf_counter()
    tournament.start()
    run(tournament, hands, clock)
    return tournament, hands, time.perf_counter() - start


def driver_alone(tournament: Tournament, bot: Bot) -> tuple[int, float, bool]:
    """The tournament's hands again, straight through the driver (same setups, same seeds);
    also whether every hand ended as it did in the tournament."""
    setups = _setups(tournament)
    finished = [e.stacks for e in tournament.events if isinstance(e, ev.HandFinished)]
    hands = EngineHands(bot_for=lambda name: bot)
    results = []
    start = time.perf_counter()
    for setup in setups:
        results.append(hands.play(setup))
    seconds = time.perf_counter() - start
    pairs = zip(setups, results, strict=True)
    same = [tuple((s.seat, r.stacks[s.seat]) for s in p.seats) for p, r in pairs]
    return len(setups), seconds, same == finished


def _setups(tournament: Tournament) -> list[HandSetup]:
    """Rebuild each hand's setup from the log, with the forced bets in force at its stage."""
    found = []
    replay = Tournament(tournament.settings, seed=tournament.seed, clock=ManualClock())
    for event in tournament.events:
        if isinstance(event, ev.HandStarted):
            forced = replay.forced_bets()
            positions = event.positions
            dealt = {seat for seat, _, _ in event.dealt}
            found.append(
                HandSetup(
                    table=event.table,
                    hand=event.hand,
                    seats=tuple(
                        SeatInHand(s, name, chips, s in event.absent)
                        for s, name, chips in event.dealt
                    ),
                    button=positions.button,
                    small_blind=positions.small_blind if positions.small_blind in dealt else None,
                    big_blind=positions.big_blind,
                    forced=forced,
                    table_size=replay.tables[event.table].size,
                    seed=event.seed,
                )
            )
        replay.apply(event)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--table-size", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bots", default="random,tight", help="random, tight or both")
    args = parser.parse_args()
    kinds = args.bots.split(",")
    if any(kind not in BOTS for kind in kinds):
        parser.error(f"--bots takes {', '.join(BOTS)}, got {args.bots!r}")
    print(f"machine: {cpu_model()}, Python {platform.python_version()}, {engine()}")
    print(f"best of {args.rounds} rounds each (the same tournament each round), taking turns")
    for kind in kinds:
        bot = BOTS[kind]()
        best = alone = float("inf")
        same = True
        for _ in range(args.rounds):  # the tournament and the driver alone take turns
            tournament, hands, seconds = one_tournament(
                args.players, args.table_size, args.seed, bot
            )
            best = min(best, seconds)
            count, driver, equal = driver_alone(tournament, bot)
            alone, same = min(alone, driver), same and equal
        standings = tournament.standings()
        chipped = sum(isinstance(e, ev.ChippedUp) for e in tournament.events)
        print(
            f"{kind:6} bots: {args.players:,} players, {hands.hands:,} hands, "
            f"{len(tournament.events):,} events, level {tournament.level_number} reached, "
            f"{chipped} colour-ups, prizes paid {sum(s.prize for s in standings):,} "
            f"= pool {tournament.prize_pool:,}"
        )
        print(
            f"{kind:6} tournament   {hands.hands / best:8,.0f} hands/s  "
            f"{best:7.2f} s in all (goal: under 120 s)"
        )
        print(
            f"{kind:6} driver alone {count / alone:8,.0f} hands/s  {alone:7.2f} s "
            f"(the tournament's share {max(0.0, best - alone):.2f} s; "
            f"same hands: {'yes' if same else 'NO'})"
        )


if __name__ == "__main__":
    main()
