"""The button and the blinds across hands (issue 15, T3-T4): the two blind policies, the dead
button, the big blind that must be posted (league 12), newcomers and missed blinds, and the
misplaced button corrected (cardroom irregularities 1)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier import events as ev
from croupier.blinds import BlindPolicy, MissedBlinds, NewPlayer, Positions
from croupier.deck import SeededShuffler
from croupier.forced import BlindKind
from croupier.hand import Hand, Phase
from croupier.rulebooks import load_rulebook
from croupier.table import (
    BlindsMissed,
    Bust,
    ButtonPlaced,
    BuyIn,
    FirstButton,
    Table,
    TableError,
)
from croupier.tournament import seating
from scripted import board_deck

BOOKS = ("au-casino", "rws", "qld", "cardroom", "league")
BOARD = "3c 4d 8h 9s Jc"


def policy_of(book: str) -> BlindPolicy:
    value = load_rulebook(book).value("blind_policy", "holdem")
    assert isinstance(value, BlindPolicy)
    return value


def book_table(book: str, seated: dict[int, int], seats: int = 9, **options: object) -> Table:
    rules = load_rulebook(book).rules("holdem", stakes=10)
    options.setdefault("blind_policy", policy_of(book))
    # The examples place the first button on the highest seat (the book's own first button,
    # which the table takes by itself, is tested in test_book_tables.py).
    options.setdefault("first_button", FirstButton.DEALER_RIGHT)
    t = Table(rules, seats, buy_in=BuyIn(minimum=100), **options)  # type: ignore[arg-type]
    for seat, chips in seated.items():
        t.sit(seat, f"s{seat}", chips)
    return t


def posts(t: Table, hand: Hand) -> list[tuple[int, int, str]]:
    """(seat, amount, kind) of each forced blind the table gave the hand, in posting order."""
    return [(t.seat_of(b.player), b.amount, b.kind.value) for b in hand.forced.blinds]


def fold_out(hand: Hand) -> None:
    while hand.phase is not Phase.OVER:
        hand.fold()


def placed(t: Table) -> ButtonPlaced:
    event = [e for e in t.events if isinstance(e, ButtonPlaced)][-1]
    return event


def seats_of(t: Table, hand: Hand) -> list[int]:
    return [t.seat_of(p) for p in range(hand.players)]


def first_to_act(t: Table, hand: Hand) -> int:
    assert hand.to_act is not None
    return t.seat_of(hand.to_act)


# --- the dead button (au 1.1), league 12 and the moving button -------------------------------


def test_au_1_1_dead_button_big_blind_moves_one_seat_button_may_be_dead() -> None:
    # Hand 1: button 4, small blind 1, big blind 2. Seat 1 leaves. Hand 2: the big blind goes to
    # seat 3, the small blind to seat 2 (last big blind), the button is on seat 1, now empty.
    t = book_table("au-casino", {1: 1000, 2: 1000, 3: 1000, 4: 1000})
    hand = t.start_hand(shuffler=SeededShuffler(1))
    assert posts(t, hand) == [(1, 5, "blind"), (2, 10, "blind")] and t.button == 4
    fold_out(hand)
    t.leave(1)
    hand = t.start_hand(shuffler=SeededShuffler(2))
    assert placed(t) == ButtonPlaced(1, True, (2, 3))
    assert t.button == 1 and seats_of(t, hand) == [2, 3, 4]
    assert posts(t, hand) == [(2, 5, "blind"), (3, 10, "blind")]
    order = []  # first to act before the flop: seat 4, then 2, then 3
    while hand.street == 0 and hand.to_act is not None:
        order.append(first_to_act(t, hand))
        hand.check_or_call()
    assert order == [4, 2, 3]


def test_league_12_big_blind_due_is_posted_after_an_elimination() -> None:
    # The small blind (seat 1) is eliminated: seat 3, whose turn it is, posts the big blind.
    # Seat 1 moves in all-in and loses to seat 2.
    t = book_table("league", {1: 100, 2: 1000, 3: 1000, 4: 1000}, bust=Bust.LEAVE)
    hand = t.start_hand(deck=board_deck(["7d 2c", "Ah As", "Kh Kd", "Qh Qs"], BOARD))
    while hand.phase is not Phase.OVER:
        legal = hand.legal()
        if legal.player == 0 and legal.raise_range is not None:
            hand.bet_or_raise_to(legal.raise_range[1])
        elif legal.player == 1:
            hand.check_or_call()
        else:
            hand.fold()
    assert t.finish_hand().left == ("s1",)
    hand = t.start_hand(shuffler=SeededShuffler(3))
    assert posts(t, hand) == [(2, 5, "blind"), (3, 10, "blind")]
    assert t.button == 1 and seats_of(t, hand) == [2, 3, 4] and first_to_act(t, hand) == 4


def test_blinds_after_the_small_blind_leaves_each_book() -> None:
    expected = {
        # button, dead, seats due the blinds, deal order, first to act before the flop
        "au-casino": (1, True, (2, 3), [2, 3, 4], 4),
        "league": (1, True, (2, 3), [2, 3, 4], 4),
        "cardroom": (1, True, (2, 3), [2, 3, 4], 4),  # a decision: the seed's section is missing
        "qld": (2, False, (3, 4), [3, 4, 2], 2),  # seat 3 never posts the big blind
        "rws": (2, False, (3, 4), [3, 4, 2], 2),
    }
    for book in BOOKS:
        t = book_table(book, {1: 1000, 2: 1000, 3: 1000, 4: 1000})
        fold_out(t.start_hand(shuffler=SeededShuffler(4)))
        t.leave(1)
        hand = t.start_hand(shuffler=SeededShuffler(5))
        button, dead, blinds, order, first = expected[book]
        assert placed(t) == ButtonPlaced(button, dead, blinds), book
        assert seats_of(t, hand) == order and first_to_act(t, hand) == first, book


def test_rws_qld_moving_button_the_big_blind_may_be_skipped() -> None:
    # qld s18(2): the buck passes to the next player; with seat 1 gone seat 3 is skipped.
    t = book_table("qld", {1: 1000, 2: 1000, 3: 1000, 4: 1000})
    big = []
    for number in range(6):
        hand = t.start_hand(shuffler=SeededShuffler(number))
        big.append(posts(t, hand)[-1][0])
        fold_out(hand)
        if number == 0:
            t.leave(1)
    assert big == [2, 4, 2, 3, 4, 2]


def test_qld_s18_3_player_must_accept_the_buck() -> None:
    t = book_table("qld", {1: 1000, 2: 1000, 3: 1000})
    fold_out(t.start_hand(shuffler=SeededShuffler(6)))
    assert t.button == 3
    before = list(t.events)
    with pytest.raises(TableError, match=r"qld s18\(3\): s1 must accept the button"):
        t.decline_button(1)
    assert t.events == before
    t.start_hand(shuffler=SeededShuffler(7))
    assert t.button == 1  # the buck came to seat 1, which took it


@pytest.mark.parametrize(
    ("book", "button", "blinds"),
    [("league", 5, (5, 3)), ("au-casino", 3, (5, 3))],  # league: rws 3.7; au: no exception
)
def test_au_1_1_league_12_heads_up_the_big_blind_goes_to_the_player_due_it(
    book: str, button: int, blinds: tuple[int, int]
) -> None:
    # Seats 1, 3, 5: button 1, small blind 3, big blind 5. The button leaves: seat 3 is due the
    # big blind. Under league (the button posts the small blind heads-up) seat 5 has the
    # button; under au (the player left of the button posts the first blind) seat 3 has it.
    t = book_table(book, {1: 1000, 3: 1000, 5: 1000}, first_button=1)
    fold_out(t.start_hand(shuffler=SeededShuffler(8)))
    t.leave(1)
    hand = t.start_hand(shuffler=SeededShuffler(9))
    assert placed(t) == ButtonPlaced(button, False, blinds)
    assert posts(t, hand) == [(blinds[0], 5, "blind"), (blinds[1], 10, "blind")]
    assert seats_of(t, hand)[-1] == button


def test_league_12_from_heads_up_to_three_players_the_blinds_continue() -> None:
    # Heads-up seat 1 (button, small blind) and seat 5 (big blind); a player sits in seat 3,
    # dealt in at once as a tournament does (NewPlayer.PLAY): the big blind goes to seat 1.
    t = book_table("league", {1: 1000, 5: 1000}, first_button=1, new_player=NewPlayer.PLAY)
    fold_out(t.start_hand(shuffler=SeededShuffler(10)))
    t.sit(3, "new", 1000)
    hand = t.start_hand(shuffler=SeededShuffler(11))
    assert placed(t) == ButtonPlaced(3, False, (5, 1)) and seats_of(t, hand) == [5, 1, 3]


@pytest.mark.parametrize(
    ("out", "button", "blinds", "order"),
    [
        ((), 2, (3, 4), [3, 4, 5, 6, 1, 2]),  # nobody out: everything moves one seat
        ((3,), 2, (3, 4), [4, 5, 6, 1, 2]),  # seat 4 posts the big blind, no small blind
        ((2,), 2, (3, 4), [3, 4, 5, 6, 1]),  # the button dead on seat 2: seat 1 acts last
        ((3, 4), 2, (3, 5), [5, 6, 1, 2]),  # seat 5 posts the big blind, no small blind
    ],
)
def test_league_12_the_tournament_examples_at_the_table(
    out: tuple[int, ...], button: int, blinds: tuple[int, int], order: list[int]
) -> None:
    """docs/tournament.md: seats 1-6, button 1, small blind 2, big blind 3, then players out."""
    t = book_table("league", dict.fromkeys(range(1, 7), 1000), first_button=1)
    fold_out(t.start_hand(shuffler=SeededShuffler(12)))
    for seat in out:
        t.leave(seat)
    hand = t.start_hand(shuffler=SeededShuffler(13))
    assert placed(t).seat == button and placed(t).blinds == blinds
    assert seats_of(t, hand) == order
    posted = [seat for seat, _, _ in posts(t, hand)]
    assert posted == [s for s in blinds if s in order]


@settings(max_examples=150, deadline=None)
@given(seats=st.sets(st.integers(1, 9), min_size=2, max_size=9), seed=st.integers(0, 2**32))
def test_league_12_the_table_agrees_with_the_tournament_reading(seats: set[int], seed: int) -> None:
    """Hands at a league table, players leaving and newcomers dealt in at once, give the
    positions and deal order of croupier.tournament.seating (next_positions, deal_for)."""
    rng = random.Random(seed)
    live = sorted(seats)
    t = book_table("league", dict.fromkeys(live, 1000), first_button=rng.choice(live),
                   new_player=NewPlayer.PLAY)  # fmt: skip
    hand = t.start_hand(shuffler=SeededShuffler(seed))
    button, (small, big) = t.button, placed(t).blinds
    assert button is not None
    expected = seating.deal_for(live, seating.first_positions(live, button))
    assert (button, small, big) == tuple(vars(expected.positions).values())
    names = len(live)
    for number in range(20):
        fold_out(hand)
        if len(live) > 2 and rng.random() < 0.3:
            t.leave(gone := rng.choice(live))
            live.remove(gone)
        elif rng.random() < 0.2 and len(live) < 9:
            names += 1
            seat = rng.choice([s for s in range(1, 10) if s not in live])
            t.sit(seat, f"n{names}", 1000)
            live = sorted([*live, seat])
        deal = seating.deal_for(live, seating.next_positions(live, expected.positions))
        hand = t.start_hand(shuffler=SeededShuffler(number))
        want = deal.positions
        got = placed(t)
        assert (got.seat, got.blinds[0], got.blinds[-1]) == (
            want.button, want.small_blind, want.big_blind,
        )  # fmt: skip
        assert tuple(seats_of(t, hand)) == deal.order
        expected = deal


@settings(max_examples=100, deadline=None)
@given(seats=st.sets(st.integers(1, 9), min_size=3, max_size=9), seed=st.integers(0, 2**32))
def test_league_12_every_player_takes_a_turn_at_the_big_blind_at_the_table(
    seats: set[int], seed: int
) -> None:
    """Players leave at random: every hand has a big blind; nobody posts it twice in a row;
    between two of one player's big blinds every other player still there posted it once."""
    rng = random.Random(seed)
    live = sorted(seats)
    t = book_table("league", dict.fromkeys(live, 1000))
    big: list[int] = []
    for number in range(24):
        hand = t.start_hand(shuffler=SeededShuffler(number))
        blinds = [seat for seat, _, kind in posts(t, hand) if kind == "blind"]
        assert blinds and blinds[-1] == placed(t).blinds[-1]
        assert not big or blinds[-1] != big[-1] or len(live) == 2
        big.append(blinds[-1])
        fold_out(hand)
        if len(live) > 2 and rng.random() < 0.2:
            t.leave(gone := rng.choice(live))
            live.remove(gone)
    for player in live:
        turns = [i for i, seat in enumerate(big) if seat == player]
        for a, b in itertools.pairwise(turns):
            between = big[a + 1 : b]
            assert all(between.count(other) <= 1 for other in live)


