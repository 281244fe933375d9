"""The draws, the blinds across hands (league 12) and positions for moved players (league 14)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.deck import SeededShuffler
from croupier.tournament.seating import (
    Positions,
    choose_seat,
    deal_for,
    dealer_draw,
    first_positions,
    hands_until_big_blind,
    next_positions,
    seat_draw,
)

# --- league 2: the draw for the button ------------------------------------------------------


def test_league_2_each_player_draws_a_card_and_the_highest_has_the_button() -> None:
    single = 0
    for seed in range(100):
        draws, button = dealer_draw([1, 4, 7], SeededShuffler(seed))
        first = draws[:3]
        assert [seat for seat, _ in first] == [1, 4, 7]  # every player draws once
        best = max(card.rank for _, card in first)
        highest = [seat for seat, card in first if card.rank == best]
        if len(highest) == 1:
            single += 1
            assert button == highest[0] and len(draws) == 3
    assert single > 80


def test_league_2_players_tied_on_the_highest_card_draw_again_until_one_is_highest() -> None:
    ties = 0
    for seed in range(300):
        seats = [2, 3, 5, 8, 9]
        draws, button = dealer_draw(seats, SeededShuffler(seed))
        # Rebuild the rounds: each round is drawn by the players still tied, in seat order.
        drawing, index, rounds = list(seats), 0, 0
        while True:
            cards = draws[index : index + len(drawing)]
            assert [s for s, _ in cards] == drawing
            index += len(drawing)
            rounds += 1
            best = max(c.rank for _, c in cards)
            drawing = [s for s, c in cards if c.rank == best]
            if len(drawing) == 1:
                break
        assert index == len(draws) and drawing == [button]
        ties += rounds > 1
    assert ties > 20  # ties on the highest rank do happen and are redrawn


# --- league 12: the big blind is posted by whoever is due ------------------------------------


def _deal(live: list[int], last: Positions) -> tuple[Positions, tuple[int, ...], bool]:
    positions = next_positions(live, last)
    deal = deal_for(live, positions)
    return deal.positions, deal.order, deal.posts_small_blind


def test_league_12_with_nobody_out_the_blinds_and_button_move_one_seat() -> None:
    positions, order, small = _deal([1, 2, 3, 4, 5, 6], Positions(1, 2, 3))
    assert positions == Positions(2, 3, 4) and small
    assert order == (3, 4, 5, 6, 1, 2)


def test_league_12_big_blind_eliminated_the_next_player_still_posts_the_big_blind() -> None:
    # Last hand: button 1, small blind 2, big blind 3; seat 3 is eliminated. Seat 4 was due the
    # big blind and posts it; the small blind would have been seat 3's: nobody posts it.
    positions, order, small = _deal([1, 2, 4, 5, 6], Positions(1, 2, 3))
    assert positions.big_blind == 4
    assert not small  # the small blind misses out
    assert positions.button == 2
    assert order == (4, 5, 6, 1, 2)  # the big blind first in deal order: no small blind


def test_league_12_small_blind_eliminated_the_previous_dealer_deals_again() -> None:
    # Seat 2 (the small blind) is out: the button moves to its empty seat, so seat 1, last
    # hand's dealer, acts last again: "the previous dealer may have to deal again".
    positions, order, small = _deal([1, 3, 4, 5, 6], Positions(1, 2, 3))
    assert positions == Positions(2, 3, 4) and small
    assert order == (3, 4, 5, 6, 1)
    assert order[-1] == 1  # the previous dealer is last to act after the flop again


def test_league_12_both_blinds_eliminated_big_blind_still_posted_no_small_blind() -> None:
    positions, order, small = _deal([1, 4, 5, 6], Positions(1, 2, 3))
    assert positions.big_blind == 4 and not small
    assert order == (4, 5, 6, 1)


def test_league_12_due_big_blind_eliminated_with_the_big_blind_the_next_one_posts() -> None:
    positions, order, small = _deal([1, 2, 5, 6], Positions(1, 2, 3))
    assert positions.big_blind == 5 and not small
    assert order == (5, 6, 1, 2)


def test_league_12_going_heads_up_nobody_posts_the_big_blind_twice_in_a_row() -> None:
    # Seats 1, 3, 5: button 1, small blind 3, big blind 5. The button busts: seat 3 is due the
    # big blind; seat 5 takes the button and the small blind (heads-up, rws 3.7).
    positions, order, _ = _deal([3, 5], Positions(1, 3, 5))
    assert positions == Positions(5, 5, 3) and order == (3, 5)
    # The small blind busts instead: seat 1 is due the big blind.
    positions, order, _ = _deal([1, 5], Positions(1, 3, 5))
    assert positions == Positions(5, 5, 1) and order == (1, 5)


def test_league_12_from_heads_up_to_three_players_the_blinds_continue() -> None:
    # Heads-up: seat 1 button and small blind, seat 5 big blind; a player sits in seat 3.
    positions, order, small = _deal([1, 3, 5], Positions(1, 1, 5))
    assert positions.big_blind == 1 and positions.small_blind == 5 and small
    assert order == (5, 1, 3)


def test_league_12_a_player_seated_between_the_button_and_the_small_blind_waits_a_hand() -> None:
    # Last hand: button 1, small blind 4, big blind 6. Next: button 4, small blind 6, big
    # blind 8. A player moved into seat 5, between the button and the small blind, would
    # play a hand without posting: they sit it out (house rule, as the TDA).
    live = [1, 2, 4, 5, 6, 8]
    deal = deal_for(live, next_positions(live, Positions(1, 4, 6)))
    assert deal.positions == Positions(4, 6, 8)
    assert deal.waiting == (5,)
    assert deal.order == (6, 8, 1, 2, 4)


@settings(max_examples=200, deadline=None)
@given(
    seats=st.sets(st.integers(1, 9), min_size=3, max_size=9),
    seed=st.integers(0, 2**32),
)
def test_league_12_every_player_takes_a_turn_at_the_big_blind(seats: set[int], seed: int) -> None:
    """Over hands with random eliminations: a big blind every hand, posted by a player dealt
    in; nobody posts it twice while another player who stayed in all along has not posted it
    since; only last hand's big blind may post the small blind."""
    rng = random.Random(seed)
    live = sorted(seats)
    positions = first_positions(live, rng.choice(live))
    posted: list[int] = [positions.big_blind]
    for _ in range(30):
        if len(live) > 2 and rng.random() < 0.3:
            live.remove(rng.choice(live))
        last = positions
        positions = next_positions(live, last)
        deal = deal_for(live, positions)
        positions = deal.positions
        assert positions.big_blind in deal.order
        if deal.posts_small_blind and len(live) > 2:
            assert positions.small_blind == last.big_blind
        assert positions.big_blind != last.big_blind
        posted.append(positions.big_blind)
    # Fairness: between two big blinds of one player, every player still in at the end who
    # was in throughout posted it exactly once (one orbit).
    survivors = set(live)
    for player in survivors:
        turns = [i for i, seat in enumerate(posted) if seat == player]
        for a, b in itertools.pairwise(turns):
            between = Counter(posted[a + 1 : b])
            assert all(between[other] <= 1 for other in survivors)


