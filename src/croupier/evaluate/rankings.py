"""How five cards rank under each ranking the rulebooks (and the PHH variants) use.

Everything here is slow and obvious on purpose: it classifies one five-card hand at a time and
is only run to build the lookup tables (see :mod:`croupier.evaluate.tables`).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence

from croupier.cards import CardError, DeckKind, Rank

__all__ = ["Category", "EvaluationError", "Ranking", "classify_five"]

ACE = Rank.ACE


class EvaluationError(CardError):
    """A hand that cannot be evaluated: wrong card count, duplicates, a card outside the deck."""


class Category(enum.Enum):
    """What a hand is. Their order depends on the ranking (au 9.1 vs 9.3), so compare values."""

    HIGH_CARD = "High Card"
    ONE_PAIR = "One Pair"
    TWO_PAIR = "Two Pair"
    THREE_OF_A_KIND = "Three of a Kind"
    STRAIGHT = "Straight"
    FLUSH = "Flush"
    FULL_HOUSE = "Full House"
    FOUR_OF_A_KIND = "Four of a Kind"
    STRAIGHT_FLUSH = "Straight Flush"
    ROYAL_FLUSH = "Royal Flush"
    ONE_CARD = "One-card Badugi"
    TWO_CARD = "Two-card Badugi"
    THREE_CARD = "Three-card Badugi"
    FOUR_CARD = "Badugi"


C = Category

# Category orders, weakest first. The royal flush is the top straight flush, not a class of its own.
# fmt: off
_HIGH_ORDER = (C.HIGH_CARD, C.ONE_PAIR, C.TWO_PAIR, C.THREE_OF_A_KIND, C.STRAIGHT, C.FLUSH,
               C.FULL_HOUSE, C.FOUR_OF_A_KIND, C.STRAIGHT_FLUSH)  # au 9.1, rws 3.5.2, qld s8(1)
_SHORT_ORDER = (C.HIGH_CARD, C.ONE_PAIR, C.TWO_PAIR, C.THREE_OF_A_KIND, C.STRAIGHT,
                C.FULL_HOUSE, C.FLUSH, C.FOUR_OF_A_KIND, C.STRAIGHT_FLUSH)  # au 9.3
_PAIRING_ORDER = (C.HIGH_CARD, C.ONE_PAIR, C.TWO_PAIR, C.THREE_OF_A_KIND, C.FULL_HOUSE,
                  C.FOUR_OF_A_KIND)  # ace-to-five lows: only the pairing matters
# fmt: on


class Ranking(enum.Enum):
    """A way of ranking hands. Values are the names used by ``evaluate_many`` and the CLI."""

    HIGH = "high"
    SHORT40 = "short40"
    SHORT36 = "short36"
    SHORT32 = "short32"
    SHORT20 = "short20"
    LOW_A5 = "low-a5"
    LOW_A5_8 = "low-a5-8"
    LOW_27 = "low-27"
    BADUGI = "badugi"

    # Members are singletons: identity hashing keeps dictionary look-ups in C (Enum's own
    # __hash__ is Python code, a third of a scalar evaluation's time).
    __hash__ = object.__hash__

    @classmethod
    def parse(cls, name: Ranking | str) -> Ranking:
        if isinstance(name, Ranking):
            return name
        try:
            return cls(name)
        except ValueError:
            allowed = ", ".join(ranking.value for ranking in cls)
            raise EvaluationError(f"unknown ranking {name!r}: expected one of {allowed}") from None

    @property
    def deck(self) -> DeckKind:
        return _DECKS.get(self, DeckKind.STANDARD)

    @property
    def hand_size(self) -> int:
        """Cards in a made hand: five, except four at badugi."""
        return 4 if self is Ranking.BADUGI else 5

    @property
    def clause(self) -> str:
        return _CLAUSES[self]

    @property
    def is_low(self) -> bool:
        return self in (Ranking.LOW_A5, Ranking.LOW_A5_8, Ranking.LOW_27, Ranking.BADUGI)


_DECKS = {
    Ranking.SHORT40: DeckKind.SHORT_40,
    Ranking.SHORT36: DeckKind.SHORT_36,
    Ranking.SHORT32: DeckKind.SHORT_32,
    Ranking.SHORT20: DeckKind.ROYAL_20,
}
_CLAUSES = {
    Ranking.HIGH: "au 9.1, rws 3.5, qld s8",
    Ranking.SHORT40: "au 9.2(a), 9.3",
    Ranking.SHORT36: "au 9.2(b), 9.3",
    Ranking.SHORT32: "au 9.2(c), 9.3",
    Ranking.SHORT20: "au 9.3 applied to the 20-card royal deck",
    Ranking.LOW_A5: "au 9.1(k)",
    Ranking.LOW_A5_8: "au 9.1(k) with an eight-or-better qualifier",
    Ranking.LOW_27: "deuce-to-seven lowball (not in the seed books)",
    Ranking.BADUGI: "badugi (not in the seed books)",
}


def _pack(order_index: int, ranks: Sequence[int]) -> int:
    """Category first, then up to five ranks, most significant first: one sortable int."""
    packed = order_index
    for position in range(5):
        packed = packed << 4 | (ranks[position] + 1 if position < len(ranks) else 0)
    return packed


def _grouped(ranks: Sequence[int], key: dict[int, int] | None = None) -> list[int]:
    """Ranks ordered by how many there are, then by rank (``key`` remaps rank order)."""
    counts = Counter(ranks)
    order = key or {r: r for r in counts}
    return sorted(ranks, key=lambda r: (counts[r], order[r]), reverse=True)


def _pairing(ranks: Sequence[int]) -> Category:
    shape = sorted(Counter(ranks).values(), reverse=True)
    return {
        (1, 1, 1, 1, 1): C.HIGH_CARD,
        (2, 1, 1, 1): C.ONE_PAIR,
        (2, 2, 1): C.TWO_PAIR,
        (3, 1, 1): C.THREE_OF_A_KIND,
        (3, 2): C.FULL_HOUSE,
        (4, 1): C.FOUR_OF_A_KIND,
    }[tuple(shape)]


def _straight(ranks: Sequence[int], lowest: int, wheel: bool) -> list[int] | None:
    """The straight's ranks top first, or None. The ace also plays low below ``lowest``."""
    distinct = sorted(set(ranks), reverse=True)
    if len(distinct) != 5:
        return None
    if distinct[0] - distinct[4] == 4:
        return distinct
    small = [ACE, *range(lowest + 3, lowest - 1, -1)]
    if wheel and sorted(small) == sorted(distinct):
        return [*small[1:], ACE]  # the ace counts low (au 9.1(f), 9.3(f))
    return None


