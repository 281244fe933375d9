"""What a person types and reads at the terminal: bad command lines, saved files, the story of
a hand as a dealer tells it (issue 12 sections 2-4, issue 13 items 7-8)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from croupier.betting import Structure
from croupier.cards import DeckKind, parse_cards
from croupier.cli import app
from croupier.deck import Deck
from croupier.hand import Hand
from croupier.play import house_rules
from croupier.play_rules import USUAL_STRUCTURE, TableOptions, book_rules, describe_rules
from croupier.teller import Teller
from croupier.views import HOUSE, view

runner = CliRunner()
CROUPIER = [sys.executable, "-c", "from croupier.cli import app; app()"]


def console() -> Console:
    return Console(file=io.StringIO(), record=True, width=200, highlight=False)


def run(*args: str, cwd: Path | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CROUPIER, *args], capture_output=True, text=True, timeout=60, cwd=cwd, input=stdin,
        env={**os.environ, "COLUMNS": "80"},  # a narrow terminal: no message may wrap
    )  # fmt: skip


# --- every bad argument: one line and a non-zero exit ------------------------------------------

BAD_COMMAND_LINES = [
    (["play", "--ante", "-1"], "--ante takes a whole number of chips of at least 0"),
    (["play", "--hands", "-1"], "--hands takes a whole number of at least 0"),
    (["play", "--hands", "many"], "Invalid value for '--hands'"),
    (["play", "--buy-in", "1"], "--buy-in 1 is below the table minimum 20"),
    (["play", "--rake", "five"], "rake takes a percentage of each pot like 5%"),
    (["play", "--rake", "1e999999999%"], "rake takes a percentage"),
    (["play", "--rake", "150%"], "rake must be above 0% and below 100%"),
    (["play", "--bots", "5"], "--bots takes bot kinds"),
    (["play", "--bots", "shark"], "unknown bot kind 'shark'"),
    (["play", "--seats", "1"], "--seats takes a whole number of at least 2"),
    (["play", "--seats", "30"], "seats 2 to 10 players (house rules), not 30"),
    (["play", "--stakes", "2/1"], "stakes '2/1'"),
    (["play", "--stakes", "lots"], "stakes 'lots'"),
    (["play", "--game", "chess"], "unknown game 'chess': expected one of holdem"),
    (["play", "--structure", "crazy"], "unknown betting structure 'crazy'"),
    (["play", "--structure", "pot,pot"], "holdem has 4 betting rounds"),
    (["play", "--deck", "33"], "--deck 33"),
    (["play", "--game", "holdem", "--deck", "32"], "holdem is played with 52, 36 cards"),
    (["play", "--rulebook", "nosuchbook"], "nosuchbook"),
    (["play", "--rulebook", "qld", "--game", "omaha"], "qld s1"),
    (["play", "--rulebook", "qld", "--structure", "spread"], "it allows pot, half-pot"),
    (["play", "--rulebook", "rws", "--max-wager", "30"], "rws leaves no table maximum"),
    (["play", "--max-wager", "1"], "--max-wager takes a whole number of chips of at least 2"),
    (["play", "--save", "/no/such/folder/x.phhs"], "there is no folder /no/such/folder/"),
    (["play", "--save", "/dev/full"], "the suffix picks the format"),
    (["play", "--save", "hands.csv"], ".csv is no format croupier writes"),
    (["play", "--game", "stud5", "--save", "hands.txt"], "save to a .phh or .jsonl file instead"),
    (["play", "--save", "one.phh", "--hands", "3"], "a .phh file holds one hand"),
    (["play", "--save", "x.phhs", "--overwrite", "--append"], "choose one"),
    (["play", "--bogus"], "No such option: --bogus"),
    (["play", "extra"], "unexpected extra argument"),
    (["sim", "--hands", "0"], "--hands takes a whole number of at least 1"),
    (["sim", "--hands"], "requires an argument"),
    (["sim", "--seats", "1"], "--seats takes a whole number of at least 2"),
    (["sim", "--seats", "12"], "takes 2 to 10 players (au 5.1), not 12"),
    (["sim", "--bots", "shark"], "unknown bot kind 'shark'"),
    (["sim", "--bots", ","], "--bots takes bot kinds"),
    (["sim", "--stack", "1"], "cannot cover the big blind 2"),
    (["sim", "--rake", "five"], "rake takes a percentage"),
    (["sim", "--backend", "gpu"], "unknown backend 'gpu'"),
    (["sim", "--workers", "0"], "workers must be a positive whole number"),
    (["sim", "--address", "x"], "an address is for the ray backend"),
    (["sim", "--save", "x.phh"], "a .phh file holds one hand"),
    (["sim", "--rulebook", "league", "--game", "stud7"], "league"),
    (["bench", "bogus"], "no benchmark 'bogus'"),
    (["bench", "--bogus"], "No such option: --bogus"),
    (["nosuchcommand"], "No such command 'nosuchcommand'"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "message"), BAD_COMMAND_LINES)
def test_issue_13_7_every_bad_command_line_is_one_line_and_a_non_zero_exit(
    tmp_path: Path, args: list[str], message: str
) -> None:
    done = run(*args, cwd=tmp_path)  # a timeout here is a hang: the test fails
    out = (done.stdout + done.stderr).strip()
    assert done.returncode != 0, out
    lines = out.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out
    assert message in lines[0], out
    assert "Traceback" not in out
    assert not any(tmp_path.iterdir())  # nothing written on a refusal


def test_issue_13_7_max_wager_without_a_rulebook_is_the_table_maximum() -> None:
    rules = house_rules("holdem", "no-limit", "1/2", max_wager=50)
    assert rules.betting.max_wager == 50
    hand = Hand(rules, [500, 500, 500])
    assert hand.legal().raise_range == (4, 52)  # the call of 2 and a raise of at most 50


# --- saved files are what their names say ------------------------------------------------------


def test_issue_12_2_an_existing_file_is_refused_overwritten_or_appended(tmp_path: Path) -> None:
    saved = tmp_path / "session.phhs"
    args = ["play", "--auto", "--hands", "2", "--seed", "4", "--save", str(saved)]
    assert runner.invoke(app, args).exit_code == 0
    first = saved.read_text()
    refused = runner.invoke(app, args)
    assert refused.exit_code == 2 and "exists: pass --overwrite" in refused.output
    assert saved.read_text() == first  # untouched
    assert runner.invoke(app, [*args, "--append"]).exit_code == 0
    replayed = runner.invoke(app, ["replay", str(saved)])
    assert replayed.exit_code == 0 and "4 hand(s)" in replayed.output, replayed.output
    assert [f"[{n}]" in saved.read_text() for n in range(1, 5)] == [True] * 4
    assert runner.invoke(app, [*args, "--overwrite"]).exit_code == 0
    # The same two hands again; their identity is the new session's (its numbers and start).
    actions = re.compile(r"^actions = \[.*?^\]", re.M | re.S)
    assert actions.findall(saved.read_text()) == actions.findall(first)
    assert len(actions.findall(first)) == 2 and "[3]" not in saved.read_text()


def test_issue_12_2_a_phh_file_holds_one_hand_that_replays(tmp_path: Path) -> None:
    saved = tmp_path / "one.phh"
    args = ["play", "--auto", "--hands", "1", "--seed", "2", "--save", str(saved), "--house"]
    assert runner.invoke(app, args).exit_code == 0
    assert not saved.read_text().startswith("[")  # one hand, not a collection
    replayed = runner.invoke(app, ["replay", str(saved)])
    assert replayed.exit_code == 0 and "1 hand(s)" in replayed.output, replayed.output


def test_issue_13_8_a_players_history_holds_what_that_player_saw(tmp_path: Path) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    saved = tmp_path / "mine.phhs"
    done = run("play", "--seed", "4", "--hands", "5", "--seats", "4", "--save", str(saved),
               stdin="c\n" * 400)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    text = saved.read_text()
    blocks = text.split("\n[")
    assert len(blocks) == 5
    for block in blocks:
        players = json.loads(re.search(r"players = (\[.*\])", block).group(1))  # type: ignore[union-attr]
        me = players.index("You") + 1
        dealt = dict(re.findall(r'"d dh p(\d+) (\S+)"', block))
        shown = dict(re.findall(r'"p(\d+) sm (\S+)"', block))
        for player, cards in dealt.items():
            if int(player) == me:
                assert "?" not in cards  # my own cards
            else:
                assert cards == "????"  # a bot's cards: never seen, unless shown down
                assert player in shown or f'"p{player} sm"' in block or f'"p{player} f"' in block
    replayed = runner.invoke(app, ["replay", str(saved)])
    assert replayed.exit_code == 0 and "5 hand(s)" in replayed.output, replayed.output
    with saved.open("rb") as file:
        assert len(list(pokerkit.HandHistory.load_all(file))) == 5
    house = tmp_path / "house.phhs"
    done = run("play", "--seed", "4", "--hands", "5", "--seats", "4", "--save", str(house),
               "--house", stdin="c\n" * 400)  # fmt: skip
    assert done.returncode == 0 and "????" not in house.read_text()


def test_issue_12_2_a_players_event_log_replays(tmp_path: Path) -> None:
    saved = tmp_path / "mine.jsonl"
    done = run("play", "--seed", "6", "--hands", "4", "--seats", "3", "--rulebook", "cardroom",
               "--game", "holdem", "--structure", "fixed", "--save", str(saved),
               stdin="c\n" * 400)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    records = [json.loads(line) for line in saved.read_text().splitlines()]
    assert len(records) == 4 and records[0]["table"]["rulebook"] == "cardroom"
    burns = [e["card"] for r in records for e in r["events"] if e["event"] == "Burn"]
    assert burns and set(burns) == {None}  # the burn cards are nobody's to see
    replayed = runner.invoke(app, ["replay", str(saved)])
    assert replayed.exit_code == 0 and "4 hand(s)" in replayed.output, replayed.output


def test_issue_13_7_a_save_failing_mid_game_keeps_the_hand_and_says_so_in_one_line(
    tmp_path: Path,
) -> None:
    full = tmp_path / "full.jsonl"
    full.symlink_to("/dev/full")  # every write fails: no space left on the device
    done = run("play", "--auto", "--hands", "3", "--seed", "1", "--save", str(full),
               "--overwrite")  # fmt: skip
    assert done.returncode == 1
    errors = [line for line in (done.stdout + done.stderr).splitlines() if "error" in line]
    assert len(errors) == 1 and "cannot save hand #1" in errors[0], done.stdout + done.stderr
    assert "No space left on device" in errors[0]
    assert "after 1 hand" in done.stdout  # the hand played stands, with the summary
    assert "Traceback" not in done.stdout + done.stderr


# --- the rules of a quick game --------------------------------------------------------------------


def test_issue_12_3_each_game_has_its_usual_structure_without_a_rulebook() -> None:
    for game, usual in USUAL_STRUCTURE.items():
        assert house_rules(game).betting.structures == (usual,)
    assert house_rules("razz").betting.structures == (Structure.FIXED,)
    assert house_rules("triple-draw27").betting.structures == (Structure.FIXED,)
    assert house_rules("omaha").betting.structures == (Structure.POT,)
    help_text = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "250"}).output
    for game in USUAL_STRUCTURE:
        assert game in help_text
    assert "razz (fixed)" in help_text and "triple-draw27 (fixed)" in help_text


def test_issue_12_3_auto_and_the_other_flags_take_no_value_in_the_help() -> None:
    help_text = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "250"}).output
    for flag in ("--auto", "--overwrite", "--append", "--house"):
        line = next(line for line in help_text.splitlines() if flag + " " in line)
        assert "<bool>" not in line and "BOOL" not in line.upper(), line


def test_issue_12_3_play_and_sim_name_their_options_alike() -> None:
    for command in ("play", "sim"):
        help_text = runner.invoke(app, [command, "--help"], env={"COLUMNS": "250"}).output
        assert "--seats" in help_text and "--bots" in help_text and "KINDS" in help_text


def test_issue_12_3_qld_combination_betting_is_played() -> None:
    rules = book_rules("qld", "holdem", "combination", "5/10")
    # qld s28(10)-(11): straddle first, the table's betting on the 2nd and 3rd, pot last.
    assert rules.betting.structures == (
        Structure.STRADDLE, Structure.POT, Structure.POT, Structure.POT,
    )  # fmt: skip
    per_round = book_rules("qld", "holdem", "straddle,half-pot,half-pot,half-pot", "5/10")
    assert per_round.betting.structures[1] is Structure.HALF_POT
    assert describe_rules(rules).startswith("holdem · straddle/pot/pot/pot · blinds")
    args = ["play", "--auto", "--hands", "2", "--seed", "1", "--rulebook", "qld"]
    done = runner.invoke(app, [*args, "--structure", "combination", "--stakes", "5/10"])
    assert done.exit_code == 0 and "after 2 hands" in done.output, done.output


def test_table_options_round_trip_for_a_replay() -> None:
    options = TableOptions("stud7", "fixed", "1/10", "au-casino", rake="5%")
    assert TableOptions.from_dict(options.to_dict()) == options
    assert options.rules() == book_rules("au-casino", "stud7", "fixed", "1/10", rake="5%")


# --- the story, as a dealer tells it -------------------------------------------------------------


def deck(holes: list[str], board: str, players: int) -> Deck:
    """A hold'em deck: hole cards round by round, then burn and board as the engine deals."""
    cards = [parse_cards(h) for h in holes]
    top = [cards[p][i] for i in range(2) for p in range(players)]
    shown = list(parse_cards(board))
    rest = [c for c in DeckKind.STANDARD.cards if c not in top and c not in shown]
    order = [*top, rest[0], *shown[:3], rest[1], shown[3], rest[2], shown[4], *rest[3:]]
    return Deck(DeckKind.STANDARD, order)


