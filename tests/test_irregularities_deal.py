"""Misdeals (I1-I2), dealing-order errors (I3) and wrong card counts (I4-I6), book by book:
docs/irregularities-spec.md's worked examples, each ruling checked for its clause, its stacks and
cards, chips conserved and the hand rebuilt from its log."""

from __future__ import annotations

import pytest

from croupier import events as ev
from croupier.irregularities import IrregularityError
from irregular import BOOKS, FLOORS, cards, checked, decide, f4, limped, report

F4_BLINDS = [995, 990, 1000, 1000]


def _misdealt(book: str, hand: object, text: str) -> None:
    """The report is a misdeal (au: once the supervisor confirms): every chip back."""
    ruling = report(book, hand, text)  # type: ignore[arg-type]
    if ruling.confirm_by == "supervisor":
        assert [c.key for c in ruling.choices] == ["confirm", "reject"]
        ruling = decide(book, hand, "confirm")  # type: ignore[arg-type]
    assert hand.stacks == [1000] * 4 and hand.void  # type: ignore[attr-defined]
    assert any(isinstance(e, ev.HandVoided) for e in ruling.events)


# --- I1 -----------------------------------------------------------------------------------------


def test_au_19_1_misdeal_new_shuffle_same_first_player_supervisor_confirms() -> None:
    hand = f4("au-casino")
    hand.fold()  # p3: one player has acted
    ruling = report("au-casino", hand, "misdeal")
    assert (ruling.clause, ruling.confirm_by) == ("au 19.1", "supervisor")
    assert hand.pending is not None and hand.stacks == F4_BLINDS
    with pytest.raises(IrregularityError, match="a ruling awaits a choice"):
        hand.check_or_call()
    final = decide("au-casino", hand, "confirm")
    assert "same button" in final.outcome and hand.stacks == [1000] * 4
    rejected = f4("au-casino")
    report("au-casino", rejected, "misdeal")
    assert decide("au-casino", rejected, "reject").events == ()
    assert rejected.stacks == F4_BLINDS and rejected.to_act == 2


def test_qld_s32_2_misdeal_only_before_the_first_round_of_betting() -> None:
    hand = f4("qld")
    hand.fold()
    with pytest.raises(IrregularityError) as refused:
        FLOORS["qld"].report(hand, "misdeal")
    assert "qld s32(2)" in str(refused.value) and "(p3 folded)" in str(refused.value)
    assert hand.stacks == F4_BLINDS and hand.pot == 15 and hand.to_act == 3
    fresh = f4("qld")
    _misdealt("qld", fresh, "misdeal")


def test_qld_s32_3_a_misdealt_round_not_started_fee_charged_once() -> None:
    hand = f4("qld")
    ruling = report("qld", hand, "misdeal")
    assert ruling.clause == "qld s32(3)" and hand.stacks == [1000] * 4
    returned = next(e for e in ruling.events if isinstance(e, ev.HandVoided))
    assert returned.returned == (5, 10, 0, 0)  # the blinds too: the round never started


def test_qld_s32_3_b_shuffle_and_cut_for_the_new_round() -> None:
    ruling = report("qld", f4("qld"), "misdeal")
    assert "a new shuffle and cut" in ruling.outcome


def test_cardroom_misdeals_1_no_misdeal_once_two_players_acted() -> None:
    hand = f4("cardroom")
    hand.fold()
    hand.check_or_call()
    with pytest.raises(IrregularityError, match=r"cardroom misdeals 1: .*two players have acted"):
        FLOORS["cardroom"].report(hand, "misdeal")


def test_cardroom_misdeals_1_fouled_hand_gets_no_money_back() -> None:
    hand = f4("cardroom")
    hand.bet_or_raise_to(30)
    hand.check_or_call()
    hand.fold()
    hand.check_or_call()
    hand.check_or_call()  # the flop: p2 checks
    ruling = report("cardroom", hand, "count p3 3")
    assert ruling.clause == "cardroom dead-hands 1(d)"
    assert hand.stacks == [995, 970, 970, 970] and hand.pot == 95


