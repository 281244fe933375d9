"""Table procedures of issue 15 (docs/irregularities-spec.md Part 3): a fresh shuffle every hand
(T1), seats (T2), qld buy-ins and table stakes (T5), the participation fee first (T6), the au
time charge (T7), settings changed between hands (T8), no rabbit hunting (T11), the action clock
(T12), and a table rebuilt from its events."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from croupier import events as ev
from croupier.blinds import BlindPolicy, MissedBlinds, NewPlayer
from croupier.bots import Action
from croupier.cards import Card, DeckKind, parse_cards
from croupier.deck import Deck, SeededShuffler
from croupier.hand import Hand, Phase, Rules
from croupier.history import PHHError, dump_phh, history_from_hand
from croupier.history.text import format_pokerstars
from croupier.rulebooks import load_rulebook
from croupier.session import Session, Timing
from croupier.table import (
    Bust,
    ButtonPlaced,
    BuyIn,
    ClockCalled,
    ClockExpired,
    FeePaid,
    HandStarted,
    SeatAssigned,
    SeatChanged,
    SeatDraw,
    SeatPriority,
    SettingsChanged,
    Table,
    TableError,
    TimeCharged,
)
from croupier.views import HOUSE, SPECTATOR
from scripted import board_deck

BOOKS = ("au-casino", "rws", "qld", "cardroom", "league")


def holdem(book: str, **options: object) -> Rules:
    return load_rulebook(book).rules("holdem", stakes=10, **options)


def fold_out(hand: Hand) -> None:
    while hand.phase is not Phase.OVER:
        hand.fold()


def stacked(kind: DeckKind, cards: str) -> Deck:
    """A deck with ``cards`` on top, the rest after them in code order."""
    top = list(parse_cards(cards))
    return Deck(kind, top + [c for c in kind.cards if c not in top])


# --- T1: a fresh shuffle for every hand (au 6.1, qld s17(1)) ------------------------------------


def _two_hands(book: str, seed: int) -> tuple[Table, list[Hand], list[Deck]]:
    t = Table(holdem(book), 6, buy_in=BuyIn(minimum=100))
    t.sit(1, "a", 1000)
    t.sit(2, "b", 1000)
    shuffler = SeededShuffler(seed)
    hands = []
    for _ in range(2):
        hand = t.start_hand(shuffler=shuffler)
        hands.append(hand)
        fold_out(hand)
    again = SeededShuffler(seed)  # the shuffler's own permutations, one per hand
    decks = [Deck.shuffled(DeckKind.STANDARD, again) for _ in range(2)]
    return t, hands, decks


def _holes(deck: Deck) -> list[tuple[Card, ...]]:
    cards = deck.deal(4)  # one at a time from the first seat after the button
    return [(cards[0], cards[2]), (cards[1], cards[3])]


def test_au_6_1_a_shuffle_before_play_starts() -> None:
    t, hands, decks = _two_hands("au-casino", 1)
    assert [tuple(h) for h in hands[0].hole] == _holes(decks[0])
    started = [e for e in t.events if isinstance(e, HandStarted)]
    assert [e.deck for e in started] == ["fresh", "fresh"]


def test_au_6_1_b_fresh_shuffle_every_hand() -> None:
    again = 0
    for seed in range(30):
        _, hands, decks = _two_hands("au-casino", seed)
        # hand 2 is dealt from the shuffler's second permutation of a full deck, not hand 1's stub
        assert [tuple(h) for h in hands[1].hole] == _holes(decks[1])
        first = {c for h in hands[0].hole for c in h}
        again += bool(first & {c for h in hands[1].hole for c in h})
    assert again > 0  # a card dealt in hand 1 may come again in hand 2


def test_qld_s17_1_shuffle_immediately_before_each_round() -> None:
    t, hands, decks = _two_hands("qld", 2)
    assert [[tuple(h) for h in hand.hole] for hand in hands] == [_holes(d) for d in decks]
    given = t.start_hand(deck=stacked(DeckKind.STANDARD, "Ah Kh Qh Jh"))
    assert [e for e in t.events if isinstance(e, HandStarted)][-1].deck == "given"
    assert [tuple(h) for h in given.hole] == [(Card("Ah"), Card("Qh")), (Card("Kh"), Card("Jh"))]


# --- T2: seats (au 11.1(a)-17.1(a), qld s16) ----------------------------------------------------


def _book_rules(game: str) -> Rules:
    book = load_rulebook("au-casino")
    if game.startswith("stud"):
        return book.rules(game, "fixed", stakes=10, ante=1)
    return book.rules(game, stakes=10)


@pytest.mark.parametrize(
    "game", ["draw", "stud5", "stud7", "manila2", "manila3", "holdem", "omaha"],
    ids=["11_1_a", "12_1_a", "13_1_a", "14_1_a", "15_1_a", "16_1_a", "17_1_a"],
)  # fmt: skip
def test_au_16_1_a_contested_seat_drawn_seated_players_move_first(game: str) -> None:
    rules = _book_rules(game)
    t = Table(rules, 7, buy_in=BuyIn(minimum=100))
    t.sit(3, "Z", 200)
    t.sit(5, "A", 200)
    t.sit(7, "B", 200)
    t.leave(3)
    # A and B, both seated, come before C (waiting to join): they draw, Ks beats Kh by suit.
    winner = t.offer_seat(3, ["A", "B", "C"], deck=stacked(rules.deck, "Kh Ks"))
    assert winner == "B" and t.player_at(3) == t.player_at(3) and t.occupied() == [3, 5]
    assert t.events[-3:] == [
        SeatDraw(3, ((("A", Card("Kh")), ("B", Card("Ks")))), "B"),
        SeatAssigned(3, "B", "seated players (au 11.1(a))"),
        SeatChanged(7, 3),
    ]
    # A seat free before anyone sits: the people wanting it draw; the highest card wins.
    assert t.seat_draw(6, ["C", "D"], deck=stacked(rules.deck, "9c Ah")) == "D"
    with pytest.raises(TableError, match=r"seat 6 went to D \(au 11\.1\(a\), qld s16\)"):
        t.sit(6, "C", 200)
    t.sit(6, "D", 200)


def _qld_table() -> Table:
    """Seats 1, 3 (Z), 5 (A) since the start; B joins seat 7 after the first hand; Z leaves."""
    t = Table(
        holdem("qld"), 9, buy_in=BuyIn(minimum=100), seat_priority=SeatPriority.ORIGINAL_FIRST
    )
    for seat, name in ((1, "X"), (3, "Z"), (5, "A")):
        t.sit(seat, name, 200)
    fold_out(t.start_hand(shuffler=SeededShuffler(3)))
    t.sit(7, "B", 200)
    t.leave(3)
    return t


def test_qld_s16_1_contested_seat_by_draw() -> None:
    t = Table(holdem("qld"), 9, buy_in=BuyIn(minimum=100))
    assert t.seat_draw(4, ["C", "D", "E"], deck=stacked(DeckKind.STANDARD, "Qc Td Qs")) == "E"
    drawn = [e for e in t.events if isinstance(e, SeatDraw)]
    assert drawn[0].draws == (("C", Card("Qc")), ("D", Card("Td")), ("E", Card("Qs")))


def test_qld_s16_2_vacated_seat_priority_original_other_newcomer() -> None:
    t = _qld_table()
    assert t.offer_seat(3, ["B", "C", "A"]) == "A"  # (a) in the game since it started
    assert t.events[-2] == SeatAssigned(3, "A", "original players (qld s16(2)(a))")
    t = _qld_table()
    assert t.offer_seat(3, ["C", "B"]) == "B"  # (b) other players before (c) newcomers
    t = _qld_table()
    assert t.offer_seat(3, ["C"]) == "C" and t.occupied() == [1, 5, 7]
    t.sit(3, "C", 200)


def test_qld_s16_3_equal_priority_draw() -> None:
    t = _qld_table()
    assert t.offer_seat(3, ["C", "D"], deck=stacked(DeckKind.STANDARD, "9c Ah")) == "D"
    assert isinstance(t.events[-2], SeatDraw) and t.events[-1] == SeatAssigned(
        3, "D", "people joining (qld s16(2)(c))"
    )


def test_qld_s16_4_highest_card_wins_the_draw() -> None:
    for seed in range(20):
        t = Table(holdem("qld"), 9, buy_in=BuyIn(minimum=100))
        winner = t.seat_draw(2, ["C", "D", "E"], shuffler=SeededShuffler(seed))
        draw = next(e for e in t.events if isinstance(e, SeatDraw))
        assert winner == max(draw.draws, key=lambda pair: pair[1])[0] == draw.winner


def test_vacated_seat_priority_each_book() -> None:
    for book in BOOKS:
        priority = SeatPriority.ORIGINAL_FIRST if book == "qld" else SeatPriority.SEATED_FIRST
        t = Table(holdem(book), 9, buy_in=BuyIn(minimum=100), seat_priority=priority)
        for seat, name in ((1, "X"), (3, "Z"), (5, "A")):
            t.sit(seat, name, 200)
        fold_out(t.start_hand(shuffler=SeededShuffler(4)))
        t.sit(7, "B", 200)
        t.leave(3)
        winner = t.offer_seat(3, ["A", "B", "C"], deck=stacked(DeckKind.STANDARD, "Kh Ks"))
        # qld: A, there since the start; au (and the others by decision): A and B draw.
        assert winner == ("A" if book == "qld" else "B"), book


# --- T5: qld buy-ins and table stakes -----------------------------------------------------------


QLD_STAKES = BuyIn(minimum=200, restake=True, rejoin_minimum=True)


def _qld_e_loses_fifty() -> Table:
    """Seats 1-4 (E in seat 4, the button) with 200; E calls 50 in all and loses."""
    t = Table(holdem("qld"), 9, buy_in=QLD_STAKES)
    for seat in range(1, 4):
        t.sit(seat, f"s{seat}", 1000)
    t.sit(4, "E", 200)
    hand = t.start_hand(deck=board_deck(["7d 2c", "8d 3s", "Ah As", "Kh Ks"], "3c 4d 8h 9s Jc"))
    while hand.phase is not Phase.OVER:  # seat 3 raises to 20, then bets 30 on the flop
        legal = hand.legal()
        if legal.player == 2 and hand.street < 2 and legal.call == 10 * (1 - hand.street):
            hand.bet_or_raise_to(20 if hand.street == 0 else 30)
        elif legal.player in (0, 1):
            hand.fold()
        else:
            hand.check_or_call()
    assert t.finish_hand().stacks[4] == 150
    return t


def test_qld_s19_1_b_new_player_who_missed_the_last_round_needs_the_minimum() -> None:
    t = _qld_e_loses_fifty()
    t.step_away(4)  # away without approval for a round
    fold_out(t.start_hand(shuffler=SeededShuffler(5)))
    t.come_back(4)
    assert not t.can_play(4)  # 150 is below the minimum table stake of 200 (s19(3)(a))
    hand = t.start_hand(shuffler=SeededShuffler(6))
    assert t.player_of(4) is None
    fold_out(hand)
    t.add_chips(4, 50)
    assert t.can_play(4)


def test_qld_s19_5_approved_absence_returns_with_the_stake_below_minimum() -> None:
    t = _qld_e_loses_fifty()
    t.step_away(4, approved=True)  # a floor manager approved it (s19(5)(a))
    fold_out(t.start_hand(shuffler=SeededShuffler(7)))
    t.come_back(4)  # rejoins as approved (s19(5)(b))
    assert t.can_play(4)


def test_qld_s19_6_may_play_on_below_the_minimum() -> None:
    t = _qld_e_loses_fifty()
    assert t.can_play(4)  # a continuing player with 150: above the minimum wager, plays on
    t.start_hand(shuffler=SeededShuffler(8))
    assert t.player_of(4) is not None


def test_qld_s19_2_every_stack_visible_to_every_seat() -> None:
    t = Table(holdem("qld"), 9, buy_in=QLD_STAKES)
    for seat, chips in ((1, 200), (2, 350), (3, 900)):
        t.sit(seat, f"s{seat}", chips)
    play = Session(t, shuffler=SeededShuffler(9))
    hand = play.start_hand()
    for viewer in (1, 2, 3, SPECTATOR):
        assert play.view(viewer).stacks == tuple(hand.stacks)
        assert play.view(viewer).starting == (200, 350, 900)


def test_qld_s19_3_b_stake_in_chips() -> None:
    t = Table(holdem("qld"), 9, buy_in=QLD_STAKES)
    for amount in (250.0, "250", True):
        with pytest.raises(TableError, match="positive whole number"):
            t.sit(1, "a", amount)  # type: ignore[arg-type]
    t.sit(1, "a", 250)
    with pytest.raises(TableError, match="positive whole number"):
        t.add_chips(1, 12.5)  # type: ignore[arg-type]


def test_qld_s31_2_a_no_stake_left_restake_or_leave() -> None:
    for bust in Bust:
        t = Table(holdem("qld"), 9, buy_in=QLD_STAKES, bust=bust)
        for seat in range(1, 4):
            t.sit(seat, f"s{seat}", 1000)
        t.sit(4, "E", 200)
        hand = t.start_hand(deck=board_deck(["7d 2c", "8d 3s", "Ah As", "Kh Ks"], "3c 4d 8h 9s Jc"))
        while hand.phase is not Phase.OVER:
            legal = hand.legal()
            if legal.player == 3 and legal.raise_range is not None:
                hand.bet_or_raise_to(legal.raise_range[1])  # E moves in and loses
            elif legal.player == 2:
                hand.check_or_call()
            else:
                hand.fold()
        summary = t.finish_hand()
        assert summary.busted == (4,)
        if bust is Bust.LEAVE:
            assert summary.left == ("E",) and t.occupied() == [1, 2, 3]
            continue
        with pytest.raises(TableError, match=r"at least 200, not 100 \(qld s31\(3\)\)"):
            t.add_chips(4, 100)
        t.add_chips(4, 200)
        assert t.can_play(4)


def test_qld_s31_6_may_top_up_to_the_minimum_before_the_next_round() -> None:
    t = _qld_e_loses_fifty()
    t.add_chips(4, 50)  # 150 back to the minimum table stake of 200
    t.add_chips(4, 100)  # beyond it qld is silent: the cardroom allows any amount between hands
    player = t.player_at(4)
    assert player is not None and player.chips == 300
    t.start_hand(shuffler=SeededShuffler(10))
    with pytest.raises(TableError, match=r"qld s19\(4\)"):
        t.add_chips(4, 10)


# --- T6: the participation fee is paid first (qld s20(2), s21(2)) -------------------------------


def _fee_table() -> tuple[Table, Hand]:
    rules = holdem("qld", commission="participation_fee", commission_fee=2)
    t = Table(rules, 9, buy_in=BuyIn(minimum=200))
    for seat in range(1, 5):
        t.sit(seat, f"p{seat}", 1000)
    return t, t.start_hand(shuffler=SeededShuffler(11))


def test_qld_s20_2_fee_paid_before_the_round_starts() -> None:
    t, hand = _fee_table()
    fees = [e for e in t.events if isinstance(e, FeePaid)]
    assert fees == [FeePaid(seat, 2) for seat in (1, 2, 3, 4)]
    assert hand.starting == (998, 998, 998, 998) and t.commission == 8
    assert list(hand.stacks) == [993, 988, 998, 998]


def test_qld_s21_2_fee_is_the_first_step_before_the_blinds() -> None:
    t, hand = _fee_table()
    kinds = [type(e).__name__ for e in t.events if type(e).__name__ != "Seated"]
    assert kinds == ["FeePaid"] * 4 + ["ButtonPlaced", "HandStarted"]
    assert hand.events[:2] == [ev.PostBlind(0, 5), ev.PostBlind(1, 10)]
    fold_out(hand)
    summary = t.finish_hand()
    assert summary.commission == 8 and sum(summary.net.values()) == -8


# --- T7: the time charge (au 8.2(c)) -------------------------------------------------------------

SEVEN_PM = 19 * 3600.0


def _time_table() -> Table:
    rules = holdem("au-casino", commission="time_charge", commission_fee=12)
    t = Table(rules, 9, buy_in=BuyIn(minimum=100), time_period=30)
    for seat in range(1, 5):
        t.sit(seat, f"p{seat}", 500)
    t.step_away(4)  # seated, sitting out
    return t


def test_au_8_2_c_i_time_charge_per_player_inactive_included() -> None:
    t = _time_table()
    charged = t.charge_time(SEVEN_PM)
    assert charged == [TimeCharged(seat, 6, 0, SEVEN_PM) for seat in (1, 2, 3, 4)]
    chips = [t.player_at(s).chips for s in (1, 2, 3, 4)]  # type: ignore[union-attr]
    assert chips == [494] * 4 and t.commission == 24


def test_au_8_2_c_ii_hourly_fee_paid_in_advance_per_period() -> None:
    t = _time_table()
    clock = [SEVEN_PM]
    play = Session(t, shuffler=SeededShuffler(12), clock=lambda: clock[0])
    fold_out(play.start_hand())  # 19:00: the period is paid before its first hand
    first = [i for i, e in enumerate(t.events) if isinstance(e, TimeCharged)]
    started = next(i for i, e in enumerate(t.events) if isinstance(e, HandStarted))
    assert len(first) == 4 and max(first) < started
    clock[0] = SEVEN_PM + 20 * 60
    fold_out(play.start_hand())  # 19:20: nothing more
    assert sum(isinstance(e, TimeCharged) for e in t.events) == 4
    clock[0] = SEVEN_PM + 30 * 60
    play.start_hand()  # 19:30: the next period, 6 each again
    again = [e for e in t.events if isinstance(e, TimeCharged)][4:]
    assert [(e.seat, e.amount, e.period) for e in again] == [(s, 6, 1) for s in (1, 2, 3, 4)]


def test_au_8_2_c_time_charge_a_player_short_pays_what_they_have() -> None:
    rules = holdem("au-casino", commission="time_charge", commission_fee=12)
    t = Table(rules, 9, buy_in=BuyIn(minimum=100, short=4), time_period=30)
    t.sit(1, "a", 100)
    t.sit(2, "b", 100)
    t.sit(3, "c", 4)
    assert t.charge_time(0.0)[-1] == TimeCharged(3, 4, 0, 0.0)
    assert not t.can_play(3)
    with pytest.raises(TableError, match="not a time charge"):
        Table(holdem("au-casino"), 9, buy_in=BuyIn(minimum=100)).charge_time(0.0)


# --- T8: settings change only between hands (au 7.3, 8.3) ---------------------------------------


def _hands(t: Table, count: int) -> None:
    for number in range(count):
        fold_out(t.start_hand(shuffler=SeededShuffler(number)))


def _blinds(hand: Hand) -> tuple[int, ...]:
    return tuple(b.amount for b in hand.forced.blinds)


def test_au_7_3_limit_change_after_three_hands_notice_or_at_once_if_all_agree() -> None:
    book = load_rulebook("au-casino")
    t = Table(book.rules("holdem", stakes=10), 9, buy_in=BuyIn(minimum=100), change_notice=3)
    for seat in range(1, 5):
        t.sit(seat, f"p{seat}", 5000)
    _hands(t, 9)
    with pytest.raises(TableError, match=r"au 7\.3: a change .* needs 3 hands' notice"):
        t.schedule(book.rules("holdem", stakes=20), notice_hands=1)
    assert t.schedule(book.rules("holdem", stakes=20)) == 13  # announced before hand 10
    seen = []
    for number in range(10, 14):
        hand = t.start_hand(shuffler=SeededShuffler(number))
        seen.append(_blinds(hand))
        fold_out(hand)
    assert seen == [(5, 10)] * 3 + [(10, 20)]
    assert [e.hand for e in t.events if isinstance(e, SettingsChanged)] == [13]
    # With every player's agreement: at once, from the next hand.
    t = Table(book.rules("holdem", stakes=10), 9, buy_in=BuyIn(minimum=100), change_notice=3)
    for seat in range(1, 5):
        t.sit(seat, f"p{seat}", 5000)
    _hands(t, 9)
    assert t.schedule(book.rules("holdem", stakes=20), agreed=True) == 10
    assert _blinds(t.start_hand(shuffler=SeededShuffler(10))) == (10, 20)
    # Announced during hand 10, the notice counts from hand 11.
    assert t.schedule(book.rules("holdem", stakes=40)) == 14
    with pytest.raises(TableError, match=r"au 7\.3: the rules change only at the completion"):
        t.set_rules(book.rules("holdem", stakes=40))


def test_au_8_3_commission_change_before_a_hand() -> None:
    book = load_rulebook("au-casino")
    t = Table(book.rules("holdem", stakes=10), 9, buy_in=BuyIn(minimum=100), change_notice=3)
    for seat in range(1, 4):
        t.sit(seat, f"p{seat}", 1000)
    hand = t.start_hand(shuffler=SeededShuffler(13))
    raked = book.rules("holdem", stakes=10, commission="percentage", commission_rate="5%")
    assert t.schedule(raked) == 2  # no notice needed: the next hand
    fold_out(hand)
    assert t.start_hand(shuffler=SeededShuffler(14)).rules.commission == raked.commission


# --- T11: no rabbit hunting (league 29) ----------------------------------------------------------


def test_league_29_no_rabbit_hunting_the_stub_is_never_revealed() -> None:
    t = Table(holdem("league"), 9, buy_in=BuyIn(minimum=100))
    for seat in range(1, 4):
        t.sit(seat, f"p{seat}", 1000)
    play = Session(t, shuffler=SeededShuffler(15))
    holes = ["Ah Kd", "7c 7s", "Qh Jh"]
    hand = play.start_hand(deck=board_deck(holes, "2d 5c 9h Td 3s"))
    while hand.street == 0:
        play.act(play.turn().seat, Action.check_or_call())  # type: ignore[union-attr]
    play.act(play.turn().seat, Action.bet_or_raise_to(20))  # type: ignore[union-attr]
    while hand.phase is not Phase.OVER:
        play.act(play.turn().seat, Action.fold())  # type: ignore[union-attr]
    unseen = {Card("Td"), Card("3s")}  # the turn and river that never came
    for viewer in (1, 2, 3, SPECTATOR, HOUSE):
        view = play.view(viewer)
        assert len(view.board) == 3
        assert not unseen & _cards_in(view.events), viewer
    assert not unseen & _cards_in(hand.events)
    for text in (dump_phh(history_from_hand(hand)), format_pokerstars(hand, viewer=HOUSE)):
        assert not re.search(r"\b(Td|3s)\b", text)
    with pytest.raises(TableError, match="league 29: no rabbit hunting"):
        t.rabbit_hunt()


def _cards_in(events: object) -> set[Card]:
    found: set[Card] = set()

    def walk(value: object) -> None:
        if isinstance(value, Card):
            found.add(value)
        elif isinstance(value, tuple | list):
            for item in value:
                walk(item)

    for event in events:  # type: ignore[attr-defined]
        for item in dataclasses.fields(event):
            walk(getattr(event, item.name))
    return found


# --- T12: the action clock (cardroom dead-hands 1(f)) ---------------------------------------------


def _f4_limped_flop() -> tuple[Session, list[float]]:
    t = Table(holdem("cardroom", structure="no-limit"), 9, buy_in=BuyIn(minimum=100))
    for seat in range(1, 5):
        t.sit(seat, f"p{seat}", 1000)
    now = [1000.0]
    play = Session(t, shuffler=SeededShuffler(16), clock=lambda: now[0], timing=Timing(30, 60))
    hand = play.start_hand()
    while hand.street == 0:
        play.act(play.turn().seat, Action.check_or_call())  # type: ignore[union-attr]
    return play, now


def test_cardroom_dead_hands_1_f_clock_expires_facing_a_bet_hand_dead() -> None:
    play, now = _f4_limped_flop()
    hand = play.hand
    assert hand is not None and hand.pot == 40
    play.act(1, Action.bet_or_raise_to(20))
    turn = play.call_clock(2, 60)
    assert turn.seat == 2 and turn.deadline == now[0] + 60 and turn.clocked
    now[0] += 59
    assert play.expire() == []
    now[0] += 1
    assert play.expire() == [ev.Fold(1)]
    assert play.table.events[-2:] == [ClockCalled(2, 60, 1060.0), ClockExpired(2, True)]
    assert play.turn().seat == 3  # type: ignore[union-attr]


def test_clock_expires_not_facing_a_bet_is_a_check() -> None:
    play, now = _f4_limped_flop()
    play.call_clock(1, 60)
    now[0] += 60
    assert play.expire() == [ev.Check(0)]
    assert play.table.events[-1] == ClockExpired(1, False)


def test_the_clock_is_called_on_the_player_to_act() -> None:
    play, _ = _f4_limped_flop()
    with pytest.raises(Exception, match="the player to act, seat 1"):
        play.call_clock(3, 60)
    with pytest.raises(Exception, match="positive number of seconds"):
        play.call_clock(1, 0)


# --- a table rebuilt from its events ------------------------------------------------------------


def _snapshot(t: Table) -> tuple[object, ...]:
    seats = tuple((s, t.player_at(s), t.owes(s), t.is_away(s), t.can_play(s)) for s in t.occupied())
    waiting = t.waiting() if not t.in_hand else None
    return (seats, t.button, t.positions, t.hands, t.commission, tuple(t.draw), waiting,
            t.rules, t.buy_in)  # fmt: skip


_CONFIG = [
    {"blind_policy": BlindPolicy.MOVING_BIG_BLIND, "new_player": NewPlayer.POST},
    {"blind_policy": BlindPolicy.MOVING_BUTTON, "missed_blinds": MissedBlinds.WAIT},
    {"blind_policy": BlindPolicy.MOVING_BIG_BLIND, "bust": Bust.LEAVE},
]


@pytest.mark.parametrize("config", _CONFIG)
def test_a_table_is_rebuilt_from_its_events(config: dict[str, object]) -> None:
    rng = random.Random(str(config))
    rules = holdem("au-casino", commission="percentage", commission_rate="5%")
    make = lambda: Table(rules, 6, buy_in=BuyIn(minimum=40, short=20), **config)  # type: ignore[arg-type]  # noqa: E731
    t = make()
    names = 0
    for number in range(60):
        for seat in range(1, 7):
            player, roll = t.player_at(seat), rng.random()
            if player is None and roll < 0.3:
                names += 1
                t.sit(seat, f"n{names}", rng.choice([20, 60, 100]))
            elif player is not None and player.chips < 5 and roll < 0.5:
                t.add_chips(seat, 50)
            elif player is not None and roll < 0.04:
                t.leave(seat)
            elif player is not None and roll < 0.1:
                (t.come_back if t.is_away(seat) else t.step_away)(seat)
        if number == 30:
            t.schedule(dataclasses.replace(rules, blinds=(2, 4)), notice_hands=2)
        try:
            hand = t.start_hand(shuffler=SeededShuffler(number))
        except TableError:
            continue
        while hand.phase is not Phase.OVER:
            legal = hand.legal()
            if legal.raise_range is not None and rng.random() < 0.2:
                hand.bet_or_raise_to(legal.raise_range[0])
            elif rng.random() < 0.3:
                hand.fold()
            else:
                hand.check_or_call()
        if rng.random() < 0.5:
            t.finish_hand()
        rebuilt = make()
        still_open = _open(t)
        rebuilt.restore(t.events, hand=t.hand if still_open else None)
        if still_open:
            t.finish_hand()
            rebuilt.finish_hand()
        assert _snapshot(rebuilt) == _snapshot(t)
    # Mid-hand: the hand in progress, rebuilt from its own log, is handed back.
    hand = t.start_hand(shuffler=SeededShuffler(99))
    rebuilt = make()
    rebuilt.restore(t.events, hand=hand.copy())
    assert rebuilt.in_hand and rebuilt.deal_order() == t.deal_order()
    with pytest.raises(TableError, match="afresh"):
        rebuilt.restore(t.events)


def _open(t: Table) -> bool:
    """Whether the table's last hand started and is not yet finished, by its events."""
    kinds = [type(e).__name__ for e in t.events]
    started = max((i for i, k in enumerate(kinds) if k == "HandStarted"), default=-1)
    return started > max((i for i, k in enumerate(kinds) if k == "HandFinished"), default=-1)


