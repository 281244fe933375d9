"""Regenerate croupier.equity.hand_order: the 169 starting hands of hold'em, best first.

Each hand class (a pair, a suited or an offsuit pair of ranks) is ranked by its exact all-in
equity against one random hand: every one of the 1,225 holdings the other player can have,
equally likely, each with all 1,712,304 boards, enumerated by :func:`croupier.equity.equity`.
That is the order of PokerStove's "versus a random hand" table, which percentage ranges
(``15%``) follow in most equity tools. Run ``python tools/hand_order.py > out.py`` (a few
minutes on one core) and compare with src/croupier/equity/hand_order.py.
"""

from __future__ import annotations

import itertools
import sys

from croupier.cards import Card
from croupier.equity import equity

RANKS = "23456789TJQKA"
BOARDS = 1_712_304  # C(48, 5)


def classes() -> list[tuple[str, str, str]]:
    """(class name, first card, second card) for each of the 169 classes."""
    out = []
    for high in reversed(RANKS):
        for low in reversed(RANKS[: RANKS.index(high) + 1]):
            if high == low:
                out.append((high + low, high + "s", low + "h"))
            else:
                out.append((high + low + "s", high + "s", low + "s"))
                out.append((high + low + "o", high + "s", low + "h"))
    return out


def points(first: str, second: str) -> int:
    """Twice the boards won plus the boards tied, summed over every opposing holding."""
    hero = {Card(first), Card(second)}
    rest = [Card(code) for code in range(52) if Card(code) not in hero]
    total = 0
    for a, b in itertools.combinations(rest, 2):
        result = equity([f"{first}{second}", f"{a}{b}"], threads=1)
        total += round(result[0].equity * 2 * BOARDS)
    return total


def main() -> None:
    rows = []
    for name, first, second in classes():
        rows.append((points(first, second), name))
        print(f"{name} {rows[-1][0]}", file=sys.stderr, flush=True)
    rows.sort(key=lambda row: (-row[0], row[1]))
    print("ORDER = (")
    for value, name in rows:
        print(f"    ({name!r}, {value}),")
    print(")")


if __name__ == "__main__":
    main()