def test_rws_5_1_void_game_returns_every_bet() -> None:
    hand = f4("rws")
    with pytest.raises(IrregularityError, match=r"rws 5\.1: a game is void only for its causes"):
        FLOORS["rws"].report(hand, "misdeal")
    ruling = report("rws", hand, "duplicate Ah")
    assert ruling.clause == "rws 5.1.1" and hand.stacks == [1000] * 4


def test_league_11_no_misdeal_after_substantial_action() -> None:
    hand = f4("league")
    hand.fold()
    _misdealt("league", hand.copy(), "misdeal")
    hand.check_or_call()
    with pytest.raises(IrregularityError, match="league 11"):
        FLOORS["league"].report(hand, "misdeal")


def test_misdeal_cut_off_each_book() -> None:
    expected = {  # after p3's fold; then after p4's call too
        "au-casino": ("au 19.1", "au 19.1(b)"),
        "cardroom": ("cardroom misdeals 1", "cardroom misdeals 1"),
        "league": ("league 11", "league 11"),
        "qld": (None, "qld s32(2)"),
        "rws": (None, "rws 5.1"),
    }
    for book, (first, second) in expected.items():
        hand = f4(book)
        hand.fold()
        if first is None:
            with pytest.raises(IrregularityError):
                FLOORS[book].report(hand, "misdeal")
            assert hand.stacks == F4_BLINDS
        else:
            assert report(book, hand.copy(), "misdeal").clause == first
        hand.check_or_call()
        with pytest.raises(IrregularityError, match=second.replace("(", r"\(").replace(")", r"\)")):
            FLOORS[book].report(hand, "misdeal")
        checked(hand)


# --- I2 -----------------------------------------------------------------------------------------


def test_au_19_1_a_card_exposed_in_the_cut_is_a_new_shuffle() -> None:
    rules = f4("au-casino").rules
    from croupier.deck import SeededShuffler
    from croupier.hand import Hand

    live = Hand(rules, [1000] * 4, auto_deal=False, shuffler=SeededShuffler(3))
    ruling = report("au-casino", live, "cut-exposed")
    assert ruling.clause == "au 19.1(a)" and "no card was dealt" in ruling.outcome
    assert any(isinstance(e, ev.StubReshuffled) for e in ruling.events)
    assert live.stacks == F4_BLINDS  # the blinds stand, nothing was dealt
    _misdealt("au-casino", f4("au-casino"), "cut-exposed")


def test_au_19_1_b_unshuffled_deck_before_substantial_action_misdeal_after_played_out() -> None:
    _misdealt("au-casino", f4("au-casino"), "no-shuffle")
    hand = f4("au-casino")
    hand.check_or_call()
    hand.check_or_call()
    ruling = report("au-casino", hand, "no-shuffle")
    assert ruling.clause == "au 19.1(b)" and ruling.events == () and "played out" in ruling.outcome


def test_qld_s32_1_a_card_exposed_in_the_cut_misdeal() -> None:
    hand = f4("qld")
    ruling = report("qld", hand, "cut-exposed")
    assert ruling.clause == "qld s32(1)(a)" and hand.stacks == [1000] * 4


def test_qld_s32_1_b_uncut_deck_misdeal_before_first_round() -> None:
    hand = f4("qld")
    assert report("qld", hand, "no-cut").clause == "qld s32(1)(b)"
    assert hand.stacks == [1000] * 4
    late = f4("qld")
    late.check_or_call()
    assert report("qld", late, "no-cut").events == ()


def test_no_cut_each_book() -> None:
    for book in BOOKS:
        hand = f4(book)
        hand.check_or_call()
        hand.check_or_call()  # p3 and p4 call: two players have acted
        ruling = report(book, hand, "no-cut")
        assert ruling.events == () and hand.stacks == [995, 990, 990, 990] and hand.pot == 35
        _misdealt(book, f4(book), "no-cut")


