"""`croupier sim` on two cores: the process pool (and a local Ray) against one core, by task size
(issue 42, item 2; docs/scaling.md).

Each round plays the same run (6 random bots, rws hold'em, ``--hands`` hands, seed 3) on one
core (the serial backend) and on ``--workers`` processes, each run with a pool of its own started
for it (what `croupier sim --workers 2` does: the pool's start is in the time), its tasks of
``--task-hands`` hands each (the default: what croupier.sim picks); then the process pool and
Ray at the default task size. The rates are the best of ``--rounds`` rounds, taken in turns;
every run's result is checked to equal the serial one. Timings are printed, never asserted.

    python bench/sim_scaling.py [--hands N] [--workers W] [--rounds R] [--task-hands N ...]
"""

from __future__ import annotations

import argparse
import resource
import time

from croupier.executor import ProcessExecutor, SerialExecutor
from croupier.play import book_rules
from croupier.sim import CHUNK, simulate
from machine import print_header


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ray", action="store_true", help="also a local Ray")
    parser.add_argument(
        "--task-hands", type=int, action="append",
        help=f"hands a task (a multiple of {CHUNK}; default: several sizes and croupier's own)",
    )  # fmt: skip
    args = parser.parse_args()
    rules = book_rules("rws", "holdem", None, "1/2")
    sizes: list[int | None] = [*(args.task_hands or [250, 500, 1000, 2000, 5000]), None]
    lineup = ["random"] * 6

    def cpu() -> float:
        """CPU seconds of this process and of its children that have ended (a pool's
        workers, once it has shut down)."""
        own = resource.getrusage(resource.RUSAGE_SELF)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    spent: dict[str, float] = {}

    def run(executor_name: str, task: int | None) -> tuple[float, object]:
        used = cpu()
        start = time.perf_counter()
        if executor_name == "serial":
            result = simulate(rules, lineup, args.hands, stack=200, seed=3,
                              executor=SerialExecutor())  # fmt: skip
        elif executor_name == "process":
            with ProcessExecutor(args.workers) as pool:
                result = simulate(rules, lineup, args.hands, stack=200, seed=3, executor=pool,
                                  task_hands=task)  # fmt: skip
        else:
            from croupier.executor import RayExecutor

            with RayExecutor(args.workers) as cluster:
                result = simulate(rules, lineup, args.hands, stack=200, seed=3,
                                  executor=cluster, task_hands=task)  # fmt: skip
        rate = args.hands / (time.perf_counter() - start)
        key = executor_name if executor_name == "serial" else f"{executor_name} {task or 'default'}"
        spent[key] = min(spent.get(key, float("inf")), (cpu() - used) / args.hands)
        return rate, result

    if args.ray:
        import ray

        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
    run("serial", None)  # warm: imports, tables
    best: dict[str, float] = {}
    expected = None
    for _ in range(args.rounds):
        rate, expected = run("serial", None)
        best["serial"] = max(rate, best.get("serial", 0.0))
        for size in sizes:
            rate, result = run("process", size)
            assert result == expected, f"task size {size} changed the result"
            key = f"process {size or 'default'}"
            best[key] = max(rate, best.get(key, 0.0))
        if args.ray:
            rate, result = run("ray", None)
            assert result == expected
            best["ray default"] = max(rate, best.get("ray default", 0.0))
    print_header(args.rounds)
    print(f"{args.hands:,} hands, 6 random bots, rws hold'em; {args.workers} workers, a pool "
          "started for each run (its start timed)")  # fmt: skip
    serial = best["serial"]
    print(f"{'backend':<26}{'hands/s':>10}{'x serial':>10}{'CPU a hand':>12}{'on free cores':>15}")
    own = spent["serial"]
    print(f"{'serial':<26}{serial:>10,.0f}{1.0:>10.2f}{own * 1e6:>10.1f}us{1.0:>15.2f}")
    for key, rate in best.items():
        if key != "serial":
            label = key + (" hands a task" if key[-1].isdigit() else "")
            ideal = args.workers * own / spent[key]
            print(f"{label:<26}{rate:>10,.0f}{rate / serial:>10.2f}"
                  f"{spent[key] * 1e6:>10.1f}us{ideal:>15.2f}")  # fmt: skip
    print("target: the process pool >= 1.7x serial on two cores from 20,000 hands; CPU a hand: "
          "all processes' CPU (the pool's workers and its start included) over the hands; on "
          f"free cores: {args.workers} x serial's CPU a hand over the backend's, the speedup "
          "if its workers had a core each to themselves")  # fmt: skip


if __name__ == "__main__":
    main()
