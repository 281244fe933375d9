"""Benchmark croupier's hand evaluators against the project targets and against peers.

Run ``python bench/evaluate.py [--hands N] [--repeat R] [--json]``. Everything is measured in
one run on one machine: cold start, batch rates (one core and all cores), the scalar paths, and
eval7, treys and pokerkit where importable, each also checked for agreeing with croupier's order.
Timings are printed, never asserted. See bench/README.md.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from croupier.evaluate import Ranking, evaluate_many, rank_value, scalar_evaluator
from machine import cpu_model

RANKS = "23456789TJQKA"
SUITS = "cdhs"
NAMES = [RANKS[code >> 2] + SUITS[code & 3] for code in range(52)]

# From the project issues (12, 20).
TARGET_BATCH = 150e6  # hands/s, 7-card high, one core
# OMPEval's own benchmark (C++), built from its source on this project's machine (issue 42):
OMPEVAL_RANDOM = 304.7e6  # card arrays in random order
OMPEVAL_COMBINED = 440.7e6  # hands it has combined in advance
TARGET_LOWBALL = 50e6  # deuce-to-seven and badugi, one core, issue 20
TARGET_SCALAR = 1e6  # hands/s
EVAL7_REFERENCE = 2.4e6  # hands/s, eval7 as quoted in the issue
TARGET_COLD_MS = 1000.0

OTHER_RANKINGS = (Ranking.SHORT36, Ranking.LOW_A5_8, Ranking.LOW_27, Ranking.BADUGI)
AGREEMENT_HANDS = 20_000
SLOW_BUDGET_S = 3.0  # a timed loop stops repeating once its runs add up to this

COLD_START = """
import time
start = time.perf_counter()
import croupier.evaluate
import numpy as np
croupier.evaluate.evaluate_many(np.array([[0, 5, 10, 15, 20, 25, 30]], dtype=np.uint8))
print(time.perf_counter() - start)
"""

Hands = npt.NDArray[np.uint8]


def progress(message: str) -> None:
    if sys.stderr.isatty():
        print(f"... {message}", file=sys.stderr, flush=True)


# --- inputs ----------------------------------------------------------------------------------


def random_hands(rng: np.random.Generator, n: int, size: int, deck: Sequence[int]) -> Hands:
    """``n`` rows of ``size`` distinct cards drawn uniformly from ``deck`` (vectorized rejection:
    draw every row independently, redraw the rows holding a repeated card)."""
    codes = np.asarray(deck, dtype=np.uint8)
    picks = np.empty((n, size), dtype=np.uint8)
    redo = np.arange(n)
    while len(redo):
        draw = rng.integers(0, len(codes), size=(len(redo), size), dtype=np.uint8)
        repeated = np.zeros(len(redo), dtype=bool)
        for i in range(size):
            for j in range(i + 1, size):
                repeated |= draw[:, i] == draw[:, j]
        picks[redo] = draw
        redo = redo[repeated]
    return codes[picks]


def deck_of(ranking: Ranking) -> list[int]:
    return [code for code in range(52) if code in ranking.deck]


# --- timing ----------------------------------------------------------------------------------


def best_time(run: Callable[[], object], repeat: int, budget_s: float = float("inf")) -> float:
    """Seconds of the fastest of ``repeat`` runs (fewer once they add up to ``budget_s``)."""
    best = float("inf")
    spent = 0.0
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        run()
        elapsed = time.perf_counter() - start
        best = min(best, elapsed)
        spent += elapsed
        if spent >= budget_s:
            break
    return best


def cold_start() -> dict[str, float]:
    """Import through first batch call in a fresh interpreter, twice; the second is reported."""
    figures: list[tuple[float, float]] = []
    for _ in range(2):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", COLD_START], capture_output=True, text=True, check=True
        )
        process = time.perf_counter() - start
        figures.append((float(done.stdout.strip().splitlines()[-1]), process))
    return {
        "cold_start_ms": figures[1][0] * 1e3,
        "cold_start_first_ms": figures[0][0] * 1e3,
        "cold_start_process_ms": figures[1][1] * 1e3,
    }


# --- agreement -------------------------------------------------------------------------------


def agreement(
    ours: npt.NDArray[np.integer],
    theirs: npt.NDArray[np.integer],
    hands: Hands,
    *,
    higher_better: bool,
) -> str:
    """'agrees' when sorting by our value leaves the peer's value monotone with ties exactly
    where ours tie; else the first pair of hands that breaks it."""
    order = np.argsort(ours, kind="stable")
    mine = ours[order].astype(np.int64)
    peer = theirs[order].astype(np.int64)
    signed = peer if higher_better else -peer
    step_mine, step_peer = np.diff(mine), np.diff(signed)
    broken = np.flatnonzero((step_peer < 0) | ((step_mine == 0) != (step_peer == 0)))
    if not len(broken):
        return "agrees"
    i = int(broken[0])
    a, b = order[i], order[i + 1]
    return (
        f"first disagreement: {show(hands[a])} (ours {mine[i]}, peer {peer[i]}) vs "
        f"{show(hands[b])} (ours {mine[i + 1]}, peer {peer[i + 1]})"
    )


def show(hand: npt.NDArray[np.uint8]) -> str:
    return " ".join(NAMES[int(code)] for code in hand)


# --- peers -----------------------------------------------------------------------------------


def version_of(module: Any) -> str:
    try:
        from importlib.metadata import version

        return version(module.__name__)
    except Exception:
        return str(getattr(module, "__version__", "?"))


def peer_eval7(module: Any, lists: list[list[int]]) -> tuple[Callable[[], list[int]], bool]:
    cards = [module.Card(name) for name in NAMES]
    hands = [[cards[c] for c in hand] for hand in lists]
    evaluate = module.evaluate
    return (lambda: list(map(evaluate, hands))), True


def peer_treys(module: Any, lists: list[list[int]]) -> tuple[Callable[[], list[int]], bool]:
    cards = [module.Card.new(name) for name in NAMES]
    holes = [[cards[c] for c in hand[:2]] for hand in lists]
    boards = [[cards[c] for c in hand[2:]] for hand in lists]
    evaluate = module.Evaluator().evaluate
    return (lambda: list(map(evaluate, holes, boards))), False  # lower is better


def peer_pokerkit(module: Any, lists: list[list[int]]) -> tuple[Callable[[], list[int]], bool]:
    cards = [next(iter(module.Card.parse(name))) for name in NAMES]
    holes = [[cards[c] for c in hand[:2]] for hand in lists]
    boards = [[cards[c] for c in hand[2:]] for hand in lists]
    from_game = module.StandardHighHand.from_game

    def run() -> list[int]:
        return [hand.entry.index for hand in map(from_game, holes, boards)]

    return run, True


PEERS: dict[str, Callable[[Any, list[list[int]]], tuple[Callable[[], list[int]], bool]]] = {
    "eval7": peer_eval7,
    "treys": peer_treys,
    "pokerkit": peer_pokerkit,
}


def bench_peer(
    name: str,
    hands: Hands,
    ours: npt.NDArray[np.int32],
    timed: int,
    repeat: int,
    ours_scalar: float,
    ours_batch: float,
) -> dict[str, Any]:
    try:
        module = importlib.import_module(name)
    except ImportError as error:
        return {"available": False, "note": f"not importable: {error}"}
    progress(f"peer {name}")
    checked = min(AGREEMENT_HANDS, len(hands))
    lists = hands[: max(timed, checked)].tolist()
    run_timed, higher_better = PEERS[name](module, lists[:timed])
    results: list[list[int]] = []

    def once() -> None:
        results[:] = [run_timed()]

    seconds = best_time(once, repeat, SLOW_BUDGET_S)
    values = results[0]
    if checked > timed:
        run_rest, _ = PEERS[name](module, lists[timed:checked])
        values = values + run_rest()
    rate = timed / seconds
    return {
        "available": True,
        "version": version_of(module),
        "hands": timed,
        "hands_per_s": rate,
        "ours_scalar_over_peer": ours_scalar / rate,
        "ours_batch_one_core_over_peer": ours_batch / rate,
        "agreement_hands": checked,
        "agreement": agreement(
            ours[:checked],
            np.asarray(values[:checked]),
            hands[:checked],
            higher_better=higher_better,
        ),
    }


# --- the run ---------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    model = cpu_model()
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
    }


def batch_rate(
    hands: Hands, ranking: Ranking, threads: int | None, repeat: int, reuse: bool = False
) -> float:
    """Rows a second; ``reuse``: into one ``out`` array, allocated (and touched) once."""
    evaluate_many(hands[:1000], ranking, threads=threads)  # warm: compile or load the kernel
    out = np.empty(len(hands), dtype=np.int32) if reuse else None
    if out is not None:
        out.fill(0)
    return len(hands) / best_time(
        lambda: evaluate_many(hands, ranking, threads=threads, out=out), repeat
    )


def pokerfast_rate(hands: Hands, repeat: int) -> float | None:
    """pokerfast's batch (OMPEval compiled, one C call, ``pf_evaluate``) on the same rows,
    prepared once as its call takes them (a card index is 4 * rank + suit there too, its
    suits in another order, which moves no hand's time); None when it is not installed."""
    try:
        import ctypes

        from pokerfast import equity as pokerfast  # type: ignore[import-not-found]

        lib = pokerfast._load()
    except Exception:  # not installed, or no compiled library for this machine
        return None
    rows, width = hands.shape
    buffer = np.ascontiguousarray(hands, dtype=np.uint8).tobytes()
    out = (ctypes.c_uint16 * rows)()
    lib.pf_evaluate(buffer[: width * 1000], 1000, width, out)
    return rows / best_time(lambda: lib.pf_evaluate(buffer, rows, width, out), repeat)


@numba.njit(nogil=True)
def _read_rows(cards):  # type: ignore[no-untyped-def]
    """Every code read once and summed: the memory traffic of a batch, and nothing else."""
    total = 0
    for i in range(cards.shape[0]):
        for j in range(cards.shape[1]):
            total += cards[i, j]
    return total


def read_rate(hands: Hands, repeat: int) -> float:
    _read_rows(hands[:10])
    return len(hands) / best_time(lambda: _read_rows(hands), repeat)


def run(args: argparse.Namespace) -> dict[str, Any]:
    report: dict[str, Any] = {
        "params": {
            "hands": args.hands,
            "repeat": args.repeat,
            "other_hands": args.other_hands,
            "scalar_hands": args.scalar_hands,
            "pokerkit_hands": args.pokerkit_hands,
            "seed": args.seed,
        },
        "machine": machine(),
    }
    progress("cold start (two fresh interpreters)")
    report.update(cold_start())

    rng = np.random.default_rng(args.seed)
    progress(f"generating {args.hands:,} hands")
    hands = random_hands(rng, args.hands, 7, deck_of(Ranking.HIGH))

    progress("batch, high")
    high = {
        "hands": args.hands,
        "one_core": batch_rate(hands, Ranking.HIGH, 1, args.repeat),
        "all_cores": batch_rate(hands, Ranking.HIGH, None, args.repeat),
    }
    high["one_core_out"] = batch_rate(hands, Ranking.HIGH, 1, args.repeat, reuse=True)
    high["all_cores_out"] = batch_rate(hands, Ranking.HIGH, None, args.repeat, reuse=True)
    high["pokerfast"] = pokerfast_rate(hands, args.repeat)
    for dtype in (np.int32, np.int64):  # what numpy users pass: read inside the kernel
        wide = hands.astype(dtype)
        high[f"one_core_{dtype.__name__}"] = batch_rate(wide, Ranking.HIGH, 1, args.repeat)
        high[f"one_core_{dtype.__name__}_out"] = batch_rate(
            wide, Ranking.HIGH, 1, args.repeat, reuse=True
        )
        high[f"read_{dtype.__name__}"] = read_rate(wide, args.repeat)
    for width in (5, 6):
        high[f"one_core_{width}_cards"] = batch_rate(
            np.ascontiguousarray(hands[:, :width]), Ranking.HIGH, 1, args.repeat
        )
    report["batch"] = {"high": high}
    for ranking in OTHER_RANKINGS:
        progress(f"batch, {ranking.value}")
        size = 4 if ranking is Ranking.BADUGI else 7
        others = random_hands(rng, args.other_hands, size, deck_of(ranking))
        report["batch"][ranking.value] = {
            "hands": args.other_hands,
            "cards": size,
            "one_core": batch_rate(others, ranking, 1, args.repeat),
        }

    progress("scalar")
    count = min(args.scalar_hands, len(hands))
    lists = hands[:count].tolist()
    batch_values = evaluate_many(hands[:count], threads=1)
    fast = scalar_evaluator("high")
    rank_value(lists[0], "high")
    generic = best_time(lambda: [rank_value(hand, "high") for hand in lists], args.repeat)
    closure = best_time(lambda: list(map(fast, lists)), args.repeat)
    report["scalar"] = {
        "hands": count,
        "rank_value": count / generic,
        "scalar_evaluator": count / closure,
        "matches_batch": list(map(fast, lists)) == batch_values.tolist(),
    }

    report["peers"] = {}
    for name in PEERS:
        timed = max(1, min(args.pokerkit_hands if name == "pokerkit" else count, count))
        report["peers"][name] = bench_peer(
            name,
            hands[:count],
            batch_values,
            timed,
            args.repeat,
            report["scalar"]["scalar_evaluator"],
            high["one_core"],
        )

    report["targets"] = {
        "batch_one_core_min": TARGET_BATCH,
        "batch_one_core_ompeval_issue_20": OMPEVAL_RANDOM,
        "lowball_one_core_min": TARGET_LOWBALL,
        "scalar_min": TARGET_SCALAR,
        "scalar_eval7_reference": EVAL7_REFERENCE,
        "cold_start_max_ms": TARGET_COLD_MS,
    }
    return report


# --- output ----------------------------------------------------------------------------------


def rate(value: float) -> str:
    if value >= 1e6:
        return f"{value / 1e6:,.1f} M/s"
    if value >= 1e3:
        return f"{value / 1e3:,.1f} k/s"
    return f"{value:,.0f} /s"


def ratio(value: float) -> str:
    return f"{value:.2f}x" if value < 10 else f"{value:,.0f}x"


def verdict(good: bool) -> str:
    return "met" if good else "NOT met"


def rows(report: dict[str, Any]) -> list[tuple[str, str, str] | str]:
    """Table rows; a bare string starts a section."""
    out: list[tuple[str, str, str] | str] = []
    cold = report["cold_start_ms"]
    out.append("Cold start: import through first evaluate_many")
    out.append(
        (
            "second fresh interpreter",
            f"{cold:,.0f} ms",
            f"target < {TARGET_COLD_MS:,.0f} ms: {verdict(cold < TARGET_COLD_MS)}",
        )
    )
    out.append(("first fresh interpreter", f"{report['cold_start_first_ms']:,.0f} ms", ""))
    out.append(
        (
            "whole second process",
            f"{report['cold_start_process_ms']:,.0f} ms",
            "includes interpreter start-up",
        )
    )

    high = report["batch"]["high"]
    out.append(f"Batch, 7-card high, {high['hands']:,} hands")
    out.append(
        (
            "one core (threads=1)",
            rate(high["one_core"]),
            f"target >= {rate(TARGET_BATCH)} ({verdict(high['one_core'] >= TARGET_BATCH)}); "
            f"OMPEval's own benchmark built here (issue 42) {rate(OMPEVAL_RANDOM)} "
            f"({high['one_core'] / OMPEVAL_RANDOM:.2f}x), "
            f"{rate(OMPEVAL_COMBINED)} on precombined hands",
        )
    )
    theirs = high.get("pokerfast")
    out.append(
        (
            "pokerfast 0.2 batch (OMPEval, one C call)",
            rate(theirs) if theirs else "not installed",
            f"same rows, same run: croupier one core {high['one_core'] / theirs:.2f}x"
            if theirs
            else "pip install pokerfast",
        )
    )
    out.append(
        (
            "one core, into a reused out= array",
            rate(high["one_core_out"]),
            f"{high['one_core_out'] / OMPEVAL_RANDOM:.2f}x OMPEval's {rate(OMPEVAL_RANDOM)} "
            "(no new result array to allocate and touch)",
        )
    )
    for dtype in ("int32", "int64"):
        figure = high[f"one_core_{dtype}"]
        reused, read = high[f"one_core_{dtype}_out"], high[f"read_{dtype}"]
        out.append(
            (
                f"one core, {dtype} rows",
                rate(figure),
                f"{figure / high['one_core']:.2f}x uint8; {8 if dtype == 'int64' else 4}x the "
                f"bytes to read",
            )
        )
        out.append(
            (
                f"  {dtype}, into a reused out= array",
                rate(reused),
                f"{reused / high['one_core_out']:.2f}x uint8 so; reading the rows alone "
                f"(a summing loop): {rate(read)}",
            )
        )
    for width in (5, 6):
        out.append((f"one core, {width}-card rows", rate(high[f"one_core_{width}_cards"]), ""))
    out.append(
        (
            f"all cores (threads=None, {report['machine']['cores']} threads)",
            rate(high["all_cores"]),
            f"{high['all_cores'] / high['one_core']:.2f}x one core (target >= 1.8x, issue 42)",
        )
    )
    out.append(
        (
            "all cores, into a reused out= array",
            rate(high["all_cores_out"]),
            f"{high['all_cores_out'] / high['one_core_out']:.2f}x one core into one",
        )
    )
    out.append(f"Batch, one core, {report['params']['other_hands']:,} hands")
    for name, figures in report["batch"].items():
        if name == "high":
            continue
        note = ""
        if name in ("low-27", "badugi"):
            good = figures["one_core"] >= TARGET_LOWBALL
            note = f"target >= {rate(TARGET_LOWBALL)}: {verdict(good)}"
        out.append((f"{name}, {figures['cards']} cards", rate(figures["one_core"]), note))

    scalar = report["scalar"]
    fast = scalar["scalar_evaluator"]
    out.append(f"Scalar, 7-card high, {scalar['hands']:,} lists")
    out.append(("rank_value(cards, 'high')", rate(scalar["rank_value"]), ""))
    out.append(
        (
            "scalar_evaluator('high')",
            rate(fast),
            f"target >= {rate(TARGET_SCALAR)} ({verdict(fast >= TARGET_SCALAR)}); "
            f"eval7 publishes ~{rate(EVAL7_REFERENCE)}",
        )
    )
    out.append(
        (
            "scalar values == batch values",
            "yes" if scalar["matches_batch"] else "NO",
            "",
        )
    )

    out.append("Peers (x = croupier rate / peer rate)")
    for name, peer in report["peers"].items():
        if not peer["available"]:
            out.append((name, "skipped", peer["note"]))
            continue
        out.append(
            (
                f"{name} {peer['version']} ({peer['hands']:,} hands)",
                rate(peer["hands_per_s"]),
                f"croupier scalar {ratio(peer['ours_scalar_over_peer'])}, "
                f"batch one core {ratio(peer['ours_batch_one_core_over_peer'])}",
            )
        )
        out.append(
            (
                f"{name} order vs croupier ({peer['agreement_hands']:,} hands)",
                peer["agreement"] if peer["agreement"] == "agrees" else "DISAGREES",
                "" if peer["agreement"] == "agrees" else peer["agreement"],
            )
        )
    return out


def machine_line(report: dict[str, Any]) -> str:
    m = report["machine"]
    return (
        f"{m['cpu']}, {m['cores']} cores, numba {m['numba']}, Python {m['python']}, "
        f"numpy {m['numpy']}"
    )


def title(report: dict[str, Any]) -> str:
    return (
        f"croupier.evaluate benchmark: hands per second, best of {report['params']['repeat']} "
        f"runs (slow peers: fewer, up to {SLOW_BUDGET_S:.0f} s)"
    )


def print_table(report: dict[str, Any]) -> None:
    table_rows = rows(report)
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        print(title(report))
        print(f"Machine: {machine_line(report)}")
        for row in table_rows:
            if isinstance(row, str):
                print(f"\n{row}")
            else:
                print(f"  {row[0]:<48} {row[1]:>14}   {row[2]}".rstrip())
        return
    table = Table(title=title(report), caption=machine_line(report))
    table.add_column("measure")
    table.add_column("figure", justify="right")
    table.add_column("target / comparison")
    for row in table_rows:
        if isinstance(row, str):
            if table.row_count:
                table.add_section()
            table.add_row(f"[bold]{row}[/bold]", "", "")
        else:
            table.add_row(*row)
    Console(width=None if sys.stdout.isatty() else 132).print(table)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000_000, help="7-card high batch hands")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; the best is kept")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--other-hands", type=int, default=1_000_000, help="per other ranking")
    parser.add_argument("--scalar-hands", type=int, default=200_000, help="scalar and peers")
    parser.add_argument("--pokerkit-hands", type=int, default=3_000, help="pokerkit is slow")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    if args.hands < 1 or args.other_hands < 1 or args.scalar_hands < 1:
        parser.error("hand counts must be positive")
    report = run(args)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(report)


if __name__ == "__main__":
    main()