# --- I3 -----------------------------------------------------------------------------------------

# F4 on a five-seat table: seat 5, empty, was dealt Ts and 5d after p4 each round. The engine's
# record is the four players' cards; the two seat-5 cards are the stub's next.
SEAT5 = "As Kd Qh Jc 9d 8h 7c 6s Ts 5d 4h 3c 2s Ah 2h 3d"
SKEWED = "Jc As Kd Qh 7c Ts 9d 8h 6s 5d 4h 3c 2s Ah 2h 3d"  # stub A dealt from p2


def test_extra_hand_at_empty_seat_each_book() -> None:
    for book in BOOKS:
        hand = f4(book, top=SEAT5)
        ruling = report(book, hand, "extra-hand s5 Ts 5d")
        if book == "cardroom":
            assert ruling.clause == "cardroom misdeals 2(i)" and hand.stacks == [1000] * 4
            continue
        assert hand.stacks == F4_BLINDS and hand.hole[0] == cards("As 9d")
        for _ in range(4):
            hand.check_or_call()
        assert hand.burned == cards("4h") and hand.board == cards("3c 2s Ah")
        looked = f4(book, top=SEAT5)
        ruling = report(book, looked, "extra-hand s5 Ts 5d --looked")
        if book in ("rws", "qld"):
            assert looked.void and looked.stacks == [1000] * 4
        assert ruling.clause


def test_qld_s32_1_d_i_card_out_of_turn_misdeal() -> None:
    hand = f4("qld")
    ruling = report("qld", hand, "out-of-order p3 Qh --looked")
    assert ruling.clause == "qld s32(1)(d)(i)" and hand.void


def test_qld_s32_1_d_ii_player_skipped_misdeal() -> None:
    hand = f4("qld")
    assert report("qld", hand, "skipped p3 --looked").clause == "qld s32(1)(d)(ii)"
    assert hand.void


def test_qld_s32_1_d_iv_card_to_vacant_position_misdeal() -> None:
    hand = f4("qld", top=SEAT5)
    assert report("qld", hand, "extra-hand s5 Ts 5d --unfixable").clause == "qld s32(6)"
    assert hand.void


def test_qld_s32_4_no_misdeal_when_unseen_and_reconstructable() -> None:
    hand = f4("qld", top=SEAT5)
    ruling = report("qld", hand, "extra-hand s5 Ts 5d")
    assert not hand.void and [e.card for e in ruling.events if isinstance(e, ev.Discarded)] == \
        cards("Ts 5d")  # fmt: skip


def test_qld_s32_5_dealer_must_reconstruct() -> None:
    hand = f4("qld")
    # Stub A dealt from p2 by mistake: p2 As Ts, p3 Kd 9d, p4 Qh 8h, p1 Jc 7c.
    skewed = f4("qld", top=SKEWED)
    assert skewed.hole == [cards("Jc 7c"), cards("As Ts"), cards("Kd 9d"), cards("Qh 8h")]
    ruling = report("qld", skewed, "first-to p2")
    assert not skewed.void and ruling.clause == "qld s32(1)(d)(i)"
    assert skewed.hole == [cards("As Ts"), cards("Kd 9d"), cards("Qh 8h"), cards("Jc 7c")]
    assert hand.hole == skewed.hole


def test_qld_s32_6_vacant_position_cards_to_discards() -> None:
    hand = f4("qld", top=SEAT5)
    report("qld", hand, "extra-hand s5 Ts 5d")
    assert hand.dealt.muck == cards("Ts 5d")