def test_restore_refuses_a_hand_that_is_not_the_open_one() -> None:
    t = Table(holdem("rws"), 6, buy_in=BuyIn(minimum=100))
    t.sit(1, "a", 500)
    t.sit(2, "b", 500)
    hand = t.start_hand(shuffler=SeededShuffler(17))
    other = Hand(t.rules, [400, 400])
    with pytest.raises(TableError, match="not the table's open hand"):
        Table(holdem("rws"), 6, buy_in=BuyIn(minimum=100)).restore(t.events, hand=other)
    assert isinstance(t.events[-2], ButtonPlaced) and hand.players == 2


def test_au_19_1_redeal_same_first_player_same_blinds_no_second_fee() -> None:
    """After a void hand (the irregularity is the hand's; here the hand is simply over), the
    table deals it again: the same seats in the same order, the same forced bets, a fresh
    shuffle, and no participation fee (qld s32(3): the round counts as not started)."""
    t, hand = _fee_table()
    fold_out(hand)
    chips = {s: t.player_at(s).chips for s in t.occupied()}  # type: ignore[union-attr]
    again = t.redeal(shuffler=SeededShuffler(18))
    assert again.forced == hand.forced and t.deal_order() == (1, 2, 3, 4)
    assert again.starting == tuple(chips[s] for s in (1, 2, 3, 4))
    tail = [type(e).__name__ for e in t.events[-4:]]
    assert tail == ["HandFinished", "Redeal", "ButtonPlaced", "HandStarted"]
    assert sum(isinstance(e, FeePaid) for e in t.events) == 4 and t.commission == 8
    with pytest.raises(TableError, match="in progress"):
        t.redeal()


