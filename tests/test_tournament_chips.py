"""Colouring up (league 18) and the chip race for the odd chips (league 48)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import DeckKind
from croupier.deck import Deck, SeededShuffler
from croupier.tournament import (
    Break,
    HandResult,
    Level,
    Purchase,
    TournamentSettings,
    colour_up,
)
from croupier.tournament import events as ev
from tournament_support import small_settings, started


def _settings(stages: tuple[Level | Break, ...], chips: int = 1000) -> TournamentSettings:
    return TournamentSettings(
        stages=stages, buy_in=Purchase(100, chips, 0), denominations=(25, 100, 500)
    )


# --- when (league 18) ------------------------------------------------------------------------


def test_league_18_a_denomination_leaves_play_at_the_first_stage_that_no_longer_needs_it() -> None:
    s = small_settings()
    # 25/50, 50/100, break, 100/200 ante 25, 200/400, 300/600 (big-blind ante 600), 500/1000
    assert [s.in_play(i) for i in range(7)] == [
        (25, 100, 500), (25, 100, 500), (25, 100, 500), (25, 100, 500),
        (100, 500), (100, 500), (500,),
    ]  # fmt: skip


def test_league_18_chips_are_coloured_up_on_the_break_before_the_level_that_needs_none() -> None:
    s = _settings((Level(25, 50, 60), Break(60), Level(100, 200, 60)))
    assert [s.in_play(i)[0] for i in range(3)] == [25, 100, 100]


def test_league_18_a_chip_stays_while_the_stacks_sold_need_it() -> None:
    s = _settings((Level(25, 50, 60), Level(100, 200, 60)), chips=1025)
    assert s.in_play(1) == (25, 100, 500)  # 1,025 chips are not made without 25s
    off = TournamentSettings(
        stages=(Level(25, 50, 60), Level(100, 200, 60)),
        buy_in=Purchase(100, 1000),
        denominations=(25, 100),
        chip_up=False,
    )
    assert off.in_play(1) == (25, 100)  # league 18: they *may* be chipped up


# --- how (league 48 and the race) ------------------------------------------------------------


def test_league_48_odd_chips_raced_one_card_each_from_seat_1_highest_cards_win() -> None:
    # 25s coloured up to 100s. Odd chips: seat 1 three (75), seat 2 two (50), seat 3 three.
    players = [(1, "a", 1075), (2, "b", 550), (3, "c", 275), (4, "d", 400)]
    result = colour_up({1: players}, 25, 100, seed=5)
    deck = Deck.shuffled(DeckKind.STANDARD, SeededShuffler(5)).cards
    (race,) = result.races
    assert race.chips == 2  # 200 in odd chips: two 100s
    assert [(e.player, e.odd_chips) for e in race.entries] == [("a", 3), ("b", 2), ("c", 3)]
    # Each player receives all their cards before the next, from seat 1 on.
    assert [e.cards for e in race.entries] == [deck[0:3], deck[3:5], deck[5:8]]
    best = sorted(race.entries, key=lambda e: max(e.cards), reverse=True)
    assert {e.player for e in race.entries if e.won} == {best[0].player, best[1].player}
    stacks = dict(result.stacks)
    expected = {"a": 1000, "b": 500, "c": 200, "d": 400}
    for entry in race.entries:
        expected[entry.player] += 100 * entry.won
    assert stacks == expected
    assert sum(stacks.values()) == 1075 + 550 + 275 + 400 and result.adjustment == 0


def test_league_48_nobody_is_raced_out_when_the_table_has_a_chip_for_them() -> None:
    result = colour_up({1: [(1, "a", 25), (2, "b", 175)]}, 25, 100, seed=1)
    assert dict(result.stacks) == {"a": 100, "b": 100}
    (race,) = result.races
    assert [e.guaranteed for e in race.entries] == [True, False]


def test_league_48_when_chips_are_too_few_the_race_decides_among_the_last_chips() -> None:
    result = colour_up({1: [(1, "a", 50), (2, "b", 50)]}, 25, 100, seed=2)
    (race,) = result.races
    winner = max(race.entries, key=lambda e: max(e.cards))
    assert dict(result.stacks) == {winner.player: 100, ({"a", "b"} - {winner.player}).pop(): 0}


def test_league_48_tables_race_for_their_share_by_largest_remainder_keeping_the_total() -> None:
    tables = {
        1: [(1, "a", 175), (2, "b", 100)],  # 75 odd
        2: [(1, "c", 125), (2, "d", 100)],  # 25 odd
    }
    result = colour_up(tables, 25, 100, seed=3)
    assert {race.table: race.chips for race in result.races} == {1: 1, 2: 0}
    assert sum(dict(result.stacks).values()) == 500 and result.adjustment == 0


def test_colour_up_is_the_same_for_the_same_seed() -> None:
    tables = {1: [(s, f"p{s}", 1000 + 25 * s) for s in range(1, 9)]}
    assert colour_up(tables, 25, 100, seed=9) == colour_up(tables, 25, 100, seed=9)
    assert colour_up(tables, 25, 100, seed=9) != colour_up(tables, 25, 100, seed=10)


@settings(max_examples=300, deadline=None)
@given(
    data=st.lists(st.lists(st.integers(1, 200), min_size=1, max_size=9), min_size=1, max_size=5),
    seed=st.integers(0, 2**32),
)
def test_league_48_colour_up_keeps_every_chip_of_value(data: list[list[int]], seed: int) -> None:
    tables = {
        number: [(seat, f"t{number}s{seat}", 25 * units) for seat, units in enumerate(row, 1)]
        for number, row in enumerate(data, 1)
    }
    total = sum(stack for row in tables.values() for _, _, stack in row)
    if total % 100:  # only chips sold in whole 100s: add the missing odd chips to one player
        seat, name, stack = tables[1][0]
        tables[1][0] = (seat, name, stack + 100 - total % 100)
        total += 100 - total % 100
    result = colour_up(tables, 25, 100, seed)
    after = dict(result.stacks)
    assert sum(after.values()) == total and result.adjustment == 0
    for row in tables.values():
        for _, name, stack in row:
            assert after[name] % 100 == 0
            assert after[name] - (stack - stack % 100) in (0, 100)  # at most one chip won
    for race in result.races:
        assert sum(e.won for e in race.entries) == race.chips
        assert all(len(e.cards) == e.odd_chips for e in race.entries)
        assert not any(e.guaranteed and e.raced for e in race.entries)
        racing = [e for e in race.entries if e.raced]
        winners = [max(e.cards) for e in racing if e.won]
        losers = [max(e.cards) for e in racing if not e.won]
        if winners and losers:
            assert min(winners) > max(losers)


# --- in a tournament -------------------------------------------------------------------------


def test_league_18_the_tournament_colours_up_between_hands_and_keeps_the_chips() -> None:
    t, clock = started(12)
    # Give stacks odd 25s: a few hands moving 25 or 75 chips.
    for table in sorted(t.tables):
        setup = t.next_hand(table)
        stacks = {s.seat: s.chips for s in setup.seats}
        stacks[setup.seats[0].seat] -= 75
        stacks[setup.seats[1].seat] += 75
        t.finish_hand(table, HandResult(stacks))
    clock.advance(1020)  # level 4 (200/400): 25s are no longer needed
    t.tick()
    chipped = [e for e in t.events if isinstance(e, ev.ChippedUp)]
    assert len(chipped) == 1 and chipped[0].colour_up.removed == 25
    assert t.in_play == (100, 500)
    assert all(p.chips % 100 == 0 for p in t.players.values())
    assert t.chips_in_play == t.chips_expected == 12_000
    assert t.next_hand(1).forced.chip_unit == 100


def test_league_18_a_colour_up_waits_for_the_hands_in_progress() -> None:
    t, clock = started(12)
    setup = t.next_hand(1)
    clock.advance(1020)
    t.tick()
    assert t.in_play == (25, 100, 500) and t.ready_tables() == []
    t.finish_hand(1, HandResult({s.seat: s.chips for s in setup.seats}))
    assert t.in_play == (100, 500)


def test_league_36_chips_removed_unevenly_make_the_race_round_and_say_so() -> None:
    t, clock = started(6)
    setup = t.next_hand(1)
    stacks = {s.seat: s.chips for s in setup.seats}
    stacks[setup.seats[0].seat] -= 25
    stacks[setup.seats[1].seat] += 25
    t.finish_hand(1, HandResult(stacks))
    t.disqualify(setup.seats[1].player)  # 1,025 chips leave play: 4,975 left
    clock.advance(1020)
    t.tick()
    colour = next(e for e in t.events if isinstance(e, ev.ChippedUp)).colour_up
    assert colour.adjustment == 25  # 75 odd rounds to one 100 chip
    assert t.chips_in_play == t.chips_expected == 5000
