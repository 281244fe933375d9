"""Cards exposed in the deal (I7), stud up cards (I8, I9), draw (I10), boxed cards (I11),
defective decks (I12) and jokers (I13), book by book (docs/irregularities-spec.md)."""

from __future__ import annotations

import pytest

from croupier import events as ev
from croupier.deck import SeededShuffler
from croupier.hand import Hand
from croupier.irregularities import IrregularityError
from croupier.rulebooks import load_rulebook
from irregular import (
    BOOKS,
    FLOORS,
    STUB_A,
    cards,
    checked,
    decide,
    f4,
    limped,
    report,
    s5,
    s7,
    stub,
)  # fmt: skip

F4_BLINDS = [995, 990, 1000, 1000]
AU_SWAP = [cards("As Ts"), cards("Kd 9d"), cards("8h 6s"), cards("Jc 7c")]


def _void(book: str, hand: Hand, text: str) -> None:
    ruling = report(book, hand, text)
    if ruling.confirm_by == "supervisor":
        decide(book, hand, "confirm")
    assert hand.void and hand.stacks == [1000] * 4


# --- I7 -----------------------------------------------------------------------------------------


def test_exposed_hole_card_each_book() -> None:
    for book in BOOKS:
        hand = f4(book)
        ruling = report(book, hand, "exposed p3 Qh")
        if book == "qld":
            assert ruling.clause == "qld s32(1)(c)(i)" and hand.void
            continue
        assert hand.stacks == F4_BLINDS
        assert sorted(map(sorted, hand.hole)) == sorted(map(sorted, AU_SWAP)), book
        limped(hand)
        assert hand.burned == cards("Qh") and hand.board == cards("5d 4h 3c"), book
        assert ruling.clause == {
            "au-casino": "au 19.25", "rws": "cardroom misdeals 2(f)",
            "cardroom": "cardroom misdeals 2(f)", "league": "league 10",
        }[book]  # fmt: skip
    # The first card of the hand: a misdeal for the cardroom (rws: void), a swap for au.
    for book, void in (("cardroom", True), ("rws", True), ("qld", True), ("au-casino", False),
                       ("league", False)):  # fmt: skip
        hand = f4(book)
        report(book, hand, "exposed p1 As")
        assert hand.void is void, book
        if not void:
            assert hand.hole[0] == cards("Ts 6s") or hand.hole[0] == cards("6s Ts")


def test_au_19_25_exposed_hole_card_replaced_by_the_first_burn() -> None:
    hand = f4("au-casino")
    ruling = report("au-casino", hand, "exposed p3 Qh")
    assert ruling.basis == "own" and "(6s)" in ruling.outcome
    assert hand.hole == AU_SWAP
    limped(hand)
    for _ in range(4):
        hand.check_or_call()
    for _ in range(4):
        hand.check_or_call()
    assert hand.burned == cards("Qh 2s 2h") and hand.board == cards("5d 4h 3c Ah 3d")


def test_au_19_22_manila_exposed_hole_card_swapped_after_the_first_community_card() -> None:
    rules = load_rulebook("au-casino").rules("manila2", "no-limit", stakes=10)
    top = "As Kd Qh Jc Ts 9d 8h 7c 9s 8d 7h Kc"  # 32-card deck: ranks 7 to A
    hand = Hand(rules, [1000] * 4, stub(top, rules.deck), auto_push=False)
    assert hand.board == cards("9s")  # the first community card is part of the initial deal
    ruling = report("au-casino", hand, "exposed p3 Qh")
    assert ruling.clause == "au 19.22" and hand.hole[2] == cards("8h 8d")
    assert hand.dealt.aside == [(cards("Qh")[0], "burn")]


def test_au_19_1_p_two_exposed_cards_flop_game_misdeal() -> None:
    hand = f4("au-casino")
    ruling = report("au-casino", hand, "exposed p2 Kd p3 Qh")
    assert ruling.clause == "au 19.1(p)"
    decide("au-casino", hand, "confirm")
    assert hand.void and hand.stacks == [1000] * 4


def test_au_19_1_o_manila_two_exposed_hole_cards_misdeal() -> None:
    rules = load_rulebook("au-casino").rules("manila2", "no-limit", stakes=10)
    hand = Hand(rules, [1000] * 4, stub("As Kd Qh Jc Ts 9d 8h 7c 9s", rules.deck))
    assert report("au-casino", hand, "exposed p2 Kd p3 Qh").clause == "au 19.1(o)"