# --- cardroom irregularities 5-6: a pot carried from a void deal ---------------------------


def _void_with_forfeit() -> tuple[Table, int]:
    """A cardroom table of four; p1 (seat 1, the small blind) knew the deck was defective
    (cardroom irregularities 5): the deal is void, every chip goes back but p1's, which the
    next deal carries. Returns the table and the chips bought in."""
    from croupier.irregularities import Floor

    rules = load_rulebook("cardroom").rules("holdem", "no-limit", stakes=10)
    # Newcomers are dealt in at once, so only the carried pot keeps one out. The button starts
    # at seat 4 (not the cardroom's drawn first button, cardroom ties 2): seat 1 is the small blind.
    t = Table(rules, 6, buy_in=BuyIn(minimum=100), new_player=NewPlayer.PLAY, first_button=4)
    for seat, name in enumerate("abcd", start=1):
        t.sit(seat, name, 1000)
    hand = t.start_hand(shuffler=SeededShuffler(3))
    hand.bet_or_raise_to(40)  # p3 raises; p1's 5 is in the pot
    floor = Floor("cardroom")
    floor.report(hand, "aware p1")
    floor.report(hand, f"duplicate {hand.hole[0][0]}")
    floor.decide(hand, "keep")
    assert hand.void and hand.stacks == [995, 1000, 1000, 1000] and hand.carried == 5
    t.finish_hand()
    return t, 4000