def classify_five(
    ranking: Ranking, ranks: Sequence[int], suited: bool
) -> tuple[int, Category, tuple[int, ...]]:
    """(strength, category, ranks in order of significance) of five cards; higher is better.

    ``suited`` says whether all five share a suit. Badugi is handled in the kernels, not here.
    """
    if ranking in (Ranking.LOW_A5, Ranking.LOW_A5_8):
        return _classify_ace_to_five(ranking, ranks)
    if ranking is Ranking.LOW_27:
        strength, category, order = _classify_high(ranks, suited, _HIGH_ORDER, 0, wheel=False)
        return (1 << 24) - strength, category, order
    if ranking is Ranking.HIGH:
        return _classify_high(ranks, suited, _HIGH_ORDER, 0, wheel=True)
    return _classify_high(ranks, suited, _SHORT_ORDER, ranking.deck.lowest, wheel=True)


def _classify_high(
    ranks: Sequence[int], suited: bool, order: tuple[Category, ...], lowest: int, wheel: bool
) -> tuple[int, Category, tuple[int, ...]]:
    straight = _straight(ranks, lowest, wheel)
    if straight is not None:
        category = C.STRAIGHT_FLUSH if suited else C.STRAIGHT
        significant = straight
    elif suited:
        category, significant = C.FLUSH, sorted(ranks, reverse=True)
    else:
        category, significant = _pairing(ranks), _grouped(ranks)
    strength = _pack(order.index(category), significant[:1] if straight else significant)
    if category is C.STRAIGHT_FLUSH and significant[0] == ACE:
        category = C.ROYAL_FLUSH
    return strength, category, tuple(significant)


