"""Benchmark croupier.equity against its targets and against eval7.

Run ``python bench/equity.py [--repeat R] [--json]``. In one run on one machine it measures:

* heads-up exhaustive preflop equity, AhKh v QsQd (1,712,304 boards), warm, one core
  (``threads=1``), best of R: target <= 5 ms (OMPEval 2.5 ms; eval7 1.4 s in the issue); also
  croupier's card-by-card enumeration of the same boards, to show what the rank-class
  enumeration buys;
* three-way Monte Carlo, AhKh v QsQd v JcTc, 1,000,000 trials, one core: target <= 40 ms;
  also on all cores;
* eval7 on the same computations, when importable. eval7 has no preflop enumeration: its
  ``py_hand_vs_range_exact`` takes a complete board, so it is called once per board (all
  1,712,304 of them by default; ``--eval7-boards N`` times the first N and scales). Its only
  compiled Monte Carlo, ``py_hand_vs_range_monte_carlo``, is heads-up, so it is timed on the
  heads-up hand against croupier's heads-up Monte Carlo; the three-way figure is a Python loop
  over ``eval7.evaluate``, timed on ``--eval7-trials`` trials and scaled (said in the output).

Timings are printed, never asserted. Close other work first: a busy core skews the figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import croupier.equity as eq
from croupier.equity import equity
from machine import cpu_model

TARGET_EXACT_MS = 5.0
OMPEVAL_EXACT_MS = 2.5
EVAL7_EXACT_ISSUE_S = 1.4
TARGET_MC_MS = 40.0

HEADS_UP = ["AhKh", "QsQd"]
THREE_WAY = ["AhKh", "QsQd", "JcTc"]
RANGE_SPOT = ["AhKh", "QQ+"]  # eval7 takes a hand against a range
WIDE_RANGES = ["15%", "QQ+,AKs", "22-55"]
BOARDS = 1_712_304  # C(48, 5)
KNOWN = (787_966, 6_732, 917_606)  # AhKh wins, ties, losses: eval7 full enumeration


def progress(message: str) -> None:
    if sys.stderr.isatty():
        print(f"... {message}", file=sys.stderr, flush=True)


def best_time(run: Callable[[], object], repeat: int) -> float:
    """Seconds of the fastest of ``repeat`` runs."""
    best = float("inf")
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def machine() -> dict[str, Any]:
    model = cpu_model()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "load_1min": load,
        "python": platform.python_version(),
    }


# --- croupier --------------------------------------------------------------------------------


def ours(args: argparse.Namespace) -> dict[str, Any]:
    progress("croupier: warming up (compiles on a first run)")
    exact = equity(HEADS_UP, threads=1)
    sampled = equity(THREE_WAY, trials=args.trials, seed=args.seed, threads=1)
    equity(HEADS_UP, trials=args.trials, seed=args.seed, threads=1)
    setup = eq._setup(HEADS_UP, (), (), "holdem", None)
    eq._run_exact(setup, 1, by_rank_class=False)

    progress("croupier: exhaustive heads-up")
    exact_s = best_time(lambda: equity(HEADS_UP, threads=1), args.repeat)
    card_by_card_s = best_time(
        lambda: eq._run_exact(setup, 1, by_rank_class=False), max(1, args.repeat // 4)
    )
    ak = exact[0]
    counts = (
        round(ak.win * BOARDS),
        round(ak.tie * 2 * BOARDS),
        round((1 - ak.win - 2 * ak.tie) * BOARDS),
    )
    progress("croupier: Monte Carlo")
    mc_s = best_time(
        lambda: equity(THREE_WAY, trials=args.trials, seed=args.seed, threads=1), args.mc_repeat
    )
    mc_all_s = best_time(
        lambda: equity(THREE_WAY, trials=args.trials, seed=args.seed), args.mc_repeat
    )
    hu_mc_s = best_time(
        lambda: equity(HEADS_UP, trials=args.trials, seed=args.seed, threads=1), args.mc_repeat
    )
    three_way_exact = equity(THREE_WAY, threads=1)
    progress("croupier: ranges")
    equity(RANGE_SPOT, threads=1)
    range_exact_s = best_time(lambda: equity(RANGE_SPOT, threads=1), args.mc_repeat)
    range_mc_s = best_time(
        lambda: equity(RANGE_SPOT, trials=args.trials, seed=args.seed, threads=1), args.mc_repeat
    )
    wide_exact_s = best_time(lambda: equity(WIDE_RANGES, threads=1), 1)
    return {
        "exact_heads_up": {
            "boards": exact.trials,
            "ms": exact_s * 1e3,
            "card_by_card_ms": card_by_card_s * 1e3,
            "equity": ak.equity,
            "win_tie_loss_boards": counts,
            "matches_known": counts == KNOWN,
        },
        "monte_carlo_three_way": {
            "trials": args.trials,
            "ms_one_core": mc_s * 1e3,
            "ms_all_cores": mc_all_s * 1e3,
            "cores": os.cpu_count(),
            "equities": sampled.equities,
            "stderrs": [hand.stderr for hand in sampled],
            "exact_equities": three_way_exact.equities,
        },
        "monte_carlo_heads_up_ms_one_core": hu_mc_s * 1e3,
        "ranges": {
            "exact_ms_one_core": range_exact_s * 1e3,
            "monte_carlo_ms_one_core": range_mc_s * 1e3,
            "equity": equity(RANGE_SPOT, threads=1)[0].equity,
            "wide_exact_ms_one_core": wide_exact_s * 1e3,
        },
    }


# --- eval7 -----------------------------------------------------------------------------------


def peer_eval7(args: argparse.Namespace) -> dict[str, Any]:
    try:
        import eval7  # type: ignore[import-untyped]
    except ImportError as error:
        return {"available": False, "note": f"not importable: {error}"}
    from importlib.metadata import version

    hero = [eval7.Card(name) for name in ("Ah", "Kh")]
    villain = [eval7.Card(name) for name in ("Qs", "Qd")]
    villain_range = eval7.HandRange("QsQd")
    used = {"Ah", "Kh", "Qs", "Qd"}
    deck = [card for card in eval7.Deck().cards if str(card) not in used]

    progress(f"eval7: exhaustive heads-up, {min(args.eval7_boards, BOARDS):,} boards")
    boards = min(args.eval7_boards, BOARDS)
    exact = eval7.py_hand_vs_range_exact
    start = time.perf_counter()
    points = 0.0
    for board in itertools.islice(itertools.combinations(deck, 5), boards):
        points += exact(hero, villain_range, board)
    exact_s = (time.perf_counter() - start) * BOARDS / boards

    progress("eval7: heads-up Monte Carlo (compiled)")
    mc = eval7.py_hand_vs_range_monte_carlo
    hu_mc_s = best_time(lambda: mc(hero, villain_range, [], args.trials), args.mc_repeat)
    progress("eval7: hand against a range, Monte Carlo")
    queens_up = eval7.HandRange(RANGE_SPOT[1])
    range_mc_s = best_time(lambda: mc(hero, queens_up, [], args.trials), args.mc_repeat)
    range_equity = mc(hero, queens_up, [], args.trials)

    progress(f"eval7: three-way Monte Carlo, Python loop, {args.eval7_trials:,} trials")
    third = [eval7.Card(name) for name in ("Jc", "Tc")]
    pool = [card for card in deck if str(card) not in ("Jc", "Tc")]
    evaluate = eval7.evaluate
    rng = random.Random(args.seed)
    shares = [0.0, 0.0, 0.0]
    start = time.perf_counter()
    for _ in range(args.eval7_trials):
        board = rng.sample(pool, 5)
        values = (evaluate(board + hero), evaluate(board + villain), evaluate(board + third))
        best = max(values)
        winners = [i for i, value in enumerate(values) if value == best]
        for i in winners:
            shares[i] += 1 / len(winners)
    three_s = (time.perf_counter() - start) * args.trials / args.eval7_trials
    return {
        "available": True,
        "version": version("eval7"),
        "exact_heads_up": {
            "boards_timed": boards,
            "s": exact_s,
            "scaled": boards < BOARDS,
            "equity": points / boards,
        },
        "monte_carlo_heads_up_ms": hu_mc_s * 1e3,
        "range_monte_carlo_ms": range_mc_s * 1e3,
        "range_equity": range_equity,
        "monte_carlo_three_way": {
            "trials_timed": args.eval7_trials,
            "ms_scaled": three_s * 1e3,
            "equities": [share / args.eval7_trials for share in shares],
        },
    }


# --- output ----------------------------------------------------------------------------------


def verdict(good: bool) -> str:
    return "met" if good else "NOT met"


def rows(report: dict[str, Any]) -> list[tuple[str, str, str] | str]:
    out: list[tuple[str, str, str] | str] = []
    mine = report["croupier"]
    peer = report["eval7"]
    exact = mine["exact_heads_up"]
    ms = exact["ms"]
    out.append(f"Exhaustive preflop, AhKh v QsQd ({exact['boards']:,} boards), warm")
    out.append(
        (
            "croupier, one core",
            f"{ms:.2f} ms",
            f"target <= {TARGET_EXACT_MS:g} ms: {verdict(ms <= TARGET_EXACT_MS)}; "
            f"OMPEval {OMPEVAL_EXACT_MS} ms",
        )
    )
    out.append(
        (
            "  equity of AhKh",
            f"{100 * exact['equity']:.4f}%",
            "win/tie/loss boards {:,}/{:,}/{:,}: {}".format(
                *exact["win_tie_loss_boards"],
                "as eval7 counts them" if exact["matches_known"] else "DIFFERENT",
            ),
        )
    )
    out.append(
        (
            "croupier, card by card (no rank classes)",
            f"{exact['card_by_card_ms']:.1f} ms",
            "the same kernel path Omaha and unknown cards take",
        )
    )
    if peer["available"]:
        e7 = peer["exact_heads_up"]
        how = f"first {e7['boards_timed']:,} boards, scaled" if e7["scaled"] else "every board"
        out.append(
            (
                f"eval7 {peer['version']}, py_hand_vs_range_exact per board",
                f"{e7['s']:.2f} s",
                f"{how}; croupier {e7['s'] * 1e3 / ms:,.0f}x faster; eval7's figure as "
                f"published: {EVAL7_EXACT_ISSUE_S} s",
            )
        )
        if not e7["scaled"]:
            same = abs(e7["equity"] - exact["equity"]) < 1e-9
            out.append(("  eval7 equity of AhKh", f"{100 * e7['equity']:.4f}%", verdict(same)))
    else:
        out.append(("eval7", "skipped", peer["note"]))

    mc = mine["monte_carlo_three_way"]
    out.append(f"Monte Carlo, AhKh v QsQd v JcTc, {mc['trials']:,} trials, warm")
    out.append(
        (
            "croupier, one core",
            f"{mc['ms_one_core']:.1f} ms",
            f"target <= {TARGET_MC_MS:g} ms: {verdict(mc['ms_one_core'] <= TARGET_MC_MS)}",
        )
    )
    out.append(("croupier, all cores", f"{mc['ms_all_cores']:.1f} ms", f"{mc['cores']} cores"))
    within = all(
        abs(a - b) <= 4 * s
        for a, b, s in zip(mc["equities"], mc["exact_equities"], mc["stderrs"], strict=True)
    )
    out.append(
        (
            "  sampled equities",
            " / ".join(f"{100 * e:.2f}%" for e in mc["equities"]),
            "exact {}: within 4 standard errors: {}".format(
                " / ".join(f"{100 * e:.3f}%" for e in mc["exact_equities"]), verdict(within)
            ),
        )
    )
    if peer["available"]:
        three = peer["monte_carlo_three_way"]
        out.append(
            (
                "eval7, Python loop over eval7.evaluate",
                f"{three['ms_scaled']:,.0f} ms",
                f"timed on {three['trials_timed']:,} trials, scaled; eval7 has no compiled "
                f"multi-way Monte Carlo; croupier {three['ms_scaled'] / mc['ms_one_core']:,.0f}x",
            )
        )
        hu = mine["monte_carlo_heads_up_ms_one_core"]
        out.append(f"Monte Carlo, heads-up AhKh v QsQd, {mc['trials']:,} trials")
        out.append(("croupier, one core", f"{hu:.1f} ms", ""))
        out.append(
            (
                "eval7 py_hand_vs_range_monte_carlo",
                f"{peer['monte_carlo_heads_up_ms']:.1f} ms",
                f"eval7's compiled (heads-up only) sampler; croupier "
                f"{peer['monte_carlo_heads_up_ms'] / hu:.1f}x",
            )
        )
    ranges = mine["ranges"]
    out.append(f"Ranges, one core: {RANGE_SPOT[0]} v {RANGE_SPOT[1]}, warm")
    out.append(
        (
            "croupier exact (each QQ+ hand, by rank class)",
            f"{ranges['exact_ms_one_core']:.1f} ms",
            f"equity {100 * ranges['equity']:.3f}%",
        )
    )
    out.append((f"croupier Monte Carlo, {mc['trials']:,} trials",
                f"{ranges['monte_carlo_ms_one_core']:.1f} ms", ""))  # fmt: skip
    if peer["available"]:
        out.append(
            (
                "eval7 py_hand_vs_range_monte_carlo",
                f"{peer['range_monte_carlo_ms']:.1f} ms",
                f"equity {100 * peer['range_equity']:.3f}%; croupier Monte Carlo "
                f"{peer['range_monte_carlo_ms'] / ranges['monte_carlo_ms_one_core']:.1f}x, "
                f"exact {peer['range_monte_carlo_ms'] / ranges['exact_ms_one_core']:.1f}x",
            )
        )
    out.append(
        (
            f"croupier exact, {' v '.join(WIDE_RANGES)}",
            f"{ranges['wide_exact_ms_one_core']:,.0f} ms",
            "eval7 has no multi-way ranges",
        )
    )
    return out


def print_table(report: dict[str, Any]) -> None:
    m = report["machine"]
    print(
        f"croupier.equity benchmark: best of {report['params']['repeat']} runs "
        f"(Monte Carlo: {report['params']['mc_repeat']})"
    )
    print(
        f"Machine: {m['cpu']}, {m['cores']} cores, load {m['load_1min']:.2f}, Python {m['python']}"
    )
    for row in rows(report):
        if isinstance(row, str):
            print(f"\n{row}")
        else:
            print(f"  {row[0]:<44} {row[1]:>14}   {row[2]}".rstrip())


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="timed exhaustive runs; best kept")
    parser.add_argument("--mc-repeat", type=int, default=5, help="timed Monte Carlo runs")
    parser.add_argument("--trials", type=int, default=1_000_000, help="Monte Carlo trials")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--eval7-boards", type=int, default=BOARDS, help="boards eval7 enumerates (scaled)"
    )
    parser.add_argument(
        "--eval7-trials", type=int, default=100_000, help="eval7 three-way trials (scaled)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if min(args.repeat, args.mc_repeat, args.trials, args.eval7_boards, args.eval7_trials) < 1:
        parser.error("counts must be positive")
    report = {
        "params": {
            "repeat": args.repeat,
            "mc_repeat": args.mc_repeat,
            "trials": args.trials,
            "seed": args.seed,
        },
        "machine": machine(),
        "croupier": ours(args),
        "eval7": peer_eval7(args),
        "targets": {
            "exact_heads_up_max_ms": TARGET_EXACT_MS,
            "exact_heads_up_ompeval_ms": OMPEVAL_EXACT_MS,
            "monte_carlo_three_way_max_ms": TARGET_MC_MS,
        },
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(report)


if __name__ == "__main__":
    main()
