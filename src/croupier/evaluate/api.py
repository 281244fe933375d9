"""Public evaluation API: one hand (:func:`evaluate`, :func:`best_hand`, :func:`rank_value`)
or many at once (:func:`evaluate_many`)."""

from __future__ import annotations

import functools
import itertools
import operator
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from croupier.cards import Card, CardError, format_cards, parse_cards
from croupier.evaluate import kernels
from croupier.evaluate.rankings import Category, EvaluationError, Ranking, describe, qualifies
from croupier.evaluate.scalar import BestFive
from croupier.evaluate.tables import (
    CATEGORIES,
    FLUSH_CHECK,
    RANK_KEY_MASK,
    SUIT_BIAS,
    SUIT_SHIFT,
    tables_for,
)

__all__ = [
    "HandValue",
    "best_hand",
    "describe_value",
    "evaluate",
    "evaluate_many",
    "rank_value",
    "scalar_evaluator",
]

CardsLike = str | Iterable[Card | int]
_SUIT_BLIND = (Ranking.LOW_A5, Ranking.LOW_A5_8)
_BEST_FIVE_SIZES = (5, 6, 7)


@dataclass(frozen=True, eq=False)
class HandValue:
    """How good a hand is under a ranking. Higher ``value`` is better; equal values tie."""

    ranking: Ranking
    value: int
    category: Category
    cards: tuple[Card, ...]  # the cards that make the hand, most significant first
    hole_cards: tuple[Card, ...] = ()  # hole cards used, when the hand mixes hole and board
    qualifies: bool = True  # False only for a low-a5-8 hand above eight
    significant: tuple[int, ...] = field(default=(), repr=False)

    @property
    def description(self) -> str:
        return describe(self.ranking, self.category, self.significant)

    def __str__(self) -> str:
        return f"{self.description} ({format_cards(self.cards)})"

    def _check(self, other: object) -> HandValue:
        if not isinstance(other, HandValue):
            raise TypeError(f"cannot compare a hand value with {type(other).__name__}")
        if other.ranking is not self.ranking:
            raise EvaluationError(
                f"cannot compare a {self.ranking.value} hand with a {other.ranking.value} hand"
            )
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.value == self._check(other).value

    def __hash__(self) -> int:
        return hash((self.ranking, self.value))

    def __lt__(self, other: HandValue) -> bool:
        return self.value < self._check(other).value

    def __le__(self, other: HandValue) -> bool:
        return self.value <= self._check(other).value

    def __gt__(self, other: HandValue) -> bool:
        return self.value > self._check(other).value

    def __ge__(self, other: HandValue) -> bool:
        return self.value >= self._check(other).value


# --- the scalar path -------------------------------------------------------------------------

Evaluator = Callable[[Sequence[int]], int]
_EVALUATORS: dict[Ranking | str, Evaluator] = {}


def rank_value(cards: Sequence[int] | str, ranking: Ranking | str = Ranking.HIGH) -> int:
    """The value of the best hand in ``cards`` (codes, :class:`Card` or text); fast path.

    The same number as :attr:`HandValue.value` and :func:`evaluate_many`.
    """
    if isinstance(cards, str):
        cards = _codes(cards)
    try:
        evaluator = _EVALUATORS[ranking]
    except KeyError:
        evaluator = scalar_evaluator(ranking)
    return evaluator(cards)


def scalar_evaluator(ranking: Ranking | str = Ranking.HIGH) -> Evaluator:
    """A function ``cards -> value`` for one ranking, for hot loops (no per-call dispatch)."""
    ranking = Ranking.parse(ranking)
    if ranking not in _EVALUATORS:
        evaluator = _badugi_evaluator() if ranking is Ranking.BADUGI else _best_five(ranking)
        _EVALUATORS[ranking] = _EVALUATORS[ranking.value] = evaluator
    return _EVALUATORS[ranking]


_SHIFT = 52  # the table key sits above one bit per card


