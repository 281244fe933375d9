"""What the benchmark scripts report about the machine they ran on."""

from __future__ import annotations

import platform
from collections.abc import Callable


def cpu_model() -> str:
    """The processor's model name (from /proc/cpuinfo on Linux), else what platform says."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def engine() -> str:
    """Whether this croupier runs compiled (mypyc, see setup.py) or as pure Python."""
    import croupier

    compiled = croupier.compiled_modules()
    if not compiled:
        return "croupier pure Python (CROUPIER_PURE=1 or no C compiler at install)"
    return f"croupier compiled with mypyc ({len(compiled)} modules)"


def best_rates(runs: dict[str, Callable[[], float | None]], rounds: int) -> dict[str, float | None]:
    """Each engine's best rate (items a second) over ``rounds`` rounds that take turns. On a
    shared machine other work slows a round and never speeds one up, so the best round is
    the closest to the engine's own speed (timeit takes the minimum for the same reason), and
    taking turns exposes both engines to the same spells of load."""
    best: dict[str, float | None] = dict.fromkeys(runs)
    for _ in range(rounds):
        for name, run in runs.items():
            rate = run()
            if rate is not None:
                best[name] = max(rate, best[name] or 0.0)
    return best


def print_header(rounds: int) -> None:
    """The lines every speed comparison starts with: the machine, the engine, the method."""
    print(f"machine: {cpu_model()}, Python {platform.python_version()}, {engine()}")
    print(f"best of {rounds} rounds each, taking turns")
