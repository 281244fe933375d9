"""Hands saved as they are played in every format (issue 19): the suffix, or --format, picks
PHH, croupier's event log, PokerStars text or Open Hand History; each file is read back by an
independent reader (the published PokerStars line forms, the OHH spec's own models)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from typer.testing import CliRunner

from croupier.cli import app
from pokerstars_format import parse
from test_ohh import SpecHandHistory  # the spec's models, less a field the spec lacks

runner = CliRunner()


def _hands_of(text: str) -> list[str]:
    return [block for block in text.split("\n\n\n") if block.strip()]


def test_sim_saves_pokerstars_text_every_hand_read_by_an_independent_parser(
    tmp_path: Path,
) -> None:
    path = tmp_path / "hands.txt"
    done = runner.invoke(app, ["sim", "--hands", "40", "--seats", "4", "--save", str(path)])
    assert done.exit_code == 0, done.output
    hands = _hands_of(path.read_text(encoding="utf-8"))
    assert len(hands) == 40
    for number, text in enumerate(hands, start=1):
        parsed = parse(text)
        # the session's number, then the hand's: unique across saved files (issue 41)
        assert parsed.hand_id % 10**6 == number and parsed.game == "Hold'em"
        assert parsed.hand_id // 10**6 > 200_000_000  # the session's second since 2020
        assert sum(parsed.finishing().values()) + parsed.rake == sum(parsed.starting.values())
        assert not parsed.dealt  # a spectator's record: nobody's hole cards unless shown


def test_format_ohh_whatever_the_suffix_each_line_valid_by_the_specs_models(
    tmp_path: Path,
) -> None:
    path = tmp_path / "hands.dat"
    args = ["sim", "--game", "omaha", "--hands", "25", "--seats", "3", "--save", str(path),
            "--format", "ohh"]  # fmt: skip
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 25
    for number, line in enumerate(lines, start=1):
        ohh = json.loads(line)["ohh"]
        parsed = SpecHandHistory.model_validate(ohh)
        assert int(parsed.game_number) % 10**6 == number and parsed.game_type == "Omaha"
        put = sum(Decimal(str(p["starting_stack"])) for p in ohh["players"])
        assert put > 0


def test_a_format_that_cannot_hold_the_game_is_refused_before_anything_is_played(
    tmp_path: Path,
) -> None:
    for game, suffix, instead in (("stud7", "ohh", ".jsonl"), ("stud5", "txt", ".phh or .jsonl")):
        path = tmp_path / f"stud.{suffix}"
        done = runner.invoke(app, ["sim", "--game", game, "--hands", "5", "--save", str(path)])
        assert done.exit_code == 2 and f"save to a {instead} file instead" in done.output
        assert not path.exists()


def test_an_unknown_format_is_one_line_naming_the_formats(tmp_path: Path) -> None:
    path = tmp_path / "hands.txt"
    args = ["sim", "--hands", "5", "--save", str(path), "--format", "xml"]
    done = runner.invoke(app, args)
    assert done.exit_code == 2
    assert done.output.strip().endswith("the formats are phh, phhs, jsonl, pokerstars, ohh")
    assert not path.exists()


def test_play_auto_saves_what_the_screen_showed_every_card(tmp_path: Path) -> None:
    """Bots alone (`--auto`), the screen shows every hole card as it is dealt: the file keeps
    them, with or without --house (issue 44; before, it kept a spectator's record)."""
    for house in (False, True):
        path = tmp_path / f"hands-{house}.txt"
        args = ["play", "--auto", "--hands", "12", "--seed", "3", "--save", str(path)]
        done = runner.invoke(app, args + ["--house"] * house)
        assert done.exit_code == 0, done.output
        hands = [parse(text) for text in _hands_of(path.read_text(encoding="utf-8"))]
        assert len(hands) == 12
        for hand in hands:  # bots alone: every hole card, as the screen told them
            assert len(hand.dealt) == len(hand.seats)