def test_au_19_1_c_out_of_order_reconstructed_else_misdeal() -> None:
    skewed = f4("au-casino", top=SKEWED)
    ruling = report("au-casino", skewed, "first-to p2")
    assert ruling.clause == "au 19.1(c)" and skewed.hole[0] == cards("As Ts")
    hand = f4("au-casino")
    ruling = report("au-casino", hand, "out-of-order p3 Qh --unfixable")
    assert ruling.confirm_by == "supervisor"
    decide("au-casino", hand, "confirm")
    assert hand.void


def test_au_19_1_d_player_dealt_out_or_extra_hand_before_substantial_action() -> None:
    hand = f4("au-casino", top=SEAT5)
    assert report("au-casino", hand, "extra-hand s5 Ts 5d").clause == "au 19.1(d)"
    late = f4("au-casino")
    late.check_or_call()
    late.check_or_call()
    ruling = report("au-casino", late, "skipped p1")
    assert 0 not in late.in_hand() and late.stacks[0] == 1000  # the small blind comes back
    assert ruling.basis == "decision"


def test_cardroom_misdeals_2_f_card_out_of_sequence_misdeal() -> None:
    hand = f4("cardroom")
    assert report("cardroom", hand, "out-of-order p3 Qh").clause == "cardroom misdeals 2(f)"
    assert hand.void


def test_cardroom_misdeals_2_g_button_out_of_position_misdeal() -> None:
    hand = f4("cardroom")
    assert report("cardroom", hand, "button-wrong").clause == "cardroom misdeals 2(g)"
    assert hand.void


def test_cardroom_misdeals_2_h_first_card_to_wrong_position_misdeal() -> None:
    hand = f4("cardroom")
    assert report("cardroom", hand, "first-to p2").clause == "cardroom misdeals 2(h)"


def test_cardroom_misdeals_2_i_cards_to_empty_seat_misdeal() -> None:
    hand = f4("cardroom", top=SEAT5)
    assert report("cardroom", hand, "extra-hand s5 Ts 5d").clause == "cardroom misdeals 2(i)"


def test_cardroom_misdeals_2_j_entitled_player_dealt_out_misdeal_absent_player_not() -> None:
    hand = f4("cardroom")
    assert report("cardroom", hand, "skipped p4").clause == "cardroom misdeals 2(j)"
    assert hand.void
    absent = f4("cardroom")
    ruling = report("cardroom", absent, "skipped p4 --absent")
    assert not absent.void and 3 not in absent.in_hand() and "not entitled" in ruling.outcome


def test_rws_5_1_5_a_extra_hand_unseen_unreconstructable_void() -> None:
    hand = f4("rws", top=SEAT5)
    assert report("rws", hand, "extra-hand s5 Ts 5d --unfixable").clause == "rws 5.1.5"
    assert hand.void and hand.stacks == [1000] * 4


def test_rws_5_1_5_b_extra_hand_after_a_player_looked_void() -> None:
    hand = f4("rws", top=SEAT5)
    ruling = report("rws", hand, "extra-hand s5 Ts 5d --looked")
    assert hand.void and "seen their hole cards" in ruling.outcome


def test_rws_5_1_5_b_extra_or_skipped_hand_after_a_player_acted_voids_the_game() -> None:
    """5.1.5(b), read as 5.1.4 is: a player who has acted on the hand has looked at his hole
    cards, so an extra hand or a skipped one noticed after an action voids the game without
    --looked."""
    for text in ("extra-hand s5 Ts 5d", "skipped p4"):
        hand = f4("rws", top=SEAT5) if text.startswith("extra") else f4("rws")
        hand.check_or_call()  # p3 calls
        ruling = report("rws", hand, text)
        assert ruling.clause == "rws 5.1.5" and "p3 called" in ruling.outcome, text
        assert hand.void and hand.stacks == [1000] * 4, text
    unseen = f4("rws", top=SEAT5)  # nobody has acted or looked: reconstructed (5.1.5(a))
    assert not report("rws", unseen, "extra-hand s5 Ts 5d").outcome.startswith("p3")
    assert not unseen.void


# --- I4 -----------------------------------------------------------------------------------------


