"""Hand-history replay speed: croupier against PokerKit on the same PHH hands, one process.

Hands are 6-max no-limit hold'em under PHH's own rules, played by random bots through croupier
and written as PHH; both engines then replay every hand from the text (parse included). Each
engine runs ``--rounds`` times, taking turns, and its best round counts. Timings are printed,
never asserted.

    python bench/replay.py [--hands N] [--seed S] [--rounds R]
"""

from __future__ import annotations

import argparse
import random
import time
import warnings

from croupier.bots import RandomBot, play_hand
from croupier.cards import DeckKind
from croupier.deck import Deck, SeededShuffler
from croupier.hand import Hand
from croupier.history import (
    HandHistory,
    dump_phh,
    history_from_hand,
    load_phh,
    replay,
    standard_rules,
)
from machine import best_rates, print_header


def make_histories(count: int, seed: int) -> list[str]:
    table = HandHistory(
        variant="NT", antes=(0,) * 6, blinds_or_straddles=(1, 2, 0, 0, 0, 0), min_bet=2,
        starting_stacks=(200,) * 6,
    )  # fmt: skip
    rules = standard_rules(table)  # PHH's own rules: the files are plain NT
    rng = random.Random(seed)
    bots = [RandomBot() for _ in range(6)]
    texts = []
    for index in range(count):
        deck = Deck.shuffled(DeckKind.STANDARD, SeededShuffler(seed * 1_000_003 + index))
        hand = Hand(rules, [200] * 6, deck)
        play_hand(hand, bots, rng)
        texts.append(dump_phh(history_from_hand(hand)))
    return texts


def croupier_rate(texts: list[str]) -> float:
    start = time.perf_counter()
    for text in texts:
        result = replay(load_phh(text))
        assert result.ok, result.error
    return len(texts) / (time.perf_counter() - start)


def pokerkit_rate(texts: list[str]) -> float | None:
    try:
        import pokerkit
    except ImportError:
        return None
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PokerKit warns at folds it finds pointless
        for text in texts:
            history = pokerkit.HandHistory.loads(text)
            for _state in history:
                pass
    return len(texts) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="rounds each; the best counts")
    args = parser.parse_args()
    texts = make_histories(args.hands, args.seed)
    croupier_rate(texts[:50])  # warm up
    rates = best_rates(
        {"croupier": lambda: croupier_rate(texts), "pokerkit": lambda: pokerkit_rate(texts)},
        args.rounds,
    )
    ours, theirs = rates["croupier"], rates["pokerkit"]
    assert ours is not None
    print_header(args.rounds)
    print(f"croupier  {ours:>8,.0f} hands/s  {1000 / ours:.3f} ms a hand  ({len(texts):,} hands)")
    if theirs is None:
        print("pokerkit  not installed")
        return
    print(f"pokerkit  {theirs:>8,.0f} hands/s  {1000 / theirs:.3f} ms a hand  (same files)")
    print(f"ratio     {ours / theirs:>8.1f}x  (target: at least 20x, issue 42; 10x before)")


if __name__ == "__main__":
    main()