# --- newcomers and missed blinds (house settings) ---------------------------------------------


@pytest.mark.parametrize("book", ["rws", "league"])
def test_new_player_waits_for_the_big_blind_by_default(book: str) -> None:
    # Seats 1-4, button 4; a player sits in seat 6 after the first hand: not dealt in until the
    # big blind reaches seat 6, then posts it in turn.
    t = book_table(book, {1: 1000, 2: 1000, 3: 1000, 4: 1000})
    fold_out(t.start_hand(shuffler=SeededShuffler(14)))
    t.sit(6, "new", 1000)
    dealt = []
    for number in range(4):
        waiting = t.waiting()
        hand = t.start_hand(shuffler=SeededShuffler(15 + number))
        dealt.append(6 in seats_of(t, hand))
        assert (6 in waiting) != dealt[-1]
        if dealt[-1]:
            assert posts(t, hand)[-1] == (6, 10, "blind")
            break
        fold_out(hand)
    # hand 2: big blind seat 3; hand 3: seat 4; hand 4: seat 6 (the next after seat 4)
    assert dealt == [False, False, True]


def test_new_player_may_post_a_big_blind_to_be_dealt_in_at_once() -> None:
    seated = {1: 1000, 2: 1000, 3: 1000, 4: 1000, 6: 1000}
    t = book_table("rws", seated, new_player=NewPlayer.POST)
    fold_out(t.start_hand(shuffler=SeededShuffler(16)))  # button 6, blinds 1 and 2
    t.sit(5, "new", 1000)  # next hand: button 1, blinds 2 and 3; seat 5 posts to come in
    hand = t.start_hand(shuffler=SeededShuffler(17))
    assert posts(t, hand) == [(5, 10, "posted"), (2, 5, "blind"), (3, 10, "blind")]
    assert seats_of(t, hand) == [2, 3, 4, 5, 6, 1]
    assert first_to_act(t, hand) == 4  # a posted blind does not move where the action starts
    assert hand.legal().call == 10
    hand.fold()
    assert first_to_act(t, hand) == 5 and hand.legal().can_check  # its post is a live bet


