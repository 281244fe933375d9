"""How big a chunk must be for the executors' overhead to vanish (docs/scaling.md).

Run ``python bench/scaling.py [--trials N] [--workers W] [--repeat R]``: first what a chunk
costs each backend beyond its work (1,000 chunks of one trial), then a three-way hold'em Monte
Carlo of N trials (default 2**22) cut into chunks of 2**10 to 2**20 trials, on one core
(serial) and on W workers (default 2) as threads, a process pool and a local Ray; each the best
of R rounds (default 5), with each chunk's work on one core and each backend's speedup over
serial. Timings are printed, never asserted; the machine is shared, so figures are noisy.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from croupier.equity import equity
from croupier.executor import Executor, ProcessExecutor, SerialExecutor, ThreadExecutor
from machine import print_header

HANDS = ["AhKh", "QsQd", "JcTc"]


def best_time(run: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def timed(executor: Executor, trials: int, chunk: int, repeat: int) -> float:
    def run() -> object:
        return equity(HANDS, exact=False, trials=trials, seed=1, chunk_trials=chunk,
                      executor=executor)  # fmt: skip

    run()  # warm: workers start, import croupier and load the kernels
    return best_time(run, repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1 << 22)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print_header(args.repeat)
    backends: dict[str, Executor] = {
        "threads": ThreadExecutor(args.workers),
        "process": ProcessExecutor(args.workers),
    }
    try:
        import ray

        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
        from croupier.executor import RayExecutor

        backends["ray"] = RayExecutor(args.workers)
    except ImportError:
        print("ray: not installed (pip install 'croupier[ray]'), skipped")
    serial = SerialExecutor()
    print("overhead per chunk (1,000 chunks of one trial each, best of rounds):")
    for name, executor in {"serial": serial, **backends}.items():
        seconds = timed(executor, 1_000, 1, args.repeat)
        print(f"  {name:<8} {1e3 * seconds / 1_000:8.3f} ms")
    print(f"{args.trials:,} trials of {' v '.join(HANDS)}, {args.workers} workers")
    print(f"{'chunk trials':>12} {'chunks':>7} {'ms/chunk':>9} {'serial ms':>10}"
          + "".join(f" {name + ' x':>10}" for name in backends))  # fmt: skip
    for power in range(10, 21, 2):
        chunk = 1 << power
        chunks = -(-args.trials // chunk)
        one = timed(serial, args.trials, chunk, args.repeat)
        speedups = [one / timed(ex, args.trials, chunk, args.repeat) for ex in backends.values()]
        print(f"{chunk:>12,} {chunks:>7,} {1e3 * one / chunks:>9.2f} {1e3 * one:>10.1f}"
              + "".join(f" {s:>10.2f}" for s in speedups))  # fmt: skip
    for executor in backends.values():
        executor.close()


if __name__ == "__main__":
    main()