def tell(hand: Hand, names: dict[int, str], viewer: int = HOUSE) -> str:
    out = console()
    seats = tuple(range(1, hand.players + 1))
    teller = Teller(out, hand.rules, seats, names, hand.starting, viewer)
    teller.header(1, seats[-1])
    while hand.phase.name != "OVER":
        hand.check_or_call()
    teller.tell(hand.events)
    return out.export_text()


def test_issue_12_3_the_deciding_kicker_is_named() -> None:
    # Both hold two pair, Eights and Threes, on the board; Ada shows first, Cy's Ace beats her
    # King, so Cy shows too and wins on the kicker.
    hand = Hand(house_rules("holdem"), [100, 100],
                deck(["Kd 2h", "Ac 2s"], "8h 8d 3c 3s Qd", 2))  # fmt: skip
    text = tell(hand, {1: "Ada", 2: "Cy"})
    assert "Ada shows Kd 2h  Two Pair, Eights and Threes" in text
    assert "Cy shows Ac 2s  Two Pair, Eights and Threes" in text
    assert "Cy wins 4 from the pot with Two Pair, Eights and Threes, Ace kicker" in text
    # No kicker where the hands differ otherwise.
    hand = Hand(house_rules("holdem"), [100, 100],
                deck(["Kd 2h", "Ac Ad"], "8h 8d 3c 3s Qd", 2))  # fmt: skip
    text = tell(hand, {1: "Ada", 2: "Cy"})
    assert "Cy wins 4 from the pot with Two Pair, Aces and Eights" in text
    assert "kicker" not in text


