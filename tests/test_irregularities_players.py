"""What players do with cards and chips: exposed or dropped cards (I20), retrieved and fouled
hands (I22), requests to see a hand (I23), forward motion (I24), verbal declarations (I25),
released chips (I26), chips without a word and string raises (I27), single chips (I28) and
undersized wagers (I29), book by book (docs/irregularities-spec.md)."""

from __future__ import annotations

import pytest

from croupier.betting import Legal
from croupier.deck import SeededShuffler
from croupier.hand import Hand
from croupier.irregularities import Floor, IrregularityError, chip_action
from croupier.rulebooks import load_rulebook
from irregular import BOOKS, FLOORS, cards, checked, decide, f4, limped, report, stub
from test_irregularities_deal import _to_showdown

# --- I20 ----------------------------------------------------------------------------------------


def test_player_exposed_card_each_book() -> None:
    clauses = {
        "au-casino": "au 19.5", "cardroom": "cardroom irregularities 14",
        "league": "cardroom irregularities 14", "qld": "cardroom irregularities 14",
        "rws": "cardroom irregularities 14",
    }  # fmt: skip
    for book in BOOKS:
        hand = f4(book)
        ruling = report(book, hand, "dropped p3 Qh")
        assert ruling.clause == clauses[book] and hand.hole[2] == cards("Qh 8h")
        assert cards("Qh")[0] in hand.dealt.exposed
    for book in BOOKS:  # p4 all-in for 1000, turning up Jc 7c; p1 calls; p4 tries to muck
        hand = f4(book, auto_show=False) if False else _all_in_shown(book)
        if book == "league":
            with pytest.raises(Exception, match="league 26"):
                hand.show_or_muck(False, player=3)
        else:
            hand.show_or_muck(False, player=3)
        checked(hand)


def _all_in_shown(book: str) -> Hand:
    structure = "pot" if book == "qld" else "no-limit"
    rules = load_rulebook(book).rules("holdem", structure, stakes=10)
    from irregular import STUB_A

    hand = Hand(rules, [1000] * 4, stub(STUB_A), auto_show=False, auto_push=False,
                shuffler=SeededShuffler(1))  # fmt: skip
    hand.fold()
    hand.bet_or_raise_to(hand.legal().raise_range[1])  # type: ignore[index]
    report(book, hand, "shows p4 Jc 7c")
    hand.check_or_call()
    hand.fold()
    while hand.phase.value == "betting":
        hand.check_or_call()
    while hand.next_step() is not None and hand.next_step().kind.value != "show":  # type: ignore[union-attr]
        break
    return hand


def test_au_19_5_card_exposed_by_a_player_still_plays() -> None:
    hand = f4("au-casino")
    ruling = report("au-casino", hand, "shows p3 Qh")
    assert ruling.clause == "au 19.5" and ruling.outcome.startswith("the card plays")
    assert hand.hole[2] == cards("Qh 8h")


def test_cardroom_irregularities_14_card_dropped_on_the_floor_plays() -> None:
    hand = f4("cardroom")
    assert report("cardroom", hand, "dropped p3 Qh").clause == "cardroom irregularities 14"
    assert hand.hole[2] == cards("Qh 8h")


def test_league_26_all_in_cards_turned_up_early_stay_face_up() -> None:
    hand = _all_in_shown("league")
    assert 3 in hand.stay_up
    with pytest.raises(Exception, match="league 26"):
        hand.show_or_muck(False, player=3)


# --- I22 ----------------------------------------------------------------------------------------


def _misled(book: str) -> Hand:
    hand = limped(f4(book))
    hand.bet_or_raise_to(40)  # p1
    hand.fold()  # p2, told the bet was 400
    return hand


def test_retrieve_mucked_hand_each_book() -> None:
    for book in BOOKS:
        hand = _misled(book)
        if book in ("qld", "league"):
            clause = r"qld s5\(3\)" if book == "qld" else "league 4"
            with pytest.raises(IrregularityError, match=clause):
                FLOORS[book].report(hand, "retrieve p2 --misled")
            continue
        ruling = report(book, hand, "retrieve p2 --misled")
        assert [c.key for c in ruling.choices] == ["retrieve", "dead"]
        decide(book, hand, "retrieve")
        assert 1 in hand.in_hand()
        hand.check_or_call()  # p3
        hand.check_or_call()  # p4
        assert hand.to_act == 1 and hand.legal().call == 40  # p2 faces 40