def test_one_extra_hole_card_each_book() -> None:
    for book in BOOKS:
        hand = f4(book)
        ruling = report(book, hand, "extra-card p1 6s")
        if book == "rws":
            assert ruling.clause == "rws 5.1.4" and hand.stacks == [1000] * 4
            continue
        assert hand.stacks == F4_BLINDS, book
        assert ruling.clause == {
            "au-casino": "au 19.1(e)", "qld": "qld s32(1)(d)(iii)",
            "cardroom": "cardroom irregularities 11", "league": "league 11",
        }[book]  # fmt: skip
        limped(hand)
        assert hand.burned == cards("6s") and hand.board == cards("5d 4h 3c")


def test_au_19_1_e_wrong_count_after_the_deal_reconstructed_or_misdeal() -> None:
    hand = f4("au-casino")
    ruling = report("au-casino", hand, "count p4 1")
    assert ruling.clause == "au 19.1(e)" and hand.hole[3] == cards("Jc 7c")
    unfixable = f4("au-casino")
    report("au-casino", unfixable, "count p4 1 --unfixable")
    decide("au-casino", unfixable, "confirm")
    assert unfixable.void


def test_au_19_1_f_wrong_count_before_substantial_action_misdeal() -> None:
    hand = f4("au-casino")
    hand.check_or_call()  # one player acted (not p4)
    report("au-casino", hand, "count p4 3 --unfixable")
    decide("au-casino", hand, "confirm")
    assert hand.void and hand.stacks == [1000] * 4


def test_qld_s32_1_d_iii_wrong_number_of_cards_misdeal_unless_reconstructable() -> None:
    hand = f4("qld")
    assert report("qld", hand, "count p4 1").clause == "qld s32(1)(d)(iii)"
    assert not hand.void and hand.hole[3] == cards("Jc 7c")
    looked = f4("qld")
    report("qld", looked, "count p4 1 --looked")
    assert looked.void


def test_cardroom_misdeals_2_d_two_extra_cards_misdeal() -> None:
    hand = f4("cardroom")
    assert report("cardroom", hand, "count p1 4").clause == "cardroom misdeals 2(d)"
    assert hand.void


def test_cardroom_misdeals_2_d_two_extra_cards_in_starting_hands() -> None:
    """2(d) counts the extra cards dealt into the starting hands, not one player's: one extra
    card each to p1 and p2, reported one after the other (or as counts), is a misdeal."""
    for first, second in (("extra-card p1 6s", "extra-card p2 5d"), ("count p1 3", "count p2 3")):
        hand = f4("cardroom")
        assert report("cardroom", hand, first).clause == "cardroom irregularities 11"
        ruling = report("cardroom", hand, second)
        assert ruling.clause == "cardroom misdeals 2(d)", second
        assert "2 extra cards in the starting hands" in ruling.outcome
        assert hand.void and hand.stacks == [1000] * 4


def test_cardroom_misdeals_2_e_wrong_count_misdeal_but_top_card_in_sequence_may_be_dealt() -> None:
    hand = f4("cardroom")
    ruling = report("cardroom", hand, "count p4 1")
    assert ruling.clause == "cardroom misdeals 2(e)" and not hand.void
    assert hand.hole[3] == cards("Jc 7c")  # 7c, the top card, is p4's in sequence
    short = f4("cardroom")
    report("cardroom", short, "count p4 1 --unfixable")
    assert short.void


def test_cardroom_irregularities_11_one_extra_card_becomes_the_burn() -> None:
    hand = f4("cardroom")
    ruling = report("cardroom", hand, "extra-card p1 6s")
    assert ruling.clause == "cardroom irregularities 11"
    assert hand.dealt.aside == [(cards("6s")[0], "burn")]


def test_rws_5_1_4_wrong_count_and_a_card_seen_voids() -> None:
    hand = f4("rws")
    ruling = report("rws", hand, "count p4 1")
    assert ruling.clause == "rws 5.1.4" and hand.void and hand.stacks == [1000] * 4