def _best_five(ranking: Ranking) -> Evaluator:
    tables = tables_for(ranking)
    # Per card: its table key, shifted above a bit of its own. The sum of distinct powers of
    # two has one bit per card; a repeated card carries into fewer bits.
    card_key = {
        code: int(tables.card_key[code]) << _SHIFT | 1 << code
        for code in range(52)
        if code in ranking.deck
    }
    key_of = card_key.__getitem__
    best: dict[int, int] = dict(zip(tables.keys.tolist(), tables.ordinals.tolist(), strict=True))
    flush: list[int] = tables.flush.tolist()
    flush_check = 0 if ranking in _SUIT_BLIND else FLUSH_CHECK << _SHIFT
    card_bits = (1 << _SHIFT) - 1
    bias = SUIT_BIAS << _SHIFT
    low_27 = ranking is Ranking.LOW_27

    def evaluate(cards: Sequence[int]) -> int:
        try:
            key = sum(map(key_of, cards), bias)
        except (KeyError, TypeError):
            raise _invalid(ranking, cards, _BEST_FIVE_SIZES) from None
        count = len(cards)
        if (key & card_bits).bit_count() != count or not 5 <= count <= 7:
            raise _invalid(ranking, cards, _BEST_FIVE_SIZES)
        if low_27 and count > 5:
            return max(map(evaluate, itertools.combinations(cards, 5)))
        flushed = key & flush_check
        if flushed:
            suit = (flushed.bit_length() - _SHIFT - SUIT_SHIFT - 4) // 4
            return flush[sum(1 << (c >> 2) for c in cards if c & 3 == suit)]
        return best[key >> _SHIFT & RANK_KEY_MASK]

    if low_27:
        return evaluate  # a flush hurts a 2-7 low: the best five is searched for
    keys = [int(tables.card_key[code]) if code in ranking.deck else -1 for code in range(52)]
    offsets = tables.offsets.astype("<u4").tobytes()
    lookup = tables.lookup.astype("<u2").tobytes()
    return BestFive(keys, offsets, lookup, flush if flush_check else None, evaluate)


def _badugi_evaluator() -> Evaluator:
    def evaluate(cards: Sequence[int]) -> int:
        try:
            codes = [operator.index(c) for c in cards]
        except TypeError:
            raise _invalid(Ranking.BADUGI, cards, (4,)) from None
        if len(codes) != 4 or len(set(codes)) != 4 or not all(0 <= c < 52 for c in codes):
            raise _invalid(Ranking.BADUGI, codes, (4,))
        return int(kernels.badugi_value(*codes))

    return evaluate


def _codes(cards: CardsLike) -> tuple[Card, ...]:
    try:
        if isinstance(cards, str):
            return parse_cards(cards)
        codes = tuple(cards)
        if all(type(c) is Card for c in codes):
            return codes  # type: ignore[return-value]
        return tuple(Card(c) for c in codes)
    except (TypeError, CardError) as error:
        raise EvaluationError(f"bad cards {cards!r}: {error}") from None


def _invalid(ranking: Ranking, cards: Sequence[object], sizes: Sequence[int]) -> EvaluationError:
    """Say precisely what is wrong with cards that failed the fast checks."""
    shown = list(cards)
    expected = f"{sizes[0]} to {sizes[-1]}" if len(sizes) > 1 else f"{sizes[0]}"
    if len(shown) not in sizes:
        return EvaluationError(f"a {ranking.value} hand takes {expected} cards, got {len(shown)}")
    text = " ".join(_shown(c) for c in shown)
    try:
        hand = tuple(Card(c) for c in shown)  # type: ignore[arg-type]
        parse_cards(str(c) for c in hand)  # names a repeated card
        ranking.deck.check(hand)
    except (CardError, TypeError) as error:
        return EvaluationError(f"cannot evaluate {text} as a {ranking.value} hand: {error}")
    return EvaluationError(f"cannot evaluate {text} as a {ranking.value} hand")


