"""Properties of random tournaments: chips, seats, balance, places and prizes.

Hands are started at every table that may deal, then finished in a random order, so moves and
eliminations happen while other tables are mid-hand; the director marks absences, penalises
and disqualifies at random; late entries and re-entries come in while registration is open.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.tournament import (
    EngineHands,
    HandPlayer,
    ManualClock,
    Status,
    Tournament,
    TournamentError,
)
from croupier.tournament.log import dump_log, load_log
from tournament_support import RandomResults, small_settings


def _check_steady(t: Tournament) -> None:
    """Chips conserved across all tables; each player in at most one seat, where they say."""
    assert t.chips_in_play == t.chips_expected
    seated = [name for table in t.tables.values() for name in table.seats.values()]
    assert len(seated) == len(set(seated))
    for number, table in t.tables.items():
        for seat, name in table.seats.items():
            record = t.players[name]
            assert (record.table, record.seat) == (number, seat) and record.chips > 0
    for record in t.players.values():
        if record.status is Status.PLAYING:
            assert record.table is not None
        else:
            assert record.table is None and record.chips == 0


def _check_balanced(t: Tournament) -> None:
    sizes = [len(table.seats) for table in t.tables.values()]
    assert max(sizes) - min(sizes) <= 1, sizes


def _director(t: Tournament, rng: random.Random) -> None:
    """Now and then: an absence, a return, a penalty, an elimination, a move, a late entry."""
    alive = t.alive()
    roll = rng.random()
    try:
        if roll < 0.05:
            t.mark_absent(rng.choice(alive))
        elif roll < 0.10:
            absent = [p for p in alive if t.players[p].absent]
            if absent:
                t.mark_present(rng.choice(absent))
        elif roll < 0.13:
            t.penalise(rng.choice(alive), orbits=1)
        elif roll < 0.15 and len(alive) > 2:
            t.disqualify(rng.choice(alive))
        elif roll < 0.18:
            table = t.tables[rng.choice(sorted(t.tables))]
            free = [s for s in range(1, table.size + 1) if s not in table.seats]
            if free:
                t.move(rng.choice(alive), table.number, rng.choice(free))
        elif roll < 0.25 and t.registration_open:
            out = [p.name for p in t.players.values() if p.status is Status.OUT]
            if out and rng.random() < 0.5:
                t.re_enter(rng.choice(out))
            else:
                t.register(f"late{len(t.players)}")
    except TournamentError:
        pass  # refused (mid-hand, limits): and the state must be unchanged, checked below


def _play_out(t: Tournament, clock: ManualClock, player: HandPlayer, rng: random.Random) -> None:
    for _ in range(5000):
        if t.finished:
            return
        t.tick()
        if t.finished:
            return
        if t.on_break:
            clock.advance(60)
            continue
        tables = t.ready_tables()
        if not tables:
            if t.registration_open and not t.finished:
                t.close_registration()
                continue
            raise AssertionError(f"stuck: {t.tables}")
        setups = [t.next_hand(n) for n in tables]
        _check_steady(t)
        rng.shuffle(setups)
        for setup in setups:
            before = len(t.events)
            _director(t, rng)
            _check_steady(t)
            assert len(t.events) >= before
            t.finish_hand(setup.table, player.play(setup))
            _check_steady(t)
        if not t.finished:
            _check_balanced(t)  # every table between hands: balancing has been done
        clock.advance(rng.choice((30, 90, 200)))
    raise AssertionError("the tournament did not end")


def _check_results(t: Tournament) -> None:
    assert t.finished
    standings = t.standings()
    people = [p for p in t.players.values() if p.entries]
    places = sorted(s.place for s in standings if s.place is not None)
    assert places == list(range(1, len(people) + 1))  # a permutation of the places
    assert Counter(s.player for s in standings) == Counter(p.name for p in people)
    assert sum(s.prize for s in standings) == t.prize_pool
    assert sum(t.prizes()) == t.prize_pool


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 60),
    table_size=st.integers(2, 10),
    late=st.integers(0, 3),
    seed=st.integers(0, 2**32),
)
def test_random_tournaments_conserve_chips_seat_once_balance_and_pay_the_pool(
    players: int, table_size: int, late: int, seed: int
) -> None:
    settings_ = small_settings(
        table_size=table_size,
        final_table_size=min(10, table_size + 1),
        late_until_level=late,
        re_entries=2 if late else 0,
    )
    clock = ManualClock(0.0)
    t = Tournament(settings_, seed=seed, clock=clock)
    for index in range(players):
        t.register(f"p{index}")
    t.start()
    rng = random.Random(seed)
    _play_out(t, clock, RandomResults(rng.choice((0.05, 0.2, 0.5))), rng)
    _check_results(t)
    assert load_log(dump_log(t.events)) == t.events
    copy = Tournament.rebuild(settings_, t.events, seed=seed, clock=clock)
    assert copy == t


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 30), seed=st.integers(0, 2**32))
def test_random_tournaments_with_the_engine_and_random_bots(players: int, seed: int) -> None:
    settings_ = small_settings(table_size=6, late_until_level=1, re_entries=1)
    clock = ManualClock(0.0)
    t = Tournament(settings_, seed=seed, clock=clock)
    for index in range(players):
        t.register(f"p{index}")
    t.start()
    _play_out(t, clock, EngineHands(), random.Random(seed))
    _check_results(t)
