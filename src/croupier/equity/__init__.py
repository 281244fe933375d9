"""Equity: each hand's chance to win, to split, and its expected share of the pot.

>>> result = equity(["AhKh", "QsQd"])
>>> f"{result[0].equity:.5f}", f"{result[0].tie_chance:.5f}", result.exact, result.trials
('0.46214', '0.00393', True, 1712304)

A hand is cards (``"AhKh"``; ``??`` an unseen card, a lone ``??`` a whole unseen hand), or in
games of two hole cards a range (``"QQ+, AKs"``, ``"15%"``, ``"QQ:0.5"``: see
:mod:`croupier.equity.ranges`). In stud and draw games a hand may hold fewer cards than it ends
with: the rest are still to come (the cards a draw brings, the streets of stud). A deal is the
rest of the board and every card still to come, drawn uniformly from the cards nobody is known
to hold (hands, board, dead); a range's hands are weighted by their weights, less those holding
a card known elsewhere or one another's cards (card removal, exactly).

Per hand: ``win``, the chance to take the whole pot alone (at hi-lo, a scoop); ``tie_chance``,
the chance to get part of it (a split); ``tie``, the pot share splits bring; ``equity = win +
tie``; at hi-lo also ``high`` and ``low``, the shares won with each half. Exact results are
counted in integers (fractions with weights) and divided once.

Exact enumeration runs when it is cheap (``EXACT_LIMIT``), else Monte Carlo with a standard
error, and ``precision`` stops sampling once every hand's standard error is at most that. Work
is cut into chunks seeded by their index (:mod:`croupier.executor`): the same seed gives the
same result on any backend (threads, processes, Ray) and any number of workers.

Hold'em with every hole card known is enumerated by board rank class: each multiset of board
ranks once, weighted by how many boards have those ranks and valued without flushes; then only
the boards on which someone can make a flush are dealt card by card. Preflop that is about a
tenth of the boards. Ranges are enumerated choice by choice of their hands, once per choice up
to a relabelling of suits that leaves the known cards as they are.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Iterable
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from croupier.equity import compute
from croupier.equity.compute import HIST_PLAYERS, RangesClashError
from croupier.equity.games import GAMES, EquityError, EquityGame
from croupier.equity.ranges import HandRange, RangeError, parse_range, top_classes
from croupier.equity.results import (
    EquityResult,
    HandEquity,
    Tally,
    hand_results,
    standard_errors,
)
from croupier.equity.setup import ASSIGNMENTS_MAX, CardsLike, HandLike, Setup, make_setup
from croupier.executor import Executor, ThreadExecutor, cores, run_chunks

__all__ = [
    "DEFAULT_TRIALS",
    "EXACT_LIMIT",
    "EXACT_MAX",
    "GAMES",
    "HIST_PLAYERS",
    "PRECISION_TRIALS",
    "EquityError",
    "EquityGame",
    "EquityResult",
    "HandEquity",
    "HandRange",
    "RangeError",
    "equity",
    "parse_range",
    "top_classes",
]

EXACT_LIMIT = 2_000_000  # default: enumerate when that costs at most this many dealt deals
EXACT_MAX = 10**11  # exact=True refuses more (hours of work)
DEFAULT_TRIALS = 1_000_000
PRECISION_TRIALS = 100_000_000  # with a precision and no trials: sample at most this many


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
    precision: float | None = None,
    executor: Executor | None = None,
    chunk_trials: int | None = None,
) -> EquityResult:
    """Each hand's chance to win, split, and its share of the pot (see the module docstring).

    ``hands``: one entry per player: cards (``"AhKh"``, ``"Ah ??"``), a range (``"QQ+,AKs"``)
    or a :class:`HandRange`. ``board``: community cards so far. ``dead``: cards known to be out
    of play (folded, burned face up, discarded). ``game``: one of ``GAMES`` (holdem,
    shortdeck, omaha, omaha8, manila2, manila3, draw, stud5, stud7, stud7-8, razz, draw27,
    triple-draw27, badugi); ``deck``: its size where it is played with several.
    ``exact``: True enumerates every deal; False samples; None (the default) enumerates when
    that is cheap (``EXACT_LIMIT``) and ``trials`` is not given (an exact answer meets any
    ``precision``).
    ``trials``: deals to sample (default 1,000,000; with ``precision``, the most to sample,
    default ``PRECISION_TRIALS``). ``precision``: stop sampling once every hand's standard
    error is at most this (0.001 for 0.1%). ``seed``: the Monte Carlo seed (default random,
    reported). ``executor``: where chunks run (:mod:`croupier.executor`); default threads,
    ``threads`` of them (default: all cores). ``chunk_trials``: deals per Monte Carlo chunk
    (default: about 20 ms of work); results depend on it, never on the executor.
    Raises :class:`EquityError` (a ``ValueError``) for bad input.
    """
    setup = make_setup(hands, board, dead, game, deck)
    _check_settings(trials, threads, seed, precision, chunk_trials)
    if executor is not None and threads is not None:
        raise EquityError("give threads or an executor, not both")
    if setup.unknown == 0 and not setup.ranged:
        exact = True  # nothing left to deal: one deal, exactly
    plan = None
    if exact is not False:
        limit = ASSIGNMENTS_MAX if exact else min(ASSIGNMENTS_MAX, EXACT_LIMIT)
        plan = compute.exact_plan(setup, limit=limit)
        if plan.choices == 0:
            raise EquityError("the ranges leave no deal in which every hand holds different cards")
        if exact is None:
            exact = trials is None and 0 <= plan.cost <= EXACT_LIMIT
        elif plan.cost < 0 or plan.cost > EXACT_MAX:
            what = (
                f"{plan.choices:,}+ choices of range hands"
                if plan.cost < 0
                else (f"{plan.cost:,} deals' work")
            )
            raise EquityError(
                f"{what} are too many to enumerate (at most {EXACT_MAX:,} deals): "
                f"use Monte Carlo (exact=False)"
            )
    own = executor is None
    runner = executor or ThreadExecutor(min(threads or cores(), cores() * 4))
    try:
        if exact:
            assert plan is not None
            return _exact(plan, runner)
        return _sampled(setup, trials, seed, precision, chunk_trials, runner)
    finally:
        if own:
            runner.close()


def _check_settings(
    trials: object, threads: object, seed: object, precision: object, chunk_trials: object
) -> None:
    for name, value in (("trials", trials), ("threads", threads), ("chunk_trials", chunk_trials)):
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or value < 1
        ):
            raise EquityError(f"{name} must be a positive whole number, got {value!r}")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise EquityError(f"seed must be a whole number, 0 or more, got {seed!r}")
    if precision is not None and (
        not isinstance(precision, (int, float))
        or isinstance(precision, bool)
        or not 0 < precision < 1
    ):
        raise EquityError(
            f"precision must be a standard error between 0 and 1 (0.001 for 0.1%), "
            f"got {precision!r}"
        )


def _exact(plan: compute.ExactPlan, executor: Executor) -> EquityResult:
    work = functools.partial(compute.exact_chunk, plan)
    tallies, _ = run_chunks(work, len(plan.chunks), None, executor, merge=compute.merge_cases)
    tally, total = compute.combine(plan, tallies)
    setup = plan.setup
    return _result(setup, tally, total, True, plan.choices * setup.deals, None)


def _sampled(
    setup: Setup,
    trials: int | None,
    seed: int | None,
    precision: float | None,
    chunk_trials: int | None,
    executor: Executor,
) -> EquityResult:
    used_seed = secrets.randbits(63) if seed is None else seed
    if trials is None:
        trials = PRECISION_TRIALS if precision is not None else DEFAULT_TRIALS
    plan = compute.sampling_plan(setup, trials, chunk_trials)
    stop = None
    if precision is not None:
        target = float(precision)

        def stop(tally: Tally, done: int) -> bool:
            return max(standard_errors(tally)) <= target

    try:
        work = functools.partial(compute.sampling_chunk, plan)
        tally, _ = run_chunks(work, plan.chunks, used_seed, executor, stop=stop)
    except RangesClashError as error:
        raise EquityError(str(error)) from None
    return _result(setup, tally, Fraction(tally.deals), False, tally.deals, used_seed)


def _result(
    setup: Setup, tally: Tally, total: Fraction, exact: bool, trials: int, seed: int | None
) -> EquityResult:
    hi_lo = setup.game.low is not None
    return EquityResult(
        setup.game.name,
        setup.deck,
        setup.board,
        setup.dead,
        hand_results(tally, total, setup.hands, setup.labels, exact),
        exact,
        trials,
        seed,
        hi_lo,
        float(tally.low_deals() / total) if hi_lo else None,
    )


# --- for tests and benchmarks ----------------------------------------------------------------


def _setup(
    hands: Iterable[HandLike], board: CardsLike, dead: CardsLike, game: str, deck: int | None
) -> Setup:
    return make_setup(hands, board, dead, game, deck)


def _run_exact(
    setup: Setup, workers: int = 1, by_rank_class: bool = True
) -> tuple[npt.NDArray[np.int64], int]:
    """Integer tallies side by side (``Tally.as_array``) over every deal, and the number of
    deals; ``by_rank_class=False`` deals hold'em card by card too."""
    plan = compute.exact_plan(setup, by_rank_class=by_rank_class)
    with ThreadExecutor(workers) as runner:
        tallies, _ = run_chunks(
            functools.partial(compute.exact_chunk, plan), len(plan.chunks), None, runner,
            merge=compute.merge_cases,
        )  # fmt: skip
    tally, total = compute.combine(plan, tallies)
    return tally.as_array(), int(total)
