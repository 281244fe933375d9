"""The board and the stub: burn errors (I14), extra board cards (I15), premature streets (I16),
exposed cards that cap a round (I17), the stud stub running out (I18), a folded stud seat still
dealt to (I19) and a fouled stub (I21), book by book (docs/irregularities-spec.md)."""

from __future__ import annotations

import pytest

from croupier import events as ev
from croupier.deck import SeededShuffler
from croupier.hand import Hand
from croupier.irregularities import IrregularityError
from croupier.rulebooks import load_rulebook
from irregular import BOOKS, FLOORS, cards, checked, decide, f4, limped, report, s5, stub

CORRECT_FLOP = cards("5d 4h 3c")


def _turn(hand: Hand) -> None:
    """Check the flop round through: the turn is dealt."""
    street = hand.street
    while hand.street == street:
        hand.check_or_call()


# --- I14 ----------------------------------------------------------------------------------------


def test_missed_flop_burn_each_book() -> None:
    for book in BOOKS:
        hand = limped(f4(book))
        ruling = report(book, hand, "burn-missed")
        if book == "au-casino":
            assert ruling.clause == "au 19.26"
            assert any(isinstance(e, ev.StubReshuffled) for e in ruling.events)
            assert len(hand.board) == 3 and hand.board != CORRECT_FLOP
            continue
        assert ruling.events == () and hand.board == CORRECT_FLOP and hand.burned == cards("6s")
    for book in BOOKS:  # after p1 bet 20 and p2 called on the 6s 5d 4h flop
        hand = limped(f4(book))
        hand.bet_or_raise_to(20)
        hand.check_or_call()
        ruling = report(book, hand, "burn-missed")
        assert sorted(hand.board) == sorted(cards("6s 5d 4h")), book
        hand.fold()
        hand.fold()
        if book == "au-casino":
            assert ruling.clause == "au 19.3" and hand.board[-1] == cards("2s")[0]
            assert hand.burned[-1] == cards("3c")[0]
        else:
            assert hand.board[-1] == cards("Ah")[0], book
            assert cards("3c")[0] in hand.burned and cards("2s")[0] in hand.burned


def test_double_burn_before_the_turn_each_book() -> None:
    for book in BOOKS:
        hand = limped(f4(book))
        _turn(hand)
        ruling = report(book, hand, "burn-double")
        assert ruling.events == () and hand.board[-1] == cards("Ah")[0], book
    for book in BOOKS:  # after action on the 2h turn
        hand = limped(f4(book))
        _turn(hand)
        hand.bet_or_raise_to(20)
        hand.check_or_call()
        ruling = report(book, hand, "burn-double")
        assert hand.board[-1] == cards("2h")[0], book
        for _ in range(2):
            hand.fold()
        river = hand.board[-1]
        expected = "4s" if book == "au-casino" else "3d"
        assert river == cards(expected)[0], (book, ruling.clause)


def test_au_19_26_missed_flop_burn_flop_reshuffled_and_redealt() -> None:
    hand = limped(f4("au-casino"))
    ruling = report("au-casino", hand, "burn-missed")
    reshuffle = next(e for e in ruling.events if isinstance(e, ev.StubReshuffled))
    assert set(reshuffle.returned) == set(cards("6s 5d 4h 3c"))
    # A seeded shuffler: the new stub is that shuffler's order of the old stub plus the four.
    assert hand.burned[-1] == reshuffle.order[0] and hand.board == list(reshuffle.order[1:4])
    one = limped(f4("au-casino"))
    one.check_or_call()  # one player acted: undone first, then the new flop
    ruling = report("au-casino", one, "burn-missed")
    assert any(isinstance(e, ev.ActionVoided) for e in ruling.events) and one.to_act == 0


def test_au_19_3_burn_error_reconstructed_before_substantial_action_else_continues() -> None:
    hand = limped(f4("au-casino"))
    _turn(hand)
    assert report("au-casino", hand, "burn-missed").clause == "au 19.3"
    assert hand.board[-1] == cards("Ah")[0]
    late = limped(f4("au-casino"))
    _turn(late)
    late.bet_or_raise_to(20)
    late.check_or_call()
    ruling = report("au-casino", late, "burn-missed")
    assert "stub as it stands" in ruling.outcome


