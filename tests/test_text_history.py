"""PokerStars-style text export, checked line by line on scripted hands."""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.betting import Betting, Structure
from croupier.games import game
from croupier.hand import Hand, Rules
from croupier.history.text import TextHistoryError, format_pokerstars
from croupier.pots import Basis, Commission, CommissionKind
from scripted import act_passively, board_deck


def holdem(**options: object) -> Rules:
    return Rules(
        game=game("holdem"),
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=10),
        blinds=(5, 10),
        **options,  # type: ignore[arg-type]
    )


def test_side_pot_showdown_with_rake_reads_like_a_pokerstars_history() -> None:
    rake = Commission(kind=CommissionKind.PERCENTAGE, rate=Fraction(5, 100), basis=Basis.POT)
    hand = Hand(
        holdem(commission=rake), [50, 500, 500],
        board_deck(["Ah Ad", "Kh Kd", "Qh Qd"], "2c 7s 9d 3h 4s"),
    )  # fmt: skip
    hand.check_or_call()
    hand.bet_or_raise_to(50)
    hand.check_or_call()
    hand.check_or_call()
    hand.bet_or_raise_to(100)
    hand.check_or_call()
    while hand.to_act is not None:
        hand.check_or_call()
    lines = format_pokerstars(hand, names=["Ann", "Bob", "Cy"]).splitlines()
    assert lines[0].startswith("PokerStars Hand #1:  Hold'em No Limit (5/10) - ")
    assert lines[1] == "Table 'croupier' 3-max Seat #3 is the button"
    for expected in (
        "Seat 1: Ann (50 in chips)",
        "Ann: posts small blind 5",
        "Bob: posts big blind 10",
        "*** HOLE CARDS ***",
        "Dealt to Ann [Ah Ad]",
        "Ann: raises 40 to 50 and is all-in",
        "*** FLOP *** [2c 7s 9d]",
        "Bob: bets 100",
        "*** TURN *** [2c 7s 9d] [3h]",
        "*** RIVER *** [2c 7s 9d 3h] [4s]",
        "*** SHOW DOWN ***",
        "Ann: shows [Ah Ad] (Pair of Aces)",
        "Cy: mucks hand",
        # Main pot 150 less 5% (7) to Ann; side pot 200 less 5% (10) to Bob.
        "Ann collected 143 from main pot",
        "Bob collected 190 from side pot",
        "*** SUMMARY ***",
        "Total pot 350 Main pot 150. Side pot 200. | Rake 17",
        "Board [2c 7s 9d 3h 4s]",
        "Seat 2: Bob (big blind) showed [Kh Kd] and won (190)",
        "Seat 3: Cy (button) mucked",
    ):
        assert expected in lines, expected
    assert lines.index("Bob collected 190 from side pot") < lines.index("*** SUMMARY ***")


def test_uncalled_bet_and_heads_up_roles() -> None:
    hand = Hand(holdem(), [100, 100])
    hand.bet_or_raise_to(30)  # the button (small blind) raises
    hand.fold()
    lines = format_pokerstars(hand).splitlines()
    assert "p2: posts small blind 5" in lines and "p1: posts big blind 10" in lines
    assert "p2: raises 20 to 30" in lines
    assert "Uncalled bet (20) returned to p2" in lines
    assert "p2 collected 20 from pot" in lines
    assert "Seat 2: p2 (button) (small blind) collected (20)" in lines
    assert "Seat 1: p1 (big blind) folded before Flop" in lines


def test_only_finished_holdem_and_omaha_hands() -> None:
    unfinished = Hand(holdem(), [100, 100])
    with pytest.raises(TextHistoryError, match="finished"):
        format_pokerstars(unfinished)
    stud = Rules(
        game=game("stud7"),
        betting=Betting(structures=(Structure.FIXED,), small_bet=10),
        ante=1,
    )
    hand = Hand(stud, [100, 100])
    while hand.to_act is not None:
        act_passively(hand)
    with pytest.raises(TextHistoryError, match="not stud7"):
        format_pokerstars(hand)


def test_event_log_json_for_the_house_and_as_a_seat_sees_it() -> None:
    import json

    from croupier.events import HOUSE
    from croupier.history import dump_event_log

    hand = Hand(
        holdem(), [100, 100, 100], board_deck(["Ah Ad", "Kh Kd", "Qh Qd"], "2c 7s 9d 3h 4s")
    )
    hand.bet_or_raise_to(30)
    hand.fold()
    hand.fold()
    house = json.loads(dump_event_log(hand, HOUSE, extra={"table": "t1"}))
    assert house["table"] == "t1" and house["stacks"] == [95, 90, 115]
    dealt = [e for e in house["events"] if e["event"] == "DealHole"]
    assert dealt[0] == {"event": "DealHole", "player": 0, "cards": ["Ah", "Ad"]}
    seat = json.loads(dump_event_log(hand, viewer=0))
    dealt = [e for e in seat["events"] if e["event"] == "DealHole"]
    assert dealt[0]["cards"] == ["Ah", "Ad"] and dealt[1]["cards"] == ["??", "??"]
    played = Hand(holdem(), [100] * 3, board_deck(["Ah Ad", "Kh Kd", "Qh Qd"], "2c 7s 9d 3h 4s"))
    while played.to_act is not None:
        played.check_or_call()
    seen = json.loads(dump_event_log(played, viewer=1))["events"]
    burns = [e["card"] for e in seen if e["event"] == "Burn"]
    assert len(burns) == 3 and burns == [None, None, None]  # burns stay face down
