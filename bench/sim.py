"""`croupier sim` against the engine alone, game by game, in one run (issue 42, item 1).

For each game (the rws book's table for it, 6 seats, or as many as the game deals to), three
rates, each the best of ``--rounds`` rounds taken in turns:

- **engine**: the hands alone, through :class:`croupier.hand.Hand`, with the random bot's own
  policy (:class:`croupier.bots.RandomBot`: fold, check or call, bet or raise equally often
  among those allowed; the minimum, the maximum or an amount between) applied straight to the
  hand, each hand from a fresh seeded shuffler and random generator as the simulation's are;
- **sim random**: :func:`croupier.sim.simulate` on one core (the serial backend) with random
  bots, who see their seat's view at every turn (:class:`croupier.bots.SeatView`);
- **sim strength**: the same with strength bots (Monte Carlo equity at every turn), and what
  the bots' own thinking costs a hand (timed inside them), to set apart from the rest.

The first line is bench/hands.py's figure (its own policy, 6-max no-limit hold'em) from the
same run, the figure issue 42 quotes. Timings are printed, never asserted.

    python bench/sim.py [--hands N] [--strength-hands N] [--rounds R] [--game NAME ...]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import ClassVar

import numpy as np

from croupier.betting import Legal
from croupier.bots import Action, SeatView, StrengthBot
from croupier.deck import SeededShuffler
from croupier.executor import chunk_seeds
from croupier.games import GAMES
from croupier.hand import Hand, Rules
from croupier.play_rules import TableOptions
from croupier.sim import BOTS, CHUNK, _setups, big_blind, simulate
from hands import croupier_hands
from machine import best_rates, print_header

SEATS = 6


BOOKS = ("rws", "cardroom", "au-casino", "league", "qld")


def table(name: str) -> tuple[str, Rules, int]:
    """The first book that deals the game (house rules when none does), at 6 seats or as many
    as the game deals to."""
    for book in BOOKS:
        try:
            rules, _ = TableOptions(name, None, "2/4", book).book()
            break
        except ValueError:
            continue
    else:
        book, rules = "house", TableOptions(name, None, "2/4").rules()
    seats = SEATS
    while True:
        try:
            rules.game.check(rules.deck, seats)
            return book, rules, seats
        except ValueError:
            seats -= 1


def seeds(seed: int, hands: int) -> list[int]:
    """Each hand's two seeds (its shuffler's, its decisions'), as croupier.sim draws them."""
    states: list[int] = []
    for chunk in chunk_seeds(seed, 0, -(-hands // CHUNK)):
        count = min(CHUNK, hands - len(states) // 2)
        states.extend(chunk.generate_state(2 * count, dtype=np.uint64).tolist())
    return states


def engine(rules: Rules, seats: int, hands: int, seed: int) -> float:
    """Hands a second through the engine alone, with the random bot's policy, on the same
    decks and decision seeds as the simulation (so the same hands)."""
    setups = _setups(rules, seats, 100 * big_blind(rules))
    states = seeds(seed, hands)
    start = time.perf_counter()
    for number in range(hands):
        setup = setups[number % seats]
        hand = Hand(
            rules, setup.starting, None, forced=setup.forced,
            shuffler=SeededShuffler(states[2 * number]),
        )  # fmt: skip
        rng = random.Random(states[2 * number + 1])
        while not hand.over:
            if hand.drawing:
                held = hand.hole[hand.to_act]  # type: ignore[index]
                hand.draw(rng.sample(held, rng.randint(0, len(held))))
                continue
            legal = hand.legal()
            kinds = []
            if legal.can_fold:
                kinds.append(0)
            if legal.can_check or legal.call:
                kinds.append(1)
            if legal.raise_range is not None:
                kinds.append(2)
            kind = rng.choice(kinds) if kinds else 1
            if kind == 2:
                assert legal.raise_range is not None
                low, high = legal.raise_range
                hand.bet_or_raise_to(rng.choice((low, high, legal.snap(rng.randint(low, high)))))
            elif kind == 0:
                hand.fold()
            else:
                hand.check_or_call()
    return hands / (time.perf_counter() - start)


class _Timed(StrengthBot):
    """A strength bot that adds up the time it spends deciding (not reading its view, which
    is the simulation's work: the view's fields are read before the clock starts), and
    records its decisions."""

    spent: ClassVar[float] = 0.0
    actions: ClassVar[list[Action]] = []

    def act(self, view: SeatView, legal: Legal, rng: random.Random) -> Action:
        _ = view.stacks  # the view's fields worked out: the simulation's cost
        start = time.perf_counter()
        action = super().act(view, legal, rng)
        _Timed.spent += time.perf_counter() - start
        _Timed.actions.append(action)
        return action

    def draw(self, view: SeatView, rng: random.Random) -> Action:
        _ = view.stacks
        start = time.perf_counter()
        action = super().draw(view, rng)
        _Timed.spent += time.perf_counter() - start
        _Timed.actions.append(action)
        return action


def replay(rules: Rules, seats: int, hands: int, seed: int, actions: list[Action]) -> float:
    """Hands a second through the engine alone, making the decisions the bots made."""
    setups = _setups(rules, seats, 100 * big_blind(rules))
    states = seeds(seed, hands)
    moves = iter(actions)
    start = time.perf_counter()
    for number in range(hands):
        setup = setups[number % seats]
        hand = Hand(
            rules, setup.starting, None, forced=setup.forced,
            shuffler=SeededShuffler(states[2 * number]),
        )  # fmt: skip
        while not hand.over:
            next(moves).apply(hand)
    return hands / (time.perf_counter() - start)


def sim(rules: Rules, seats: int, kind: str, hands: int, seed: int) -> tuple[float, float]:
    """Hands a second through croupier.sim (serial), and the bots' own share of the time."""
    _Timed.spent = 0.0
    _Timed.actions = []
    start = time.perf_counter()
    simulate(rules, [kind] * seats, hands, stack=100 * big_blind(rules), seed=seed)
    elapsed = time.perf_counter() - start
    return hands / elapsed, _Timed.spent / elapsed


def measure(name: str, args: argparse.Namespace) -> None:
    """One game's line."""
    book, rules, seats = table(name)
    random_sim: list[float] = []
    strength: list[tuple[float, float]] = []
    actions: list[Action] = []

    def strong() -> float:
        strength.append(sim(rules, seats, "timed-strength", args.strength_hands, args.seed))
        actions[:] = _Timed.actions
        return strength[-1][0]

    def played() -> float:
        random_sim.append(sim(rules, seats, "random", args.hands, args.seed)[0])
        return random_sim[-1]

    strong()
    rates = best_rates(
        {
            "engine": lambda: engine(rules, seats, args.hands, args.seed),
            "random": played,
            "replay": lambda: replay(rules, seats, args.strength_hands, args.seed, actions),
            "strength": strong,
        },
        args.rounds,
    )
    ours, alone, again = rates["random"], rates["engine"], rates["replay"]
    assert ours is not None and alone is not None and again is not None
    rate, share = max(strength)
    rest = rate / (1 - share)  # hands a second with the bots' thinking taken out
    print(
        f"{name:<14}{book:>10}{seats:>6}{alone:>9,.0f}{ours:>9,.0f}{ours / alone:>6.0%}"
        f"{again:>9,.0f}{rate:>10,.0f}{share:>6.0%}{rest:>9,.0f}{rest / again:>6.0%}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--strength-hands", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--game", action="append", help="only these games (default: all)")
    args = parser.parse_args()
    BOTS["timed-strength"] = lambda: _Timed(trials=60)
    croupier_hands(200, 1)
    print_header(args.rounds)
    reference = best_rates({"hands": lambda: croupier_hands(20_000, 1)}, args.rounds)["hands"]
    assert reference is not None
    print(f"bench/hands.py engine, 6-max NLHE, its own policy: {reference:,.0f} hands/s")
    print(
        f"{'game':<14}{'book':>10}{'seats':>6}{'engine':>9}{'sim':>9}{'ratio':>6}"
        f"{'replay':>9}{'strength':>10}{'bots':>6}{'rest':>9}{'ratio':>6}"
    )
    for name in args.game or list(GAMES):
        measure(name, args)
    print(
        "engine: the hands alone (Hand) with the random bot's policy, the same hands as sim; "
        "sim: croupier.sim, serial, random bots; replay: the strength bots' hands alone, their "
        "decisions replayed; strength: croupier.sim with strength bots; bots: their thinking's "
        "share of that time; rest: the strength run without it; ratios: sim / engine and "
        "rest / replay (target >= 50%)"
    )


if __name__ == "__main__":
    main()