def omaha(holes: list[str], board: str) -> Deck:
    cards = [parse_cards(h) for h in holes]
    top = [cards[p][i] for i in range(4) for p in range(len(holes))]
    shown = list(parse_cards(board))
    rest = [c for c in DeckKind.STANDARD.cards if c not in top and c not in shown]
    order = [*top, rest[0], *shown[:3], rest[1], shown[3], rest[2], shown[4], *rest[3:]]
    return Deck(DeckKind.STANDARD, order)


def test_issue_12_3_hi_lo_halves_are_named_with_the_low_hand() -> None:
    rules = house_rules("omaha8", "pot", "1/2")
    names = {1: "Ada", 2: "Cy"}
    # Ada shows first; each of Cy's hands below is worth showing.
    split = omaha(["Kd Kh Ks 9h", "As 2s Qc Qd"], "Kc 7d 8s 5c Js")
    text = tell(Hand(rules, [100, 100], split), names)
    assert "Ada wins 2, the high half of the pot, with Three of a Kind, Kings" in text
    assert "Cy wins 2, the low half of the pot, with 8-7-5-2-A low" in text
    scoop = omaha(["Qc Qd 3h 4h", "As 2s Kd Kh"], "Kc 7d 8s 5c Js")
    text = tell(Hand(rules, [100, 100], scoop), names)
    assert (
        "Cy wins 4 from the pot (a scoop): the high half with Three of a Kind, Kings and the "
        "low half with 8-7-5-2-A low"
    ) in text
    no_low = omaha(["Qc Qd 2h 3h", "Kd Kh Tc 2d"], "Kc 7d 8s 9c Js")
    text = tell(Hand(rules, [100, 100], no_low), names)
    assert (
        "Cy wins 4 from the pot with Three of a Kind, Kings (no qualifying low: the high hand "
        "takes it all)"
    ) in text


