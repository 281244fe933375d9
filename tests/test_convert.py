"""croupier convert: PHH into PHH, PokerStars text, OHH and JSON events, hidden cards hidden."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from croupier.cli import app
from croupier.history import load_phh, replay
from pokerstars_format import parse
from test_real_hands import HANDS

runner = CliRunner()
FIXTURES = Path(__file__).parent / "fixtures" / "phh"
HEADS_UP = str(FIXTURES / "rws_3_7_heads_up.phh")


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["convert", *args])
    return result.exit_code, result.stdout, result.stderr


def test_to_pokerstars_for_the_house_and_for_a_seat() -> None:
    code, text, _ = run(HEADS_UP, "--to", "pokerstars")
    assert code == 0
    parsed = parse(text)
    assert set(parsed.dealt) == {"p1", "p2"}
    assert parsed.finishing() == {"p1": 94, "p2": 106}
    code, text, _ = run(HEADS_UP, "--to", "pokerstars", "--viewer", "1")
    assert code == 0 and set(parse(text).dealt) == {"p1"}


def test_to_phh_for_a_seat_keeps_the_others_cards_hidden_and_still_replays() -> None:
    code, text, _ = run(HEADS_UP, "--to", "phh", "--viewer", "1")
    assert code == 0
    history = load_phh(text.encode())
    assert "d dh p2 ????" in history.actions and "d dh p1 7c2d" in history.actions
    assert replay(history).finishing_stacks == (94, 106)


def test_cards_a_history_does_not_name_stay_unknown(tmp_path: Path) -> None:
    source = tmp_path / "po.phh"
    source.write_text(HANDS["PO big-blind ante"], encoding="utf-8")  # p1's and p2's unknown
    code, text, _ = run(str(source), "--to", "ohh")
    assert code == 0
    ohh = json.loads(text)["ohh"]
    dealt = [a["player_id"] for r in ohh["rounds"] for a in r["actions"]
             if a["action"] == "Dealt Cards"]  # fmt: skip
    assert dealt == [2]
    code, text, _ = run(str(source), "--to", "jsonl")
    record = json.loads(text)
    hole = [e["cards"] for e in record["events"] if e["event"] == "DealHole"]
    assert hole == [["??"] * 4, ["??"] * 4, ["As", "Ah", "Kd", "Qc"]]
    assert record["stacks"] == [9900, 9200, 10900]


def test_a_folder_of_hands_converts_to_one_file(tmp_path: Path) -> None:
    for name in ("NT big-blind ante", "FT raise sized to the only caller"):
        (tmp_path / f"{name.split()[0]}.phh").write_text(HANDS[name], encoding="utf-8")
    out = tmp_path / "out.txt"
    code, _, _ = run(str(tmp_path), "--to", "pokerstars", "--output", str(out))
    assert code == 0
    hands = out.read_text(encoding="utf-8").split("\n\n")
    assert len(hands) == 2 and all(parse(hand) for hand in hands)


def test_stud_and_draw_histories_convert_to_pokerstars_text(tmp_path: Path) -> None:
    for name in ("F7S without a bring-in", "FR razz", "F2L3D raise sized to the only caller"):
        source = tmp_path / "hand.phh"
        source.write_text(HANDS[name], encoding="utf-8")
        code, text, _ = run(str(source), "--to", "pokerstars")
        assert code == 0, name
        finishing = replay(load_phh(HANDS[name].encode())).finishing_stacks
        assert sorted(parse(text).finishing().values()) == sorted(finishing), name


def test_errors_are_one_line_each(tmp_path: Path) -> None:
    code, _, err = run(HEADS_UP, "--to", "xml")
    expected = "error: --to 'xml': expected one of phh, pokerstars, ohh, jsonl"
    assert code == 2 and err.strip() == expected
    code, _, err = run(HEADS_UP, "--to", "phh", "--viewer", "seat2")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--viewer 'seat2'" in err
    code, _, err = run(str(tmp_path / "missing.phh"), "--to", "phh")
    assert code == 2 and "no such file" in err
    short = tmp_path / "short.phh"
    short.write_text(HANDS["NS button blind"], encoding="utf-8")  # PokerStars deals no 36 cards
    code, _, err = run(str(short), "--to", "pokerstars")
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert "PokerStars text covers" in err and "not holdem on 36 cards" in err
    wrong = tmp_path / "wrong.phh"
    wrong.write_text(HANDS["FR razz"].replace("[285, 340, 275]", "[285, 341, 274]"), "utf-8")
    code, _, err = run(str(wrong), "--to", "phh")
    assert code == 1 and "does not replay" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(HEADS_UP, "--to", "phh", "--viewer", "5")
    assert code == 1 and "players 1..2, not 5" in err