def _shown(card: object) -> str:
    """A card as its text (``Ah``), anything else as it is (``52``, ``'x'``)."""
    try:
        return str(Card(card))  # type: ignore[arg-type]
    except (CardError, TypeError):
        return repr(card)


# --- the descriptive path --------------------------------------------------------------------


def evaluate(cards: CardsLike, ranking: Ranking | str = Ranking.HIGH) -> HandValue:
    """The best hand in ``cards`` (five of five to seven; four cards at badugi).

    >>> evaluate("Kh Kd Ks Jc Jd 2c 3d").description
    'Full House, Kings over Jacks'
    """
    ranking = Ranking.parse(ranking)
    codes = _codes(cards)
    value = rank_value(codes, ranking)
    return _describe(ranking, value, codes)


def best_hand(
    hole: CardsLike,
    board: CardsLike = (),
    ranking: Ranking | str = Ranking.HIGH,
    *,
    hole_cards_used: int | None = None,
) -> HandValue:
    """The best hand from hole cards and a board.

    ``hole_cards_used=None``: any five of all the cards (hold'em, stud, draw).
    ``hole_cards_used=2``: exactly two hole cards and three board cards (Omaha, au 17.5;
    Two and Three Card Manila, au 14, 15).
    """
    ranking = Ranking.parse(ranking)
    hole_cards, board_cards = _codes(hole), _codes(board)
    everything = hole_cards + board_cards
    if len(set(everything)) != len(everything):
        _codes(format_cards(everything))  # raises, naming the duplicate
    if hole_cards_used is None:
        return _describe(ranking, rank_value(everything, ranking), everything, hole_cards)
    from_board = ranking.hand_size - hole_cards_used
    if not 0 < hole_cards_used <= len(hole_cards) or len(board_cards) < from_board:
        raise EvaluationError(
            f"a hand of exactly {hole_cards_used} hole and {from_board} board cards needs at "
            f"least that many: got {len(hole_cards)} hole and {len(board_cards)} board cards"
        )
    best: tuple[int, tuple[Card, ...], tuple[Card, ...]] | None = None
    for hole_part in itertools.combinations(hole_cards, hole_cards_used):
        for board_part in itertools.combinations(board_cards, from_board):
            value = rank_value(hole_part + board_part, ranking)
            if best is None or value > best[0]:
                best = (value, hole_part, board_part)
    assert best is not None
    value, hole_part, board_part = best
    return _describe(ranking, value, hole_part + board_part, hole_part)


_SUITED = (Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)


@functools.cache
def _facts(ranking: Ranking) -> tuple[list[Category], list[tuple[int, ...]], list[bool]]:
    """Per value of a ranking: its category, its significant ranks, whether it qualifies
    (plain lists: indexing numpy arrays one item at a time is slow)."""
    tables = tables_for(ranking)
    categories = [CATEGORIES[c] for c in tables.categories.tolist()]
    significant = [tuple(ranks) for ranks in tables.significant.tolist()]
    qualifying = [qualifies(ranking, c, s) for c, s in zip(categories, significant, strict=True)]
    return categories, significant, qualifying


def _describe(
    ranking: Ranking, value: int, cards: tuple[Card, ...], hole: tuple[Card, ...] = ()
) -> HandValue:
    """The hand worth ``value`` made from ``cards``; ``hole``: the hole cards among them, of
    which those in the best five are reported as used."""
    if ranking is Ranking.BADUGI:
        hand = _describe_badugi(value, cards)
    else:
        hand = _describe_five(ranking, value, cards)
    if not hole:
        return hand
    used = tuple(c for c in hole if c in hand.cards)
    return HandValue(
        ranking, value, hand.category, hand.cards, used, hand.qualifies, hand.significant
    )


