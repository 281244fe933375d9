"""Run the lockstep differential test against PokerKit on many random hands.

    python3 tools/differential.py --variants NT,FT,PO --hands 10000 [--workers 2]

Prints a table per variant: hands, hands that agree on everything, hands with each known
difference (docs/differences-from-pokerkit.md), hands with each reported croupier bug, and
unclassified failures (each with its seed and action trail). Exits 1 on any unclassified
failure. The harness is tests/differential.py.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from differential import VARIANTS, Tally, enabled_variants, run


def _chunk(job: tuple[str, int, int]) -> Tally:
    variant, start, stop = job
    return run(variant, range(start, stop))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--variants",
        default=",".join(enabled_variants()),
        help="PHH variant codes, comma-separated (default: every one croupier replays)",
    )
    parser.add_argument("--hands", type=int, default=1000, help="random hands per variant")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=10, help="failures printed per variant")
    args = parser.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in VARIANTS]
    unsupported = [v for v in variants if v in VARIANTS and v not in enabled_variants()]
    if unknown or unsupported:
        print(f"unknown variants {unknown}; not replayed by croupier yet {unsupported}")
        return 2
    started = time.perf_counter()
    step = max(1, min(500, args.hands // max(1, 4 * args.workers)))
    jobs = [
        (variant, start, min(start + step, args.first_seed + args.hands))
        for variant in variants
        for start in range(args.first_seed, args.first_seed + args.hands, step)
    ]
    tallies = {variant: Tally(variant) for variant in variants}
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            for job, tally in zip(jobs, pool.map(_chunk, jobs), strict=True):
                tallies[job[0]].merge(tally)
    else:
        for job in jobs:
            tallies[job[0]].merge(_chunk(job))
    failed = False
    for tally in tallies.values():
        print(tally.table())
        for failure in tally.failures[: args.show]:
            print(failure.report())
        failed = failed or bool(tally.failures)
        print()
    elapsed = time.perf_counter() - started
    hands = sum(t.hands for t in tallies.values())
    print(f"{hands} hands in {elapsed:.1f} s ({args.workers} worker(s))")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