def test_cardroom_dead_hands_2_identifiable_mucked_hand_may_be_retrieved() -> None:
    hand = _misled("cardroom")
    ruling = report("cardroom", hand, "retrieve p2 --misled")
    assert ruling.clause == "cardroom dead-hands 2" and "extra effort" in ruling.outcome
    decide("cardroom", hand, "dead")
    assert 1 not in hand.in_hand()


def test_cardroom_dead_hands_3_cards_thrown_into_another_hand_are_dead() -> None:
    hand = limped(f4("cardroom"))
    ruling = report("cardroom", hand, "into p3 p4")
    assert ruling.clause == "cardroom dead-hands 3"
    assert 2 not in hand.in_hand() and 3 in hand.in_hand()
    mixed = limped(f4("cardroom"))
    report("cardroom", mixed, "into p3 p4 --mixed")
    assert 3 not in mixed.in_hand()


# --- I23 ----------------------------------------------------------------------------------------


def test_request_to_see_a_mucked_hand_each_book() -> None:
    for book in BOOKS:
        by_p3 = _to_showdown(book)
        by_p2 = _to_showdown(book)
        if book == "qld":
            for hand, who in ((by_p3, 2), (by_p2, 1)):
                with pytest.raises(IrregularityError, match=r"qld s38\(6\)\(a\)"):
                    FLOORS[book].report(hand, f"see p4 by p{who + 1}")  # type: ignore[arg-type]
                hand.push()  # type: ignore[attr-defined]
                assert hand.stacks == [995, 1065, 1000, 940]  # type: ignore[attr-defined]
            continue
        report(book, by_p3, "see p4 by p3")  # type: ignore[arg-type]
        by_p3.push()  # type: ignore[attr-defined]
        assert by_p3.stacks == [995, 1065, 1000, 940], book  # type: ignore[attr-defined]
        report(book, by_p2, "see p4 by p2")  # type: ignore[arg-type]
        by_p2.push()  # type: ignore[attr-defined]
        assert by_p2.stacks == [995, 940, 1000, 1065], book  # type: ignore[attr-defined]


def test_au_19_4_folded_hand_shown_on_request_dead_unless_the_winner_asked() -> None:
    hand = _to_showdown("au-casino")
    ruling = report("au-casino", hand, "see p4 by p3")  # type: ignore[arg-type]
    assert ruling.clause == "au 19.4" and "dead" in ruling.outcome
    winner = _to_showdown("au-casino")
    assert "live" in report("au-casino", winner, "see p4 by p2").outcome  # type: ignore[arg-type]


def test_cardroom_showdown_5_winner_asks_both_live_best_wins() -> None:
    hand = _to_showdown("cardroom")
    ruling = report("cardroom", hand, "see p4 by p2")  # type: ignore[arg-type]
    assert ruling.clause == "cardroom showdown 5" and "better one wins" in ruling.outcome
    hand.push()  # type: ignore[attr-defined]
    assert hand.stacks[3] == 1065  # type: ignore[attr-defined]


# --- I24 ----------------------------------------------------------------------------------------


def test_cards_across_the_line_each_book() -> None:
    for book in BOOKS:
        hand = limped(f4(book))
        hand.check_or_call()  # p1
        ruling = report(book, hand, "throw p2 --induced")
        assert 1 not in hand.in_hand() and hand.pot == 40, book
        assert ruling.clause == "cardroom dead-hands 1(b)"
    for book in BOOKS:
        hand = limped(f4(book))
        report(book, hand, "over-line p2 cards")
        assert (1 not in hand.in_hand()) is (book in ("league", "rws")), book


def test_cardroom_dead_hands_1_b_forward_throw_that_induces_action_kills_the_hand() -> None:
    hand = limped(f4("cardroom"))
    assert report("cardroom", hand, "throw p2").events == ()
    report("cardroom", hand, "throw p2 --induced")
    assert 1 not in hand.in_hand()


