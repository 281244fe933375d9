"""``croupier tournament``: a tournament of bots at the terminal, its results, its saved log and
hands, and its one-line errors."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.history import load_phhs, replay
from croupier.tournament import ManualClock, Tournament, fileformat, standard_settings
from croupier.tournament import events as ev
from croupier.tournament.log import load_log

runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["tournament", *args])
    return result.exit_code, result.output


def test_a_tournament_of_bots_runs_to_the_end_and_prints_results_and_payouts() -> None:
    code, out = _run("--players", "30", "--table-size", "6", "--bots", "random", "--seed", "4")
    assert code == 0, out
    assert "30 random bots at 5 tables of 6, prize pool 300,000" in out
    assert "results" in out and "prize pool 300,000 from 30 entries" in out
    paid = re.search(r"(\d+) places paid, ([\d,]+) in all", out)
    assert paid is not None and paid.group(2) == "300,000"
    assert re.search(r"winner bot\d+ · [\d,]+ hands", out)


def test_the_saved_log_rebuilds_the_tournament_and_every_saved_hand_replays(
    tmp_path: Path,
) -> None:
    log, hands = tmp_path / "t.jsonl", tmp_path / "t.phhs"
    code, out = _run(
        "--players", "12", "--table-size", "4", "--bots", "random,tight", "--seed", "9",
        "--save-log", str(log), "--save-hands", str(hands),
    )  # fmt: skip
    assert code == 0, out
    events = load_log(log.read_text(encoding="utf-8"))
    t = Tournament.rebuild(standard_settings(table_size=4), events, seed=9, clock=ManualClock())
    assert t.finished and f"winner {t.winner} " in out
    finished = [e for e in events if isinstance(e, ev.HandFinished)]
    histories = load_phhs(hands.read_text(encoding="utf-8"))
    assert len(histories) == len(finished) == t.hands_played
    numbers = [history.hand for history in histories]
    assert len(set(numbers)) == len(numbers)  # a tracker keeps every hand: numbers unique
    for count, (history, done) in enumerate(zip(histories, finished, strict=True), start=1):
        assert history.table == done.table and history.seat_count == 4
        assert isinstance(history.hand, int) and history.hand % 10**6 == count
        assert history.level is not None and history.event and history.year is not None
        assert history.seats is not None and history.finishing_stacks is not None
        assert tuple(zip(history.seats, history.finishing_stacks, strict=True)) == done.stacks
        result = replay(history)
        assert result.ok, result.error
        assert result.hand is not None
        assert tuple(result.hand.stacks) == tuple(chips for _, chips in done.stacks)
    assert f"saved the {len(histories):,} hands" in out


def _example_file(folder: Path) -> Path:
    """The tournament file documented in croupier.tournament.fileformat (payouts for 2 to 10)."""
    doc = fileformat.__doc__ or ""
    file = folder / "league.toml"
    file.write_text(textwrap.dedent(doc[doc.index("    name =") : doc.index("Every mistake")]))
    return file


def test_a_tournament_file_sets_the_levels_and_the_big_blind_ante_is_saved(
    tmp_path: Path,
) -> None:
    file = _example_file(tmp_path)
    hands = tmp_path / "hands.phhs"
    code, out = _run(str(file), "--players", "10", "--save-hands", str(hands), "--seed", "2")
    assert code == 0, out
    assert "Thursday league" in out and "level 2: 50/100 big-blind ante 100" in out
    histories = load_phhs(hands.read_text(encoding="utf-8"))
    with_ante = [h for h in histories if h.antes and any(h.antes)]
    assert with_ante  # level 2's big-blind ante, one player's
    for history in with_ante:
        assert history.antes is not None and sum(1 for a in history.antes if a) == 1
        assert history.ante_trimming_status is not True  # dead money (PHH's default)


def test_a_field_the_files_payouts_do_not_cover_is_refused_before_the_start(
    tmp_path: Path,
) -> None:
    file = _example_file(tmp_path)
    code, out = _run(str(file), "--players", "12")
    assert code == 2 and out.strip() == (
        "error: no payout range for 12 entrants: the template covers 2 to 10"
    )


def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    for option, name in (("--save-log", "t.jsonl"), ("--save-hands", "t.phhs")):
        existing = tmp_path / name
        existing.write_text("keep me")
        code, out = _run("--players", "4", option, str(existing))
        assert code == 2 and "does not overwrite" in out
        assert existing.read_text() == "keep me"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "many"], "--players takes a whole number"),
        (["--players", "1"], "at least 2"),
        (["--players", "1000001"], "at most 100,000"),
        (["--table-size", "1"], "--table-size takes a whole number of at least 2"),
        (["--table-size", "12"], "over the 10 players"),
        (["--bots", "shark"], "no bot called 'shark'"),
        (["--seed", "x"], "--seed takes a whole number"),
        (["--seconds-per-hand", "0"], "at least 1"),
        (["--save-hands", "hands.txt"], "name a .phhs file"),
        (["--save-log", "/no/such/folder/t.jsonl"], "no folder"),
        (["no-such-file.toml"], "cannot read the tournament file"),
        (["--no-such-option"], "No such option"),
        (["--players"], "requires an argument"),
    ],
)
def test_every_bad_argument_is_one_line_and_a_nonzero_exit(args: list[str], message: str) -> None:
    code, out = _run(*args)
    assert code == 2
    assert message in out
    assert len(out.strip().splitlines()) == 1, out
    assert "Traceback" not in out