def _describe_five(ranking: Ranking, value: int, cards: tuple[Card, ...]) -> HandValue:
    categories, significants, qualifying = _facts(ranking)
    category = categories[value]
    significant = significants[value]
    candidates: Sequence[Card] = cards
    if ranking is Ranking.LOW_27 and len(cards) > 5:
        # A flush hurts here, so picking cards by rank alone could pick a flush: take the
        # first five that really make the value.
        candidates = next(
            sub for sub in itertools.combinations(cards, 5) if rank_value(sub, ranking) == value
        )
    elif category in _SUITED:  # the five come from the suit with five or more cards
        suit = max(range(4), key=lambda s: sum(c & 3 == s for c in cards))
        candidates = [c for c in cards if c & 3 == suit]
    return HandValue(
        ranking,
        value,
        category,
        _in_order(candidates, significant),
        (),
        qualifying[value],
        significant,
    )


def _in_order(cards: Sequence[Card], significant: Sequence[int]) -> tuple[Card, ...]:
    """Cards arranged like the ranks that decide the hand (trips before the pair, and so on)."""
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(cards, reverse=True):
        by_rank.setdefault(card >> 2, []).append(card)
    return tuple(by_rank[rank].pop(0) for rank in significant)


_BADUGI_CATEGORIES = (Category.ONE_CARD, Category.TWO_CARD, Category.THREE_CARD, Category.FOUR_CARD)
_BADUGI = Ranking.BADUGI


@functools.lru_cache(maxsize=1 << 16)
def describe_value(value: int, ranking: Ranking = Ranking.HIGH) -> str:
    """How the hand worth ``value`` is called, without its cards; the same text as
    :attr:`HandValue.description`.

    >>> describe_value(rank_value("Kh Kd Ks Jc Jd"))
    'Full House, Kings over Jacks'
    """
    ranking = Ranking.parse(ranking)
    if ranking is _BADUGI:  # a module name: an Enum class's attribute is slow on Python 3.11
        ranks = _badugi_ranks(value)
        return describe(ranking, _BADUGI_CATEGORIES[len(ranks) - 1], ranks)
    categories, significant, _ = _facts(ranking)
    if not 0 < value < len(categories):
        raise EvaluationError(f"{value} is not the value of a {ranking.value} hand")
    return describe(ranking, categories[value], significant[value])


def _badugi_ranks(value: int) -> tuple[int, ...]:
    size = value >> 16
    if not 1 <= size <= 4:
        raise EvaluationError(f"{value} is not the value of a badugi hand")
    packed = 0xFFFF - (value & 0xFFFF)
    ace_low = [packed >> (4 * (3 - i)) & 0xF for i in range(size)]  # 1 = ace .. 13 = king
    return tuple((r - 2) % 13 for r in ace_low)


def _describe_badugi(value: int, cards: tuple[Card, ...]) -> HandValue:
    ranks = _badugi_ranks(value)
    size = len(ranks)
    used = next(
        sub
        for sub in itertools.combinations(cards, size)
        if sorted(c >> 2 for c in sub) == sorted(ranks) and len({c & 3 for c in sub}) == size
    )
    used = tuple(sorted(used, key=lambda c: ranks.index(c >> 2)))
    return HandValue(Ranking.BADUGI, value, _BADUGI_CATEGORIES[size - 1], used, (), True, ranks)


# --- the batch path --------------------------------------------------------------------------

_CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
_ROWS_PER_THREAD = 1 << 16  # fewer rows than this per thread are not worth a thread