def test_qld_s35_1_missed_flop_burn_first_flop_card_becomes_the_burn() -> None:
    hand = limped(f4("qld"))
    ruling = report("qld", hand, "burn-missed")
    assert ruling.clause == "qld s35(1)" and hand.board == CORRECT_FLOP


def test_qld_s35_2_missed_turn_burn_turn_card_becomes_the_burn() -> None:
    hand = limped(f4("qld"))
    _turn(hand)
    ruling = report("qld", hand, "burn-missed")
    assert ruling.clause == "qld s35(2)" and hand.board[-1] == cards("Ah")[0]
    assert hand.burned[-1] == cards("2s")[0]


def test_cardroom_irregularities_16_burn_error_corrected_before_action_later_cards_as_if_no_error(
) -> None:  # fmt: skip
    hand = limped(f4("cardroom"))
    assert report("cardroom", hand, "burn-missed").clause == "cardroom irregularities 16"
    _turn(hand)
    _turn(hand)
    assert hand.board == cards("5d 4h 3c Ah 3d")


def test_cardroom_irregularities_16_all_in_last_round_corrected_before_the_pot_is_awarded() -> None:
    hand = f4("cardroom", stacks=(1000, 1000, 200, 1000))
    hand.bet_or_raise_to(200)  # p3 all-in
    hand.fold()
    hand.fold()
    hand.check_or_call()  # p2 calls: no betting is left; the board runs out
    assert hand.next_step() is not None and hand.next_step().kind.value == "push"
    ruling = report("cardroom", hand, "burn-missed")
    assert ruling.clause == "cardroom irregularities 16" and hand.board == cards("5d 4h 3c Ah 3d")
    hand.push()
    checked(hand)


# --- I15 ----------------------------------------------------------------------------------------


def test_four_card_flop_each_book() -> None:
    for book in BOOKS:
        hand = limped(f4(book))
        ruling = report(book, hand, "extra-board 2s")
        if book == "au-casino":
            assert ruling.clause == "au 19.27" and len(hand.board) == 3
            continue
        assert hand.board == CORRECT_FLOP
        if book == "league":
            assert ruling.clause == "league 20"
            assert any(isinstance(e, ev.StubReshuffled) for e in ruling.events)
            continue
        _turn(hand)
        assert hand.burned[-1] == cards("2s")[0] and hand.board[-1] == cards("Ah")[0], book


def test_two_cards_on_the_turn_each_book() -> None:
    for book in BOOKS:
        hand = limped(f4(book))
        _turn(hand)
        ruling = report(book, hand, "extra-board 2h")
        if book == "league":
            assert any(isinstance(e, ev.StubReshuffled) for e in ruling.events)
            continue
        _turn(hand)
        assert hand.burned[-1] == cards("2h")[0] and hand.board[-1] == cards("3d")[0], book
    for book in BOOKS:  # the river turned with 4s: to the muck
        hand = limped(f4(book))
        _turn(hand)
        _turn(hand)
        report(book, hand, "extra-board 4s")
        assert hand.board[-1] == cards("3d")[0] and cards("4s")[0] in hand.dealt.muck


def test_au_19_27_flop_with_too_many_cards_reshuffled_and_redealt() -> None:
    hand = limped(f4("au-casino"))
    ruling = report("au-casino", hand, "extra-board 2s")
    reshuffle = next(e for e in ruling.events if isinstance(e, ev.StubReshuffled))
    assert set(reshuffle.returned) == set(cards("6s 5d 4h 3c"))
    assert hand.board == list(reshuffle.order[1:4])


def test_au_19_30_two_cards_on_the_turn_extra_becomes_next_burn_on_the_river_mucked() -> None:
    hand = limped(f4("au-casino"))
    _turn(hand)
    assert report("au-casino", hand, "extra-board 2h").clause == "au 19.30"
    assert hand.dealt.aside == [(cards("2h")[0], "burn")]


def test_au_19_30_more_than_two_cards_extras_reshuffled() -> None:
    hand = limped(f4("au-casino"))
    _turn(hand)
    ruling = report("au-casino", hand, "extra-board 2h 3d")
    assert ruling.clause == "au 19.30" and "shuffled" in ruling.outcome