def test_qld_s32_1_c_i_exposed_hole_card_misdeal() -> None:
    hand = f4("qld")
    assert report("qld", hand, "exposed p3 Qh").clause == "qld s32(1)(c)(i)"
    assert hand.void


def test_cardroom_misdeals_2_a_first_or_second_card_exposed_misdeal() -> None:
    for text in ("exposed p1 As", "exposed p2 Kd"):
        hand = f4("cardroom")
        ruling = report("cardroom", hand, text)
        assert ruling.clause == "cardroom misdeals 2(a)" and hand.void
    third = f4("cardroom")
    assert not report("cardroom", third, "exposed p3 Qh").clause.endswith("2(a)")


def test_cardroom_misdeals_2_b_two_exposed_cards_misdeal() -> None:
    hand = f4("cardroom")
    assert report("cardroom", hand, "exposed p3 Qh p4 Jc").clause == "cardroom misdeals 2(b)"


def test_cardroom_irregularities_12_flash_is_exposure_unless_player_looked() -> None:
    looked = f4("cardroom")
    ruling = report("cardroom", looked, "flashed p3 Qh --looked")
    assert ruling.clause == "cardroom irregularities 12" and ruling.events == ()
    assert looked.hole[2] == cards("Qh 8h")
    flashed = f4("cardroom")
    report("cardroom", flashed, "flashed p3 Qh")
    assert flashed.hole[2] == cards("8h 6s")  # treated as exposed: replaced by the burn
    off = f4("cardroom")
    report("cardroom", off, "off-table p3 Qh")
    assert off.hole[2] == cards("8h 6s")


def test_cardroom_irregularities_13_no_option_to_refuse_the_exposed_card() -> None:
    hand = f4("cardroom")
    ruling = report("cardroom", hand, "exposed p3 Qh")
    assert ruling.choices == () and hand.pending is None  # the game's rule governs


def test_rws_5_1_3_two_exposed_cards_void() -> None:
    hand = f4("rws")
    assert report("rws", hand, "exposed p2 Kd p3 Qh").clause == "rws 5.1.3"
    assert hand.void and hand.stacks == [1000] * 4


def test_league_10_exposed_card_is_the_burn_player_gets_the_last_card() -> None:
    hand = f4("league")
    ruling = report("league", hand, "exposed p3 Qh")
    assert ruling.clause == "league 10"
    assert hand.hole == [cards("As Ts"), cards("Kd 9d"), cards("8h 6s"), cards("Jc 7c")]
    second = f4("league")
    report("league", second, "exposed p1 As")
    assert second.hole[0] == cards("Ts 6s") and second.hole[1] == cards("Kd 9d")


def test_league_10_exposed_button_card_next_card_to_the_button() -> None:
    au, league = f4("au-casino"), f4("league")
    report("au-casino", au, "exposed p4 Jc")
    report("league", league, "exposed p4 Jc")
    assert au.hole == [cards("As Ts"), cards("Kd 9d"), cards("Qh 8h"), cards("7c 6s")]
    assert league.hole == [cards("As 9d"), cards("Kd 8h"), cards("Qh 7c"), cards("Ts 6s")]
    for hand in (au, league):
        limped(hand)
        assert hand.burned == cards("Jc") and hand.board == cards("5d 4h 3c")
        checked(hand)


# --- I8, I9: stud ---------------------------------------------------------------------------------


def test_stud_card_dealt_up_each_book() -> None:
    au = s7()
    ruling = report("au-casino", au, "exposed p2 3d")
    assert ruling.clause == "au 19.14"
    assert au.up[1] == cards("3d") and sorted(au.hole[1]) == sorted(cards("7d Jd"))
    assert au.to_act == 1  # 3d is the lowest up card: p2 opens (13.2(a))
    cardroom = s7(book="cardroom")
    ruling = report("cardroom", cardroom, "exposed p2 3d")
    assert ruling.clause == "cardroom misdeals 2(a)" and cardroom.void
    assert cardroom.stacks == [100] * 4


