"""The tournament state machine: registration, the clock, eliminations, moves, the director."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from croupier.tournament import (
    AddOn,
    HandResult,
    HandSetup,
    ManualClock,
    Purchase,
    Rebuys,
    Status,
    Tournament,
    TournamentError,
)
from croupier.tournament import events as ev
from croupier.tournament.log import dump_log, load_log
from tournament_support import RandomResults, small_settings, started


class Scripted:
    """Busts the players ``plan(setup)`` names; their chips go to the first other player dealt
    who is not in ``spare``."""

    def __init__(
        self, plan: Callable[[HandSetup], set[str]], spare: set[str] = frozenset()
    ) -> None:
        self.plan = plan
        self.spare = spare

    def play(self, setup: HandSetup) -> HandResult:
        out = self.plan(setup)
        stacks = {s.seat: s.chips for s in setup.seats}
        winner = next(s.seat for s in setup.seats if s.player not in out | self.spare)
        for s in setup.seats:
            if s.player in out:
                stacks[winner] += stacks[s.seat]
                stacks[s.seat] = 0
        return HandResult(stacks)


def _quiet(setup: HandSetup) -> set[str]:
    return set()


def _hand(
    t: Tournament,
    table: int,
    player: Callable[[HandSetup], set[str]] = _quiet,
    spare: set[str] = frozenset(),
) -> HandSetup:
    setup = t.next_hand(table)
    t.finish_hand(table, Scripted(player, spare).play(setup))
    return setup


def _events(t: Tournament, kind: type[ev.TournamentEvent]) -> list[ev.TournamentEvent]:
    return [e for e in t.events if isinstance(e, kind)]


# --- registration and the start --------------------------------------------------------------


def test_start_draws_balanced_tables_and_each_table_draws_for_the_button() -> None:
    t, _ = started(21)
    assert sorted(len(x.seats) for x in t.tables.values()) == [7, 7, 7]
    assert {p.status for p in t.players.values()} == {Status.PLAYING}
    setup = t.next_hand(1)
    drawn = _events(t, ev.ButtonDrawn)
    assert len(drawn) == 1 and drawn[0].table == 1  # type: ignore[attr-defined]
    button = drawn[0].button  # type: ignore[attr-defined]
    assert setup.button == button and setup.seats[-1].seat == button  # the button acts last
    assert setup.small_blind == setup.seats[0].seat and setup.big_blind == setup.seats[1].seat


def test_start_needs_two_players_and_happens_once() -> None:
    t = Tournament(small_settings(), seed=1, clock=ManualClock())
    t.register("a")
    with pytest.raises(TournamentError, match="at least 2 players"):
        t.start()
    t.register("b")
    t.start()
    with pytest.raises(TournamentError, match="already started"):
        t.start()


def test_league_19_late_registration_stays_open_until_the_directors_level_ends() -> None:
    t, clock = started(4, small_settings(late_until_level=2))
    t.register("late1")  # level 1
    clock.advance(300)
    t.register("late2")  # level 2
    assert t.level_number == 2 and t.registration_open
    clock.advance(300)  # the break after level 2: registration has closed
    with pytest.raises(TournamentError, match="league 19"):
        t.register("late3")
    closed = _events(t, ev.RegistrationClosed)
    assert [e.at for e in closed] == [1_000.0 + 600]  # the exact end of level 2
    assert t.entries == 6 and t.players["late2"].status is Status.PLAYING


def test_league_19_without_late_registration_entries_close_at_the_start() -> None:
    t, _ = started(4)
    with pytest.raises(TournamentError, match="league 19"):
        t.register("late")
    assert "late" not in t.players and t.entries == 4


def test_league_19_the_director_may_close_registration_early() -> None:
    t, _ = started(4, small_settings(late_until_level=3))
    t.close_registration()
    with pytest.raises(TournamentError, match="league 19"):
        t.register("late")
    with pytest.raises(TournamentError, match="already closed"):
        t.close_registration()


def test_late_registrant_is_seated_at_a_table_with_the_fewest_players() -> None:
    t, _ = started(17, small_settings(late_until_level=1))  # tables of 9 and 8
    small = min(t.tables, key=lambda n: len(t.tables[n].seats))
    t.register("late")
    assert t.players["late"].table == small
    seated = _events(t, ev.Seated)[-1]
    assert seated.reason is ev.SeatReason.LATE  # type: ignore[attr-defined]


def test_re_entry_after_busting_while_registration_is_open_within_the_limit() -> None:
    t, _ = started(3, small_settings(late_until_level=2, re_entries=1))
    victim = t.tables[1].seats[min(t.tables[1].seats)]
    with pytest.raises(TournamentError, match="still in"):
        t.re_enter(victim)
    _hand(t, 1, lambda s: {victim})
    assert t.players[victim].status is Status.OUT
    t.re_enter(victim)
    assert t.players[victim].status is Status.PLAYING and t.players[victim].entries == 2
    assert t.entries == 4 and t.prize_pool == 4 * 90 and t.chips_issued == 4000
    _hand(t, 1, lambda s: {victim})
    with pytest.raises(TournamentError, match="re-entries allowed"):
        t.re_enter(victim)


def test_rebuys_while_open_at_or_under_the_stack_limit() -> None:
    rebuys = Rebuys(Purchase(100, 1000, 10), until_level=1, stack_at_most=1000, most=1)
    t, clock = started(3, small_settings(rebuys=rebuys))
    name = t.tables[1].seats[min(t.tables[1].seats)]
    t.rebuy(name)
    assert t.players[name].chips == 2000 and t.prize_pool == 4 * 90
    with pytest.raises(TournamentError, match="rebuys allowed"):
        t.rebuy(name)
    other = next(p for p in t.alive() if p != name)
    clock.advance(300)
    with pytest.raises(TournamentError, match="rebuys ended with level 1"):
        t.rebuy(other)


def test_rebuy_refused_over_the_stack_limit_and_during_the_players_hand() -> None:
    rebuys = Rebuys(Purchase(100, 1000, 10), until_level=2, stack_at_most=999)
    t, _ = started(3, small_settings(rebuys=rebuys))
    name = t.alive()[0]
    with pytest.raises(TournamentError, match="999 or fewer"):
        t.rebuy(name)
    setup = t.next_hand(1)
    t.finish_hand(1, HandResult({**{s.seat: s.chips for s in setup.seats}}))
    short = setup.seats[0]
    setup = t.next_hand(1)
    stacks = {s.seat: s.chips for s in setup.seats}
    stacks[short.seat] -= 500
    stacks[setup.seats[1].seat] += 500
    t.finish_hand(1, HandResult(stacks))
    t.next_hand(1)
    with pytest.raises(TournamentError, match="in the hand at table 1"):
        t.rebuy(short.player)


def test_add_on_once_during_its_level_and_the_break_after_it() -> None:
    add_on = AddOn(Purchase(50, 1000, 5), at_level=2)
    t, clock = started(3, small_settings(add_on=add_on))
    name = t.alive()[0]
    with pytest.raises(TournamentError, match="during level 2"):
        t.add_on(name)
    clock.advance(600)  # the break after level 2
    t.tick()
    assert t.on_break
    t.add_on(name)
    assert t.players[name].chips == 2000 and t.prize_pool == 3 * 90 + 45 and t.fees == 35
    with pytest.raises(TournamentError, match="one per player"):
        t.add_on(name)


# --- the clock -------------------------------------------------------------------------------


def test_levels_start_at_the_exact_end_of_the_one_before() -> None:
    t, clock = started(4)
    clock.advance(1234)  # past level 1 (300), level 2 (300), the break (120), into level 3
    t.tick()
    starts = [(e.stage, e.at) for e in _events(t, ev.StageStarted)]  # type: ignore[attr-defined]
    assert starts == [(1, 1300.0), (2, 1600.0), (3, 1720.0), (4, 2020.0)]
    assert t.remaining(clock.now) == pytest.approx(300 - (2234 - 2020))


def test_pause_and_resume_push_the_level_end_back_by_the_pause() -> None:
    t, clock = started(4)
    clock.advance(100)
    t.pause()
    clock.advance(500)
    t.tick()
    assert t.stage == 0 and t.remaining(clock.now) == 200
    with pytest.raises(TournamentError, match="paused"):
        t.next_hand(1)
    t.resume()
    clock.advance(199)
    t.tick()
    assert t.stage == 0 and t.remaining(clock.now) == 1
    clock.advance(1)
    t.tick()
    assert t.stage == 1 and _events(t, ev.StageStarted)[0].at == 1_000 + 300 + 500


def test_clock_survives_a_restart_from_the_log() -> None:
    t, clock = started(4)
    clock.advance(120)
    t.pause()
    log = dump_log(t.events)
    later = ManualClock(clock.now + 3600)  # the server comes back an hour later
    back = Tournament.rebuild(t.settings, load_log(log), seed=t.seed, clock=later)
    assert back == t
    assert back.paused and back.remaining(later.now) == 180  # still paused at 3 minutes left
    back.resume()
    later.advance(180)
    back.tick()
    assert back.stage == 1


def test_a_running_clock_keeps_running_while_the_server_is_down() -> None:
    t, clock = started(4)
    clock.advance(100)
    t.tick()
    later = ManualClock(clock.now + 250)
    back = Tournament.rebuild(t.settings, t.events, seed=t.seed, clock=later)
    back.tick()
    assert back.stage == 1 and back.remaining(later.now) == 250  # 300 - (350 - 300)


def test_add_time_and_take_it_off() -> None:
    t, clock = started(4)
    clock.advance(100)
    t.add_time(60)
    assert t.remaining(clock.now) == 260
    t.add_time(-30)
    assert t.remaining(clock.now) == 230
    with pytest.raises(TournamentError, match="would end the stage"):
        t.add_time(-230)
    with pytest.raises(TournamentError, match="nonzero whole number"):
        t.add_time(0)


def test_no_hand_is_dealt_on_a_break() -> None:
    t, clock = started(4)
    clock.advance(600)
    t.tick()
    assert t.on_break and t.ready_tables() == []
    with pytest.raises(TournamentError, match="on a break"):
        t.next_hand(1)


def test_the_levels_forced_bets_reach_the_table() -> None:
    t, clock = started(4)
    clock.advance(720)  # level 3: 100/200 ante 25
    setup = t.next_hand(1)
    assert (setup.forced.small_blind, setup.forced.big_blind, setup.forced.ante) == (100, 200, 25)
    assert setup.forced.chip_unit == 25


# --- eliminations and places -----------------------------------------------------------------


def test_simultaneous_eliminations_are_ordered_by_their_stacks_at_the_start_of_the_hand() -> None:
    t, _ = started(4)
    setup = t.next_hand(1)
    order = [s.seat for s in setup.seats]
    # Make the stacks 200, 700, 1000, 2100, then bust the 200 and the 700 in one hand.
    stacks = dict(zip(order, [200, 700, 1000, 2100], strict=True))
    t.finish_hand(1, HandResult(stacks))
    players = {s.seat: s.player for s in setup.seats}
    small, middle = players[order[0]], players[order[1]]
    _hand(t, 1, lambda s: {small, middle})
    places = {s.player: s.place for s in t.standings()}
    assert places[middle] == 3 and places[small] == 4


def test_equal_stacks_out_in_one_hand_tie_and_share_their_prizes() -> None:
    plan = small_settings().payouts
    t, _ = started(8)
    table = next(iter(t.tables.values()))
    names = [table.seats[s] for s in sorted(table.seats)]
    a, b = names[0], names[1]
    while t.players_left > 3:
        others = [p for p in t.alive() if p not in (a, b)]
        table_no = t.players[others[0]].table
        assert table_no is not None
        _hand(t, table_no, lambda s, victim=others[0]: {victim}, spare={a, b})
    table_no = t.players[a].table
    assert table_no is not None and t.players[a].chips == t.players[b].chips == 1000
    _hand(t, table_no, lambda s: {a, b})
    assert t.finished
    standings = {s.player: s for s in t.standings()}
    assert standings[a].tied and standings[b].tied
    assert {standings[a].place, standings[b].place} == {2, 3}
    prizes = t.prizes()
    assert plan.ranges == ()  # the default plan: 8 entrants pay 3 places
    assert len(prizes) == 3
    shared = prizes[1] + prizes[2]
    assert sorted([standings[a].prize, standings[b].prize]) == [shared // 2, shared - shared // 2]
    assert sum(s.prize for s in standings.values()) == t.prize_pool


def test_finishing_places_run_from_the_field_to_one() -> None:
    t, clock = started(30)
    from croupier.tournament import run

    run(t, RandomResults(), clock)
    places = sorted(s.place for s in t.standings() if s.place is not None)
    assert places == list(range(1, 31))
    winner = next(s for s in t.standings() if s.place == 1)
    assert winner.player == t.winner and t.players[t.winner].chips == t.chips_expected


# --- absent players and penalties ------------------------------------------------------------


def test_league_25_27_an_absent_player_is_dealt_with_blinds_and_marked_for_the_table() -> None:
    t, _ = started(4)
    name = t.alive()[0]
    t.mark_absent(name)
    setup = t.next_hand(1)
    seat = next(s for s in setup.seats if s.player == name)
    assert seat.absent and all(not s.absent for s in setup.seats if s.player != name)
    t.finish_hand(1, HandResult({s.seat: s.chips for s in setup.seats}))
    t.mark_present(name)
    assert not any(s.absent for s in t.next_hand(1).seats)


def test_league_27_a_player_back_after_the_first_card_still_has_the_hand_mucked() -> None:
    t, _ = started(4)
    name = t.alive()[0]
    t.mark_absent(name)
    setup = t.next_hand(1)
    t.mark_present(name)  # back while the hand is played: the hand dealt is still dead
    started_hand = _events(t, ev.HandStarted)[-1]
    assert next(s for s in setup.seats if s.player == name).absent
    assert setup.seats and started_hand.absent  # type: ignore[attr-defined]


def test_league_35_a_penalty_of_one_orbit_sits_the_player_out_one_hand_per_player() -> None:
    t, _ = started(5)
    name = t.alive()[0]
    t.penalise(name, orbits=1)
    absent_hands = []
    for _ in range(8):
        setup = t.next_hand(1)
        absent_hands.append(next(s.absent for s in setup.seats if s.player == name))
        t.finish_hand(1, HandResult({s.seat: s.chips for s in setup.seats}))
    assert absent_hands == [True] * 5 + [False] * 3


def test_league_35_a_penalty_of_minutes_sits_the_player_out_until_it_is_served() -> None:
    t, clock = started(3)
    name = t.alive()[0]
    t.penalise(name, minutes=2)
    setup = t.next_hand(1)
    assert next(s.absent for s in setup.seats if s.player == name)
    t.finish_hand(1, HandResult({s.seat: s.chips for s in setup.seats}))
    clock.advance(120)
    assert not any(s.absent for s in t.next_hand(1).seats)
    with pytest.raises(TournamentError, match="orbits or of minutes"):
        t.penalise(name, orbits=1, minutes=1)


def test_league_36_the_director_eliminates_a_player_whose_chips_leave_play() -> None:
    t, _ = started(6)
    name = t.alive()[0]
    t.disqualify(name)
    assert t.players[name].status is Status.DISQUALIFIED
    assert t.chips_removed == 1000 and t.chips_in_play == t.chips_expected == 5000
    assert next(s for s in t.standings() if s.player == name).place == 6
    with pytest.raises(TournamentError, match="league 36"):
        t.re_enter(name)


def test_league_36_waits_for_the_hand_the_player_is_in() -> None:
    t, _ = started(3)
    setup = t.next_hand(1)
    with pytest.raises(TournamentError, match="when the hand ends"):
        t.disqualify(setup.seats[0].player)
    assert t.players[setup.seats[0].player].status is Status.PLAYING


# --- results and errors ----------------------------------------------------------------------


def test_a_result_that_creates_or_loses_chips_is_refused_and_changes_nothing() -> None:
    t, _ = started(3)
    setup = t.next_hand(1)
    before = len(t.events)
    stacks = {s.seat: s.chips for s in setup.seats}
    stacks[setup.seats[0].seat] += 25
    with pytest.raises(TournamentError, match="chips must be conserved"):
        t.finish_hand(1, HandResult(stacks))
    stacks[setup.seats[0].seat] -= 26
    stacks[setup.seats[1].seat] += 1
    with pytest.raises(TournamentError, match=r"smallest of which is 25.*league 18"):
        t.finish_hand(1, HandResult(stacks))
    with pytest.raises(TournamentError, match="seats dealt in"):
        t.finish_hand(1, HandResult({99: 3000}))
    with pytest.raises(TournamentError, match="whole number"):
        t.finish_hand(1, HandResult({s.seat: -1 for s in setup.seats}))
    assert len(t.events) == before


def test_unknown_players_and_tables_are_errors() -> None:
    t, _ = started(3)
    with pytest.raises(TournamentError, match="not registered"):
        t.mark_absent("nobody")
    with pytest.raises(TournamentError, match="no table 7"):
        t.next_hand(7)
    with pytest.raises(TournamentError, match="1 to 64 characters"):
        t.register("")


# --- the log ---------------------------------------------------------------------------------


def test_rebuilding_from_the_log_gives_an_equal_tournament_that_goes_on_the_same() -> None:
    settings = small_settings(late_until_level=2, re_entries=2)
    t, clock = started(25, settings, seed=99)
    player = RandomResults(0.2)
    for _ in range(6):
        t.tick()
        for table in t.ready_tables():
            if table in t.tables and t.tables[table].hand is None:
                t.finish_hand(table, player.play(t.next_hand(table)))
        clock.advance(60)
    out = [p.name for p in t.players.values() if p.status is Status.OUT]
    if out and t.registration_open:
        t.re_enter(out[0])
    text = dump_log(t.events)
    copy_clock = ManualClock(clock.now)
    copy = Tournament.rebuild(settings, load_log(text), seed=99, clock=copy_clock)
    assert copy == t
    for tournament, its_clock in ((t, clock), (copy, copy_clock)):
        for _ in range(4):
            tournament.tick()
            for table in tournament.ready_tables():
                if tournament.tables.get(table) and tournament.tables[table].hand is None:
                    tournament.finish_hand(table, player.play(tournament.next_hand(table)))
            its_clock.advance(60)
    assert copy.events == t.events and copy == t


def test_a_log_that_does_not_follow_is_refused() -> None:
    t, _ = started(3)
    events = list(t.events)
    events.insert(0, ev.HandFinished(0.0, 1, 1, ()))
    with pytest.raises(TournamentError, match="event 0"):
        Tournament.rebuild(t.settings, events, seed=t.seed, clock=ManualClock())
    with pytest.raises(TournamentError, match="line 1"):
        load_log('{"type": "Nope"}\n')