def test_au_19_24_manila_extra_community_card_next_burn() -> None:
    rules = load_rulebook("au-casino").rules("manila2", "no-limit", stakes=10)
    hand = Hand(rules, [1000] * 3, stub("As Kd Qh Jc Ts 9d 8h 7c 9s 8d", rules.deck),
                auto_push=False)  # fmt: skip
    while hand.street == 0:
        hand.check_or_call()
    extra = hand.deck.cards[0]
    ruling = report("au-casino", hand, f"extra-board {extra}")
    assert ruling.clause == "au 19.24" and hand.dealt.aside == [(extra, "burn")]


def test_qld_s34_2_exposed_card_used_as_the_next_burn() -> None:
    hand = limped(f4("qld"))
    ruling = report("qld", hand, "burn-exposed 2s")
    assert ruling.clause == "qld s34(2)" and hand.dealt.aside == [(cards("2s")[0], "burn")]


def test_qld_s34_3_extra_river_card_to_the_discards() -> None:
    hand = limped(f4("qld"))
    _turn(hand)
    _turn(hand)
    assert report("qld", hand, "extra-board 4s").clause == "qld s34(3)"


def test_qld_s34_4_players_may_see_the_exposed_card() -> None:
    hand = limped(f4("qld"))
    ruling = report("qld", hand, "burn-exposed 2s")
    exposed = next(e for e in ruling.events if isinstance(e, ev.Exposed))
    assert exposed.to == -1 and exposed.visible_to(0) == exposed  # every seat sees it
    assert cards("2s")[0] in hand.dealt.exposed


# --- I16, I17 -----------------------------------------------------------------------------------


def test_premature_flop_each_book() -> None:
    for book in BOOKS:
        hand = f4(book)
        hand.bet_or_raise_to(20 if book == "qld" else 30)  # p3
        ruling = report(book, hand, "premature 6s 5d 4h 3c")
        if book == "qld":
            assert ruling.clause == "qld s36(2)" and hand.round.cap_to == 20  # type: ignore[union-attr]
            assert hand.legal().raise_range is None and hand.legal().call == 20
            while hand.street == 0:
                hand.check_or_call()
            assert hand.board == CORRECT_FLOP and hand.burned == cards("6s")
            continue
        assert any(isinstance(e, ev.StubReshuffled) for e in ruling.events)
        assert hand.legal().raise_range is not None, book  # no cap: p4 may raise
        while hand.street == 0:
            hand.check_or_call()
        assert len(hand.board) == 3


def test_premature_turn_each_book() -> None:
    for book in BOOKS:
        hand = limped(f4(book))
        hand.check_or_call()
        hand.bet_or_raise_to(20)  # p2
        ruling = report(book, hand, "premature 2s Ah")
        capped = book in ("au-casino", "qld")
        assert (hand.round.cap_to == 20) is capped, book  # type: ignore[union-attr]
        while hand.street == 1:
            hand.check_or_call()
        if capped:
            assert hand.board[-1] == cards("Ah")[0] and ruling.clause in ("au 19.29", "qld s36(2)")


def test_au_19_28_premature_flop_reshuffled_and_redealt_after_the_round() -> None:
    hand = f4("au-casino")
    hand.bet_or_raise_to(30)
    ruling = report("au-casino", hand, "premature 6s 5d 4h 3c")
    assert ruling.clause == "au 19.28" and hand.round.cap_to == -1  # type: ignore[union-attr]


def test_qld_s36_2_premature_community_card_stays_in_its_place() -> None:
    hand = limped(f4("qld"))
    hand.check_or_call()
    hand.bet_or_raise_to(20)
    report("qld", hand, "premature 2s Ah")
    while hand.street == 1:
        hand.check_or_call()
    assert hand.board[-1] == cards("Ah")[0] and hand.burned[-1] == cards("2s")[0]


