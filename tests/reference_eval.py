"""A deliberately plain, slow reference evaluator, written from the rulebooks.

It shares no code with :mod:`croupier.evaluate`. Every ranking gives a *key*: a tuple that
sorts like the hands do (a bigger key is a better hand, equal keys tie). Cards are the integer
codes ``4 * rank + suit`` (rank 0 = deuce .. 12 = ace, suit 0..3).

Where the rules come from (paraphrased):

* ``high`` (au-casino 9.1, rws 3.5.2, qld s8): royal flush > straight flush > four of a kind >
  full house > flush > straight > three of a kind > two pair > one pair > no pair. Ties are
  broken by the ranks: the bigger group first (trips before the pair of a full house, the higher
  pair of two pair, then the lower, then the odd card), then from the highest card down. The
  ace is high, except that A-2-3-4-5 is a straight (the lowest one, "five high"). Suits never
  break a tie.
* ``short40`` / ``short36`` / ``short32`` (au-casino 9.2, 9.3) and ``short20`` (the royal
  deck): as ``high`` but a flush beats a full house, and the only straight where the ace plays
  low is the ace with the deck's four lowest ranks (A-5-6-7-8, A-6-7-8-9, A-7-8-9-T). On the
  20-card deck (T..A) that "small" straight is A-K-Q-J-T itself, the only straight there is.
* ``low-a5`` (au-casino 9.1(k)): the ace is the lowest card, straights and flushes do not
  count, pairs do: no pair beats one pair beats two pair beats trips beats a full house beats
  quads; then the lowest groups win, comparing the highest card (of the bigger group) down.
* ``low-a5-8``: ``low-a5``, but a hand qualifies only with five different ranks all eight or
  lower (ace low); every qualifying hand beats every one that does not.
* ``low-27``: the exact reverse of ``high``, except that the ace is always high, so A-2-3-4-5
  is no straight (it is an ace-high no-pair hand, or an ace-high flush).
* ``badugi``: four cards; the best subset whose cards have different ranks and different
  suits plays. A bigger subset wins; then the lower highest card wins (ace low), then the next.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

RANKINGS = (
    "high", "short40", "short36", "short32", "short20", "low-a5", "low-a5-8", "low-27", "badugi",
)  # fmt: skip

# Lowest rank (0 = deuce) of the deck each ranking is played with.
DECK_LOWEST = {
    "high": 0,
    "short40": 3,
    "short36": 4,
    "short32": 5,
    "short20": 8,
    "low-a5": 0,
    "low-a5-8": 0,
    "low-27": 0,
    "badugi": 0,
}

ACE = 12

# Category names, worst first, as they rank in a 52-card high hand.
HIGH_ORDER = (
    "HIGH_CARD", "ONE_PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT", "FLUSH", "FULL_HOUSE",
    "FOUR_OF_A_KIND", "STRAIGHT_FLUSH", "ROYAL_FLUSH",
)  # fmt: skip
# au-casino 9.3: in the 40/36/32-card decks a flush outranks a full house.
SHORT_ORDER = (
    "HIGH_CARD", "ONE_PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT", "FULL_HOUSE", "FLUSH",
    "FOUR_OF_A_KIND", "STRAIGHT_FLUSH", "ROYAL_FLUSH",
)  # fmt: skip
# Pair structures for ace-to-five low, best (no pair) first.
LOW_STRUCTURES = (
    "HIGH_CARD", "ONE_PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "FULL_HOUSE", "FOUR_OF_A_KIND",
)  # fmt: skip
BADUGI_SIZES = {1: "ONE_CARD", 2: "TWO_CARD", 3: "THREE_CARD", 4: "FOUR_CARD"}

Key = tuple


def rank_of(card: int) -> int:
    return card // 4


def suit_of(card: int) -> int:
    return card % 4


def grouped(ranks: Iterable[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(group sizes, ranks) with the biggest group first, higher rank first among equals."""
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return tuple(counts[r] for r in order), tuple(order)


def straight_high(ranks: Sequence[int], lowest: int, ace_low: bool = True) -> int | None:
    """The high card of the straight these five ranks make, or None.

    ``lowest`` is the deck's lowest rank; with ``ace_low`` the ace may also stand below it.
    """
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[4] - distinct[0] == 4:
        return distinct[4]
    small = [lowest, lowest + 1, lowest + 2, lowest + 3, ACE]
    if ace_low and distinct == small:
        return lowest + 3
    return None