# --- positions and league 14 -----------------------------------------------------------------


def _hands_by_playing(live: list[int], last: Positions, seat: int) -> int:
    """Hands until ``seat`` posts the big blind, found by dealing hands under league 12."""
    positions = last
    for hand in range(1, 30):
        positions = deal_for(live, next_positions(live, positions)).positions
        if positions.big_blind == seat:
            return hand
    raise AssertionError("never the big blind")


@settings(max_examples=200, deadline=None)
@given(seats=st.sets(st.integers(1, 9), min_size=3, max_size=8), seed=st.integers(0, 2**32))
def test_hands_until_big_blind_matches_dealing_the_hands(seats: set[int], seed: int) -> None:
    rng = random.Random(seed)
    live = sorted(seats)
    positions = deal_for(live, first_positions(live, rng.choice(live))).positions
    for seat in live:
        assert hands_until_big_blind(live, positions.big_blind, seat) == _hands_by_playing(
            live, positions, seat
        )
    for empty in sorted(set(range(1, 10)) - seats):  # a newly seated player
        with_new = sorted([*live, empty])
        expected = _hands_by_playing(with_new, positions, empty)
        assert hands_until_big_blind(live, positions.big_blind, empty) == expected


def test_league_14_moved_player_gets_a_seat_no_less_favourable_and_the_most_similar() -> None:
    # Target table: players in 1, 3, 5, 7; last big blind seat 3. Empty seats 2, 4, 6, 8, 9.
    live, last_bb = [1, 3, 5, 7], 3
    scores = {s: hands_until_big_blind(live, last_bb, s) for s in (2, 4, 6, 8, 9)}
    assert scores == {4: 1, 6: 2, 8: 3, 9: 3, 2: 4}
    assert choose_seat(scores, live, last_bb, at_least=2) == (6, 2)  # similar: exactly 2
    assert choose_seat(scores, live, last_bb, at_least=3) == (8, 3)  # lowest of the equal
    assert choose_seat(scores, live, last_bb, at_least=1) == (4, 1)
    # Nothing as good as 5: the most favourable left.
    assert choose_seat(scores, live, last_bb, at_least=5) == (2, 4)


def test_seat_draw_spreads_players_evenly_over_tables_with_distinct_seats() -> None:
    rng = random.Random(3)
    draw = seat_draw([f"p{i}" for i in range(23)], [1, 2, 3], 9, rng)
    per_table = Counter(table for _, table, _ in draw)
    assert sorted(per_table.values()) == [7, 8, 8]
    assert len({(t, s) for _, t, s in draw}) == 23
    assert all(1 <= s <= 9 for _, _, s in draw)
    assert seat_draw([f"p{i}" for i in range(23)], [1, 2, 3], 9, random.Random(3)) == draw