def _chips_at(t: Table) -> int:
    return sum(t.player_at(s).chips for s in t.occupied())  # type: ignore[union-attr]


def test_cardroom_irregularities_6_a_carried_pot_is_dealt_only_to_the_last_deals_players() -> None:
    t, bought = _void_with_forfeit()
    assert t.carried == 5 and _chips_at(t) + t.carried == bought
    t.sit(5, "e", 1000)  # arrives after the void deal: not entitled to this hand
    hand = t.start_hand(shuffler=SeededShuffler(4))
    assert t.deal_order() == (2, 3, 4, 1) and 5 not in t.deal_order()
    assert hand.events[0] == ev.PotCarried(5) and hand.dead == 5 and hand.pot == 20
    assert t.carried == 0
    fold_out(hand)
    with pytest.raises(PHHError, match=r"PotCarried .*\.jsonl"):
        history_from_hand(hand)  # PHH has no way to say it: the event log keeps it
    t.finish_hand()
    assert _chips_at(t) == bought + 1000  # the carried chips went to the winner
    t.start_hand(shuffler=SeededShuffler(5))
    assert 5 in t.deal_order()  # the next deal is open to everyone again


def test_cardroom_irregularities_6_a_redeal_carries_the_forfeited_chips() -> None:
    t, bought = _void_with_forfeit()
    again = t.redeal(shuffler=SeededShuffler(6))
    assert again.forced.carried == 5 and again.pot == 20 and t.carried == 0
    again.void_hand([])  # void once more, with nobody's chips kept: the carried pot stays
    assert again.carried == 5
    t.finish_hand()
    assert t.carried == 5 and _chips_at(t) + t.carried == bought


def test_a_carried_pot_survives_a_restore_and_a_rebuild() -> None:
    t, _ = _void_with_forfeit()
    hand = t.start_hand(shuffler=SeededShuffler(4))
    hand.check_or_call()
    rules = load_rulebook("cardroom").rules("holdem", "no-limit", stakes=10)
    copy = Table(rules, 6, buy_in=BuyIn(minimum=100), new_player=NewPlayer.PLAY)
    copy.restore(t.events, hand=hand.copy())
    assert copy.carried == t.carried == 0 and copy.hand is not None
    assert copy.hand.pot == hand.pot and copy.hand.events == hand.events
    from croupier.table_events import HandFinished

    finished = next(i for i, e in enumerate(t.events) if isinstance(e, HandFinished))
    between = Table(rules, 6, buy_in=BuyIn(minimum=100), new_player=NewPlayer.PLAY)
    between.restore(t.events[: finished + 1])  # between the void deal and the next
    assert between.carried == 5
