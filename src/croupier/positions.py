"""Who opens a stud round by the cards showing, and which hand is worth showing at the showdown.

Pure functions over cards and hand values, used by :class:`croupier.hand.Hand`; compiled with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.cards import Card

__all__ = ["ace_low", "as_good", "low_showing", "showing"]


def showing(
    cards: Sequence[Card], by_suit: bool = True
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """How good the face-up cards look, for the stud opener (au 12.3(b), 13.3(b)): pairs and
    trips first, then ranks; equal ranks are split by the suit of the highest card."""
    counts, ranks = _grouped([card >> 2 for card in cards])
    top = max(c for c in cards if c >> 2 == ranks[0]) if by_suit else 0
    return counts, ranks, top


def low_showing(cards: Sequence[Card]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """How good the face-up cards look for razz (lower is better): unpaired first, then the
    highest rank, aces low."""
    return _grouped([ace_low(card)[0] for card in cards])


def _grouped(ranks: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Rank counts, largest first, and the ranks ordered by count then rank, highest first."""
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return tuple(sorted(counts.values(), reverse=True)), tuple(order)


def ace_low(card: Card) -> tuple[int, int]:
    """A card's (rank, suit) with the ace below the deuce."""
    return ((card >> 2) + 1) % 13, card & 3


def as_good(high: int, low: int | None, called: tuple[int, int | None] | None) -> bool:
    """Whether a hand is worth showing against the called hand: no hand called yet, a high as
    good, or a qualifying low as good (a called hand with no low loses the low to any)."""
    if called is None or high >= called[0]:
        return True
    return low is not None and (called[1] is None or low >= called[1])
