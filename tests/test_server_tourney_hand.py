"""A tournament hand as the server plays it (croupier.server.tournaments.hand: a
:class:`GameTable` dealt from the library's setup): the setup dealt again from its JSON gives
the same hand, stored moves replayed give the same events, and each seat sees only its own hole
cards."""

from __future__ import annotations

import pytest

from croupier.server.rooms.game_table import GameTable, Move, RuleError
from croupier.server.tournaments.hand import Playing, dump_setup, load_setup, move_json, move_of
from croupier.tournament import (
    EngineHands,
    HandSetup,
    ManualClock,
    Tournament,
    standard_settings,
)


def first_hand() -> tuple[EngineHands, Tournament, HandSetup]:
    tournament = Tournament(standard_settings(table_size=6), seed=21, clock=ManualClock())
    for name in ("ann", "bob", "cy", "dee"):
        tournament.register(name)
    tournament.start()
    setup = tournament.next_hand(tournament.ready_tables()[0])
    return EngineHands(), tournament, setup


def test_a_hand_replayed_from_its_stored_setup_and_moves_is_the_same_hand() -> None:
    engine, _, setup = first_hand()
    assert load_setup(dump_setup(setup)) == setup
    playing = Playing.dealt(engine, setup, {"ann"})
    hand = playing.game
    moves: list[tuple[int, Move]] = []
    while not hand.over:
        seat = hand.to_act()
        assert seat is not None
        if playing.decides_itself(seat):
            decided, move, _ = hand.house_move()
            moves.append((decided, move))
        else:
            assert playing.legal(seat) is not None  # a person is told what is legal
            move = hand.auto_move()
            hand.act(seat, move)
            moves.append((seat, move))
    stored = [(seat, move_of(move_json(move))) for seat, move in moves]
    again = GameTable.dealt_from(engine, load_setup(dump_setup(setup)), stored)
    assert again.over and again.stacks() == hand.stacks()
    assert again.visible(None) == hand.visible(None)
    assert sum(again.stacks().values()) == sum(s.chips for s in setup.seats)


def test_each_seat_sees_its_own_hole_cards_only_and_moves_out_of_turn_are_refused() -> None:
    engine, _, setup = first_hand()
    playing = Playing.dealt(engine, setup, {"ann", "bob", "cy", "dee"})
    hand = playing.game
    for seat in hand.order:
        me = hand.player_of(seat)
        for record in hand.visible(seat):
            if record["event"] == "DealHole":
                hidden = set(record["cards"]) == {"??"}
                assert hidden == (record["player"] != me)
    assert all(set(r["cards"]) == {"??"} for r in hand.visible(None) if r["event"] == "DealHole")
    seat = hand.to_act()
    other = next(s for s in hand.order if s != seat)
    before = hand.event_count()
    try:
        hand.act(other, Move("check_or_call"))
    except RuleError as error:
        assert hand.cite(str(error)).endswith("each acts in turn (league 39)")
    else:
        raise AssertionError("a move out of turn was accepted")
    assert hand.event_count() == before and playing.legal(other) is None


def test_a_stored_hand_whose_moves_do_not_give_their_stored_events_is_not_dealt_again() -> None:
    """As a cash table's (GameTable.restored): the deal and each move must give the house
    records stored with them, or the hand is not rebuilt (the run voids it: rws 5.1)."""
    engine, _, setup = first_hand()
    playing = Playing.dealt(engine, setup, set())
    hand = playing.game
    assert hand.start is not None
    deal = list(hand.start.events)
    moves, records = [], []
    for _ in range(3):
        seat, move, made = hand.house_move()
        moves.append((seat, move))
        records.append(made)
    again = Playing.dealt(engine, setup, set(), moves, deal=deal, records=[*records[:2], None])
    assert again.game.visible(None) == hand.visible(None)
    tampered = [records[0], [{**records[1][0], "amount": 999_999}], records[2]]
    with pytest.raises(RuleError, match="move 1 does not give the stored events"):
        Playing.dealt(engine, setup, set(), moves, deal=deal, records=tampered)
    with pytest.raises(RuleError, match="the deal does not match"):
        Playing.dealt(engine, setup, set(), moves, deal=deal[1:], records=records)