def test_cardroom_irregularities_15_premature_cards_do_not_play() -> None:
    hand = f4("cardroom")
    hand.bet_or_raise_to(30)
    ruling = report("cardroom", hand, "premature 6s 5d 4h 3c")
    assert ruling.clause == "cardroom irregularities 15"
    hand.fold()  # a player still to act folds: the cards still do not play
    while hand.street == 0:
        hand.check_or_call()
    reshuffle = next(e for e in ruling.events if isinstance(e, ev.StubReshuffled))
    assert hand.burned[0] == reshuffle.order[0] and hand.board == list(reshuffle.order[1:4])


def test_league_20_premature_card_and_burn_reshuffled_and_redealt() -> None:
    hand = f4("league")
    hand.bet_or_raise_to(30)
    ruling = report("league", hand, "premature 6s 5d 4h 3c")
    assert ruling.clause == "league 20"
    reshuffle = next(e for e in ruling.events if isinstance(e, ev.StubReshuffled))
    assert set(reshuffle.order) >= set(cards("6s 5d 4h 3c"))


def test_exposed_card_cap_each_book() -> None:
    for book in BOOKS:
        hand = limped(f4(book))
        hand.check_or_call()  # p1 checks
        hand.bet_or_raise_to(20)  # p2
        ruling = report(book, hand, "exposed-stub Ah")
        if book in ("au-casino", "qld"):
            legal = hand.legal()
            assert legal.call == 20 and legal.raise_range is None, book
            assert ruling.clause == ("au 19.29" if book == "au-casino" else "qld s36(3)(a)")
            while hand.street == 1:
                hand.check_or_call()
            assert hand.board[-1] == cards("Ah")[0]
        else:
            assert hand.legal().raise_range is not None, book
            assert any(isinstance(e, ev.StubReshuffled) for e in ruling.events)


def test_au_19_29_exposed_card_caps_the_round_at_the_most_wagered() -> None:
    hand = limped(f4("au-casino"))
    hand.check_or_call()
    hand.bet_or_raise_to(20)
    report("au-casino", hand, "exposed-stub Ah")
    with pytest.raises(Exception, match="capped"):
        hand.bet_or_raise_to(40)


def test_au_19_29_nothing_wagered_the_round_is_checked_out() -> None:
    hand = limped(f4("au-casino"))
    hand.check_or_call()
    hand.check_or_call()
    ruling = report("au-casino", hand, "exposed-stub Ah")
    assert "checked out" in ruling.outcome and hand.legal().raise_range is None


def test_qld_s36_3_a_cap_is_the_highest_bet_made() -> None:
    hand = limped(f4("qld"))
    hand.check_or_call()
    hand.bet_or_raise_to(20)
    assert report("qld", hand, "exposed-stub Ah").clause == "qld s36(3)(a)"
    assert hand.round.cap_to == 20  # type: ignore[union-attr]


def test_qld_s36_3_b_no_bet_yet_cap_is_the_minimum_wager() -> None:
    hand = limped(f4("qld"))
    hand.check_or_call()
    hand.check_or_call()
    assert report("qld", hand, "exposed-stub Ah").clause == "qld s36(3)(b)"
    assert hand.legal().raise_range == (10, 10)
    hand.bet_or_raise_to(10)
    assert hand.legal().raise_range is None and hand.legal().call == 10


def _stud_round(hand: Hand) -> None:
    legal = hand.legal()
    if not legal.can_check and not legal.call:
        hand.bet_or_raise_to(legal.raise_range[0])  # type: ignore[index]
    hand.check_or_call()


def test_au_19_11_stud5_exposed_card_caps_the_round() -> None:
    hand = s5()
    hand.bet_or_raise_to(2)
    ruling = report("au-casino", hand, f"exposed-stub {hand.deck.cards[1]}")
    assert ruling.clause == "au 19.11" and hand.legal().raise_range is None


def test_au_19_18_stud7_exposed_card_caps_the_round() -> None:
    from irregular import s7

    hand = s7()
    hand.bet_or_raise_to(2)
    ruling = report("au-casino", hand, f"exposed-stub {hand.deck.cards[1]}")
    assert ruling.clause == "au 19.18" and hand.round.cap_to == 2  # type: ignore[union-attr]


