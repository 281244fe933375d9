"""Acting out of turn (I30) and losing the right to act (I31), book by book
(docs/irregularities-spec.md), through the floor's ``act``: an action typed for a player who is
not to act is held, and the book rules when the turn reaches that player."""

from __future__ import annotations

import pytest

from croupier.hand import Hand
from croupier.irregularities import IrregularityError
from irregular import BOOKS, FLOORS, checked, decide, f4, limped


def _qld(book: str) -> str | None:
    """qld plays these hands at straddle betting: an opening bet of 80 into a pot of 40, which
    full pot would refuse."""
    return "straddle" if book == "qld" else None


def _held(book: str) -> Hand:
    """F4 limped, on the flop, p1 to act: p3 bets 40 out of turn."""
    hand = limped(f4(book, structure=_qld(book)))
    rulings = FLOORS[book].act(hand, 2, "bet", 40)
    assert rulings[0].situation == "out-of-turn" and hand.held[2] == 40 and hand.stacks[2] == 950
    assert hand.to_act == 0
    checked(hand)
    return hand


def _act(book: str, hand: Hand, player: int, action: str, amount: int | None = None) -> list:
    rulings = FLOORS[book].act(hand, player, action, amount)
    checked(hand)
    return rulings


def test_out_of_turn_bet_each_book() -> None:
    # Case A: p1 checks, p2 checks.
    for book in BOOKS:
        hand = _held(book)
        _act(book, hand, 0, "check")
        rulings = _act(book, hand, 1, "check")
        ruling = rulings[-1]
        if book == "qld":
            assert ruling.clause == "qld s37(3)" and not ruling.choices
            assert hand.pot == 80 and hand.stacks[2] == 950 and hand.to_act == 3
        elif book == "league":
            assert [c.key for c in ruling.choices] == ["check", "fold", "bet-minimum"]
            bet = hand.copy()
            decide(book, bet, "bet-minimum")
            assert bet.bets[2] == 10 and bet.stacks[2] == 980
            decide(book, hand, "check")
            assert hand.stacks[2] == 990 and hand.to_act == 3
        else:
            assert [c.key for c in ruling.choices] == ["binding", "release"]
            assert ruling.clause == "cardroom betting 11"
            bound = hand.copy()
            decide(book, bound, "binding")
            assert bound.bets[2] == 40 and bound.to_act == 3
            decide(book, hand, "release")
            assert hand.stacks[2] == 990 and hand.to_act == 2 and hand.legal().raise_range
    # Case B: p1 checks, p2 bets 80.
    for book in BOOKS:
        hand = _held(book)
        _act(book, hand, 0, "check")
        ruling = _act(book, hand, 1, "bet", 80)[-1]
        if book == "qld":
            assert ruling.clause == "qld s37(4)"
            assert [c.key for c in ruling.choices] == ["fold", "call", "raise"]
            folded = hand.copy()
            decide(book, folded, "fold")
            assert folded.stacks[2] == 990 and 2 not in folded.in_hand()
            decide(book, hand, "call")
            assert hand.stacks[2] == 910
        elif book == "league":
            assert [c.key for c in ruling.choices] == ["fold", "call", "raise-minimum"]
            folded = hand.copy()
            decide(book, folded, "fold")
            assert folded.stacks[2] == 950 and folded.pot == 160
            raised = hand.copy()
            decide(book, raised, "raise-minimum")
            assert raised.legal().raise_range == (160, 160)  # league 9: double the bet
            decide(book, hand, "call")
            assert hand.stacks[2] == 910
        else:
            assert not ruling.choices and hand.stacks[2] == 990 and hand.to_act == 2
    # Case C: p1 bets 30, p2 folds.
    for book in BOOKS:
        hand = _held(book)
        _act(book, hand, 0, "bet", 30)
        ruling = _act(book, hand, 1, "fold")[-1]
        if book == "qld":
            assert ruling.clause == "qld s37(3)(c)" and hand.stacks[2] == 960
            assert hand.bets[2] == 30
        elif book == "league":
            assert [c.key for c in ruling.choices] == ["fold", "call", "raise-minimum"]
            decide(book, hand, "call")
            assert hand.stacks[2] == 960
        else:
            assert hand.stacks[2] == 990 and hand.to_act == 2


def test_out_of_turn_check_each_book() -> None:
    for book in BOOKS:
        hand = limped(f4(book))
        _act(book, hand, 2, "check")
        _act(book, hand, 0, "bet", 20)
        _act(book, hand, 1, "call")
        legal = hand.legal()
        assert hand.to_act == 2 and legal.call == 20 and legal.raise_range is None, book
        with pytest.raises(Exception, match="cardroom betting 11"):
            hand.bet_or_raise_to(40)


def test_qld_s37_2_missed_players_get_their_turn_first() -> None:
    hand = _held("qld")
    assert hand.to_act == 0
    _act("qld", hand, 0, "check")
    assert hand.to_act == 1


def test_qld_s37_3_a_out_of_turn_bet_stands_when_missed_players_fold() -> None:
    hand = _held("qld")
    _act("qld", hand, 0, "fold")
    ruling = _act("qld", hand, 1, "fold")[-1]
    assert ruling.clause == "qld s37(3)" and hand.bets[2] == 40


def test_qld_s37_3_b_out_of_turn_bet_stands_when_missed_players_check() -> None:
    hand = _held("qld")
    _act("qld", hand, 0, "check")
    assert _act("qld", hand, 1, "check")[-1].clause == "qld s37(3)"
    assert hand.bets[2] == 40


def test_qld_s37_3_c_out_of_turn_bet_stands_when_a_missed_bet_is_not_more() -> None:
    hand = _held("qld")
    _act("qld", hand, 0, "bet", 40)
    ruling = _act("qld", hand, 1, "fold")[-1]
    assert ruling.clause == "qld s37(3)(c)" and hand.bets[2] == 40  # a call of 40


