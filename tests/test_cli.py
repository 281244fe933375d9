"""The command line as a person types it."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli import app

runner = CliRunner()


def test_evaluate_names_the_hand_and_the_hole_cards_used() -> None:
    result = runner.invoke(app, ["evaluate", "Ah Kh", "--board", "Qh Jh Th 2c 3d"])
    assert result.exit_code == 0, result.output
    assert "Royal Flush" in result.output
    assert "hole cards used: Ah Kh" in result.output


def test_evaluate_omaha_uses_exactly_two_hole_cards() -> None:
    # Four hearts in hand and one on the board is no flush at Omaha (au 17.5).
    result = runner.invoke(
        app, ["evaluate", "Ah Kh Qh 2h", "--board", "Jh Ts 9c 4d 3s", "--hole-cards-used", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "Straight, King high" in result.output
    assert "hole cards used: Kh Qh" in result.output


def test_bad_cards_are_an_error_not_a_traceback() -> None:
    result = runner.invoke(app, ["evaluate", "Ah Ah"])
    assert result.exit_code == 2
    assert "duplicate card Ah" in result.output
    assert "Traceback" not in result.output


def test_unknown_ranking_lists_the_allowed_ones() -> None:
    result = runner.invoke(app, ["evaluate", "Ah Kh Qh Jh Th", "--ranking", "bogus"])
    assert result.exit_code == 2
    assert "short36" in result.output and "badugi" in result.output


def test_play_auto_runs_under_every_rulebook() -> None:
    for book, game in (("rws", "holdem"), ("qld", "holdem"), ("au-casino", "stud7"),
                       ("cardroom", "draw"), ("league", "holdem")):  # fmt: skip
        result = runner.invoke(
            app, ["play", "--auto", "--hands", "3", "--seed", "5", "--rulebook", book,
                  "--game", game, "--stakes", "5/10", "--seats", "4"],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        assert "after 3 hands" in result.output


def test_play_refuses_a_game_the_book_does_not_deal() -> None:
    result = runner.invoke(app, ["play", "--auto", "--rulebook", "qld", "--game", "omaha"])
    assert result.exit_code == 2
    assert "qld s1" in result.output


FIXTURES = "tests/fixtures/phh"


def test_replay_a_folder_exits_0_when_every_hand_matches() -> None:
    result = runner.invoke(app, ["replay", FIXTURES])
    assert result.exit_code == 0, result.output
    assert "all replayed and matched" in result.output


def test_replay_json_has_one_object_per_hand_with_pots() -> None:
    import json

    result = runner.invoke(app, ["replay", f"{FIXTURES}/qld_s29_6_all_in.phh", "--json"])
    assert result.exit_code == 0, result.output
    (record,) = [json.loads(line) for line in result.output.splitlines()]
    assert record["ok"] and record["error"] is None
    assert record["finishing_stacks"] == [150, 550, 350]
    assert [(p["amount"], p["winners"]) for p in record["pots"]] == [(150, [0]), (200, [1])]


def test_replay_under_a_rulebook_with_house_options_takes_its_commission() -> None:
    import json

    # rws 4.1: 5% of each pot in order, main pot first, until the cap of 8: the main pot of
    # 150 pays 7 (7.5 in whole chips), the side pot of 200 the 1 left under the cap. The file
    # records the stacks of a game without commission, so the replay reports the mismatch.
    options = ["commission=percentage", "commission_rate=5%", "commission_cap=8"]
    args = ["replay", f"{FIXTURES}/qld_s29_6_all_in.phh", "--rulebook", "rws", "--json"]
    result = runner.invoke(app, args + [f"--option={o}" for o in options])
    assert result.exit_code == 1, result.output
    (record,) = [json.loads(line) for line in result.output.splitlines()]
    assert [p["commission"] for p in record["pots"]] == [7, 1] and record["commission"] == 8
    assert record["finishing_stacks"] == [143, 549, 350]
    assert "the history says [150, 550, 350]" in record["error"]


def test_replay_options_are_checked_against_the_rulebook() -> None:
    result = runner.invoke(
        app, ["replay", f"{FIXTURES}/qld_s29_6_all_in.phh", "--rulebook", "rws", "--option=bogus=1"]
    )
    assert result.exit_code == 1 and "unknown table option 'bogus'" in " ".join(
        result.output.split()
    )
    result = runner.invoke(app, ["replay", FIXTURES, "--option=nonsense"])
    assert result.exit_code == 2 and "expected KEY=VALUE" in result.output


def test_replay_reports_a_broken_file_and_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.phh"
    bad.write_text('variant = "NT"\nstarting_stacks = [100, 100]\nactions = ["p1 zz"]\n')
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 1
    assert "bad.phh" in result.output and "Traceback" not in result.output


def test_equity_command_exact_heads_up() -> None:
    import json

    result = runner.invoke(app, ["equity", "AhKh", "QsQd", "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["exact"] and record["trials"] == 1_712_304
    assert round(record["hands"][0]["equity"], 5) == 0.46214


def test_equity_command_rejects_duplicate_cards() -> None:
    result = runner.invoke(app, ["equity", "AhAh", "KdKc"])
    assert result.exit_code == 2 and "duplicate card Ah" in result.output


def test_bench_rejects_an_unknown_benchmark() -> None:
    result = runner.invoke(app, ["bench", "bogus"])
    assert result.exit_code == 2 and "evaluate, hands, replay, equity" in result.output


def test_play_saves_phh_that_replays(tmp_path: Path) -> None:
    saved = tmp_path / "session.phhs"
    result = runner.invoke(
        app, ["play", "--auto", "--hands", "3", "--seed", "4", "--save", str(saved)]
    )
    assert result.exit_code == 0, result.output
    replayed = runner.invoke(app, ["replay", str(saved)])
    assert replayed.exit_code == 0, replayed.output
    assert "3 hand(s)" in replayed.output


def test_play_saves_a_game_phh_has_no_variant_for_with_its_rulebook(tmp_path: Path) -> None:
    # Two Card Manila under au-casino with a 5% commission: written with the croupier fields
    # (docs/phh-extensions.md), replayed under the same book, commission and all.
    saved = tmp_path / "manila.phhs"
    args = ["play", "--auto", "--hands", "4", "--seed", "2", "--rulebook", "au-casino"]
    args += ["--game", "manila2", "--rake", "5%", "--save", str(saved)]
    assert runner.invoke(app, args).exit_code == 0
    text = saved.read_text()
    assert 'variant = "croupier"' in text and '_croupier_rulebook = "au-casino"' in text
    replayed = runner.invoke(app, ["replay", str(saved)])
    assert replayed.exit_code == 0 and "4 hand(s)" in replayed.output, replayed.output


def test_equity_command_labels_the_chance_of_a_tie_and_what_ties_are_worth() -> None:
    import json

    result = runner.invoke(app, ["equity", "AhKh", "QsQd"])
    assert result.exit_code == 0, result.output
    header = result.output.splitlines()[1].split()
    assert header == ["hand", "win", "tie", "tie", "share", "equity"]
    assert "0.393%" in result.output and "0.197%" in result.output  # 6,732 ties, half pots
    record = json.loads(runner.invoke(app, ["equity", "AhKh", "QsQd", "--json"]).output)
    hand = record["hands"][0]
    assert round(hand["tie_chance"] * 1_712_304) == 6_732
    assert round(hand["tie_share"] * 1_712_304 * 2) == 6_732


def test_equity_command_takes_ranges_and_percentages() -> None:
    import json

    result = runner.invoke(app, ["equity", "QQ+,AKs", "22-55", "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["exact"] and [h["hand"] for h in record["hands"]] == ["QQ+,AKs", "22-55"]
    result = runner.invoke(app, ["equity", "15%", "AhKh", "--monte-carlo", "--precision",
                                 "0.5%", "--seed", "3", "--backend", "serial"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "15%" in result.output and "Monte Carlo" in result.output


def test_equity_command_hi_lo_prints_scoop_high_and_low() -> None:
    result = runner.invoke(app, ["equity", "As 2d 3h 4c Ks Kd", "Qs Qd 7h 7c 2c Qh",
                                 "--game", "stud7-8"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "scoop" in result.output and "low" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["equity", "QQ+", "AhKh", "--trials", "many"], "--trials takes a whole number"),
        (["equity", "AhKh", "QsQd", "--precision", "tight"], "--precision takes a share"),
        (["equity", "AhKh", "QsQd", "--precision", "200%"], "precision must be"),
        (["equity", "AhKh", "QsQd", "--backend", "gpu"], "unknown backend 'gpu'"),
        (["equity", "AhKh", "QsQd", "--workers", "0"], "--workers takes a whole number"),
        (["equity", "AhKh", "QsQd", "--address", "x"], "address is for the ray backend"),
        (["equity", "AhKh", "QsQd", "--game", "pineapple"], "unknown game 'pineapple'"),
        (["equity", "KA", "QsQd"], "higher card first"),
        (["equity", "AhKh", "QsQd", "--deck", "36"], "holdem is played with 52 cards"),
        (["equity", "AhKh", "QsQd", "--board", "2c ?? 4d"], "only allowed in hands"),
        (["equity", "AhKh", "QsQd", "--dead", "Ah"], "duplicate card Ah"),
        (["equity", "AhKh"], "at least two hands"),
        (["evaluate", "Ah Kh", "--board", "Qh Jh Th 2c 3d", "--ranking", "short36"],
         "card 2c is not in the 36-card deck"),
        (["evaluate", "Ah Kh Qh Jh Th", "--hole-cards-used", "two"], "--hole-cards-used takes"),
        (["evaluate", "Ah Kh", "--board", "Qh", "--hole-cards-used", "2"], "at least that many"),
        (["evaluate", "Ah Kh Qh", "--ranking", "badugi"], "badugi hand takes 4 cards"),
    ],
)  # fmt: skip
def test_bad_equity_and_evaluate_input_is_one_line_and_exit_code_2(args, message) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert message in lines[0]
    assert "Traceback" not in result.output and "Card(" not in result.output


def test_each_commands_help_is_wrapped_by_the_terminal_not_by_the_source() -> None:
    """Typer's rich help keeps a docstring's line breaks: each paragraph of each command's
    help must come out as one line on a wide terminal (the terminal wraps it, not the source's
    100 columns), and the list of commands shows one sentence for each."""
    import typer.main

    group: Any = typer.main.get_command(app)
    commands = {name: command for name, command in group.commands.items() if name != "rules"}
    commands |= {f"rules {n}": c for n, c in group.commands["rules"].commands.items()}
    assert len(commands) >= 12
    for name, command in commands.items():
        shown = CliRunner().invoke(app, [*name.split(), "--help"], env={"COLUMNS": "400"}).output
        lines = [" ".join(line.split()) for line in shown.splitlines()]
        for paragraph in inspect.cleandoc(command.help or "").split("\n\n"):
            text = " ".join(paragraph.split())
            assert any(text in line for line in lines), (name, text)
        summary = " ".join(inspect.cleandoc(command.help or "").split("\n\n")[0].split())
        assert summary.endswith((".", ")")) and summary.count(". ") == 0, (name, summary)


@pytest.mark.parametrize(
    "command",
    [["play"], ["serve"], ["sim"], ["dealer"], ["rules", "show"], ["equity"], ["tournament"],
     ["replay"], ["convert"], ["evaluate"], ["bench"]],
)  # fmt: skip
def test_help_shows_readable_metavars_not_python_types(command: list[str]) -> None:
    """`--help` says what an option takes (FILE, N, SECONDS, KEY=VALUE, its name), and a flag
    takes nothing: no `<str>`, `<list[str]>` or `<bool>` (issue 44)."""
    import re

    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert not re.search(r"<(str|int|float|bool|path|list\[[a-z]+\])[^>]*>", result.output), (
        result.output
    )
    if command == ["dealer"]:
        assert re.search(r"--option\s+KEY=VALUE", result.output)
        assert re.search(r"--script\s+FILE", result.output)


def test_rules_show_fits_80_columns_as_a_list() -> None:
    """`croupier rules show qld` on an 80-column terminal: every setting a line with its value
    and clause, its note indented beneath; no line wider than the terminal (issue 44)."""
    result = runner.invoke(app, ["rules", "show", "qld"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert len(lines) < 300
    assert "opening_raise_is_blind = true  [qld s24(4)]" in lines
    wide = runner.invoke(app, ["rules", "show", "qld"], env={"COLUMNS": "160"})
    assert "┃ setting" in wide.output  # a wide terminal keeps the tables


def test_play_auto_save_keeps_what_the_screen_showed(tmp_path: Path) -> None:
    """Watching bots (`--auto`) the screen shows every card dealt; the saved file keeps them
    (issue 44), so it replays as it was watched."""
    import re

    saved = tmp_path / "watched.phhs"
    result = runner.invoke(
        app,
        ["play", "--auto", "--hands", "1", "--seed", "3", "--save", str(saved)],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    shown = re.findall(r"^(\w+) is dealt (\S+) (\S+)$", result.output, flags=re.MULTILINE)
    assert len(shown) == 6
    text = saved.read_text()
    assert "????" not in text
    for _name, first, second in shown:
        assert f"{first}{second}" in text