def test_cardroom_dead_hands_1_c_stud_upcards_turned_down_facing_a_bet_kills_the_hand() -> None:
    rules = load_rulebook("cardroom").rules("stud7", "fixed", stakes=2, ante=1)
    hand = Hand(rules, [100] * 4, shuffler=SeededShuffler(3), auto_push=False)
    opener = hand.to_act
    hand.bet_or_raise_to(hand.legal().raise_range[0])  # type: ignore[index]
    facing = hand.to_act
    assert facing is not None and facing != opener
    ruling = report("cardroom", hand, f"upcards p{facing + 1}")
    assert ruling.clause == "cardroom dead-hands 1(c)" and facing not in hand.in_hand()


def test_cardroom_betting_8_limit_forward_motion_may_bind() -> None:
    rules = load_rulebook("cardroom").rules("holdem", "fixed", stakes=10)
    hand = Hand(rules, [1000] * 4, stub("As Kd Qh Jc Ts 9d 8h 7c"), auto_push=False)
    ruling = report("cardroom", hand, "forward p3 10")
    assert ruling.clause == "cardroom betting 8" and [c.key for c in ruling.choices] == [
        "bind", "release"]  # fmt: skip
    decide("cardroom", hand, "bind")
    assert hand.events[-1].player == 2  # type: ignore[attr-defined]
    nl = f4("cardroom")
    assert report("cardroom", nl, "forward p3 10").basis == "decision"


def test_league_4_chips_across_the_line_committed_cards_mucked() -> None:
    hand = limped(f4("league"))
    ruling = report("league", hand, "over-line p1 chips 25 5")
    assert ruling.clause == "league 4" and hand.bets[0] == 30
    cards_over = limped(f4("league"))
    report("league", cards_over, "over-line p2 cards")
    assert 1 not in cards_over.in_hand()


def test_league_38_cards_or_chips_over_the_line_fold_or_bet() -> None:
    hand = limped(f4("league"))
    ruling = report("league", hand, "over-line p1 cards")
    assert ruling.clause == "league 38" and 0 not in hand.in_hand()


# --- I25-I29 ------------------------------------------------------------------------------------


def test_spoken_bet_with_fewer_chips_each_book() -> None:
    for book in BOOKS:
        hand = limped(f4(book))
        ruling = report(book, hand, "said p1 bet 40 30")
        if book == "qld":
            assert ruling.clause == "qld s22(2)" and hand.stacks[0] == 960 and hand.pot == 70
        else:
            assert ruling.clause == "cardroom betting 9" and "10 more" in ruling.outcome
            assert hand.stacks[0] == 950 and hand.pot == 80, book


def test_cardroom_betting_9_verbal_declaration_in_turn_binds() -> None:
    hand = limped(f4("cardroom"))
    ruling = report("cardroom", hand, "said p1 check")
    assert ruling.clause == "cardroom betting 9" and hand.to_act == 1
    with pytest.raises(IrregularityError, match="not to act"):
        FLOORS["cardroom"].report(hand, "said p3 bet 40")


def test_qld_s22_2_spoken_wager_is_no_wager_chips_decide() -> None:
    hand = limped(f4("qld"))
    ruling = report("qld", hand, "said p1 bet 40")
    assert ruling.events == () and "the chips placed decide" in ruling.outcome
    report("qld", hand, "said p1 bet 40 30")
    assert hand.bets[0] == 30


def test_cardroom_betting_13_released_chips_bind_and_are_made_correct() -> None:
    hand = limped(f4("cardroom"))
    hand.bet_or_raise_to(20)
    hand.bet_or_raise_to(60)
    ruling = report("cardroom", hand, "released p3 20 --acted-after")
    assert ruling.clause == "cardroom betting 13" and hand.stacks[2] == 930


def test_cardroom_betting_13_unaware_of_the_raise_may_withdraw_if_nobody_acted() -> None:
    hand = limped(f4("cardroom"))
    hand.bet_or_raise_to(20)
    hand.bet_or_raise_to(60)
    ruling = report("cardroom", hand, "released p3 20 --unaware")
    assert [c.key for c in ruling.choices] == ["withdraw", "stand"]
    decide("cardroom", hand, "withdraw")
    assert hand.stacks[2] == 990 and hand.to_act == 2 and hand.legal().call == 60