def test_au_19_7_stud5_first_card_up_second_card_down() -> None:
    hand = s5()
    ruling = report("au-casino", hand, "exposed p2 3d")
    assert ruling.clause == "au 19.7" and hand.up[1] == cards("3d") and hand.hole[1] == cards("7d")


def test_au_19_8_stud5_two_up_second_swapped_with_first_burn() -> None:
    hand = s5()
    # p2's down card 3d came up and its up card 7d too: 7d is swapped for Tc, dealt down.
    ruling = report("au-casino", hand, "exposed p2 3d p2 7d")
    assert ruling.clause == "au 19.8"
    assert hand.up[1] == cards("3d") and hand.hole[1] == cards("Tc")
    assert hand.dealt.aside == [(cards("7d")[0], "burn")]
    with pytest.raises(IrregularityError):
        FLOORS["au-casino"].report(s5(), "exposed p2 Ah")  # not p2's card


def test_au_19_1_j_stud5_uncorrectable_up_cards_misdeal() -> None:
    hand = s5()
    ruling = report("au-casino", hand, "exposed p2 3d --unfixable")
    assert ruling.clause == "au 19.1(j)"
    decide("au-casino", hand, "confirm")
    assert hand.void


def test_au_19_1_k_stud5_two_players_two_up_misdeal() -> None:
    hand = s5()
    assert report("au-casino", hand, "exposed p2 3d p2 7d p3 4h p3 8h").clause == "au 19.1(k)"


def test_au_19_14_stud7_early_card_up_third_card_down() -> None:
    hand = s7()
    report("au-casino", hand, "exposed p2 3d")
    assert [hand.up[p] for p in range(4)] == [cards("Tc"), cards("3d"), cards("Qh"), cards("Ks")]
    assert hand.to_act == 1 and hand.legal().raise_range is not None


def test_au_19_15_stud7_two_up_second_swapped_with_first_burn() -> None:
    hand = s7()
    ruling = report("au-casino", hand, "exposed p2 3d p2 7d")
    assert ruling.clause == "au 19.15"
    assert hand.up[1] == cards("3d") and sorted(hand.hole[1]) == sorted(cards("Jd Ac"))
    while hand.street == 0:
        legal = hand.legal()
        if legal.can_check or legal.call:
            hand.check_or_call()
        else:
            hand.bet_or_raise_to(legal.raise_range[0])  # type: ignore[index]
    assert hand.burned == cards("7d") and [hand.up[p][-1] for p in range(4)] == \
        cards("2d 3h 4s 5c")  # fmt: skip


def test_au_19_1_l_stud7_unreconstructable_up_cards_misdeal() -> None:
    hand = s7()
    ruling = report("au-casino", hand, "exposed p2 3d --unfixable")
    assert ruling.clause == "au 19.1(l)"


def test_au_19_1_m_stud7_two_players_two_up_misdeal() -> None:
    hand = s7()
    assert report("au-casino", hand, "exposed p2 3d p2 7d p3 4h p3 8h").clause == "au 19.1(m)"


def test_au_19_1_n_stud7_three_up_cards_misdeal() -> None:
    hand = s7()
    ruling = report("au-casino", hand, "exposed p2 3d p2 7d p2 Jd")
    assert ruling.clause == "au 19.1(n)"
    decide("au-casino", hand, "confirm")
    assert hand.void and hand.stacks == [100] * 4


def _seventh(stacks: tuple[int, ...] = (100, 100, 100, 100)) -> Hand:
    """S7 to seventh street with p1, p3 and p4 (p2 folds), each 20 in and 80 behind."""
    hand = s7(stacks=stacks)
    hand.bet_or_raise_to(2)  # p1's Tc is the lowest up card: p1 opens
    hand.fold()  # p2
    for _ in range(2):
        hand.check_or_call()
    while hand.street < 4:
        legal = hand.legal()
        hand.bet_or_raise_to(legal.raise_range[0]) if hand.to_act == 0 and not legal.facing \
            else hand.check_or_call()  # fmt: skip
    return hand


def test_au_19_20_first_seventh_card_up_all_dealt_up_previous_opener() -> None:
    hand = _seventh()
    opener = hand.to_act
    ruling = report("au-casino", hand, f"seventh-up p1 {hand.hole[0][-1]} --first")
    assert ruling.clause == "au 19.20" and hand.to_act == opener
    assert all(len(hand.up[p]) == 5 for p in (0, 2, 3))