# --- I5 -----------------------------------------------------------------------------------------


def _raised_then_flop(book: str) -> object:
    """Before the flop p3 raises to 30 (qld: to 20, its only first-round raise, s24(4)), p4
    calls, p1 folds, p2 calls; on the flop p2 checks."""
    hand = f4(book)
    hand.bet_or_raise_to(20 if book == "qld" else 30)  # p3
    hand.check_or_call()  # p4
    hand.fold()  # p1
    hand.check_or_call()  # p2
    hand.check_or_call()  # the flop: p2 checks
    assert hand.pot == (65 if book == "qld" else 95)
    return hand


def test_wrong_count_after_action_each_book() -> None:
    expected = {
        "au-casino": ([995, 970, 1000, 970], 65),
        "qld": ([995, 980, 980, 980], 65),
        "cardroom": ([995, 970, 970, 970], 95),
        "league": ([995, 970, 970, 970], 95),
        "rws": ([1000] * 4, 0),
    }
    for book, (stacks, pot) in expected.items():
        hand = _raised_then_flop(book)
        ruling = report(book, hand, "count p3 3")  # type: ignore[arg-type]
        if ruling.choices:
            assert [c.key for c in ruling.choices] == ["refund", "collusion"]
            ruling = decide(book, hand, "refund")  # type: ignore[arg-type]
        assert hand.stacks == stacks and hand.pot == pot, book  # type: ignore[attr-defined]


def test_au_19_1_f_i_player_acted_hand_dead_chips_returned_absent_collusion() -> None:
    hand = _raised_then_flop("au-casino")
    ruling = report("au-casino", hand, "count p3 3")  # type: ignore[arg-type]
    assert ruling.clause == "au 19.1(f)(i)" and ruling.basis == "own"
    decide("au-casino", hand, "collusion")  # type: ignore[arg-type]
    assert hand.stacks == [995, 970, 970, 970] and 2 not in hand.in_hand()  # type: ignore[attr-defined]


def test_au_19_1_f_ii_others_acted_hand_void_chips_returned() -> None:
    hand = f4("au-casino")
    hand.check_or_call()  # p3
    hand.check_or_call()  # p4: substantial action, p2 has not acted
    ruling = report("au-casino", hand, "count p2 3")
    assert ruling.clause == "au 19.1(f)(ii)" and hand.stacks[1] == 1000
    assert 1 not in hand.in_hand()


def test_qld_s33_1_wrong_count_hand_declared_dead() -> None:
    hand = _raised_then_flop("qld")
    ruling = report("qld", hand, "count p3 3")  # type: ignore[arg-type]
    assert ruling.clause == "qld s33(2)" and 2 not in hand.in_hand()  # type: ignore[attr-defined]


def test_qld_s33_2_dead_hand_bets_stay_in_the_pot() -> None:
    hand = _raised_then_flop("qld")
    report("qld", hand, "count p3 3")  # type: ignore[arg-type]
    assert hand.pot == 65 and hand.stacks[2] == 980  # type: ignore[attr-defined]


def test_cardroom_dead_hands_1_d_wrong_count_dead_stud_final_card_and_draw_exceptions() -> None:
    hand = _raised_then_flop("cardroom")
    assert report("cardroom", hand, "count p3 3").clause == "cardroom dead-hands 1(d)"  # type: ignore[arg-type]
    from croupier.deck import SeededShuffler
    from croupier.hand import Hand
    from croupier.rulebooks import load_rulebook

    draw = Hand(load_rulebook("cardroom").rules("draw", "fixed", stakes=10), [100] * 3,
                shuffler=SeededShuffler(2))  # fmt: skip
    draw.check_or_call()
    draw.check_or_call()
    ruling = report("cardroom", draw, "count p1 4")
    assert ruling.events == () and "live" in ruling.outcome and 0 in draw.in_hand()