def evaluate_many(
    cards: npt.ArrayLike,
    ranking: Ranking | str = Ranking.HIGH,
    *,
    threads: int | None = None,
    out: npt.NDArray[np.int32] | None = None,
) -> npt.NDArray[np.int32]:
    """Values of many hands at once, one row of card codes (``4*rank + suit``) per hand.

    Rows hold 5 to 7 cards (4 at badugi), of any integer type: the kernels read and check
    the codes themselves, so ``int64`` rows are not copied first. ``threads`` caps the worker
    threads (default: all cores). Values are those of :func:`rank_value`: higher is better,
    equal ties. ``out``, as in numpy, is a C-contiguous ``int32`` array with one place per
    row that receives the values and is returned: evaluating batch after batch into one array
    saves allocating a new one each time (and the memory's first touch, about a tenth of the
    time of 7-card rows). A row that is not a hand raises :class:`EvaluationError` naming the
    first such row; ``out`` then holds -1 at each of them and the values elsewhere.
    """
    ranking = Ranking.parse(ranking)
    array = np.asarray(cards)
    sizes = (4,) if ranking is Ranking.BADUGI else _BEST_FIVE_SIZES
    if array.ndim != 2 or not np.issubdtype(array.dtype, np.integer):
        raise EvaluationError(
            f"evaluate_many takes a 2-D integer array of card codes (4*rank + suit), "
            f"got shape {array.shape} of {array.dtype}"
        )
    count = array.shape[1]
    if count not in sizes:
        raise _invalid(ranking, [0] * count, sizes)
    rows = np.ascontiguousarray(array)
    if out is None:
        out = np.empty(len(rows), dtype=np.int32)
    else:
        _check_out(out, rows)
    kernel, arguments = _kernel(ranking, count, rows.dtype.itemsize > 1)
    workers = max(1, min(threads or _CORES, _CORES * 4, len(rows) // _ROWS_PER_THREAD))
    bounds = np.linspace(0, len(rows), workers + 1).astype(int).tolist()
    if workers == 1:
        invalid = kernel(rows, *arguments, out)
    else:
        with ThreadPoolExecutor(workers) as pool:
            jobs = [
                pool.submit(kernel, rows[start:stop], *arguments, out[start:stop])
                for start, stop in itertools.pairwise(bounds)
            ]
            invalid = sum(job.result() for job in jobs)
    if invalid:  # the kernels counted them: only then look for the first
        raise _bad_row(ranking, array, int(np.flatnonzero(out < 0)[0]), sizes)
    return out


def _check_out(out: object, rows: npt.NDArray[np.integer]) -> None:
    if not (
        isinstance(out, np.ndarray)
        and out.dtype == np.int32
        and out.shape == (len(rows),)
        and out.flags.c_contiguous
        and out.flags.writeable
    ):
        got = type(out).__name__
        if isinstance(out, np.ndarray):
            got = f"{out.dtype} array of shape {out.shape}" + "".join(
                why
                for why, bad in ((", not contiguous", not out.flags.c_contiguous),
                                 (", read-only", not out.flags.writeable))
                if bad
            )  # fmt: skip
        raise EvaluationError(
            f"out must be a writable C-contiguous int32 array of shape ({len(rows)},), one "
            f"place per row; got {got}"
        )
    if np.may_share_memory(out, rows):
        raise EvaluationError("out must not share memory with the cards being evaluated")


def _bad_row(
    ranking: Ranking, array: npt.NDArray[np.integer], row: int, sizes: Sequence[int]
) -> EvaluationError:
    return EvaluationError(
        f"row {row} of {len(array)}: {_invalid(ranking, array[row].tolist(), sizes)}"
    )


def _kernel(ranking: Ranking, count: int, wide: bool) -> tuple[kernels.Kernel, tuple[object, ...]]:
    """The kernel for rows of ``count`` cards and what it takes besides rows and ``out``."""
    if ranking is Ranking.BADUGI:
        return kernels.badugi(wide), (tables_for(Ranking.HIGH).card_bit, kernels.badugi_keep())
    tables = tables_for(ranking)
    arguments = (tables.card_key, tables.card_bit, tables.offsets, tables.lookup, tables.flush)
    if ranking is Ranking.LOW_27 and count > 5:
        return kernels.low_27(count, wide), arguments
    return kernels.best_five(count, wide, ranking not in _SUIT_BLIND), arguments