def test_au_19_20_later_seventh_card_exposed_player_may_be_treated_all_in() -> None:
    hand = _seventh()
    card = hand.hole[2][-1]
    ruling = report("au-casino", hand, f"seventh-up p3 {card}")
    assert [c.key for c in ruling.choices] == ["all-in", "play"] and hand.pending is None
    decide("au-casino", hand, "all-in", player=2)
    kept = hand.behind[2]
    while hand.phase.value == "betting":
        legal = hand.legal()
        if legal.raise_range and not legal.facing:
            hand.bet_or_raise_to(legal.raise_range[0])
        else:
            hand.check_or_call()
    assert hand.behind[2] == kept and hand.stacks[2] == 0
    checked(hand)


def test_au_19_20_no_choice_before_substantial_action_treated_all_in() -> None:
    hand = _seventh()
    behind = hand.stacks[2]
    report("au-casino", hand, f"seventh-up p3 {hand.hole[2][-1]}")
    assert 2 in hand.options and hand.pending is None  # the betting goes on meanwhile
    legal = hand.legal()
    hand.bet_or_raise_to(legal.raise_range[0])  # type: ignore[index]
    assert 2 in hand.options
    hand.check_or_call()  # p3 calls 4: two players have acted, substantial action
    assert hand.behind[2] == behind - 4 and hand.stacks[2] == 0 and 2 not in hand.options
    assert any(isinstance(e, ev.TreatedAllIn) and e.player == 2 for e in hand.events)
    checked(hand)


# --- I10: draw ------------------------------------------------------------------------------------


def _draw(book: str = "au-casino") -> Hand:
    rules = load_rulebook(book).rules("draw", "fixed", stakes=10)
    top = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac 2d 3h Kc Kh 2h 3s 4c 5h 6d"
    return Hand(rules, [100] * 3, stub(top), shuffler=SeededShuffler(4), auto_push=False)


def test_draw_exposed_card_on_the_deal_each_book() -> None:
    for book in ("au-casino", "cardroom"):
        hand = _draw(book)
        ruling = report(book, hand, "exposed p3 4h")
        assert ruling.clause == "cardroom misdeals 2(f)"
        assert cards("4h")[0] in hand.dealt.muck and len(hand.hole[2]) == 5
        first = _draw(book)
        ruling = report(book, first, "exposed p1 2c")
        if ruling.confirm_by:
            decide(book, first, "confirm")
        assert first.void, book


def test_au_19_1_i_draw_two_exposed_on_the_deal_misdeal_exposed_on_the_draw_used() -> None:
    hand = _draw()
    assert report("au-casino", hand, "exposed p2 3d p3 4h").clause == "au 19.1(i)"
    drawing = _draw()
    for _ in range(3):
        drawing.check_or_call()
    drawing.draw(drawing.hole[0][:2])
    ruling = report("au-casino", drawing, f"exposed p1 {drawing.hole[0][-1]}")
    assert ruling.clause == "au 19.1(i)" and "used in sequence" in ruling.outcome


def test_au_19_6_out_of_sequence_draw_cards_kept_by_the_player_who_saw_them() -> None:
    rules = load_rulebook("au-casino").rules("draw", "fixed", stakes=10)
    # Dealt: p1 2c 5s 8h Jd Ac, p2 3d 6c 9s Qh 2d, p3 4h 7d Tc Ks 3h; the draws come from
    # Kc Kh 2h 3s 4c 5h: p1 draws 2 (Kc Kh), p2 draws 3 (2h 3s 4c), p3 draws 1 (5h).
    top = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac 2d 3h Kc Kh 2h 3s 4c 5h 6d"
    hand = Hand(rules, [100] * 3, stub(top), auto_push=False)
    for _ in range(3):
        hand.check_or_call()
    hand.draw(cards("2c 5s"))
    hand.draw(cards("3d 6c 9s"))
    hand.draw(cards("4h"))
    ruling = report("au-casino", hand, "draw-order p2 p1")
    assert ruling.clause == "au 19.6"
    assert cards("Kc Kh")[0] in hand.hole[1] and cards("Kc Kh")[1] in hand.hole[1]
    assert cards("2h")[0] in hand.hole[0] and cards("3s")[0] in hand.hole[0]
    assert cards("4c")[0] in hand.hole[1] and cards("5h")[0] in hand.hole[2]