# --- I6 -----------------------------------------------------------------------------------------

SHOWDOWN = "2c Jd 8h Kc 3s 9d 7h 9h 6s 5d 4h 3c 2s Ah 2h 9c"


def _to_showdown(book: str, stacks: tuple[int, ...] = (1000,) * 4) -> object:
    """Before the flop p3 folds, p4 calls, p1 folds, p2 checks; flop and turn checked; on the
    river p2 bets 50 and p4 calls: pot 125. p2 shows Jd 9d, p4 mucks Kc 9h."""
    from croupier.deck import SeededShuffler
    from croupier.hand import Hand
    from croupier.rulebooks import load_rulebook
    from irregular import stub

    structure = "straddle" if book == "qld" else "no-limit"  # qld: an opening bet of 50
    rules = load_rulebook(book).rules("holdem", structure, stakes=10)
    hand = Hand(rules, list(stacks), stub(SHOWDOWN), shuffler=SeededShuffler(1),
                auto_show=False, auto_push=False)  # fmt: skip
    hand.fold()
    hand.check_or_call()
    if stacks[0] > 5:
        hand.fold()
    hand.check_or_call()
    while hand.street < 3:
        hand.check_or_call()
    hand.bet_or_raise_to(50)
    hand.check_or_call()
    hand.show_or_muck(True)
    hand.show_or_muck(False)
    return hand


def test_dead_hand_at_showdown_each_book() -> None:
    for book in BOOKS:
        hand = _to_showdown(book)
        assert hand.pot == 125  # type: ignore[attr-defined]
        ruling = report(book, hand, "count p2 3")  # type: ignore[arg-type]
        if ruling.choices:
            assert [c.key for c in ruling.choices] == ["refund", "award-p4"]
            other = hand.copy()  # type: ignore[attr-defined]
            decide(book, other, "award-p4")
            other.push()
            assert other.stacks == [995, 940, 1000, 1065]
            decide(book, hand, "refund")  # type: ignore[arg-type]
        elif hand.next_step() is not None:  # type: ignore[attr-defined]
            hand.push()  # type: ignore[attr-defined]
        expected = [995, 940, 1000, 1065] if book == "qld" else [1000] * 4
        assert hand.stacks == expected, book  # type: ignore[attr-defined]
        checked(hand)  # type: ignore[arg-type]


def test_au_19_1_g_sole_survivor_with_wrong_count_all_wagers_returned() -> None:
    hand = _to_showdown("au-casino")
    ruling = report("au-casino", hand, "count p2 3")  # type: ignore[arg-type]
    assert ruling.clause == "au 19.1(g)" and hand.stacks == [1000] * 4  # type: ignore[attr-defined]


def test_qld_s33_3_dead_at_showdown_last_active_player_wins() -> None:
    hand = _to_showdown("qld")
    report("qld", hand, "count p2 3")  # type: ignore[arg-type]
    hand.push()  # type: ignore[attr-defined]
    assert hand.stacks[3] == 1065  # type: ignore[attr-defined]


def test_qld_s33_4_no_active_player_last_folder_wins() -> None:
    hand = _to_showdown("qld")
    ruling = report("qld", hand, "count p2 3")  # type: ignore[arg-type]
    assert ruling.clause == "qld s33(4)" and "p4, who folded last" in ruling.outcome


def test_qld_s33_5_eligible_all_in_player_still_contests() -> None:
    hand = _to_showdown("qld", stacks=(5, 1000, 1000, 1000))
    ruling = report("qld", hand, "count p2 3")  # type: ignore[arg-type]
    assert ruling.clause == "qld s33(5)"
    hand.push()  # type: ignore[attr-defined]
    # p1, all-in for 5, wins the main pot of 15; p4 wins the 110 nobody live contests.
    assert hand.stacks == [15, 940, 1000, 1050]  # type: ignore[attr-defined]