def test_new_player_posting_may_not_enter_between_the_button_and_the_small_blind() -> None:
    t = book_table("rws", {1: 1000, 3: 1000, 5: 1000}, new_player=NewPlayer.POST)
    fold_out(t.start_hand(shuffler=SeededShuffler(18)))  # button 5, blinds 1 and 3
    t.sit(2, "new", 1000)  # next hand: button 1, small blind 3: seat 2 lies between them
    assert t.waiting() == (2,)
    hand = t.start_hand(shuffler=SeededShuffler(19))
    assert 2 not in seats_of(t, hand) and t.button == 1
    fold_out(hand)
    hand = t.start_hand(shuffler=SeededShuffler(20))  # button 3, blinds 5 and 1: it posts
    assert posts(t, hand) == [(2, 10, "posted"), (5, 5, "blind"), (1, 10, "blind")]
    assert seats_of(t, hand) == [5, 1, 2, 3]


def test_missed_blinds_posted_big_live_small_dead_on_return() -> None:
    t = book_table("league", {1: 1000, 2: 1000, 3: 1000, 4: 1000, 5: 1000})
    fold_out(t.start_hand(shuffler=SeededShuffler(21)))  # button 5, blinds 1 and 2
    t.step_away(4)
    for number in range(2):  # the big blind passes seat 4 (hand 2: 3, hand 3: 5)
        fold_out(t.start_hand(shuffler=SeededShuffler(22 + number)))
    missed = [e for e in t.events if isinstance(e, BlindsMissed)]
    assert missed == [BlindsMissed(4, False, True)] and t.owes(4) == (False, True)
    fold_out(t.start_hand(shuffler=SeededShuffler(24)))  # hand 4: big blind 1, small 5
    t.come_back(4)
    hand = t.start_hand(shuffler=SeededShuffler(25))  # hand 5: big blind 2, small blind 1
    assert posts(t, hand)[0] == (4, 10, "posted")
    assert t.owes(4) == (False, False)


