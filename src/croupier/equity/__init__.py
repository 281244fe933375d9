"""Equity: each hand's expected share of the pot, by exact enumeration or Monte Carlo.

>>> result = equity(["AhKh", "QsQd"])
>>> f"{result[0].equity:.5f}", result.exact, result.trials
('0.46214', True, 1712304)

A deal is the rest of the board plus any unknown hole cards (``??``), drawn uniformly from the
cards nobody holds (hands, board, dead). ``win`` is the chance of taking the whole pot alone,
``tie`` the expected share of split pots (a three-way tie counts 1/3; at hi-lo, also halves and
quarters) and ``equity = win + tie``. Exact results are counted in integers and divided once.

Hold'em with every hole card known is enumerated by board rank class: each multiset of board
ranks once, weighted by how many boards have those ranks and valued without flushes; then only
the boards on which someone can make a flush (a suit reaching five with some player's hole
cards) are dealt card by card, their rank-only outcome replaced by the true one. Preflop that is
about a tenth of the boards. Everything else (Omaha, Manila, unknown hole cards) enumerates or
samples whole deals, each hand valued as the best of its allowed five-card combinations.

Monte Carlo draws each deal's cards uniformly without replacement (splitmix64, by rejection)
in 64 fixed streams seeded from ``seed``: the same seed gives the same result on any number
of threads. Work is split over threads by task (numba kernels that release the GIL).
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import secrets
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from croupier.cards import UNKNOWN, Card, CardError, DeckKind, format_cards
from croupier.cards import parse_cards_or_unknown as _parse_or_unknown
from croupier.equity.kernels import BOARD, deals, holdem_by_rank_class, sample_any_five
from croupier.evaluate.rankings import Ranking, qualifies
from croupier.evaluate.tables import (
    CATEGORIES,
    RANK_MULTIPLIERS,
    tables_for,
)

__all__ = [
    "DEFAULT_TRIALS",
    "EXACT_LIMIT",
    "EXACT_MAX",
    "GAMES",
    "EquityError",
    "EquityGame",
    "EquityResult",
    "HandEquity",
    "equity",
]

EXACT_LIMIT = 2_000_000  # default: enumerate when there are at most this many deals
EXACT_MAX = 10**11  # exact=True refuses more (hours of work)
DEFAULT_TRIALS = 1_000_000
CHUNKS = 64  # Monte Carlo streams: fixed, so a seed gives the same result on any thread count

Int64Array = npt.NDArray[np.int64]
_CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class EquityError(CardError):
    """Bad input to :func:`equity`: unknown game, wrong hole count, duplicate or foreign card."""


@dataclass(frozen=True)
class EquityGame:
    """How hands are made, for equity: hole cards, the hole cards a hand must use, decks."""

    name: str
    hole: int  # hole cards per hand
    used: int | None  # exactly this many hole cards (and 5 - used board cards), or any five
    decks: tuple[int, ...]  # deck sizes it is played with; the first is the default
    low: Ranking | None = None  # hi-lo: half the pot to the best qualifying low


GAMES = {
    g.name: g
    for g in (
        EquityGame("holdem", 2, None, (52,)),
        EquityGame("shortdeck", 2, None, (36,)),  # hold'em on 36 cards, au 9.3 ranking
        EquityGame("omaha", 4, 2, (52,)),
        EquityGame("omaha8", 4, 2, (52,), Ranking.LOW_A5_8),
        EquityGame("manila2", 2, 2, (32,)),
        EquityGame("manila3", 3, 2, (36, 32)),
    )
}
_RANKINGS = {52: Ranking.HIGH, 36: Ranking.SHORT36, 32: Ranking.SHORT32}


# --- results ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandEquity:
    """One hand's result. ``stderr`` is the Monte Carlo standard error of ``equity`` (0 if
    exact); ``win + tie == equity``."""

    cards: tuple[Card | None, ...]
    win: float
    tie: float
    equity: float
    stderr: float = 0.0

    def __str__(self) -> str:
        return format_cards(self.cards)


@dataclass(frozen=True)
class EquityResult:
    """Per-hand results in the order the hands were given (index or iterate it)."""

    game: str
    deck: int
    board: tuple[Card, ...]
    dead: tuple[Card, ...]
    hands: tuple[HandEquity, ...]
    exact: bool
    trials: int  # deals enumerated (exact) or sampled (Monte Carlo)
    seed: int | None = None  # the Monte Carlo seed actually used

    def __len__(self) -> int:
        return len(self.hands)

    def __getitem__(self, index: int) -> HandEquity:
        return self.hands[index]

    def __iter__(self) -> Iterator[HandEquity]:
        return iter(self.hands)

    @property
    def equities(self) -> tuple[float, ...]:
        return tuple(hand.equity for hand in self.hands)

    def to_dict(self) -> dict[str, object]:
        return {
            "game": self.game,
            "deck": self.deck,
            "board": format_cards(self.board),
            "dead": format_cards(self.dead),
            "exact": self.exact,
            "trials": self.trials,
            "seed": self.seed,
            "hands": [
                {
                    "hand": str(hand),
                    "win": hand.win,
                    "tie": hand.tie,
                    "equity": hand.equity,
                    "stderr": hand.stderr,
                }
                for hand in self.hands
            ],
        }

    def __str__(self) -> str:
        method = (
            f"exact, {self.trials:,} deals"
            if self.exact
            else f"Monte Carlo, {self.trials:,} trials, seed {self.seed}"
        )
        board = f"board {format_cards(self.board)}" if self.board else "no board"
        dead = f", dead {format_cards(self.dead)}" if self.dead else ""
        lines = [f"{self.game} ({self.deck} cards), {board}{dead}: {method}"]
        width = max(len(str(hand)) for hand in self.hands)
        for hand in self.hands:
            error = "" if self.exact else f"  +/- {100 * hand.stderr:.3f}%"
            lines.append(
                f"{hand!s:<{width}}  win {100 * hand.win:7.3f}%  tie {100 * hand.tie:7.3f}%"
                f"  equity {100 * hand.equity:7.3f}%{error}"
            )
        return "\n".join(lines)


# --- the public function ---------------------------------------------------------------------

HandLike = str | Iterable[Card | int | str | None]
CardsLike = str | Iterable[Card | int | str]


def equity(
    hands: Iterable[HandLike],
    board: CardsLike = (),
    dead: CardsLike = (),
    game: str = "holdem",
    *,
    exact: bool | None = None,
    trials: int | None = None,
    seed: int | None = None,
    deck: int | None = None,
    threads: int | None = None,
) -> EquityResult:
    """Each hand's chance to win, tie and its share of the pot (see the module docstring).

    ``hands``: one entry per player, as text (``"AhKh"``, ``"Ah Kh"``, ``"Ah ??"``) or cards;
    ``??`` (or ``None``) is a card nobody has seen, a lone ``??`` a whole unknown hand.
    ``board``: 0 to 5 community cards. ``dead``: cards known to be out of play.
    ``game``: holdem, shortdeck, omaha, omaha8 (hi-lo, eight or better), manila2 or manila3;
    ``deck``: its size where a game is played with two (manila3: 36, the default, or 32).
    ``exact``: True enumerates every deal; False samples ``trials`` deals (default 1,000,000)
    with ``seed`` (default: a random one, reported in the result); None (the default)
    enumerates when ``trials`` is not given and there are at most ``EXACT_LIMIT`` deals.
    ``threads`` caps the worker threads (default: all); results never depend on it.
    Raises :class:`EquityError` (a ``ValueError``) for bad input.
    """
    setup = _setup(hands, board, dead, game, deck)
    deals = setup.deals
    for name, value in (("trials", trials), ("threads", threads)):
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or value < 1
        ):
            raise EquityError(f"{name} must be a positive whole number, got {value!r}")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise EquityError(f"seed must be a whole number, got {seed!r}")
    if exact is None:
        exact = trials is None and deals <= EXACT_LIMIT
    if setup.unknown == 0:
        exact = True  # nothing left to deal: one deal, exactly
    if exact and deals > EXACT_MAX:
        raise EquityError(
            f"{deals:,} deals are too many to enumerate (at most {EXACT_MAX:,}): "
            f"use Monte Carlo (exact=False)"
        )
    workers = min(threads or _CORES, _CORES * 4)
    if exact:
        counts, total = _run_exact(setup, workers)
        hands_out = _exact_hands(setup, counts, total)
        used_seed = None
    else:
        used_seed = secrets.randbits(63) if seed is None else seed
        total = DEFAULT_TRIALS if trials is None else int(trials)
        counts, squares = _run_monte_carlo(setup, total, used_seed, workers)
        hands_out = _sampled_hands(setup, counts, squares, total)
    return EquityResult(
        setup.game.name,
        setup.deck,
        setup.board,
        setup.dead,
        hands_out,
        exact,
        total,
        used_seed,
    )


# --- input -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Setup:
    game: EquityGame
    deck: int
    ranking: Ranking
    hands: tuple[tuple[Card | None, ...], ...]
    board: tuple[Card, ...]
    dead: tuple[Card, ...]
    pool: tuple[Card, ...]  # the cards still to come, in code order
    unknown: int  # cards to deal: the rest of the board plus unknown hole cards
    deals: int  # distinct deals: C(pool, unknown) x the ways to split them among the slots

    @property
    def all_known(self) -> bool:
        return all(card is not None for hand in self.hands for card in hand)


def _setup(
    hands: Iterable[HandLike], board: CardsLike, dead: CardsLike, game: str, deck: int | None
) -> _Setup:
    spec = _game(game)
    size = _deck_size(spec, deck)
    kind = DeckKind.from_size(size)
    if isinstance(hands, str) or not isinstance(hands, Iterable):
        raise EquityError(
            f"hands must be a list with one hand per player, e.g. ['AhKh', 'QsQd'], got {hands!r}"
        )
    hands = list(hands)
    if len(hands) < 2:
        raise EquityError(f"equity needs at least two hands, got {len(hands)}")
    parsed = tuple(_hand(hand, i, spec) for i, hand in enumerate(hands))
    board_cards = _known(board, "board")
    dead_cards = _known(dead, "dead cards")
    if len(board_cards) > BOARD:
        raise EquityError(f"a board has at most {BOARD} cards, got {len(board_cards)}")
    seen: dict[Card, str] = {}
    places = [(f"hand {i + 1}", hand) for i, hand in enumerate(parsed)]
    places += [("the board", board_cards), ("the dead cards", dead_cards)]
    for place, cards in places:
        for card in cards:
            if card is None:
                continue
            if card not in kind:
                raise EquityError(
                    f"card {card} in {place} is not in the {size}-card deck {spec.name} is "
                    f"played with: its ranks are {kind.lowest.char} to A"
                )
            if card in seen:
                where = place if seen[card] == place else f"{seen[card]} and {place}"
                raise EquityError(f"duplicate card {card} (in {where}): each card exists once")
            seen[card] = place
    pool = tuple(card for card in kind.cards if card not in seen)
    missing = [sum(card is None for card in hand) for hand in parsed]
    unknown = BOARD - len(board_cards) + sum(missing)
    if unknown > len(pool):
        raise EquityError(
            f"not enough cards: {unknown} still to deal but only {len(pool)} left in the deck"
        )
    splits = math.factorial(unknown) // math.factorial(BOARD - len(board_cards))
    for count in missing:
        splits //= math.factorial(count)
    return _Setup(
        spec,
        size,
        _RANKINGS[size],
        parsed,
        board_cards,
        dead_cards,
        pool,
        unknown,
        math.comb(len(pool), unknown) * splits,
    )


def _game(name: str) -> EquityGame:
    spec = GAMES.get(str(name).lower())
    if spec is None:
        raise EquityError(f"unknown game {name!r}: expected one of {', '.join(GAMES)}")
    return spec


def _deck_size(spec: EquityGame, deck: int | None) -> int:
    if deck is None:
        return spec.decks[0]
    if deck not in spec.decks:
        allowed = " or ".join(str(d) for d in spec.decks)
        hint = " (shortdeck is hold'em on 36 cards)" if spec.name == "holdem" else ""
        raise EquityError(f"{spec.name} is played with {allowed} cards, not {deck}{hint}")
    return deck


def _hand(hand: HandLike, index: int, spec: EquityGame) -> tuple[Card | None, ...]:
    try:
        tokens = hand if isinstance(hand, str) else [UNKNOWN if c is None else c for c in hand]
        cards = _parse_or_unknown(tokens)
    except (CardError, TypeError) as error:
        raise EquityError(f"hand {index + 1} ({hand!r}): {error}") from None
    if cards == (None,):  # a lone ?? stands for a whole unknown hand
        cards = (None,) * spec.hole
    if len(cards) != spec.hole:
        raise EquityError(
            f"hand {index + 1} ({format_cards(cards) or 'empty'}) has {len(cards)} cards: "
            f"{spec.name} hands have {spec.hole} hole cards (?? for an unknown card)"
        )
    return cards


def _known(cards: CardsLike, what: str) -> tuple[Card, ...]:
    try:
        parsed = _parse_or_unknown(cards)
    except (CardError, TypeError) as error:
        raise EquityError(f"{what}: {error}") from None
    if any(card is None for card in parsed):
        raise EquityError(f"{what}: unknown cards (??) are only allowed in hands")
    return tuple(card for card in parsed if card is not None)


# --- running the kernels ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Arrays:
    base: Int64Array  # 5 board slots, then each hand's hole cards; -1 where still to be dealt
    pool: Int64Array
    dest: Int64Array  # (splits, unknown): where each dealt card goes, for every split
    pairs: Int64Array  # hole-card combinations a hand may use (indices into its hole cards)
    triples: Int64Array  # board-card combinations to go with them
    low_min: int  # lowest qualifying low value; 0: no low half


def _arrays(setup: _Setup, every_split: bool) -> _Arrays:
    board_slots = [int(c) for c in setup.board] + [-1] * (BOARD - len(setup.board))
    holes = [-1 if c is None else int(c) for hand in setup.hands for c in hand]
    base = np.array(board_slots + holes, dtype=np.int64)
    # Group 0 is the board, group i + 1 hand i; each group's empty slots in order.
    slots: list[list[int]] = [[] for _ in range(len(setup.hands) + 1)]
    for slot in np.flatnonzero(base < 0).tolist():
        slots[0 if slot < BOARD else (slot - BOARD) // setup.game.hole + 1].append(slot)
    # The dealt cards (a combination, in code order) go to the groups in every distinct order
    # of the group labels, each group filling its slots in turn; one order suffices to sample.
    splits = _splits([len(group) for group in slots])
    if not every_split:
        splits = itertools.islice(splits, 1)
    rows = []
    for split in splits:
        taken = [0] * len(slots)
        row = []
        for group in split:
            row.append(slots[group][taken[group]])
            taken[group] += 1
        rows.append(row)
    dest = np.array(rows, dtype=np.int64).reshape(len(rows), setup.unknown)
    spec = setup.game
    used = spec.used
    if used is None:
        pairs = np.zeros((1, 1), dtype=np.int64)
        triples = np.zeros((1, 1), dtype=np.int64)
    else:
        pairs = np.array(list(itertools.combinations(range(spec.hole), used)), dtype=np.int64)
        triples = np.array(list(itertools.combinations(range(BOARD), BOARD - used)), dtype=np.int64)
    low_min = _low_min(spec.low) if spec.low is not None else 0
    return _Arrays(base, np.array(setup.pool, dtype=np.int64), dest, pairs, triples, low_min)


def _splits(counts: list[int]) -> Iterator[tuple[int, ...]]:
    """Every distinct sequence holding ``counts[g]`` copies of each g, in lexicographic order."""
    if not any(counts):
        yield ()
        return
    for group, count in enumerate(counts):
        if count:
            counts[group] -= 1
            for rest in _splits(counts):
                yield (group, *rest)
            counts[group] += 1


@functools.cache
def _low_min(ranking: Ranking) -> int:
    """The lowest table value of a qualifying low; every value above it qualifies too."""
    tables = tables_for(ranking)
    good = [
        qualifies(ranking, CATEGORIES[tables.categories[v]], tables.significant[v].tolist())
        for v in range(1, len(tables.categories))
    ]
    first = good.index(True)
    assert all(good[first:]), "qualifying lows must rank above all others"
    return first + 1


def _tables(setup: _Setup) -> tuple[Int64Array, Int64Array, npt.NDArray[np.int32],
                                    npt.NDArray[np.uint16], npt.NDArray[np.uint16],
                                    npt.NDArray[np.uint16]]:  # fmt: skip
    high = tables_for(setup.ranking)
    low_lookup = high.lookup  # unused without a low half
    if setup.game.low is not None:
        low = tables_for(setup.game.low)
        # One hash and one set of card keys serve both halves (same deck, same multipliers).
        assert np.array_equal(low.offsets, high.offsets)
        assert np.array_equal(low.card_key, high.card_key)
        low_lookup = low.lookup
    return high.card_key, high.card_bit, high.offsets, high.lookup, high.flush, low_lookup


def _run_exact(
    setup: _Setup, workers: int = 1, by_rank_class: bool = True
) -> tuple[Int64Array, int]:
    """Integer tallies (see ``_from_histogram``) summed over every deal, and the number of
    deals. ``by_rank_class=False`` deals hold'em card by card too (for tests)."""
    card_key, card_bit, offsets, lookup, flush, _ = _tables(setup)
    n = len(setup.hands)
    known_holdem = setup.game.used is None and setup.all_known
    if by_rank_class and known_holdem and _histogram(setup):
        holes = np.array(
            [[int(c) for c in hand if c is not None] for hand in setup.hands], dtype=np.int64
        )
        hole_keys = card_key[holes].sum(axis=1)
        hole_bits = np.bitwise_or.reduce(card_bit[holes], axis=1)
        board = [int(c) for c in setup.board]
        board_key = int(card_key[board].sum()) if board else 0
        board_bits = int(np.bitwise_or.reduce(card_bit[board])) if board else 0
        hist = np.zeros((1, 1 << n), dtype=np.int64)
        holdem_by_rank_class(
            hole_keys, hole_bits, board_key, board_bits, BOARD - len(board),
            np.array(setup.pool, dtype=np.int64), _MULTIPLIERS, _BINOMIAL, card_key, card_bit,
            offsets, lookup, flush, hist,
        )  # fmt: skip
        return _from_histogram(hist, n)[0], setup.deals
    arrays = _arrays(setup, every_split=True)
    tasks = len(arrays.pool) - setup.unknown + 1 if setup.unknown else 1
    no_seeds = np.zeros(1, dtype=np.uint64), np.zeros(1, dtype=np.int64)
    counts, _ = _play(setup, arrays, tasks, False, no_seeds, workers)
    return counts, setup.deals