# --- I11: boxed cards -----------------------------------------------------------------------------


def test_boxed_card_during_the_deal_each_book() -> None:
    shifted = [cards("As 9d"), cards("Kd 8h"), cards("Jc 7c"), cards("Ts 6s")]
    for book in BOOKS:
        hand = f4(book)
        ruling = report(book, hand, "boxed Qh")
        if book == "qld":
            assert ruling.clause == "qld s32(1)(c)(ii)" and hand.void
            continue
        assert hand.hole == shifted, book
        limped(hand)
        assert hand.burned == cards("5d") and hand.board == cards("4h 3c 2s"), book
    for book in BOOKS:  # boxed as the first flop card: every book, qld by fill
        hand = limped(f4(book, top=STUB_A.replace("5d", "Qh", 1).replace("Qh", "5d", 1)))
        first = hand.board[0]
        report(book, hand, f"boxed {first}")
        assert first not in hand.board and len(hand.board) == 3


def test_au_19_2_boxed_card_mucked_next_card_replaces() -> None:
    hand = f4("au-casino")
    ruling = report("au-casino", hand, "boxed Qh")
    assert ruling.clause == "au 19.2" and hand.dealt.muck == cards("Qh")


def test_au_1_1_five_boxed_cards_make_the_deck_defective() -> None:
    hand = limped(f4("au-casino"))
    for card in hand.deck.cards[:4]:
        report("au-casino", hand, f"boxed {card}")
    ruling = report("au-casino", hand, f"boxed {hand.deck.cards[0]}")
    assert ruling.clause == "au 1.1 defective-deck"
    decide("au-casino", hand, "confirm")
    assert hand.void and hand.stacks == [1000] * 4


def test_cardroom_irregularities_7_boxed_card_is_scrap_replaced_after_the_round_when_mixed(
) -> None:  # fmt: skip
    hand = f4("cardroom")
    ruling = report("cardroom", hand, "boxed Qh --late")
    assert ruling.clause == "cardroom irregularities 7" and hand.dealt.scrap == cards("Qh")
    # Qh was p3's: the deal goes on past p3, who gets the round's last card.
    assert hand.hole == [cards("As Ts"), cards("Kd 9d"), cards("8h 6s"), cards("Jc 7c")]


def test_cardroom_misdeals_2_c_two_boxed_cards_misdeal() -> None:
    hand = f4("cardroom")
    report("cardroom", hand, "boxed 5d")  # in the stub
    ruling = report("cardroom", hand, "boxed 4h")
    assert ruling.clause == "cardroom misdeals 2(c)" and hand.void


def test_qld_s32_1_c_ii_face_up_card_in_the_deck_during_the_hole_deal_misdeal() -> None:
    hand = f4("qld")
    assert report("qld", hand, "boxed Qh").clause == "qld s32(1)(c)(ii)"
    board = limped(f4("qld"))
    ruling = report("qld", board, f"boxed {board.board[0]}")
    assert ruling.clause == "cardroom irregularities 7" and ruling.basis == "fill"


# --- I12, I13 -------------------------------------------------------------------------------------


def _flop_called(book: str) -> Hand:
    """F4 limped; on the flop p1 bets 40, p2 folds, p3 and p4 call: the pot is 160."""
    hand = limped(f4(book, **({"structure": "pot"} if False else {})))
    hand.bet_or_raise_to(40)
    hand.fold()
    hand.check_or_call()
    hand.check_or_call()
    assert hand.pot == 160
    return hand


def test_defective_deck_each_book() -> None:
    for book in BOOKS:
        hand = _flop_called(book)
        ruling = report(book, hand, "duplicate Ah")
        if ruling.confirm_by:
            decide(book, hand, "confirm")
        assert hand.void and hand.stacks == [1000] * 4, book
    for book in BOOKS:  # 51 cards, found at the showdown, before the push
        hand = _flop_called(book)
        while hand.phase.value != "showdown":
            hand.check_or_call()
        ruling = report(book, hand, "deck-count 51")
        if ruling.confirm_by:
            decide(book, hand, "confirm")
        if book in ("au-casino", "rws"):
            assert hand.void and hand.stacks == [1000] * 4, book
        else:
            assert ruling.clause == "cardroom irregularities 10" and not hand.void
            hand.push()
            assert sum(hand.stacks) == 4000