def test_missed_blinds_both_owed_after_the_small_blind_passes_too() -> None:
    t = book_table("rws", {1: 1000, 2: 1000, 3: 1000, 4: 1000})
    fold_out(t.start_hand(shuffler=SeededShuffler(26)))  # button 4, blinds 1 and 2
    t.step_away(3)  # next: button 1, it would post the big blind (seat 3): skipped
    fold_out(t.start_hand(shuffler=SeededShuffler(27)))
    fold_out(t.start_hand(shuffler=SeededShuffler(28)))  # and then the small blind
    assert t.owes(3) == (True, True)
    t.come_back(3)
    hand = t.start_hand(shuffler=SeededShuffler(29))
    kinds = {(seat, kind) for seat, _, kind in posts(t, hand)}
    assert {(3, "posted"), (3, "dead")} <= kinds
    dead = [e for e in hand.events if isinstance(e, ev.PostDead)]
    assert [(t.seat_of(e.player), e.amount) for e in dead] == [(3, 5)]
    assert hand.dead == 5  # dead money in the pot, no part of seat 3's bet


def test_missed_blinds_wait_for_the_big_blind() -> None:
    t = book_table("rws", {1: 1000, 2: 1000, 3: 1000, 4: 1000},
                   missed_blinds=MissedBlinds.WAIT)  # fmt: skip
    fold_out(t.start_hand(shuffler=SeededShuffler(30)))
    t.step_away(3)
    fold_out(t.start_hand(shuffler=SeededShuffler(31)))
    t.come_back(3)
    seen = []
    for number in range(4):
        hand = t.start_hand(shuffler=SeededShuffler(32 + number))
        seen.append(3 in seats_of(t, hand))
        if seen[-1]:
            assert posts(t, hand) == [(2, 5, "blind"), (3, 10, "blind")]
            assert t.owes(3) == (False, False)
            break
        fold_out(hand)
    assert seen[-1] and not seen[0]