def test_qld_s37_4_missed_player_bets_more_fold_call_or_raise() -> None:
    hand = _held("qld")
    _act("qld", hand, 0, "bet", 40)
    hand2 = hand.copy()
    ruling = _act("qld", hand, 1, "raise", 80)[-1]
    assert ruling.clause == "qld s37(4)" and len(ruling.choices) == 3
    decide("qld", hand, "raise")
    assert hand.to_act == 2 and hand.stacks[2] == 990 and hand.legal().raise_range
    assert hand2.held[2] == 40


def test_qld_s37_5_folding_returns_the_out_of_turn_bet() -> None:
    hand = _held("qld")
    _act("qld", hand, 0, "check")
    _act("qld", hand, 1, "bet", 80)
    final = decide("qld", hand, "fold")
    assert final.clause == "qld s37(5)" and hand.stacks[2] == 990


def test_qld_s37_6_excess_over_the_maximum_wager_returned() -> None:
    hand = limped(f4("qld", structure="straddle", max_wager=30))
    ruling = _act("qld", hand, 2, "bet", 40)[0]
    assert ruling.clause == "qld s37(6)" and hand.held[2] == 30 and hand.stacks[2] == 960


def test_cardroom_betting_11_out_of_turn_action_may_bind_unless_a_missed_player_bets() -> None:
    hand = _held("cardroom")
    _act("cardroom", hand, 0, "check")
    ruling = _act("cardroom", hand, 1, "check")[-1]
    assert ruling.clause == "cardroom betting 11" and ruling.choices
    bet = _held("cardroom")
    _act("cardroom", bet, 0, "bet", 20)
    ruling = _act("cardroom", bet, 1, "fold")[-1]
    assert not ruling.choices and "not binding" in ruling.outcome


def test_cardroom_betting_11_check_out_of_turn_may_not_bet_or_raise_next() -> None:
    hand = limped(f4("cardroom"))
    ruling = _act("cardroom", hand, 2, "check")[0]
    assert "may not bet or raise" in ruling.outcome
    _act("cardroom", hand, 0, "check")
    _act("cardroom", hand, 1, "check")
    assert hand.to_act == 3  # nobody bet: p3's check stood


def test_league_21_out_of_turn_chips_held_and_forfeited_if_withdrawn_after_a_bet() -> None:
    hand = _held("league")
    _act("league", hand, 0, "check")
    _act("league", hand, 1, "bet", 80)
    final = decide("league", hand, "fold")
    assert final.clause == "league 21" and hand.stacks[2] == 950 and hand.dead == 40


def test_league_22_out_of_turn_bettor_may_only_make_the_minimum() -> None:
    hand = _held("league")
    _act("league", hand, 0, "check")
    _act("league", hand, 1, "check")
    final = decide("league", hand, "bet-minimum")
    assert final.clause == "league 22" and hand.bets[2] == 10


def test_league_39_out_of_turn_bet_is_held_not_applied() -> None:
    hand = _held("league")
    assert hand.bets[2] == 0 and hand.pot == 40 and hand.held[2] == 40
    with pytest.raises(IrregularityError):
        FLOORS["league"].report(hand, "out-of-turn p1 check")  # it is p1's turn


# --- I31 ----------------------------------------------------------------------------------------


def _three_behind(book: str) -> tuple[Hand, list]:
    """p1 is to act; p2 checks, p3 bets 20 and p4 calls, all out of turn (league's floor is
    asked after the second, and rules before the third)."""
    hand = limped(f4(book))
    rulings = _act(book, hand, 1, "check")
    rulings += _act(book, hand, 2, "bet", 20)
    if hand.pending is None:
        rulings += _act(book, hand, 3, "call")
    return hand, rulings


def test_skipped_player_each_book() -> None:
    for book in BOOKS:
        hand, rulings = _three_behind(book)
        asked = [r for r in rulings if r.situation == "right-to-act"]
        if book == "qld":
            assert not asked and hand.to_act == 0
            with pytest.raises(IrregularityError, match=r"qld s37\(2\)"):
                FLOORS[book].report(hand, "skipped-turn p1")
            continue
        if book == "league":
            assert asked and asked[0].clause == "league 23"
            decide(book, hand, "keep")
            continue
        assert asked and asked[0].clause == "cardroom betting 12"
        decide(book, hand, "lose")
        checked(hand)
        assert hand.to_act == 0 and hand.legal().call == 20  # p1 now faces p3's 20
        _act(book, hand, 0, "call")
        assert hand.to_act == 1 and hand.legal().call == 20


def test_cardroom_betting_12_three_players_act_behind_right_to_act_may_be_lost() -> None:
    hand, rulings = _three_behind("cardroom")
    assert rulings[-1].situation == "right-to-act" and hand.pending is not None
    final = decide("cardroom", hand, "lose")
    assert "check" in final.outcome


def test_cardroom_betting_12_waiting_for_a_player_in_front_keeps_the_right() -> None:
    hand = limped(f4("cardroom"))
    _act("cardroom", hand, 2, "check")
    _act("cardroom", hand, 3, "check")
    with pytest.raises(IrregularityError, match="cardroom betting 12"):
        FLOORS["cardroom"].report(hand, "skipped-turn p2")  # p2 waits for p1, in front


def test_league_23_substantial_action_behind_may_lose_the_right_to_act() -> None:
    hand = limped(f4("league"))
    _act("league", hand, 1, "check")
    rulings = _act("league", hand, 2, "bet", 20)
    assert rulings[-1].situation == "right-to-act" and rulings[-1].clause == "league 23"