def test_au_19_23_manila_exposed_card_caps_the_round() -> None:
    rules = load_rulebook("au-casino").rules("manila2", "no-limit", stakes=10)
    hand = Hand(rules, [1000] * 3, auto_push=False, shuffler=SeededShuffler(5))
    hand.bet_or_raise_to(30)
    ruling = report("au-casino", hand, f"exposed-stub {hand.deck.cards[1]}")
    assert ruling.clause == "au 19.23" and hand.round.cap_to == 30  # type: ignore[union-attr]


# --- I18, I19 -----------------------------------------------------------------------------------


def _seventh_street(players: int) -> Hand:
    rules = load_rulebook("au-casino").rules("stud7", "fixed", stakes=2, ante=1)
    hand = Hand(rules, [200] * players, shuffler=SeededShuffler(7), auto_push=False)
    while hand.street < 4:
        legal = hand.legal()
        if not legal.can_check and not legal.call:
            hand.bet_or_raise_to(legal.raise_range[0])  # type: ignore[index]
        else:
            hand.check_or_call()
    return hand


def test_au_19_16_stud7_stub_out_burns_shuffled_to_finish() -> None:
    hand = _seventh_street(7)  # 45 cards used before seventh street; 6 left for 7 players
    assert all(len(hand.hole[p]) == 3 for p in range(7))  # every player got a seventh card
    ruling = report("au-casino", hand, "stub-out")
    assert ruling.clause == "au 19.16" and "burns were shuffled" in ruling.outcome
    eight = _seventh_street(8)  # the burns cannot finish: one community card (13.4(a))
    assert len(eight.board) == 1
    assert report("au-casino", eight, "stub-out").clause == "au 13.4(a)"


def test_au_19_9_stud5_stub_out_burns_shuffled_to_finish() -> None:
    hand = s5()
    with pytest.raises(IrregularityError, match=r"au 19\.9: the stub holds"):
        FLOORS["au-casino"].report(hand, "stub-out")


def test_au_19_12_stud5_folded_forced_bettor_seat_keeps_receiving_until_a_wager() -> None:
    au, cardroom = s5(), s5(book="cardroom")
    for hand in (au, cardroom):
        hand.bet_or_raise_to(2)  # p1 opens: lowest up card 6c
        for _ in range(3):
            hand.check_or_call()
        assert hand.up[1:] and [hand.up[p][-1] for p in range(4)] == cards("Jd Qh Ks Ac")
        hand.check_or_call()  # p... the highest showing opens the second round
    # Second round: p4 (Ac) opens; everyone checks except p3, who folds instead.
    for hand in (au, cardroom):
        while hand.street == 1:
            if hand.to_act == 2:
                hand.fold()
            else:
                hand.check_or_call()
    assert [au.up[p][-1] for p in (0, 1, 3)] == cards("3h 4s 6d")
    assert cards("5c")[0] in au.dealt.muck  # p3's seat got its card, straight to the muck
    assert [cardroom.up[p][-1] for p in (0, 1, 3)] == cards("3h 4s 5c")
    checked(au)


def test_au_19_19_stud7_checker_who_folds_seat_keeps_receiving_until_a_wager() -> None:
    from irregular import s7

    hand = s7()
    hand.bet_or_raise_to(2)
    for _ in range(3):
        hand.check_or_call()
    folder = None
    while hand.street == 1:
        if folder is None and hand.legal().can_check and hand.to_act != 0:
            folder = hand.to_act
            hand.fold()  # folds on a round of checking
        else:
            hand.check_or_call()
    assert folder is not None and hand.receivers == [folder]
    hand.bet_or_raise_to(hand.legal().raise_range[0])  # type: ignore[index]
    assert hand.receivers == []  # a wager ends it
    checked(hand)


# --- I21 ----------------------------------------------------------------------------------------


def test_cardroom_irregularities_17_fouled_stub_hand_played_out() -> None:
    hand = limped(f4("cardroom"))
    ruling = report("cardroom", hand, "fouled-stub")
    assert [c.key for c in ruling.choices] == ["restore", "reshuffle"]
    decide("cardroom", hand, "reshuffle")
    assert hand.stacks == [990] * 4 and hand.pot == 40
    while hand.phase.value == "betting":
        hand.check_or_call()
    assert len(hand.board) == 5
    checked(hand)