def test_a_busted_player_back_with_chips_owes_the_blinds_that_passed() -> None:
    t = book_table("league", {1: 1000, 2: 100, 3: 1000, 4: 1000}, bust=Bust.SIT_OUT)
    hand = t.start_hand(deck=board_deck(["Ah As", "7d 2c", "Kh Ks", "Qh Qd"], BOARD))
    while hand.phase is not Phase.OVER:  # seat 2 (big blind) shoves, seat 1 calls and wins
        legal = hand.legal()
        if legal.player == 1 and legal.raise_range is not None:
            hand.bet_or_raise_to(legal.raise_range[1])
        elif legal.player == 0:
            hand.check_or_call()
        else:
            hand.fold()
    assert t.finish_hand().busted == (2,)
    fold_out(t.start_hand(shuffler=SeededShuffler(36)))  # seat 2 is due the small blind: missed
    assert t.owes(2) == (True, False) and placed(t) == ButtonPlaced(1, False, (2, 3))
    t.add_chips(2, 500)
    # Next hand the button is dead on seat 2 itself (the seat due last hand's small blind):
    # a player coming back does not enter on the button, so seat 2 waits one hand.
    assert t.waiting() == (2,)
    fold_out(t.start_hand(shuffler=SeededShuffler(37)))
    assert placed(t) == ButtonPlaced(2, True, (3, 4))
    hand = t.start_hand(shuffler=SeededShuffler(38))
    assert posts(t, hand) == [(2, 5, "dead"), (4, 5, "blind"), (1, 10, "blind")]
    assert t.owes(2) == (False, False)


def test_chips_are_conserved_with_every_house_setting() -> None:
    for seed, (policy, newcomer, missed) in enumerate(
        (p, n, m) for p in BlindPolicy for n in NewPlayer for m in MissedBlinds
    ):
        _conserve(policy, newcomer, missed, seed)