def test_issue_12_3_stud_has_no_button_and_shows_every_up_card_on_every_street() -> None:
    rules = house_rules("stud7", "no-limit", "1/2")
    hand = Hand(rules, [10, 100, 100])
    out = console()
    teller = Teller(out, rules, (1, 2, 3), {1: "Ada", 2: "Bea", 3: "Cy"}, hand.starting, HOUSE)
    teller.header(1, 3)
    while hand.phase.name != "OVER":  # everyone all-in on third street: the rest runs out
        legal = hand.legal()
        if legal.raise_range is not None:
            hand.bet_or_raise_to(legal.raise_range[1])
        else:
            hand.check_or_call()
    teller.tell(hand.events)
    text = out.export_text()
    assert "Hand #1" in text and "button" not in text
    lines = text.splitlines()
    for street in ("4th", "5th", "6th", "7th"):
        line = next(line for line in lines if line.startswith(f"── {street} street"))
        for name in ("Ada", "Bea", "Cy"):  # all-in players' up cards too
            assert re.search(rf"{name} \[(\w\w ?)+\]", line), line
    seventh = lines.index(next(line for line in lines if line.startswith("── 7th street")))
    dealt = [i for i, line in enumerate(lines) if " is dealt " in line]
    assert dealt[-3:] == [seventh + 1, seventh + 2, seventh + 3]  # under their street