def _run_monte_carlo(
    setup: _Setup, trials: int, seed: int, workers: int = 1
) -> tuple[Int64Array, npt.NDArray[np.float64]]:
    """Tallies as ``_run_exact``'s over ``trials`` sampled deals, and per hand the sum of the
    squares of its pot shares (for the standard error). Stream c of CHUNKS deals every
    CHUNKS-th trial from its own seed."""
    card_key, card_bit, offsets, lookup, flush, _ = _tables(setup)
    arrays = _arrays(setup, every_split=False)
    n = len(setup.hands)
    per_chunk = np.full(CHUNKS, trials // CHUNKS, dtype=np.int64)
    per_chunk[: trials % CHUNKS] += 1
    seeds = np.array([_mix(seed * CHUNKS + chunk) for chunk in range(CHUNKS)], dtype=np.uint64)
    if _histogram(setup) and setup.game.used is None:
        hist = np.zeros((CHUNKS, 1 << n), dtype=np.int64)
        arguments = (*_any_five(setup, arrays, card_key, card_bit), card_key, card_bit,
                     offsets, lookup, flush, seeds, per_chunk, hist)  # fmt: skip
        _in_parallel(sample_any_five, CHUNKS, workers, arguments)
        return _from_histogram(hist, n)
    return _play(setup, arrays, CHUNKS, True, (seeds, per_chunk), workers)


def _play(
    setup: _Setup,
    arrays: _Arrays,
    tasks: int,
    sampling: bool,
    streams: tuple[npt.NDArray[np.uint64], Int64Array],
    workers: int,
) -> tuple[Int64Array, npt.NDArray[np.float64]]:
    """Run ``deals``: tallies and sums of squared shares, summed over its tasks."""
    card_key, card_bit, offsets, lookup, flush, low_lookup = _tables(setup)
    n = len(setup.hands)
    histogram = _histogram(setup)
    hist = np.zeros((tasks, 1 << n if histogram else 1), dtype=np.int64)
    counts = np.zeros((tasks, n, n + 1) if not histogram else (1, 1, 1), dtype=np.int64)
    squares = np.zeros((tasks if not histogram else 1, n), dtype=np.float64)
    arguments = (
        sampling, arrays.base, arrays.pool, arrays.dest, setup.unknown, n, setup.game.hole,
        setup.game.used or 0, arrays.pairs, arrays.triples, card_key, card_bit, offsets,
        lookup, flush, low_lookup, arrays.low_min, *streams, histogram, hist, counts, squares,
    )  # fmt: skip
    _in_parallel(deals, tasks, workers, arguments)
    if histogram:
        return _from_histogram(hist, n)
    return counts.sum(axis=0), squares.sum(axis=0)


def _in_parallel(
    kernel: Callable[..., None], tasks: int, workers: int, arguments: tuple[object, ...]
) -> None:
    """Run ``kernel(start, step, *arguments)`` for tasks start, start + step, ... on up to
    ``workers`` threads (the kernels release the GIL). Each task writes its own row of the
    output, so the result never depends on the number of threads."""
    workers = max(1, min(workers, tasks))
    if workers == 1:
        kernel(0, 1, *arguments)
        return
    with ThreadPoolExecutor(workers) as pool:
        for done in [pool.submit(kernel, w, workers, *arguments) for w in range(workers)]:
            done.result()


def _any_five(
    setup: _Setup, arrays: _Arrays, card_key: Int64Array, card_bit: Int64Array
) -> tuple[Int64Array, Int64Array, int, int, Int64Array, Int64Array]:
    """Hold'em sampling inputs: the pool, who gets each dealt card (-1: the board), the known
    board's key and bits, and each hand's known cards' keys and bits."""
    holes = arrays.base[BOARD:].reshape(len(setup.hands), setup.game.hole)
    known = holes >= 0
    hole_key = np.where(known, card_key[np.maximum(holes, 0)], 0).sum(axis=1)
    hole_bits = np.bitwise_or.reduce(np.where(known, card_bit[np.maximum(holes, 0)], 0), axis=1)
    board = [int(c) for c in setup.board]
    board_key = int(card_key[board].sum()) if board else 0
    board_bits = int(np.bitwise_or.reduce(card_bit[board])) if board else 0
    dest = arrays.dest[0]
    owner = np.where(dest < BOARD, -1, (dest - BOARD) // setup.game.hole)
    return arrays.pool, owner, board_key, board_bits, hole_key, hole_bits


HIST_PLAYERS = 12  # up to this many hands, deals are tallied by their set of winners
_MULTIPLIERS = np.array(RANK_MULTIPLIERS, dtype=np.int64)
_BINOMIAL = np.array([[math.comb(a, k) for k in range(BOARD + 1)] for a in range(5)], np.int64)


def _histogram(setup: _Setup) -> bool:
    """Tally by winner set (one add per deal) when the pot is not split hi-lo and the table of
    winner sets is small; otherwise per hand and per tie size (``_settle``)."""
    return setup.game.low is None and len(setup.hands) <= HIST_PLAYERS


def _from_histogram(hist: Int64Array, n: int) -> tuple[Int64Array, npt.NDArray[np.float64]]:
    """Tallies as ``_settle`` keeps them, and sums of squared pot shares, from deals counted
    by winner set (``hist[row, winners]``, bit p set when hand p wins or ties)."""
    total = np.zeros((n, n + 1), dtype=np.int64)
    squares = np.zeros(n)
    sums = hist.sum(axis=0)
    for winners in np.flatnonzero(sums).tolist():
        weight = int(sums[winners])
        members = [p for p in range(n) if winners >> p & 1]
        ways = len(members)
        for p in members:
            total[p, ways] += 2 * weight
            squares[p] += weight / (ways * ways)
            if ways == 1:
                total[p, 0] += weight
    return total, squares


def _mix(value: int) -> int:
    """splitmix64's output function: decorrelates the seeds of neighbouring streams."""
    z = (value * 0x9E3779B97F4A7C15 + 0x9E3779B97F4A7C15) & (2**64 - 1)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
    return z ^ (z >> 31)


def _shares(counts: Int64Array) -> list[tuple[Fraction, Fraction]]:
    """(pots won alone, expected pot share) summed over deals, per hand, as exact fractions.

    ``counts[p, 0]`` counts whole pots won alone; ``counts[p, k]`` half pots shared k ways."""
    out = []
    for row in counts.tolist():
        share = sum((Fraction(c, 2 * k) for k, c in enumerate(row) if k and c), Fraction(0))
        out.append((Fraction(row[0]), share))
    return out


def _exact_hands(setup: _Setup, counts: Int64Array, total: int) -> tuple[HandEquity, ...]:
    hands = []
    for cards, (alone, share) in zip(setup.hands, _shares(counts), strict=True):
        hands.append(
            HandEquity(
                cards, float(alone / total), float((share - alone) / total), float(share / total)
            )
        )
    return tuple(hands)


def _sampled_hands(
    setup: _Setup, counts: Int64Array, squares: npt.NDArray[np.float64], trials: int
) -> tuple[HandEquity, ...]:
    hands = []
    for cards, (alone, share), square in zip(
        setup.hands, _shares(counts), squares.tolist(), strict=True
    ):
        mean = float(share) / trials
        variance = max(square / trials - mean * mean, 0.0) * trials / max(trials - 1, 1)
        win = float(alone) / trials
        hands.append(HandEquity(cards, win, mean - win, mean, math.sqrt(variance / trials)))
    return tuple(hands)