def _poker_category(ranks: Sequence[int], suits: Sequence[int], lowest: int, ace_low: bool):
    sizes, order = grouped(ranks)
    flush = len(set(suits)) == 1
    high = straight_high(ranks, lowest, ace_low)
    if high is not None and flush:
        return ("ROYAL_FLUSH" if high == ACE else "STRAIGHT_FLUSH"), (high,)
    if sizes[0] == 4:
        return "FOUR_OF_A_KIND", order
    if sizes == (3, 2):
        return "FULL_HOUSE", order
    if flush:
        return "FLUSH", order
    if high is not None:
        return "STRAIGHT", (high,)
    if sizes[0] == 3:
        return "THREE_OF_A_KIND", order
    if sizes == (2, 2, 1):
        return "TWO_PAIR", order
    if sizes[0] == 2:
        return "ONE_PAIR", order
    return "HIGH_CARD", order


def _check(cards: Sequence[int], size: int, lowest: int) -> None:
    if len(cards) != size:
        raise ValueError(f"expected {size} cards, got {len(cards)}")
    if len(set(cards)) != size:
        raise ValueError(f"duplicate card in {cards}")
    for card in cards:
        if not 4 * lowest <= card < 52:
            raise ValueError(f"card {card} is not in the deck")


def high_key5(cards: Sequence[int]) -> Key:
    _check(cards, 5, 0)
    name, ties = _poker_category([rank_of(c) for c in cards], [suit_of(c) for c in cards], 0, True)
    return (HIGH_ORDER.index(name), ties)


def short_key5(cards: Sequence[int], lowest: int) -> Key:
    _check(cards, 5, lowest)
    ranks = [rank_of(c) for c in cards]
    name, ties = _poker_category(ranks, [suit_of(c) for c in cards], lowest, True)
    return (SHORT_ORDER.index(name), ties)


def a5_rank(card: int) -> int:
    """Ace-to-five card value: ace 1, deuce 2, ..., king 13."""
    rank = rank_of(card)
    return 1 if rank == ACE else rank + 2


def low_a5_key5(cards: Sequence[int]) -> Key:
    _check(cards, 5, 0)
    sizes, order = grouped(a5_rank(c) for c in cards)
    structure = _low_structure(sizes)
    return (-LOW_STRUCTURES.index(structure), tuple(-r for r in order))


def _low_structure(sizes: tuple[int, ...]) -> str:
    return {
        (1, 1, 1, 1, 1): "HIGH_CARD",
        (2, 1, 1, 1): "ONE_PAIR",
        (2, 2, 1): "TWO_PAIR",
        (3, 1, 1): "THREE_OF_A_KIND",
        (3, 2): "FULL_HOUSE",
        (4, 1): "FOUR_OF_A_KIND",
    }[sizes]


def qualifies_a5_8(cards: Sequence[int]) -> bool:
    values = [a5_rank(c) for c in cards]
    return len(set(values)) == 5 and max(values) <= 8


def low_a5_8_key5(cards: Sequence[int]) -> Key:
    return (int(qualifies_a5_8(cards)), *low_a5_key5(cards))


def low_27_key5(cards: Sequence[int]) -> Key:
    _check(cards, 5, 0)
    ranks = [rank_of(c) for c in cards]
    name, ties = _poker_category(ranks, [suit_of(c) for c in cards], 0, False)
    return (-HIGH_ORDER.index(name), tuple(-r for r in ties))


def badugi_subset_ok(cards: Sequence[int]) -> bool:
    return len({rank_of(c) for c in cards}) == len(cards) == len({suit_of(c) for c in cards})


def badugi_subset_key(subset: Sequence[int]) -> Key:
    """The key of a subset that plays (different ranks, different suits)."""
    if not badugi_subset_ok(subset):
        raise ValueError(f"not a badugi subset: {subset}")
    values = sorted((a5_rank(c) for c in subset), reverse=True)
    return (len(subset), tuple(-v for v in values))


def badugi_best(cards: Sequence[int]) -> tuple[Key, tuple[int, ...]]:
    """(key, the cards that play) for exactly four cards."""
    _check(cards, 4, 0)
    best: tuple[Key, tuple[int, ...]] | None = None
    for size in (1, 2, 3, 4):
        for subset in combinations(cards, size):
            if not badugi_subset_ok(subset):
                continue
            key = badugi_subset_key(subset)
            if best is None or key > best[0]:
                best = (key, subset)
    assert best is not None
    return best


def badugi_key(cards: Sequence[int]) -> Key:
    return badugi_best(cards)[0]


