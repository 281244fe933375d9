"""The reliability battery: families of hostile or random trials, each with a seed and a time
budget, and a table of what held.

A family is a function ``(seed, seconds) -> Outcome`` registered by name with :func:`family`; it
bounds its own time and counts each trial as held (the promise kept: a result, or the module's
own error, in bounded time) or failed (a raw exception, a hang, a wrong result), keeping a few
failures as examples. The families:

- ``random-play`` (bench/families.py): random legal play over every book x game x deck x
  structure the shipped rulebooks allow, dealt automatically and step by step; chips and cards
  checked after every action, the hand rebuilt from its log at the end;
- ``illegal-actions`` (bench/families.py): bad amounts of every type and value, acting out of
  turn, dealer steps not due or with the wrong cards, in random states: each an
  ``IllegalAction`` that leaves the hand, its log and its copy as they were;
- ``hidden-cards`` (bench/families.py): each seat's and the spectator's view, PHH, PokerStars
  text, OHH and event log: no card the viewer has not seen;
- ``phh-fuzz``, ``rulebook-fuzz`` (bench/fuzz.py): mutated PHH files through load, replay and
  dump; mutated rulebook files, extends chains and table options through load, ``rules show``
  and ``Rulebook.rules``;
- ``shuffle`` (bench/shuffles.py): chi-square tests of the shufflers (p > 1e-6), and decks
  dealt by forked children.

    python bench/battery.py [--seconds N] [--seed S] [--family NAME ...] [--limit L]
                            [--save-failures DIR]

``--seconds`` is each family's budget; ``--limit`` the time one trial may take before it counts
as a hang (trials run in a child process that is killed past it). Exits 1 when anything failed.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

EXAMPLES = 3  # failures kept per family, as examples
LIMIT = 5.0  # seconds one trial may take (issue 13 counted files over 5 s)


@dataclass
class Failure:
    """One failed trial: what went wrong, and the input that did it (a file's bytes)."""

    what: str
    name: str = ""  # the input's file name (its suffix matters)
    data: bytes = b""
    extra: dict[str, bytes] = field(default_factory=dict)  # other files it needs (extends)


KNOWN: dict[str, str] = {}
"""Faults found already, in code another developer is rewriting, each held by an xfail test:
a regular expression a failure's text matches -> that test. A trial that fails so is counted as
known, not failed, so that the battery still shows what is new (register with known_fault)."""


def known_fault(pattern: str, test: str) -> None:
    KNOWN[pattern] = test


@dataclass
class Outcome:
    """A family's trials: each held, failed, or failed by a known fault (tried is the sum)."""

    tried: int = 0
    held: int = 0
    failed: int = 0
    known: int = 0
    examples: list[Failure] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=dict)  # failures by kind (exception type)
    known_kinds: dict[str, int] = field(default_factory=dict)  # known faults by their test

    notes: dict[str, int] = field(default_factory=dict)  # counts worth printing (refusals)

    def hold(self, count: int = 1) -> None:
        self.tried += count
        self.held += count

    def note(self, what: str, count: int = 1) -> None:
        """Count something the table should say under the family (held trials of one kind)."""
        self.notes[what] = self.notes.get(what, 0) + count

    def fail(self, failure: Failure) -> None:
        self.tried += 1
        test = next((t for p, t in KNOWN.items() if re.search(p, failure.what)), None)
        if test is not None:
            self.known += 1
            self.known_kinds[test] = self.known_kinds.get(test, 0) + 1
            return
        self.failed += 1
        kind = failure.what.split(":")[0]
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        if len(self.examples) < EXAMPLES and not any(
            e.what.split(":")[0] == kind for e in self.examples
        ):
            self.examples.append(failure)


Family = Callable[[int, float], Outcome]
FAMILIES: dict[str, Family] = {}


def family(name: str) -> Callable[[Family], Family]:
    """Register a family under ``name`` (``python bench/battery.py --family NAME``)."""

    def register(run: Family) -> Family:
        FAMILIES[name] = run
        return run

    return register


# ---------------------------------------------------------------------------------------------
# Trials in a child process, killed when one runs past the limit


Check = Callable[[Any], Any]
"""A trial: None when the promise held, else what went wrong (a string); or a report of its
own for a family that counts many trials in one call."""


def _serve(connection: Connection, check: Check) -> None:
    while True:
        try:
            payload = connection.recv()
        except EOFError:
            return
        try:
            verdict = check(payload)
        except BaseException as error:
            verdict = f"{type(error).__name__}: {_short(str(error))}\n{_where(error)}"
        connection.send(verdict)