def test_au_19_1_h_defective_deck_before_the_pot_is_pushed_all_bets_returned() -> None:
    hand = _flop_called("au-casino")
    assert report("au-casino", hand, "odd-back Kd").clause == "au 19.1(h)"
    pushed = _flop_called("au-casino")
    while pushed.phase.value != "showdown":
        pushed.check_or_call()
    pushed.push()
    ruling = report("au-casino", pushed, "duplicate Ah")
    assert ruling.events == () and "stands" in ruling.outcome


def test_rws_5_1_1_foreign_card_voids_earlier_games_stand_new_cards() -> None:
    hand = _flop_called("rws")
    ruling = report("rws", hand, "foreign Xx")
    assert ruling.clause == "rws 5.1.1" and "new cards" in ruling.outcome and hand.void


def test_rws_5_1_2_short_or_long_deck_voids() -> None:
    hand = _flop_called("rws")
    assert report("rws", hand, "deck-count 53").clause == "rws 5.1.2" and hand.void


def test_cardroom_irregularities_3_odd_back_in_play_voids_in_the_stub_stands() -> None:
    hand = _flop_called("cardroom")
    assert report("cardroom", hand, "odd-back Kd --stub").events == ()
    ruling = report("cardroom", hand, "odd-back Kd")
    assert ruling.clause == "cardroom irregularities 3" and hand.void


def test_cardroom_irregularities_4_duplicate_voids_chips_returned() -> None:
    hand = _flop_called("cardroom")
    assert report("cardroom", hand, "duplicate Ah").clause == "cardroom irregularities 4"
    assert hand.stacks == [1000] * 4


def test_cardroom_irregularities_5_aware_freeroller_may_lose_the_refund() -> None:
    hand = limped(f4("cardroom"))
    hand.bet_or_raise_to(40)
    hand.bet_or_raise_to(120)
    hand.fold()
    hand.fold()
    hand.check_or_call()
    report("cardroom", hand, "aware p2")
    ruling = report("cardroom", hand, "duplicate Ah")
    assert [c.key for c in ruling.choices] == ["refund", "keep"]
    decide("cardroom", hand, "keep")
    assert hand.stacks == [1000, 870, 1000, 1000] and hand.carried == 130


def test_cardroom_irregularities_10_missing_cards_do_not_void_the_result() -> None:
    hand = _flop_called("cardroom")
    ruling = report("cardroom", hand, "deck-count 50")
    assert ruling.clause == "cardroom irregularities 10" and not hand.void


def test_joker_each_book() -> None:
    for book in BOOKS:
        hand = limped(f4(book))
        hand.check_or_call()  # p1 checks
        hand.bet_or_raise_to(40)  # p2
        hand.check_or_call()  # p3 calls
        ruling = report(book, hand, "joker p3 --acted")
        if book in ("au-casino", "rws"):
            if ruling.confirm_by:
                decide(book, hand, "confirm")
            assert hand.void and hand.stacks == [1000] * 4
            continue
        assert ruling.clause == "cardroom dead-hands 1(e)" and 2 not in hand.in_hand()
        assert hand.pot == 120 and hand.to_act == 3 and hand.legal().call == 40


def test_cardroom_irregularities_8_joker_is_scrap_replaced_no_misdeal() -> None:
    live = Hand(f4("cardroom").rules, [1000] * 4, auto_deal=False, auto_push=False)
    for player in range(4):
        live.deal_hole([None, None], player)
    ruling = report("cardroom", live, "joker p3")
    assert ruling.clause == "cardroom irregularities 8" and not live.void
    assert live.hidden[2] == 2 and live.dealt.stub() == 44  # the joker was no card of the deck


def test_cardroom_irregularities_9_player_who_acted_unlooked_bears_the_joker() -> None:
    hand = f4("cardroom")
    hand.check_or_call()  # p3 acted without looking at every card
    ruling = report("cardroom", hand, "joker p3")
    assert 2 not in hand.in_hand() and "dead" in ruling.outcome


def test_cardroom_dead_hands_1_e_acting_on_a_joker_kills_the_hand() -> None:
    hand = f4("cardroom")
    assert report("cardroom", hand, "joker p3 --acted").clause == "cardroom dead-hands 1(e)"
