"""Full 6-max no-limit hold'em hands per second, croupier against PokerKit, one process.

Both engines play the same random policy through their public APIs, with their event logs on:
bet or raise (to the minimum, the maximum or a random amount between) 30% of the time when
allowed, fold 15% of the time when facing a bet, otherwise check or call. Stacks are 200 big
blinds, so all-ins and side pots happen. Each engine runs ``--rounds`` times, taking
turns, and its best round counts. Timings are printed, never asserted.

    python bench/hands.py [--hands N] [--peer-hands N] [--seed S] [--rounds R]
"""

from __future__ import annotations

import argparse
import random
import time
import warnings

from croupier.betting import Betting, Structure
from croupier.cards import DeckKind
from croupier.deck import Deck, SeededShuffler
from croupier.games import game
from croupier.hand import Hand, Rules
from machine import best_rates, print_header

PLAYERS = 6
BLINDS = (1, 2)
STACK = 400


def croupier_hands(count: int, seed: int) -> float:
    rules = Rules(
        game=game("holdem"),
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=BLINDS[1]),
        blinds=BLINDS,
    )
    rng = random.Random(seed)
    shuffler = SeededShuffler(seed)
    start = time.perf_counter()
    for _ in range(count):
        hand = Hand(rules, [STACK] * PLAYERS, Deck.shuffled(DeckKind.STANDARD, shuffler))
        while not hand.over:
            legal = hand.legal()
            choice = rng.random()
            if legal.raise_range is not None and choice < 0.3:
                low, high = legal.raise_range
                hand.bet_or_raise_to(rng.choice((low, high, rng.randint(low, high))))
            elif legal.can_fold and choice > 0.85:
                hand.fold()
            else:
                hand.check_or_call()
    return count / (time.perf_counter() - start)


def pokerkit_hands(count: int, seed: int) -> float | None:
    try:
        import pokerkit
    except ImportError:
        return None
    automations = (
        pokerkit.Automation.ANTE_POSTING,
        pokerkit.Automation.BET_COLLECTION,
        pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
        pokerkit.Automation.CARD_BURNING,
        pokerkit.Automation.HOLE_DEALING,
        pokerkit.Automation.BOARD_DEALING,
        pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pokerkit.Automation.HAND_KILLING,
        pokerkit.Automation.CHIPS_PUSHING,
        pokerkit.Automation.CHIPS_PULLING,
    )
    warnings.simplefilter("ignore", UserWarning)  # PokerKit warns at folds it finds pointless
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(count):
        state = pokerkit.NoLimitTexasHoldem.create_state(
            automations, True, 0, BLINDS, BLINDS[1], (STACK,) * PLAYERS, PLAYERS,
            mode=pokerkit.Mode.CASH_GAME,
        )  # fmt: skip
        while state.status:
            choice = rng.random()
            if state.can_complete_bet_or_raise_to() and choice < 0.3:
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                assert low is not None and high is not None
                state.complete_bet_or_raise_to(rng.choice((low, high, rng.randint(low, high))))
            elif state.can_fold() and choice > 0.85:
                state.fold()
            elif state.can_check_or_call():
                state.check_or_call()
            else:  # pragma: no cover - automations cover every other step
                break
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--peer-hands", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="rounds each; the best counts")
    args = parser.parse_args()
    croupier_hands(200, args.seed)  # warm up: tables, caches
    rates = best_rates(
        {
            "croupier": lambda: croupier_hands(args.hands, args.seed),
            "pokerkit": lambda: pokerkit_hands(args.peer_hands, args.seed),
        },
        args.rounds,
    )
    ours, theirs = rates["croupier"], rates["pokerkit"]
    assert ours is not None
    print_header(args.rounds)
    print(f"croupier  {ours:>10,.0f} hands/s  ({args.hands:,} 6-max NLHE hands, random policy)")
    if theirs is None:
        print("pokerkit  not installed")
    else:
        print(f"pokerkit  {theirs:>10,.0f} hands/s  ({args.peer_hands:,} hands, same policy)")
        print(f"ratio     {ours / theirs:>10.1f}x  (target: at least 50x, issue 42)")


if __name__ == "__main__":
    main()