class Sandbox:
    """Runs ``check`` on payloads in a forked child; a trial past ``limit`` seconds kills it
    (C code, a big-integer power say, cannot be interrupted any other way) and a new child
    takes over."""

    def __init__(self, check: Check, limit: float) -> None:
        self.check = check
        self.limit = limit
        self.context = multiprocessing.get_context("fork")
        self.process: Any = None
        self.connection: Connection | None = None

    def _start(self) -> None:
        ours, theirs = self.context.Pipe()
        self.process = self.context.Process(target=_serve, args=(theirs, self.check), daemon=True)
        self.process.start()
        theirs.close()
        self.connection = ours

    def run(self, payload: Any) -> Any:
        """The check's verdict (None: held; a string: what failed; a check may return
        another value, a report of many trials), or what went wrong running it."""
        if self.process is None or not self.process.is_alive():
            self._start()
        assert self.connection is not None
        started = time.perf_counter()
        self.connection.send(payload)
        if not self.connection.poll(self.limit):
            self.close()
            return f"over {self.limit:g} s: no result (killed)"
        try:
            verdict = self.connection.recv()
        except EOFError:
            self.close()
            return "crashed: the child process died"
        elapsed = time.perf_counter() - started
        if not isinstance(verdict, str) and elapsed > self.limit:
            return f"over {self.limit:g} s: took {elapsed:.1f} s"
        return verdict

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.join()
        if self.connection is not None:
            self.connection.close()
        self.process, self.connection = None, None

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _short(text: str, size: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= size else text[: size - 20] + " ... " + text[-15:]


def _where(error: BaseException) -> str:
    """The innermost croupier frame of a traceback, where a fix would go."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if "croupier" in f.filename] or frames
    return f"  at {Path(ours[-1].filename).name}:{ours[-1].lineno} {ours[-1].name}" if ours else ""


# Files in memory where there is such a folder: creating one on disk can take 2 ms.
_FAST = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None


def in_folder(files: dict[str, bytes], run: Callable[[Path], str | None]) -> str | None:
    """Write ``files`` to a fresh temporary folder and run ``run`` on the first one's path."""
    with tempfile.TemporaryDirectory(prefix="croupier-battery-", dir=_FAST) as folder:
        paths = []
        for name, data in files.items():
            path = Path(folder, name)
            path.write_bytes(data)
            paths.append(path)
        return run(paths[0])


# ---------------------------------------------------------------------------------------------
# The runner


def run_families(names: list[str], seed: int, seconds: float) -> dict[str, Outcome]:
    results = {}
    for name in names:
        started = time.perf_counter()
        results[name] = FAMILIES[name](seed, seconds)
        spent = time.perf_counter() - started
        print(f"  {name}: {results[name].tried:,} trials in {spent:.0f} s", file=sys.stderr)
    return results


def print_table(results: dict[str, Outcome]) -> None:
    width = max([len("family"), *map(len, results)])
    print(f"{'family':<{width}}  {'tried':>9}  {'held':>9}  {'failed':>7}  {'known':>7}")
    for name, o in results.items():
        print(f"{name:<{width}}  {o.tried:>9,}  {o.held:>9,}  {o.failed:>7,}  {o.known:>7,}")
    for name, outcome in results.items():
        for what, count in outcome.notes.items():
            print(f"{name}: {count:,} {what}")
    for name, outcome in results.items():
        for test, count in outcome.known_kinds.items():
            print(f"\n{name}: {count:,} known (held by an xfail test, {test})")
        if outcome.failed:
            kinds = ", ".join(f"{kind} x{count}" for kind, count in sorted(outcome.kinds.items()))
            print(f"\n{name} failures: {kinds}")
            for example in outcome.examples:
                print(f"- {example.what}")
                if example.name:
                    shown = example.data[:300].decode("utf-8", "replace")
                    print(f"  in {example.name} ({len(example.data):,} bytes): {shown!r}")


def save_failures(results: dict[str, Outcome], folder: Path) -> None:
    for name, outcome in results.items():
        for index, example in enumerate(outcome.examples):
            target = folder / name / str(index)
            target.mkdir(parents=True, exist_ok=True)
            (target / "failure.txt").write_text(example.what + "\n")
            for file, data in {example.name: example.data, **example.extra}.items():
                if file:
                    (target / file).write_bytes(data)


def main(argv: list[str] | None = None) -> int:
    global LIMIT
    import families  # noqa: F401 - registers random-play, illegal-actions and hidden-cards
    import fuzz  # noqa: F401 - registers phh-fuzz and rulebook-fuzz
    import shuffles  # noqa: F401 - registers shuffle

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="each family's budget")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--family", nargs="+", choices=sorted(FAMILIES), default=None)
    parser.add_argument(
        "--limit", type=float, default=None, help=f"seconds a trial may take ({LIMIT:g})"
    )
    parser.add_argument("--save-failures", type=Path, default=None, metavar="DIR")
    args = parser.parse_args(argv)
    LIMIT = args.limit if args.limit is not None else LIMIT
    names = args.family or list(FAMILIES)
    print(f"battery: seed {args.seed}, {args.seconds:g} s a family, {LIMIT:g} s a trial")
    results = run_families(names, args.seed, args.seconds)
    print_table(results)
    if args.save_failures is not None:
        save_failures(results, args.save_failures)
    return 1 if any(outcome.failed for outcome in results.values()) else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.modules.setdefault("battery", sys.modules["__main__"])
    sys.exit(main())