_ACE_LOW = {r: (r + 1) % 13 for r in range(13)}  # ace lowest, then deuce .. king


def _classify_ace_to_five(
    ranking: Ranking, ranks: Sequence[int]
) -> tuple[int, Category, tuple[int, ...]]:
    category = _pairing(ranks)  # straights and flushes do not count (au 9.1(k))
    significant = _grouped(ranks, _ACE_LOW)
    badness = _pack(_PAIRING_ORDER.index(category), [_ACE_LOW[r] for r in significant])
    strength = (1 << 24) - badness
    if ranking is Ranking.LOW_A5_8 and category is C.HIGH_CARD and _ACE_LOW[significant[0]] <= 7:
        strength += 1 << 24  # eight or better qualifies: above every hand that does not
    return strength, category, tuple(significant)


def qualifies(ranking: Ranking, category: Category, significant: Sequence[int]) -> bool:
    """Whether a low hand qualifies (only low-a5-8 has a qualifier)."""
    if ranking is not Ranking.LOW_A5_8:
        return True
    return category is C.HIGH_CARD and _ACE_LOW[significant[0]] <= 7


def describe(ranking: Ranking, category: Category, significant: Sequence[int]) -> str:
    """Human description: 'Full House, Kings over Jacks', '7-5-4-3-2 low', 'Badugi, 8-5-3-A'."""
    # The members come from module names and their text from ``_value_``: on Python 3.11 an
    # Enum class's attribute, and ``.value``, cost a Python call each (the engine names every
    # new hand value it meets at a showdown through here).
    if ranking is _BADUGI:
        return f"{category._value_}, {'-'.join(_RANK_CHARS[r] for r in significant)}"
    if category is _HIGH_CARD and ranking in _LOWS:
        return f"{'-'.join(_RANK_CHARS[r] for r in significant)} low"
    first = _NOUNS[significant[0]]
    single = _NAMES[significant[0]]
    if category is _ONE_PAIR:
        return f"Pair of {first}"
    if category is _TWO_PAIR:
        return f"Two Pair, {first} and {_NOUNS[significant[2]]}"
    if category is _FULL_HOUSE:
        return f"Full House, {first} over {_NOUNS[significant[3]]}"
    if category is _THREE_OF_A_KIND or category is _FOUR_OF_A_KIND:
        return f"{category._value_}, {first}"
    if category is _ROYAL_FLUSH:
        return "Royal Flush"
    if category is _HIGH_CARD:
        return f"High Card, {single}"
    return f"{category._value_}, {single} high"  # straight, flush, straight flush


_BADUGI = Ranking.BADUGI
_LOWS = frozenset(ranking for ranking in Ranking if ranking.is_low)
_HIGH_CARD, _ONE_PAIR, _TWO_PAIR = C.HIGH_CARD, C.ONE_PAIR, C.TWO_PAIR
_THREE_OF_A_KIND, _FOUR_OF_A_KIND = C.THREE_OF_A_KIND, C.FOUR_OF_A_KIND
_FULL_HOUSE, _ROYAL_FLUSH = C.FULL_HOUSE, C.ROYAL_FLUSH
_RANK_CHARS = [rank.char for rank in Rank]
_NOUNS = [rank.noun for rank in Rank]
_NAMES = [rank.name.title() for rank in Rank]
