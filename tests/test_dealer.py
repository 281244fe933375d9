"""The dealer's assistant: every worked example of docs/dealer.md run through
``croupier dealer --script`` as a subprocess, its output checked against what the document
shows; undo; every report of the library reachable from a script."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from croupier.irregularities import REPORTS
from croupier.irregularities.dealer import DealerError, open_session, run_script
from irregular import STUB_A, cards

DOC = Path(__file__).resolve().parent.parent / "docs" / "dealer.md"
EXAMPLE = re.compile(r"```dealer\n(?P<script>.*?)```\s*```json\n(?P<output>.*?)```", re.S)


def _examples() -> list[tuple[str, str, list[dict[str, object]]]]:
    found = []
    for match in EXAMPLE.finditer(DOC.read_text(encoding="utf-8")):
        first, _, script = match["script"].partition("\n")
        assert first.startswith("# croupier dealer "), first
        expected = [json.loads(line) for line in match["output"].splitlines() if line.strip()]
        found.append((first.removeprefix("# croupier dealer "), script, expected))
    return found


EXAMPLES = _examples()


def _command() -> list[str]:
    # This interpreter's croupier, not whichever ``croupier`` script is first on PATH.
    return [sys.executable, "-m", "croupier"]


def _matches(expected: object, printed: object) -> bool:
    """Every key the document shows has the value printed."""
    if isinstance(expected, dict):
        return isinstance(printed, dict) and all(
            key in printed and _matches(value, printed[key]) for key, value in expected.items()
        )
    return expected == printed


def test_the_document_has_an_example_for_every_irregularity() -> None:
    text = DOC.read_text(encoding="utf-8")
    for number in range(1, 33):
        assert re.search(rf"^### I{number}\. ", text, re.M), f"no worked example for I{number}"
    assert len(EXAMPLES) >= 32


@pytest.mark.parametrize(("args", "script", "expected"), EXAMPLES,
                         ids=[f"example{k}" for k in range(len(EXAMPLES))])  # fmt: skip
def test_every_example_of_docs_dealer_md_runs_as_shown(
    args: str, script: str, expected: list[dict[str, object]], tmp_path: Path
) -> None:
    path = tmp_path / "hand.txt"
    path.write_text(script, encoding="utf-8")
    done = subprocess.run(
        [*_command(), "dealer", *shlex.split(args), "--script", str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    printed = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(printed) == len(expected), done.stdout
    for want, got in zip(expected, printed, strict=True):
        assert _matches(want, got), (want, got)


def test_undo_steps_back_one_input_a_whole_ruling_at_once() -> None:
    session = open_session("au-casino", "holdem", stub=cards(STUB_A), stacks=[1000] * 4)
    session.enter("p3 call")
    outcome = session.enter("exposed p3 Qh")
    assert outcome.rulings[0].clause == "au 19.25" and session.hand.hole[2] == cards("8h 6s")
    session.enter("undo")
    assert session.hand.hole[2] == cards("Qh 8h") and session.hand.to_act == 3
    session.enter("undo")
    assert session.hand.to_act == 2
    with pytest.raises(DealerError, match="nothing to undo"):
        session.enter("undo")


def test_a_live_dealer_gives_unseen_cards_and_names_them_at_the_showdown() -> None:
    _, records = run_script(
        "\n".join([
            "deal", "p3 call", "p4 call", "p1 call", "p2 check", "burn ?", "flop 5d 4h 3c",
            "p1 check", "p2 check", "p3 check", "p4 check", "burn ?", "turn Ah", "p1 check",
            "p2 check", "p3 check", "p4 check", "burn ?", "river 3d", "p1 bet 40", "p2 fold",
            "p3 fold", "p4 fold",
        ]),
        book="league", game="holdem", stacks=[1000] * 4,
    )  # fmt: skip
    assert records == []


def test_a_refusal_and_an_unreadable_input_are_told_apart() -> None:
    session, records = run_script(
        "\n".join([f"stub {STUB_A}", "p3 fold", "misdeal", "flibber p3"]), book="qld",
        game="holdem", stacks=[1000] * 4,
    )  # fmt: skip
    assert records[0]["refused"].startswith("qld s32(2)")  # type: ignore[union-attr]
    assert "unknown input" in records[1]["error"]  # type: ignore[operator]
    assert "main pot 15" in session.status()


def test_every_report_of_the_library_is_a_dealer_command() -> None:
    """Every report type has its command, and the document lists it."""
    text = DOC.read_text(encoding="utf-8")
    for verb in REPORTS:
        assert f"`{verb}" in text, verb


def test_cli_dealer_reads_its_options_and_fails_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "hand.txt"
    path.write_text("p3 fold\n", encoding="utf-8")
    done = subprocess.run(
        [*_command(), "dealer", "--rulebook", "nowhere", "--script", str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "error:" in done.stdout