def test_chips_without_a_word_each_book() -> None:
    for book in BOOKS:
        for pushed, bet, back in (("30", 40, 0), ("25", 20, 5)):
            hand = limped(f4(book))
            hand.bet_or_raise_to(20)  # p1: p2 owes 20, the smallest raise is to 40
            ruling = report(book, hand, f"chips p2 {pushed} 0")
            assert hand.bets[1] == bet, (book, pushed)
            assert ("goes back" in ruling.outcome) is bool(back)
        hand = limped(f4(book))
        hand.bet_or_raise_to(20)
        report(book, hand, "string p2 20 +20")
        assert hand.bets[1] == 20


def test_cardroom_betting_14_bet_plus_half_a_bet_is_a_raise_completed() -> None:
    hand = limped(f4("cardroom"))
    hand.bet_or_raise_to(20)
    ruling = report("cardroom", hand, "chips p2 25 5")
    assert ruling.clause == "cardroom betting 14" and hand.bets[1] == 40


def test_cardroom_betting_14_string_raise_only_the_first_motion_counts() -> None:
    hand = limped(f4("cardroom"))
    hand.bet_or_raise_to(20)
    ruling = report("cardroom", hand, "string p2 20 +20")
    assert ruling.clause == "cardroom betting 14" and "20 of the second motion" in ruling.outcome


def test_league_34_chips_over_half_a_raise_are_a_minimum_raise() -> None:
    hand = limped(f4("league"))
    hand.bet_or_raise_to(20)
    assert report("league", hand, "chips p2 25 5").clause == "league 34"
    assert hand.bets[1] == 40  # league 9: double the bet


def test_league_41_one_motion_no_chips_taken_back() -> None:
    hand = limped(f4("league"))
    hand.bet_or_raise_to(20)
    assert report("league", hand, "string p2 20 +20").clause == "league 41"
    assert hand.bets[1] == 20


def test_chip_action_reads_a_push_against_what_is_owed() -> None:
    facing = Legal(1, True, False, 20, (40, 990), facing=20)
    assert chip_action(facing, (29, 0), 0) == ("call", 20)  # under the half: a call
    assert chip_action(facing, (30, 0), 0) == ("raise", 40)  # half the raise: completed
    assert chip_action(facing, (70, 0), 0) == ("raise", 70)
    assert chip_action(facing, (100,), 0) == ("call", 20)  # one chip facing a bet: a call
    opening = Legal(0, True, True, 0, (10, 40), facing=0)
    assert chip_action(opening, (100,), 0) == ("bet", 40)  # the largest bet the chip allows


def test_single_chip_each_book() -> None:
    for book in BOOKS:
        hand = limped(f4(book))
        ruling = report(book, hand, "chips p1 100")
        expected = 40 if book == "qld" else 100  # qld full pot: at most the pot, 40
        assert hand.bets[0] == expected, book
        report(book, hand, "chips p2 500")
        assert hand.bets[1] == expected, book  # a call
        assert ruling.clause in ("league 32",)


def test_cardroom_betting_15_single_oversized_chip_is_a_call() -> None:
    hand = limped(f4("cardroom"))
    hand.bet_or_raise_to(20)
    ruling = report("cardroom", hand, "chips p2 500")
    assert ruling.clause == "cardroom betting 15" and hand.bets[1] == 20


def test_league_32_single_chip_not_facing_a_bet_is_the_largest_bet_it_allows() -> None:
    hand = limped(f4("league"))
    assert report("league", hand, "chips p1 100").clause == "league 32"
    assert hand.bets[0] == 100


def test_league_33_single_chip_facing_a_bet_or_blind_is_a_call() -> None:
    hand = f4("league")
    ruling = report("league", hand, "chips p3 100")  # facing the big blind
    assert ruling.clause == "league 33" and hand.bets[2] == 10
    with pytest.raises(IrregularityError, match="not one of the table's chips"):
        Floor("league", denominations=(5, 25, 100)).report(f4("league"), "chips p3 50")


