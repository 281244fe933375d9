"""A short run of the reliability battery (bench/battery.py): every family holds. The full run
(minutes a family) is for the report; this one keeps the figures measured on every change."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import battery  # noqa: E402
import fuzz  # noqa: E402, F401 - registers the fuzzing families

SECONDS = 10.0  # each family's budget


@pytest.mark.parametrize("name", ["phh-fuzz", "rulebook-fuzz"])
def test_battery_family_holds_in_a_short_run(name: str) -> None:
    outcome = battery.FAMILIES[name](13, SECONDS)
    failures = "\n".join(f"{e.what} in {e.name}: {e.data[:200]!r}" for e in outcome.examples)
    assert outcome.failed == 0, failures
    assert outcome.tried == outcome.held + outcome.known and outcome.held >= 50


def test_battery_counts_a_raw_exception_and_a_hang_as_failures() -> None:
    # The sandbox itself: a check that raises, and one that runs past the limit, both fail.
    with battery.Sandbox(_hostile_check, limit=1.0) as sandbox:
        assert sandbox.run("fine") is None
        raised = sandbox.run("raise")
        assert raised is not None and raised.startswith("IndexError: list index out of range")
        assert sandbox.run("hang") == "over 1 s: no result (killed)"
        assert sandbox.run("fine") is None  # a new child took over


def _hostile_check(payload: str) -> str | None:
    if payload == "raise":
        return str([][1])
    if payload == "hang":
        while True:
            pass
    return None


def test_battery_prints_a_table_and_exits_1_on_a_failure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    @battery.family("always-fails")
    def always_fails(seed: int, seconds: float) -> battery.Outcome:
        outcome = battery.Outcome()
        outcome.hold()
        outcome.fail(battery.Failure("ValueError: boom", "x.phh", b"variant = 1"))
        return outcome

    try:
        code = battery.main(["--family", "always-fails", "--seconds", "1"])
    finally:
        del battery.FAMILIES["always-fails"]
    out = capsys.readouterr().out
    assert code == 1
    assert "always-fails          2          1        1        0" in out
    assert "- ValueError: boom" in out


def test_every_known_fault_is_held_by_a_strict_xfail_test() -> None:
    # A known fault is not counted as failed only while a test says it is still there: the
    # test's strict xfail flips when the fault is fixed, and then the entry goes too.
    import ast

    for test in battery.KNOWN.values():
        file, name = test.split("::")
        tree = ast.parse((BENCH.parent / file).read_text())
        (function,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
        marks = [ast.unparse(d) for d in function.decorator_list]
        assert any("xfail" in m and "strict=True" in m for m in marks), (test, marks)