def test_issue_12_3_an_uncalled_bet_comes_back_when_its_round_ends() -> None:
    rules = house_rules("holdem", "no-limit", "1/2")
    hand = Hand(rules, [30, 200], deck(["Ac Ad", "Kd Kh"], "8h 7d 3c 4s Qd", 2))
    out = console()
    teller = Teller(out, rules, (1, 2), {1: "Ada", 2: "Cy"}, hand.starting, HOUSE)
    hand.check_or_call()  # the button completes
    hand.check_or_call()
    hand.check_or_call()  # the flop: Ada checks, Cy bets 100, Ada calls all-in for 28
    hand.bet_or_raise_to(100)
    hand.check_or_call()
    teller.tell(hand.events)
    lines = out.export_text().splitlines()
    back = lines.index("72 uncalled goes back to Cy")
    turn = next(i for i, line in enumerate(lines) if line.startswith("── turn"))
    assert back < turn  # returned at the end of the flop's betting, before the turn
    flop_pot = next(line for line in lines if line.startswith("── turn"))
    assert flop_pot.endswith("pot 60")


def test_unequal_bets_of_the_round_are_no_side_pot() -> None:
    rules = house_rules("holdem", "no-limit", "1/2")
    hand = Hand(rules, [200, 200, 200])
    hand.bet_or_raise_to(6)  # the button raises; the small blind is to act
    out = console()
    teller = Teller(out, rules, (1, 2, 3), {1: "You", 2: "Bea", 3: "Cy"}, hand.starting, 0,
                    person=0)  # fmt: skip
    teller.tell(hand.events)
    teller.turn(view(hand, 0))
    text = out.export_text()
    assert "pot 9 incl. bets 9" in text and "side" not in text


def test_issue_12_4_repr_of_a_table_says_what_table_who_sits_and_the_button() -> None:
    from croupier.table import BuyIn, Table

    table = Table(house_rules("holdem", "no-limit", "1/2"), 6, buy_in=BuyIn(minimum=100))
    assert repr(table) == (
        "<Table holdem no-limit blinds 1/2, 6 seats: nobody seated; no button yet; 0 hands dealt>"
    )
    table.sit(1, "Ada", 200)
    table.sit(4, "Bea", 150)
    table.start_hand()
    assert repr(table) == (
        "<Table holdem no-limit blinds 1/2, 6 seats: s1 Ada 200, s4 Bea 150; button s4; "
        "hand #1 in progress>"
    )