def _conserve(policy: BlindPolicy, newcomer: NewPlayer, missed: MissedBlinds, seed: int) -> None:
    rng = random.Random(seed)
    rules = load_rulebook("cardroom").rules("holdem", "no-limit", stakes=2)
    t = Table(rules, 6, buy_in=BuyIn(minimum=40), blind_policy=policy, new_player=newcomer,
              missed_blinds=missed)  # fmt: skip
    bought = cashed = names = 0
    last_big = None
    for number in range(120):
        for seat in range(1, 7):
            player = t.player_at(seat)
            roll = rng.random()
            if player is None and roll < 0.25:
                names += 1
                t.sit(seat, f"n{names}", 60)
                bought += 60
            elif player is not None and player.chips < 5 and roll < 0.5:
                t.add_chips(seat, 50)
                bought += 50
            elif player is not None and roll < 0.05:
                cashed += t.leave(seat)
            elif player is not None and roll < 0.1:
                if t.is_away(seat):
                    t.come_back(seat)
                else:
                    t.step_away(seat)
        try:
            hand = t.start_hand(shuffler=SeededShuffler(number))
        except TableError:
            continue
        blinds = [(t.seat_of(b.player), b.kind) for b in hand.forced.blinds]
        positional = [seat for seat, kind in blinds if kind is BlindKind.BLIND]
        if positional and hand.players > 2 and last_big in t.deal_order():
            assert positional[-1] != last_big  # nobody posts the big blind twice in a row
        last_big = positional[-1] if positional else None
        while hand.phase is not Phase.OVER:
            legal = hand.legal()
            if legal.raise_range is not None and rng.random() < 0.2:
                hand.bet_or_raise_to(rng.randint(*legal.raise_range))
            elif rng.random() < 0.3:
                hand.fold()
            else:
                hand.check_or_call()
        t.finish_hand()
        seated = sum(p.chips for s in t.occupied() if (p := t.player_at(s)) is not None)
        assert seated + cashed + t.commission == bought
    assert t.hands > 40


# --- the misplaced button (cardroom irregularities 1) ----------------------------------------


def test_cardroom_irregularities_1_misplaced_button_corrected_each_player_once_per_position() -> (
    None
):
    t = book_table("cardroom", dict.fromkeys(range(1, 6), 1000), first_button=1)
    fold_out(t.start_hand(shuffler=SeededShuffler(40)))
    assert placed(t) == ButtonPlaced(1, False, (2, 3))
    t.correct_button(3)  # hand 2 is dealt with the button wrongly at seat 3
    fold_out(t.start_hand(shuffler=SeededShuffler(41)))
    assert placed(t) == ButtonPlaced(3, False, (4, 5))  # seat 4 missed its big blind
    proposal = t.propose_button()
    assert proposal == Positions(2, (3, 4))  # where hand 2 should have been, one hand late
    t.correct_button()
    hand = t.start_hand(shuffler=SeededShuffler(42))
    assert placed(t) == ButtonPlaced(2, False, (3, 4))
    assert seats_of(t, hand) == [3, 4, 5, 1, 2]
    fold_out(hand)
    t.start_hand(shuffler=SeededShuffler(43))  # the table's policy resumes: the big blind moves
    assert placed(t) == ButtonPlaced(3, False, (4, 5))


def test_cardroom_irregularities_1_needs_a_correct_hand_before() -> None:
    t = book_table("cardroom", dict.fromkeys(range(1, 6), 1000))
    fold_out(t.start_hand(shuffler=SeededShuffler(44)))
    with pytest.raises(TableError, match=r"cardroom irregularities 1: 1 hands dealt"):
        t.propose_button()


def test_going_heads_up_when_the_button_leaves_each_book() -> None:
    """Seats 1-3: button 3, blinds 1 and 2; the button leaves. Every book has seat 1 post the
    big blind and seat 2 (last hand's big blind) the small one; the button follows each book's
    heads-up rule: the small blind's seat (rws 3.7; league and the cardroom take it), or the big
    blind's (au 11.1(c)(i) and qld s23(1): the player after the button posts the first blind)."""
    expected = {
        "rws": ButtonPlaced(2, False, (2, 1)),
        "league": ButtonPlaced(2, False, (2, 1)),
        "cardroom": ButtonPlaced(2, False, (2, 1)),
        "qld": ButtonPlaced(1, False, (2, 1)),
        "au-casino": ButtonPlaced(1, False, (2, 1)),
    }
    for book in BOOKS:
        t = book_table(book, {1: 1000, 2: 1000, 3: 1000})
        fold_out(t.start_hand(shuffler=SeededShuffler(45)))
        assert placed(t) == ButtonPlaced(3, False, (1, 2)), book
        t.leave(3)
        hand = t.start_hand(shuffler=SeededShuffler(46))
        assert placed(t) == expected[book], book
        assert posts(t, hand) == [(2, 5, "blind"), (1, 10, "blind")], book
