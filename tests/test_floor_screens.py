"""The library behind the floor's screens, without a browser: the tournament templates the
director's console offers, the seat draw and the move slips read from a tournament's log, the
irregularity reports as a form asks them, and the live table stepped as the page steps it (the
engine and floor of ``croupier dealer``)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from croupier.irregularities.catalogue import GROUPS, catalogue, report_line
from croupier.irregularities.reports import REPORTS, parse_report
from croupier.server.live.table import (
    LiveError,
    LiveSetup,
    LiveTable,
    LiveTables,
    seat_line,
    step_line,
)
from croupier.tournament import run
from croupier.tournament.slips import log_lines, seat_draw, slips
from croupier.tournament.templates import LEVEL_TEMPLATES, PAYOUT_TEMPLATES, check_templates
from tournament_support import RandomResults, started


def test_every_level_template_loads_with_every_payout_plan() -> None:
    made = check_templates()
    assert len(made) == len(LEVEL_TEMPLATES) * len(PAYOUT_TEMPLATES)
    assert all(settings.levels[0].small_blind == 25 for settings in made)


def test_league_2_the_seat_draw_and_league_14_the_moves_as_slips() -> None:
    t, clock = started(30)
    draw = seat_draw(t.events)
    assert len(draw) == 30
    assert draw == sorted(draw, key=lambda row: (row["table"], row["seat"]))
    run(t, RandomResults(), clock)
    moved = slips(t.events)
    assert moved, "thirty players down to one move players between tables"
    first = moved[0]
    assert first.from_table is not None and first.from_table != first.table
    assert first.text.startswith(f"seat {first.from_seat} at table {first.from_table} (")
    assert f"moves to table {first.table} seat {first.seat}" in first.text
    assert "league 14" in first.text or "final table" in first.text
    lines = [line["text"] for line in log_lines(t.events, t.settings)]
    assert lines[0].endswith("registers: 10000 chips") or "registers" in lines[0]
    assert first.text in lines
    assert any(text.startswith("level 2: blinds") for text in lines)
    assert lines[-1].startswith("the tournament is over:")
    numbers = [line["number"] for line in log_lines(t.events, t.settings)]
    assert numbers == sorted(numbers)  # one order: the log's


def test_every_report_is_in_the_catalogue_and_its_line_reads_back() -> None:
    listed = [r["verb"] for group in catalogue() for r in group["reports"]]  # type: ignore[attr-defined]
    assert sorted(listed) == sorted(REPORTS)
    assert GROUPS[0][0] == "I1 misdeal"
    samples = {
        "exposed": {"player": 3, "card": "Jc", "looked": True},
        "out-of-turn": {"player": 4, "action": "bet", "amount": 40},
        "see": {"player": 3, "by": 2},
        "showed": {"player": 2, "to": 4, "cards": "Ah Kd", "requested": True},
        "premature": {"cards": "5d 4h 3c"},
        "string": {"player": 1, "first": 20, "more": 20},
        "misdeal": {},
    }
    for verb, answers in samples.items():
        line = report_line(verb, answers)
        report = parse_report(line)
        for name, value in answers.items():
            if name == "cards":
                continue
            assert getattr(report, name) == value or str(getattr(report, name)) == str(value)
        assert dataclasses.is_dataclass(report)
    with pytest.raises(ValueError, match="player is needed"):
        report_line("exposed", {"card": "Jc"})


SEATS = [{"name": n, "chips": 1000} for n in ("ann", "bob", "cy", "di")]


@pytest.mark.parametrize(
    ("book", "game", "structure", "stakes", "options"),
    [
        ("rws", "holdem", None, "5/10", {}),
        ("qld", "holdem", None, "5/10", {}),
        ("au-casino", "omaha", "pot", "5/10", {}),
        ("au-casino", "stud7", "fixed", "2", {"ante": 1}),
        ("cardroom", "draw", "fixed", "5/10", {}),
        ("league", "holdem", None, "5/10", {}),
    ],
)
def test_a_live_table_shows_json_for_each_book_and_game(
    book: str, game: str, structure: str | None, stakes: str, options: dict[str, int]
) -> None:
    table = LiveTables().open(
        1,
        LiveSetup.from_json(
            {"book": book, "game": game, "structure": structure, "stakes": stakes,
             "options": options, "seats": SEATS}
        ),
    )  # fmt: skip
    view = table.view()
    json.dumps(view)
    assert view["step"] is not None and view["prompt"].startswith("the dealer to")
    # Seated in seat order; dealt in deal order from the button the book places.
    by_seat = sorted(view["seats"], key=lambda s: s["seat"])
    assert [s["name"] for s in by_seat] == ["ann", "bob", "cy", "di"]


def test_a_live_hand_void_by_misdeal_deals_again_with_the_same_button() -> None:
    table = LiveTables().open(
        1, LiveSetup.from_json({"book": "league", "game": "holdem", "stakes": "5/10",
                                "seats": SEATS})
    )  # fmt: skip
    dealt, button = table.names, table.view()["button_seat"]
    assert table.view()["table_rules"]["first_button"]["clause"] == "league 2"
    assert len(table.view()["draw"]) == 4  # league 2: the button drawn for, the cards shown
    table.step({"kind": "deal"})
    done = table.step({"kind": "report", "report": "misdeal", "answers": {}})
    assert done.rulings[0]["clause"] == "league 11"
    assert table.view()["void"]
    table.next_hand()
    assert table.names == dealt and table.view()["button_seat"] == button
    assert table.hand_number == 2


def test_a_live_refusal_names_the_rule_and_changes_nothing() -> None:
    table = LiveTables().open(
        1, LiveSetup.from_json({"book": "qld", "game": "holdem", "stakes": "5/10",
                                "seats": SEATS})
    )  # fmt: skip
    table.step({"kind": "deal"})
    before = table.view()
    with pytest.raises(LiveError, match=r"qld s24\(4\)"):
        table.step({"kind": "action", "player": 2, "action": "raise", "amount": 40})
    assert table.view() == before
    with pytest.raises(LiveError, match="the hand is not over"):
        table.next_hand()


def test_a_step_is_read_into_the_dealers_input_or_refused_in_one_line() -> None:
    assert step_line({"kind": "action", "player": 2, "action": "raise", "amount": 40}) == (
        "p3 raise 40"
    )
    assert step_line({"kind": "cards", "street": "hole", "player": 0, "cards": "? ? Kd"}) == (
        "hole p1 ? ? Kd"
    )
    assert step_line({"kind": "cards", "street": "flop", "cards": "Ah Kd 2c"}) == "flop Ah Kd 2c"
    assert step_line({"kind": "show", "player": 1, "cards": "As Ac"}) == "show p2 As Ac"
    assert step_line({"kind": "choose", "key": "confirm"}) == "choose confirm"
    for bad in ({"kind": "action", "player": -1, "action": "fold"}, {"kind": "dance"},
                {"kind": "choose", "key": "a b"}):  # fmt: skip
        with pytest.raises(LiveError) as refused:
            step_line(bad)
        assert "\n" not in str(refused.value)


def test_a_live_table_is_made_again_from_its_journal() -> None:
    """The lines a table applied (steps, undos, new hands) make the same table again: what a
    restart or another process reads (croupier.server.store.live)."""
    tables = LiveTables()
    setup = {"book": "au-casino", "game": "holdem", "stakes": "5/10", "seats": SEATS}
    table = tables.open(7, LiveSetup.from_json(setup), number=41)
    lines = []
    for body in (
        {"kind": "deal"}, {"kind": "action", "player": 2, "action": "fold"},
        {"kind": "action", "player": 3, "action": "call"}, {"kind": "undo"},
        {"kind": "report", "report": "misdeal", "answers": {}},
        {"kind": "choose", "key": "confirm"},
    ):  # fmt: skip
        lines.append(table.step(body).line)
    table.next_hand()
    lines.append("next")
    lines.append(table.step({"kind": "deal"}).line)
    assert table.journal == len(lines)
    again = LiveTables().rebuilt(41, 7, LiveSetup.from_json(setup).to_json(), lines)
    mine, theirs = table.view(), again.view()
    for view in (mine, theirs):
        for entry in view["record"]:  # type: ignore[attr-defined]
            entry.pop("at")
    assert theirs == mine
    assert again.journal == table.journal and again.owner == 7


# --- between hands: the table's button, blinds and seats (croupier.table.Table) ---------------

FIVE = [{"name": n, "chips": 1000} for n in ("ann", "bob", "cy", "di", "ed")]


def fold_out(table: LiveTable, lines: list[str]) -> None:
    """Deal, everyone folds to the big blind, the pot pushed; then the next hand."""
    lines.append(table.step({"kind": "deal"}).line)
    while not table.session.hand.over:
        legal: Any = table.view()["legal"]
        body = (
            {"kind": "push"}
            if legal is None
            else {"kind": "action", "player": legal["player"], "action": "fold"}
        )
        lines.append(table.step(body).line)


def seat(table: LiveTable, lines: list[str], **body: object) -> str:
    entry = table.seat(body)
    lines.append(entry.line)
    return entry.text


def next_hand(table: LiveTable, lines: list[str]) -> Any:
    table.next_hand()
    lines.append("next")
    return table.view()


@pytest.mark.parametrize("book", ["au-casino", "rws"])
def test_a_live_table_missed_blinds_and_the_dead_button_by_the_book(book: str) -> None:
    """A player sits out while the blinds pass, comes back and posts them (the house's rule:
    no book rules missed blinds); then the player on the button's left leaves: au's big blind
    moves one seat and the button is dead on the empty seat (au 1.1 'Dead Button'), rws's
    button moves to the next player (rws 1, 3.7). The journal makes the same table again."""
    table = LiveTables().open(3, LiveSetup.from_json(
        {"book": book, "game": "holdem", "stakes": "5/10", "seats": FIVE}), number=5)  # fmt: skip
    lines: list[str] = []
    view: Any = table.view()
    first = {"au-casino": (5, "au 11.1(b)"), "rws": (1, "rws 3.1")}[book]
    assert (view["button_seat"]["seat"], view["table_rules"]["first_button"]["clause"]) == first
    fold_out(table, lines)
    assert seat(table, lines, action="away", seat=3) == "cy sits out (seat 3)"
    for _ in range(3):
        view = next_hand(table, lines)
        assert "cy" not in table.names
        fold_out(table, lines)
    owes = {"au-casino": ["small", "big"], "rws": ["small"]}[book]
    assert view["chairs"][2]["owes"] == owes and view["chairs"][2]["state"] == "away"
    assert seat(table, lines, action="back", seat=3).startswith("cy is back in seat 3, owing")
    view = next_hand(table, lines)
    if book == "au-casino":  # posts the big blind live and the small one dead, out of turn
        assert "cy: blind 10 (missed big blind, posted live)" in view["posts"]
        assert "cy: dead blind 5 (missed small blind, posted dead)" in view["posts"]
    else:  # rws: the big blind reaches cy at once, which settles the small one owed
        assert view["posts"] == ["bob: blind 5", "cy: blind 10"]
    assert "cy" in table.names
    fold_out(table, lines)
    button = view["button_seat"]["seat"]
    left = button % 5 + 1  # the player on the button's left: last hand's small blind
    assert seat(table, lines, action="leave", seat=left).startswith(
        f"{FIVE[left - 1]['name']} leaves"
    )
    view = next_hand(table, lines)
    placed = view["button_seat"]
    if book == "au-casino":
        assert placed == {
            "seat": left,
            "name": None,
            "dead": True,
            "blinds": [left % 5 + 1, left % 5 + 2],
        }
        assert view["table_rules"]["blind_policy"]["clause"] == "au 1.1 dead-button"
    else:
        assert placed["seat"] == left % 5 + 1 and not placed["dead"]
        assert view["table_rules"]["blind_policy"]["clause"] == "rws 1 dealer-button, 3.7"
    # A newcomer sits down between hands and waits for the big blind (the house's rule).
    fold_out(table, lines)
    seat(table, lines, action="sit", seat=left, name="fay", chips=800)
    view = next_hand(table, lines)
    assert view["chairs"][left - 1]["name"] == "fay"
    again = LiveTables().rebuilt(5, 3, table.setup.to_json(), lines)
    mine: Any = table.view()
    theirs: Any = again.view()
    for each in (mine, theirs):
        for entry in each["record"]:
            entry.pop("at")
    assert theirs == mine


def test_a_live_table_seats_change_only_as_the_book_allows() -> None:
    table = LiveTables().open(1, LiveSetup.from_json(
        {"book": "qld", "game": "holdem", "stakes": "5/10", "seats": SEATS}))  # fmt: skip
    with pytest.raises(LiveError, match=r"qld s19"):  # a buy-in before the hand starts
        table.seat({"action": "sit", "seat": 6, "name": "eve", "chips": 500})
    with pytest.raises(LiveError, match=r"qld s19\(4\)") as refused:  # no chips leave mid-hand
        table.seat({"action": "leave", "seat": 1})
    assert "au" not in str(refused.value)  # the book in force cited, no other
    for bad in (
        {"action": "dance", "seat": 1},
        {"action": "sit", "seat": 1, "name": "", "chips": 5},
        {"action": "away", "seat": 0},
    ):
        with pytest.raises(LiveError):
            seat_line(bad)
    table.step({"kind": "deal"})
    table.seat({"action": "away", "seat": 2})  # sits out from the next hand: this one plays on
    assert "bob" in table.names
    while not table.session.hand.over:
        legal: Any = table.view()["legal"]
        table.step(
            {"kind": "push"}
            if legal is None
            else {"kind": "action", "player": legal["player"], "action": "fold"}
        )
    with pytest.raises(LiveError, match="taken"):
        table.seat({"action": "sit", "seat": 2, "name": "eve", "chips": 500})
    table.seat({"action": "sit", "seat": 6, "name": "eve", "chips": 500})  # the hand is settled
    with pytest.raises(LiveError, match="settled"):
        table.step({"kind": "undo"})
    table.next_hand()
    # Away, not bust: qld's bust player leaves (s31(4)), one sitting out keeps the seat.
    assert "bob" not in table.names and table.view()["chairs"][1]["state"] == "away"
