"""Random tournaments whose hands are dealt and played by the hand engine, checked action by
action: chips across all tables, places by the stacks at a hand's start, the blinds after
eliminations (league 12), and the absent players' forced bets and dead hands (league 25, 27).

Every table that may deal starts a hand; the hands then advance one decision at a time, the
table chosen at random, so that hands finish (and players bust, move and are reseated) while
other tables are mid-hand; the director marks absences and returns, and penalises, between
decisions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier import events as hand_events
from croupier.tournament import (
    DealtHand,
    EngineHands,
    ManualClock,
    Tournament,
    TournamentError,
)
from croupier.tournament import events as ev
from tournament_support import small_settings


@dataclass
class Played:
    """A tournament played out, with every hand the engine dealt (in the order they ended)."""

    tournament: Tournament
    hands: list[DealtHand] = field(default_factory=list)


def _chips_now(t: Tournament, playing: list[DealtHand]) -> int:
    """The chips on all tables: players between hands count their chips, players in a hand
    their stack in it, plus the chips in its pot."""
    total = t.chips_in_play
    for dealt in playing:
        hand = dealt.hand
        total -= sum(seat.chips for seat in dealt.setup.seats)
        total += sum(hand.stacks) + (0 if dealt.over else hand.pot)
        assert sum(hand.stacks) + (0 if dealt.over else hand.pot) == sum(hand.starting)
    return total


def _director(t: Tournament, rng: random.Random) -> None:
    alive = t.alive()
    roll = rng.random()
    try:
        if roll < 0.01:
            t.mark_absent(rng.choice(alive))
        elif roll < 0.02:
            absent = [p for p in alive if t.players[p].absent]
            if absent:
                t.mark_present(rng.choice(absent))
        elif roll < 0.025:
            t.penalise(rng.choice(alive), orbits=1)
    except TournamentError:
        pass


def play_interleaved(
    t: Tournament,
    clock: ManualClock,
    rng: random.Random,
    *,
    director: bool = True,
    each_step: Callable[[Tournament, list[DealtHand]], None] | None = None,
) -> Played:
    played = Played(t)
    engine = EngineHands(on_hand=played.hands.append)
    for _ in range(20_000):
        if t.finished:
            return played
        t.tick()
        if t.on_break:
            clock.advance(60)
            continue
        tables = t.ready_tables()
        assert tables, f"stuck: {t.tables}"
        playing = [engine.deal(t.next_hand(n)) for n in tables]
        while playing:
            dealt = rng.choice(playing)
            if not dealt.over:  # a hand may end as it is dealt: all in from the forced bets
                dealt.step()
                if director:
                    _director(t, rng)
                if each_step is not None:
                    each_step(t, playing)
            if dealt.over:
                playing.remove(dealt)
                t.finish_hand(dealt.setup.table, engine.finish(dealt))
                if director:  # between hands too: a hand of absent players has no step
                    _director(t, rng)
                if each_step is not None:
                    each_step(t, playing)
        clock.advance(rng.choice((30, 90, 200)))
    raise AssertionError("the tournament did not end")


def _conserved(t: Tournament, playing: list[DealtHand]) -> None:
    assert _chips_now(t, playing) == t.chips_expected


def _tournament(players: int, table_size: int, seed: int) -> tuple[Tournament, ManualClock]:
    clock = ManualClock(0.0)
    t = Tournament(small_settings(table_size=table_size), seed=seed, clock=clock)
    for index in range(players):
        t.register(f"p{index}")
    t.start()
    return t, clock


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 40), table_size=st.integers(2, 10), seed=st.integers(0, 2**32))
def test_chips_are_conserved_across_all_tables_after_every_action_of_the_engine(
    players: int, table_size: int, seed: int
) -> None:
    t, clock = _tournament(players, table_size, seed)
    played = play_interleaved(t, clock, random.Random(seed), each_step=_conserved)
    assert t.finished and t.players[t.winner or ""].chips == t.chips_expected
    assert len(played.hands) == t.hands_played


def _busts_by_hand(t: Tournament) -> list[list[tuple[str, int]]]:
    """For each finished hand, the players it put out with their chips at its start."""
    started: dict[tuple[int, int], ev.HandStarted] = {}
    found = []
    for event in t.events:
        if isinstance(event, ev.HandStarted):
            started[event.table, event.hand] = event
        elif isinstance(event, ev.HandFinished):
            begun = started[event.table, event.hand]
            after = dict(event.stacks)
            found.append([(name, chips) for seat, name, chips in begun.dealt if not after[seat]])
    return found


def check_places_by_starting_stacks(t: Tournament) -> int:
    """Players out in the same hand: the bigger stack at its start has the better place, equal
    stacks tie; a later hand's players place above an earlier one's. Returns how many hands
    put out two or more players with different stacks."""
    places = {s.player: s for s in t.standings()}
    later_best = 0  # the worst place of the hands checked so far (they ended later)
    mixed = 0
    for busts in reversed(_busts_by_hand(t)):
        if not busts:
            continue
        for name, chips in busts:
            for other, theirs in busts:
                mine, its = places[name], places[other]
                assert mine.place is not None and its.place is not None
                if chips > theirs:
                    assert mine.place < its.place
                elif chips == theirs and name != other:
                    assert mine.tied and its.tied
        worst = max(places[name].place or 0 for name, _ in busts)
        best = min(places[name].place or 0 for name, _ in busts)
        assert best > later_best
        later_best = worst
        mixed += len({chips for _, chips in busts}) > 1
    return mixed


@settings(max_examples=25, deadline=None)
@given(players=st.integers(3, 40), table_size=st.integers(3, 10), seed=st.integers(0, 2**32))
def test_players_out_in_the_same_hand_are_placed_by_their_stacks_at_its_start(
    players: int, table_size: int, seed: int
) -> None:
    t, clock = _tournament(players, table_size, seed)
    play_interleaved(t, clock, random.Random(seed), director=False)
    check_places_by_starting_stacks(t)


def test_a_hand_that_puts_out_players_with_different_stacks_places_the_bigger_stack_higher() -> (
    None
):
    t, clock = _tournament(40, 9, seed=11)
    play_interleaved(t, clock, random.Random(11), director=False)
    assert check_places_by_starting_stacks(t) > 0  # such hands happened, and were checked


def _next_clockwise(seats: list[int], after: int) -> int:
    later = [s for s in sorted(seats) if s > after]
    return later[0] if later else min(seats)


def _last_counterclockwise(seats: list[int], at: int) -> int:
    """The first of ``seats`` from ``at`` going counterclockwise, ``at`` included."""
    earlier = [s for s in sorted(seats) if s <= at]
    return earlier[-1] if earlier else max(seats)


def check_league_12(played: Played) -> int:
    """For consecutive hands at a table where the only change was the previous hand's
    eliminations (three or more players in both): the big blind is posted by the first player
    clockwise after the last big blind, the small blind by the last big blind if still in (else
    none), and the button falls on the last small blind's seat, so the player dealt last (who
    acts last after the flop) is the first one at or before it. Returns the hands checked
    that followed an elimination."""
    started = {e.seed: e for e in played.tournament.events if isinstance(e, ev.HandStarted)}
    last: dict[int, DealtHand] = {}  # each table's last hand, in the order hands ended
    after_busts = 0
    for now in played.hands:
        before = last.get(now.setup.table)
        last[now.setup.table] = now
        if before is None or now.setup.hand != before.setup.hand + 1:
            continue  # a table's first hand, or a table numbered again (the final table)
        was, hand_start = started[before.setup.seed], started[now.setup.seed]
        left = {
            seat.seat for seat, chips in zip(before.setup.seats, before.hand.stacks, strict=True)
            if chips
        }  # fmt: skip
        seats = [seat.seat for seat in now.setup.seats]
        if set(seats) != left or was.waiting or hand_start.waiting:
            continue  # players arrived, left or waited: not league 12's case
        if len(seats) < 3 or len(before.setup.seats) < 3:
            continue  # heads-up has its own blinds
        last_big = before.setup.big_blind
        expected = [_next_clockwise(seats, last_big)]
        if last_big in seats:
            expected.insert(0, last_big)
        posted = [
            now.seat_of(e.player) for e in now.hand.events if isinstance(e, hand_events.PostBlind)
        ]
        assert posted == expected, (before.setup, now.setup)
        assert seats[-1] == _last_counterclockwise(seats, was.positions.small_blind)
        after_busts += len(left) < len(before.setup.seats)
    return after_busts


@settings(max_examples=20, deadline=None)
@given(players=st.integers(3, 30), table_size=st.integers(3, 10), seed=st.integers(0, 2**32))
def test_league_12_in_real_hands_the_due_big_blind_is_posted_after_eliminations(
    players: int, table_size: int, seed: int
) -> None:
    t, clock = _tournament(players, table_size, seed)
    check_league_12(play_interleaved(t, clock, random.Random(seed)))


def test_league_12_real_hands_after_eliminations_were_checked() -> None:
    t, clock = _tournament(30, 9, seed=5)
    assert check_league_12(play_interleaved(t, clock, random.Random(5))) > 0


def check_absent_players(played: Played) -> int:
    """League 25, 27: an absent player's forced bets are posted from their own stack (the
    level's blinds and ante, or all they have), their only action is a fold, and after it
    they collect nothing (an uncalled part of a blind is returned, as to anyone). Returns how
    many absent players' hands were checked."""
    checked = 0
    for dealt in played.hands:
        forced = dealt.setup.forced
        for player in dealt.absent:
            seat = dealt.setup.seats[player]
            events = dealt.hand.events
            acts = [e for e in events if isinstance(e, hand_events.Fold | hand_events.Check |
                    hand_events.Call | hand_events.Bet) and e.player == player]  # fmt: skip
            assert all(isinstance(e, hand_events.Fold) for e in acts)
            owed = forced.ante
            if seat.seat == dealt.setup.big_blind:
                owed += forced.big_blind + forced.big_blind_ante
            elif seat.seat == dealt.setup.small_blind:
                owed += forced.small_blind
            posted = sum(
                e.amount
                for e in events
                if isinstance(e, hand_events.PostAnte | hand_events.PostBlind)
                and e.player == player
            )
            assert posted == min(owed, seat.chips)
            if acts:  # folded: down by the forced bets, less any part of them uncalled
                returned = sum(
                    e.amount
                    for e in events
                    if isinstance(e, hand_events.ReturnUncalled) and e.player == player
                )
                assert dealt.hand.stacks[player] == seat.chips - posted + returned
                assert not any(
                    isinstance(e, hand_events.Collect) and e.player == player for e in events
                )
            checked += 1
    return checked


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 30), table_size=st.integers(2, 10), seed=st.integers(0, 2**32))
def test_league_25_27_absent_players_blinds_are_posted_from_their_stacks_in_real_hands(
    players: int, table_size: int, seed: int
) -> None:
    t, clock = _tournament(players, table_size, seed)
    check_absent_players(play_interleaved(t, clock, random.Random(seed)))


def test_league_25_an_absent_big_blind_posts_the_blind_and_the_big_blind_ante() -> None:
    # small_settings' level 5 has a big-blind ante (600): absent from it on, blinded off.
    t, clock = _tournament(6, 6, seed=2)
    clock.advance(4 * 300 + 120)  # into level 5 (after the break)
    t.tick()
    assert t.forced_bets().big_blind_ante == 600
    for name in t.alive()[:3]:
        t.mark_absent(name)
    played = play_interleaved(t, clock, random.Random(2), director=False)
    bb_antes = [
        dealt
        for dealt in played.hands
        if any(dealt.setup.seats[p].seat == dealt.setup.big_blind for p in dealt.absent)
        and dealt.setup.forced.big_blind_ante
    ]
    assert bb_antes and check_absent_players(played) > 0