def _fixed_turn(book: str = "cardroom") -> Hand:
    rules = load_rulebook(book).rules("holdem", "fixed", stakes=10)
    hand = Hand(rules, [1000] * 4, stub("As Kd Qh Jc Ts 9d 8h 7c"), auto_push=False)
    while hand.street < 2:
        hand.check_or_call()
    return hand


def test_cardroom_betting_16_undersized_wager_brought_up_callers_cannot_raise() -> None:
    hand = _fixed_turn()
    ruling = report("cardroom", hand, "short p1 10")  # the lower limit on the upper round
    assert ruling.clause == "cardroom betting 16" and hand.bets[0] == 20
    report("cardroom", hand, "short p2 10")  # p2's call of 10 becomes a call of 20
    assert hand.bets[1] == 20 and hand.events[-1].__class__.__name__ == "Call"
    assert hand.legal().raise_range == (40, 40)  # p3 acts normally


def test_cardroom_betting_16_rounded_amount_to_the_nearest_proper_amount() -> None:
    rules = load_rulebook("cardroom").rules("holdem", "no-limit", stakes=10, chip_unit=5)
    hand = Hand(rules, [1000] * 4, stub("As Kd Qh Jc Ts 9d 8h 7c"), auto_push=False)
    while hand.street < 1:
        hand.check_or_call()
    ruling = report("cardroom", hand, "short p1 23")
    assert hand.bets[0] == 25 and "nearest" in ruling.outcome


# --- I32: show one, show all ---------------------------------------------------------------


def _folded_round(book: str) -> Hand:
    """F4 after p3, p4 and p1 fold before the flop: p2 takes the blinds, the hand is over."""
    hand = f4(book)
    hand.fold()
    hand.fold()
    hand.fold()
    assert hand.phase.value == "over"
    return hand


def _seen_by(hand: Hand, viewer: int) -> set[str]:
    """The cards the Exposed events of ``hand`` show to ``viewer``."""
    shown = (e.visible_to(viewer) for e in hand.events if type(e).__name__ == "Exposed")
    return {str(e.card) for e in shown if e.card is not None}  # type: ignore[attr-defined]


def test_show_one_show_all_after_the_hand_each_book() -> None:
    clauses = {
        "au-casino": ("au 18.4", "own"), "cardroom": ("cardroom showdown 6", "own"),
        "league": ("league 6", "own"), "qld": ("cardroom showdown 6", "fill"),
        "rws": ("cardroom showdown 6", "fill"),
    }  # fmt: skip
    for book in BOOKS:
        hand = _folded_round(book)
        ruling = report(book, hand, "showed p3 to p4 Qh 8h")
        assert (ruling.clause, ruling.basis) == clauses[book], book
        assert "may ask to see them" in ruling.outcome
        assert _seen_by(hand, 3) == {"Qh", "8h"} and _seen_by(hand, 0) == set(), book
        asked = report(book, hand, "showed p3 to p4 Qh 8h --requested")
        assert asked.clause == clauses[book][0] and "as asked" in asked.outcome
        assert _seen_by(hand, 0) == {"Qh", "8h"} == _seen_by(hand, 1), book
        assert hand.stacks == [995, 1005, 1000, 1000]  # chips untouched


def test_au_18_4_shown_to_one_player_at_the_end_shown_to_the_table_on_request() -> None:
    hand = _folded_round("au-casino")
    report("au-casino", hand, "showed p1 to p2 As")
    assert _seen_by(hand, 1) == {"As"} and _seen_by(hand, 2) == set()
    report("au-casino", hand, "showed p1 to p2 As --requested")
    assert _seen_by(hand, 2) == {"As"} and _seen_by(hand, 3) == {"As"}


def test_league_6_shown_after_folding_to_all_on_request() -> None:
    hand = f4("league")
    hand.fold()  # p3 folds, then shows p4 one card while p4 is to act
    ruling = report("league", hand, "showed p3 to p4 Qh --requested")
    assert ruling.clause == "league 6" and _seen_by(hand, 0) == {"Qh"}


def test_league_5_showing_a_live_hand_to_an_active_opponent_may_be_penalised() -> None:
    hand = f4("league")
    ruling = report("league", hand, "showed p3 to p4 Qh 8h")
    assert ruling.clause == "league 5" and "penalty" in ruling.outcome
    assert _seen_by(hand, 3) == {"Qh", "8h"} and _seen_by(hand, 0) == set()