def key5(cards: Sequence[int], ranking: str) -> Key:
    """The key of exactly five cards (four for badugi) under ``ranking``."""
    if ranking == "high":
        return high_key5(cards)
    if ranking in ("short40", "short36", "short32", "short20"):
        return short_key5(cards, DECK_LOWEST[ranking])
    if ranking == "low-a5":
        return low_a5_key5(cards)
    if ranking == "low-a5-8":
        return low_a5_8_key5(cards)
    if ranking == "low-27":
        return low_27_key5(cards)
    if ranking == "badugi":
        return badugi_key(cards)
    raise ValueError(f"unknown ranking {ranking!r}")


def category5(cards: Sequence[int], ranking: str) -> str:
    """The category name (a ``Category`` member name) of exactly five (badugi: four) cards."""
    if ranking == "badugi":
        key = badugi_key(cards)
        return BADUGI_SIZES[key[0]]
    if ranking in ("low-a5", "low-a5-8"):
        _check(cards, 5, 0)
        return _low_structure(grouped(a5_rank(c) for c in cards)[0])
    lowest = DECK_LOWEST[ranking]
    _check(cards, 5, lowest)
    ranks = [rank_of(c) for c in cards]
    suits = [suit_of(c) for c in cards]
    return _poker_category(ranks, suits, lowest, ranking != "low-27")[0]


def best_of(cards: Sequence[int], ranking: str) -> tuple[Key, tuple[int, ...]]:
    """Brute force: the best key over every five-card subset, and one subset achieving it."""
    if ranking == "badugi":
        return badugi_best(cards)
    if len(set(cards)) != len(cards):
        raise ValueError(f"duplicate card in {cards}")
    best: tuple[Key, tuple[int, ...]] | None = None
    for five in combinations(cards, 5):
        key = key5(five, ranking)
        if best is None or key > best[0]:
            best = (key, five)
    if best is None:
        raise ValueError(f"need at least five cards, got {len(cards)}")
    return best


def best_key(cards: Sequence[int], ranking: str) -> Key:
    return best_of(cards, ranking)[0]


def best_category(cards: Sequence[int], ranking: str) -> str:
    return category5(best_of(cards, ranking)[1], ranking)


def best_omaha(
    hole: Sequence[int], board: Sequence[int], ranking: str, hole_used: int = 2
) -> tuple[Key, tuple[int, ...]]:
    """Best hand with exactly ``hole_used`` hole cards and ``5 - hole_used`` board cards."""
    best: tuple[Key, tuple[int, ...]] | None = None
    for mine in combinations(hole, hole_used):
        for theirs in combinations(board, 5 - hole_used):
            five = mine + theirs
            key = key5(five, ranking)
            if best is None or key > best[0]:
                best = (key, five)
    assert best is not None
    return best


def dense_ranks(keys: Sequence[Key]) -> list[int]:
    """Replace each key by its position among the distinct keys (0 = worst)."""
    position = {key: i for i, key in enumerate(sorted(set(keys)))}
    return [position[key] for key in keys]


def parse(text: str) -> tuple[int, ...]:
    """``"Ah Kd 10c"`` -> card codes, independent of :mod:`croupier.cards`."""
    codes = []
    for token in text.split():
        rank_text, suit_text = token[:-1].upper(), token[-1].lower()
        rank = 8 if rank_text == "10" else "23456789TJQKA".index(rank_text)
        codes.append(4 * rank + "cdhs".index(suit_text))
    return tuple(codes)


# --- numpy helpers for the tests -------------------------------------------------------------
# These only enumerate, sample and group hands; every key still comes from the functions above.

import functools  # noqa: E402

import numpy as np  # noqa: E402


@functools.cache
def combinations_array(n: int, k: int) -> np.ndarray:
    """Every k-subset of range(n) as rows of increasing uint8 values, in lexicographic order."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.uint8)
    parts = []
    for first in range(n - k + 1):
        rest = combinations_array(n - first - 1, k - 1) + np.uint8(first + 1)
        head = np.full((len(rest), 1), first, dtype=np.uint8)
        parts.append(np.hstack([head, rest]))
    result = np.concatenate(parts) if parts else np.zeros((0, k), dtype=np.uint8)
    result.flags.writeable = False
    return result


def deck_hands(lowest: int, k: int) -> np.ndarray:
    """Every k-card hand of the deck whose lowest rank is ``lowest`` (card codes, uint8)."""
    size = 52 - 4 * lowest
    return combinations_array(size, k) + np.uint8(4 * lowest)


def random_hands(rng: np.random.Generator, n: int, k: int, lowest: int = 0) -> np.ndarray:
    """n uniformly random k-card hands (distinct cards in a row) by Floyd's algorithm."""
    size = 52 - 4 * lowest
    chosen = np.empty((n, k), dtype=np.int64)
    for column, j in enumerate(range(size - k, size)):
        pick = rng.integers(0, j + 1, size=n)
        taken = (chosen[:, :column] == pick[:, None]).any(axis=1)
        chosen[:, column] = np.where(taken, j, pick)
    # Floyd's algorithm gives a uniform subset; shuffle each row so the order is random too.
    order = np.argsort(rng.random((n, k)), axis=1)
    return (np.take_along_axis(chosen, order, axis=1) + 4 * lowest).astype(np.uint8)


