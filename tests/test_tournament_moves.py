"""Moving players: balancing (league 14), breaking tables and the final-table redraw."""

from __future__ import annotations

import pytest

from croupier.tournament import HandResult, HandSetup, Tournament, TournamentError
from croupier.tournament import events as ev
from croupier.tournament.seating import deal_for, next_positions
from tournament_support import small_settings, started


def _play(t: Tournament, table: int, bust: set[str] = frozenset()) -> HandSetup:
    """One hand at ``table``; the players in ``bust`` lose everything to the first other."""
    setup = t.next_hand(table)
    stacks = {s.seat: s.chips for s in setup.seats}
    winner = next(s.seat for s in setup.seats if s.player not in bust)
    for s in setup.seats:
        if s.player in bust:
            stacks[winner] += stacks[s.seat]
            stacks[s.seat] = 0
    t.finish_hand(table, HandResult(stacks))
    return setup


def _hands_until_big_blind_by_dealing(t: Tournament, table: int, seat: int) -> int:
    """Deal hands on paper under league 12 until ``seat`` posts the big blind."""
    record = t.tables[table]
    live = sorted({*record.seats, seat})
    positions = record.positions
    assert positions is not None
    for hand in range(1, 20):
        positions = deal_for(live, next_positions(live, positions)).positions
        if positions.big_blind == seat:
            return hand
    raise AssertionError("never the big blind")


def test_league_14_moved_player_gets_equal_or_better_position() -> None:
    t, _ = started(16)  # two tables of 8
    _play(t, 1)
    _play(t, 2)
    source = t.tables[1]
    assert source.positions is not None
    due = next_positions(source.live, source.positions).big_blind  # due the big blind next
    mover = source.seats[due]
    empty_before = [s for s in range(1, 10) if s not in t.tables[2].seats]
    # The table-2 seats' positions before the move, found by dealing hands on paper.
    victims = {t.tables[2].seats[s] for s in sorted(t.tables[2].seats)[:2]}
    _play(t, 2, victims)  # table 2 drops to 6: one player must come over from table 1
    moves = [e for e in t.events if isinstance(e, ev.Seated) and e.reason is ev.SeatReason.BALANCE]
    assert len(moves) == 1
    move = moves[0]
    assert move.player == mover and move.table == 2
    assert move.before == 1  # the player due the big blind next is the one who moves
    assert move.after is not None and move.after >= move.before
    assert sorted(len(x.seats) for x in t.tables.values()) == [7, 7]
    # The seat is the most similar no-less-favourable one: no free seat was closer to it.
    free = [s for s in range(1, 10) if s not in t.tables[2].seats or s == move.seat]
    options = {
        s: _hands_until_big_blind_by_dealing(t, 2, s) if s != move.seat else move.after
        for s in free
    }
    assert move.after == min(v for v in options.values() if v >= 1)
    assert empty_before  # there were free seats to choose from


def test_league_14_balancing_waits_for_the_bigger_tables_hand_to_end() -> None:
    t, _ = started(16)
    _play(t, 2)
    busy = t.next_hand(1)  # table 1 is mid-hand
    victims = {t.tables[2].seats[s] for s in sorted(t.tables[2].seats)[:2]}
    _play(t, 2, victims)
    assert sorted(len(x.seats) for x in t.tables.values()) == [6, 8]  # nothing moved yet
    t.finish_hand(1, HandResult({s.seat: s.chips for s in busy.seats}))
    assert sorted(len(x.seats) for x in t.tables.values()) == [7, 7]


def test_a_table_breaks_when_the_others_can_seat_everyone() -> None:
    t, _ = started(18, small_settings(table_size=6))  # three tables of 6
    for table in (1, 2, 3):
        _play(t, table)
    # Bust six players at tables 1 and 2: twelve left fit at two tables of six.
    victims = {t.tables[1].seats[s] for s in sorted(t.tables[1].seats)[:3]}
    _play(t, 1, victims)
    assert sorted(t.tables) == [1, 2, 3]  # 15 players: three tables still
    leaving = set(t.tables[3].seats.values())
    victims = {t.tables[2].seats[s] for s in sorted(t.tables[2].seats)[:3]}
    _play(t, 2, victims)
    assert sorted(t.tables) == [1, 2]
    broken = [e for e in t.events if isinstance(e, ev.TableClosed)]
    assert [e.table for e in broken] == [3]
    moved = [e for e in t.events if isinstance(e, ev.Seated) and e.reason is ev.SeatReason.BREAK]
    assert {e.player for e in moved} == leaving
    assert all(e.before is not None and e.after is not None for e in moved)
    assert sorted(len(x.seats) for x in t.tables.values()) == [6, 6]
    assert t.chips_in_play == t.chips_expected


def test_the_final_table_is_redrawn_when_everyone_fits_at_one_table() -> None:
    t, _ = started(12, small_settings(table_size=6, final_table_size=8))
    for table in (1, 2):
        _play(t, table)
    victims = {t.tables[1].seats[s] for s in sorted(t.tables[1].seats)[:4]}
    _play(t, 1, victims)  # eight left: the final table of eight
    assert sorted(t.tables) == [1] and t.tables[1].size == 8 and len(t.tables[1].seats) == 8
    final = [e for e in t.events if isinstance(e, ev.Seated) and e.reason is ev.SeatReason.FINAL]
    assert sorted(e.player for e in final) == sorted(t.alive())
    _play(t, 1)
    draws = [e for e in t.events if isinstance(e, ev.ButtonDrawn)]
    assert draws[-1].table == 1 and len(draws) == 3  # tables 1, 2, then the final table


def test_the_final_table_redraw_waits_for_the_other_tables_hands() -> None:
    t, _ = started(12, small_settings(table_size=6, final_table_size=8))
    for table in (1, 2):
        _play(t, table)
    busy = t.next_hand(2)
    victims = {t.tables[1].seats[s] for s in sorted(t.tables[1].seats)[:4]}
    _play(t, 1, victims)
    assert sorted(t.tables) == [1, 2] and t.ready_tables() == []
    t.finish_hand(2, HandResult({s.seat: s.chips for s in busy.seats}))
    assert sorted(t.tables) == [1]


def test_the_director_moves_a_player_to_an_empty_seat_between_hands() -> None:
    t, _ = started(16)
    _play(t, 1)
    _play(t, 2)
    name = t.tables[1].seats[min(t.tables[1].seats)]
    empty = next(s for s in range(1, 10) if s not in t.tables[2].seats)
    t.move(name, 2, empty)
    assert (t.players[name].table, t.players[name].seat) == (2, empty)
    moved = [e for e in t.events if isinstance(e, ev.Seated) and e.reason is ev.SeatReason.DIRECTOR]
    assert [(e.player, e.table, e.seat) for e in moved] == [(name, 2, empty)]
    assert moved[0].before is not None and moved[0].after is not None
    # 7 against 9: the tables are balanced again at once (league 14).
    assert sorted(len(x.seats) for x in t.tables.values()) == [8, 8]
    with pytest.raises(TournamentError, match="is taken"):
        t.move(t.tables[1].seats[min(t.tables[1].seats)], 2, min(t.tables[2].seats))