def test_cardroom_showdown_6_shown_to_a_player_still_to_bet_shown_to_all_at_once() -> None:
    hand = f4("cardroom")
    hand.fold()  # p3 folds and shows p4, who is to act
    ruling = report("cardroom", hand, "showed p3 to p4 Qh")
    assert ruling.clause == "cardroom showdown 6" and "at once" in ruling.outcome
    assert _seen_by(hand, 0) == {"Qh"} == _seen_by(hand, 1)


def test_cardroom_showdown_6_shown_to_a_folded_player_withheld_until_the_betting_is_over() -> None:
    hand = f4("cardroom")
    hand.fold()  # p3 out
    hand.check_or_call()  # p4 calls
    ruling = report("cardroom", hand, "showed p4 to p3 Jc")
    assert "until the betting is over" in ruling.outcome
    assert _seen_by(hand, 2) == {"Jc"} and _seen_by(hand, 0) == set()
    hand.fold()  # p1 folds, p2 checks: the betting is not over yet (flop to come)
    hand.check_or_call()
    assert "until the betting is over" in report("cardroom", hand, "showed p4 to p3 Jc").outcome
    while hand.phase.value == "betting":
        hand.check_or_call()
    assert "at once" in report("cardroom", hand, "showed p4 to p3 Jc").outcome  # betting over
    assert _seen_by(hand, 0) == {"Jc"}


def test_cardroom_showdown_6_no_decision_left_this_round_shown_at_its_end() -> None:
    hand = f4("cardroom", stacks=(1000, 1000, 1000, 30))
    limped(hand)  # pot 40; p4 has 20 left
    hand.bet_or_raise_to(50)  # p1 bets on the flop, p2 and p3 call, p4 can only call all-in
    hand.check_or_call()
    hand.check_or_call()
    ruling = report("cardroom", hand, "showed p1 to p2 As")
    assert "until the end of this betting round" in ruling.outcome
    assert _seen_by(hand, 1) == {"As"} and _seen_by(hand, 2) == set()
    hand.check_or_call()  # p4 all in: the round is over
    assert "at once" in report("cardroom", hand, "showed p1 to p2 As").outcome
    assert _seen_by(hand, 2) == {"As"}


def test_qld_s38_7_folded_players_cards_learned_by_an_active_player_given_to_all_active() -> None:
    hand = f4("qld")
    hand.fold()  # p3 folds
    hand.check_or_call()  # p4 calls: p1 and p2 still to act, p4 has acted
    ruling = report("qld", hand, "showed p3 to p4 Qh")
    assert (ruling.clause, ruling.basis) == ("qld s38(7)", "own")
    assert "every other active player" in ruling.outcome
    assert _seen_by(hand, 3) == {"Qh"} == _seen_by(hand, 0) == _seen_by(hand, 1)
    fill = f4("qld")  # an active player's own hand shown: s38(7) and (8) say nothing
    fill.check_or_call()
    assert report("qld", fill, "showed p3 to p4 Qh").clause == "cardroom showdown 6"


def test_qld_s38_8_uncalled_bettors_hand_learned_given_to_all_other_players() -> None:
    hand = f4("qld")
    limped(hand)  # the flop: p1 bets and nobody has called yet
    hand.bet_or_raise_to(10)
    hand.fold()  # p2 folds
    ruling = report("qld", hand, "showed p1 to p2 As")  # a folded player saw the bettor's card
    assert (ruling.clause, ruling.basis) == ("qld s38(8)", "own")
    assert "every other player at once" in ruling.outcome
    assert {"As"} == _seen_by(hand, 1) == _seen_by(hand, 2) == _seen_by(hand, 3)


def test_show_one_refuses_a_player_showing_to_themselves_and_changes_nothing() -> None:
    hand = f4("cardroom")
    before = list(hand.events)
    with pytest.raises(IrregularityError, match="cardroom showdown 6"):
        FLOORS["cardroom"].report(hand, "showed p3 to p3 Qh")
    assert hand.events == before