def hand_classes(hands: np.ndarray, ranking: str) -> tuple[np.ndarray, np.ndarray]:
    """Group hands whose reference key must be equal: (class of each hand, one row per class).

    For the five-card rankings the key depends only on the ranks and on whether all suits
    agree. For badugi the rows are grouped by ranks plus the pattern of equal suits (hands that
    differ only by renaming suits), which also cannot change the key.
    """
    hands = np.sort(np.asarray(hands, dtype=np.int64), axis=1)
    ranks = hands // 4
    suits = hands % 4
    code = np.zeros(len(hands), dtype=np.int64)
    for column in range(hands.shape[1]):
        code = code * 13 + ranks[:, column]
    if ranking == "badugi":
        for column in range(hands.shape[1]):
            first = np.argmax(suits == suits[:, column : column + 1], axis=1)
            code = code * 4 + first
    else:
        flush = (suits == suits[:, :1]).all(axis=1)
        code = code * 2 + flush
    _, representatives, inverse = np.unique(code, return_index=True, return_inverse=True)
    return inverse.reshape(-1), representatives


def reference_ranks(hands: np.ndarray, ranking: str) -> np.ndarray:
    """Dense reference rank (0 = worst) of every exactly-five (badugi: four) card hand."""
    inverse, representatives = hand_classes(hands, ranking)
    keys = [key5(tuple(int(c) for c in hands[i]), ranking) for i in representatives]
    return np.asarray(dense_ranks(keys), dtype=np.int64)[inverse]


def order_violation(
    values: np.ndarray, reference: np.ndarray, *, strict: bool = True
) -> tuple[int, int] | None:
    """None when ``values`` order and tie the items exactly as ``reference`` does.

    Otherwise the indices (i, j) of two items that disagree: reference[i] <= reference[j] but
    the values are not in the same relation. With ``strict=False`` a reference step may also
    map to equal values (the values may merge reference classes, never reorder or split them).
    """
    values = np.asarray(values, dtype=np.int64)
    reference = np.asarray(reference)
    order = np.lexsort((values, reference))
    dv = np.diff(values[order])
    dr = np.diff(reference[order])
    step_bad = (dv <= 0) if strict else (dv < 0)
    bad = np.flatnonzero(((dr == 0) & (dv != 0)) | ((dr > 0) & step_bad))
    if len(bad) == 0:
        return None
    k = bad[0]
    return int(order[k]), int(order[k + 1])


def show(cards: Iterable[int]) -> str:
    return " ".join("23456789TJQKA"[int(c) // 4] + "cdhs"[int(c) % 4] for c in cards)


def five_card_counts(lowest: int, *, ace_low: bool = True) -> dict[str, int]:
    """Closed-form count of five-card hands per category in the deck starting at ``lowest``.

    Pure combinatorics, independent of both evaluators: ``m`` ranks, four suits, ``s`` rank
    sets that form a straight (every run of five, plus the ace with the four lowest ranks when
    that is a different set and the ace may play low).
    """
    from math import comb

    m = 13 - lowest
    s = m - 4 + (1 if ace_low and m > 5 else 0)
    royal = 4
    return {
        "ROYAL_FLUSH": royal,
        "STRAIGHT_FLUSH": 4 * s - royal,
        "FOUR_OF_A_KIND": m * (m - 1) * 4,
        "FULL_HOUSE": m * 4 * (m - 1) * 6,
        "FLUSH": 4 * (comb(m, 5) - s),
        "STRAIGHT": s * (4**5 - 4),
        "THREE_OF_A_KIND": m * 4 * comb(m - 1, 2) * 4**2,
        "TWO_PAIR": comb(m, 2) * 6**2 * (m - 2) * 4,
        "ONE_PAIR": m * 6 * comb(m - 1, 3) * 4**3,
        "HIGH_CARD": (comb(m, 5) - s) * (4**5 - 4),
    }
