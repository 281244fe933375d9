"""A tournament's hands dealt by the hand engine with the tournament's forced bets (EngineHands).

Each test builds the hand's setup as a tournament would (seats in deal order, the button, who
posts) and reads what the engine did from its event log, by seat.
"""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from croupier import events as hand_events
from croupier.betting import Legal
from croupier.bots import Action, CallingStation, SeatView
from croupier.cards import Card
from croupier.hand import Hand
from croupier.tournament import (
    DealtHand,
    EngineHands,
    ForcedBets,
    HandSetup,
    ManualClock,
    SeatInHand,
    Tournament,
    run,
)
from tournament_support import small_settings

BLINDS = ForcedBets(25, 50)
BIG_BLIND_ANTE = ForcedBets(25, 50, big_blind_ante=50)
PLAYER_ACTIONS = (hand_events.Fold, hand_events.Check, hand_events.Call, hand_events.Bet)


def _setup(
    order: list[int],
    *,
    button: int,
    small: int | None,
    big: int,
    absent: tuple[int, ...] = (),
    forced: ForcedBets = BLINDS,
    chips: dict[int, int] | None = None,
    seed: int = 4,
) -> HandSetup:
    stacks = chips or {}
    seats = tuple(SeatInHand(s, f"s{s}", stacks.get(s, 1000), s in absent) for s in order)
    return HandSetup(1, 1, seats, button, small, big, forced, 9, seed=seed)


def _played(setup: HandSetup, bot: object = None) -> tuple[DealtHand, dict[int, int]]:
    hands = EngineHands(bot_for=lambda name: bot or CallingStation())  # type: ignore[return-value]
    result = hands.play(setup)
    assert hands.last is not None
    return hands.last, dict(result.stacks)


def _blinds(dealt: DealtHand) -> list[tuple[int, int]]:
    return [
        (dealt.seat_of(e.player), e.amount)
        for e in dealt.hand.events
        if isinstance(e, hand_events.PostBlind)
    ]


def _antes(dealt: DealtHand) -> list[tuple[int, int, bool]]:
    return [
        (dealt.seat_of(e.player), e.amount, e.dead)
        for e in dealt.hand.events
        if isinstance(e, hand_events.PostAnte)
    ]


def _actions(dealt: DealtHand, seat: int) -> list[type]:
    return [
        type(e)
        for e in dealt.hand.events
        if isinstance(e, PLAYER_ACTIONS) and dealt.seat_of(e.player) == seat
    ]


def test_league_12_the_due_big_blind_is_posted_with_no_small_blind_after_an_elimination() -> None:
    # Last hand button 1, small blind 2, big blind 3; seat 3 was eliminated. Seat 4 is due.
    dealt, stacks = _played(_setup([4, 5, 6, 1, 2], button=2, small=None, big=4))
    assert _blinds(dealt) == [(4, 50)]
    assert sum(stacks.values()) == 5000
    # Before the flop the player after the big blind acts first.
    first = next(e for e in dealt.hand.events if isinstance(e, PLAYER_ACTIONS))
    assert dealt.seat_of(first.player) == 5


def test_league_12_with_a_dead_button_the_previous_dealer_acts_last() -> None:
    # The small blind (seat 2) was eliminated: the button is dead on seat 2, seat 1 acts last.
    dealt, _ = _played(_setup([3, 4, 5, 6, 1], button=2, small=3, big=4))
    events = dealt.hand.events
    assert _blinds(dealt) == [(3, 25), (4, 50)]
    # After the flop the first to act is the small blind's seat, the last seat 1.
    flop = events.index(next(e for e in events if isinstance(e, hand_events.DealBoard)))
    after = [dealt.seat_of(e.player) for e in events[flop:] if isinstance(e, PLAYER_ACTIONS)]
    assert after[:5] == [3, 4, 5, 6, 1]


def test_heads_up_the_button_posts_the_small_blind_and_acts_first_before_the_flop() -> None:
    dealt, _ = _played(_setup([3, 5], button=5, small=5, big=3))
    assert sorted(_blinds(dealt)) == [(3, 50), (5, 25)]
    first = next(e for e in dealt.hand.events if isinstance(e, PLAYER_ACTIONS))
    assert dealt.seat_of(first.player) == 5


def test_the_big_blind_ante_is_posted_by_the_big_blind_as_dead_money() -> None:
    dealt, stacks = _played(_setup([1, 2, 3, 4], button=4, small=1, big=2, forced=BIG_BLIND_ANTE))
    assert _antes(dealt) == [(2, 50, True)]
    assert _blinds(dealt) == [(1, 25), (2, 50)]
    assert dealt.hand.forced.dead_antes
    assert sum(stacks.values()) == 4000


def test_a_big_blind_short_of_blind_and_ante_posts_the_blind_first() -> None:
    dealt, _ = _played(
        _setup([1, 2, 3], button=3, small=1, big=2, forced=BIG_BLIND_ANTE, chips={2: 70})
    )
    assert _blinds(dealt) == [(1, 25), (2, 50)] and _antes(dealt) == [(2, 20, True)]
    dealt, _ = _played(
        _setup([1, 2, 3], button=3, small=1, big=2, forced=BIG_BLIND_ANTE, chips={2: 40})
    )
    assert _blinds(dealt) == [(1, 25), (2, 40)] and _antes(dealt) == []


def test_a_per_player_ante_is_posted_by_everyone_as_their_own() -> None:
    dealt, _ = _played(_setup([1, 2, 3], button=3, small=1, big=2, forced=ForcedBets(25, 50, 10)))
    assert _antes(dealt) == [(1, 10, False), (2, 10, False), (3, 10, False)]


def test_league_25_27_an_absent_players_forced_bets_come_from_their_stack_the_hand_dead() -> None:
    setup = _setup([1, 2, 3, 4], button=4, small=1, big=2, absent=(2,), forced=BIG_BLIND_ANTE)
    dealt, stacks = _played(setup)
    assert (2, 50) in _blinds(dealt) and _antes(dealt) == [(2, 50, True)]
    assert _actions(dealt, 2) == []  # mucked at the first card: no action
    events = dealt.hand.events
    killed = [i for i, e in enumerate(events) if isinstance(e, hand_events.HandKilled)]
    assert [dealt.seat_of(events[i].player) for i in killed] == [2]  # type: ignore[attr-defined]
    last_card = max(i for i, e in enumerate(events) if isinstance(e, hand_events.DealHole))
    first_action = min(i for i, e in enumerate(events) if isinstance(e, PLAYER_ACTIONS))
    assert last_card < killed[0] < first_action
    assert stacks[2] == 900  # the blind and the ante stay in the pot
    assert sum(stacks.values()) == 4000


@pytest.mark.parametrize("seed", range(12))
def test_league_27_an_absent_player_all_in_from_the_blind_wins_nothing(seed: int) -> None:
    # Seat 2 is absent with 50 chips: its big blind puts it all in before the first card. Its
    # hand is mucked all the same, whatever its cards: the two callers share the 150.
    setup = _setup([1, 2, 3], button=3, small=1, big=2, absent=(2,), chips={2: 50}, seed=seed)
    dealt, stacks = _played(setup)
    assert stacks[2] == 0
    assert stacks[1] + stacks[3] == 2050
    collected = {
        dealt.seat_of(e.player) for e in dealt.hand.events if isinstance(e, hand_events.Collect)
    }
    assert 2 not in collected and collected  # type: ignore[attr-defined]


class _Folder:
    def act(self, view: SeatView, legal: Legal, rng: random.Random) -> Action:
        return Action.fold()

    def draw(self, view: SeatView, rng: random.Random) -> Action:
        return Action.draw()


def test_league_27_an_absent_players_dead_hand_never_takes_the_pot() -> None:
    # Everyone folds to the absent big blind: the small blind, the last live hand, wins.
    _, stacks = _played(_setup([1, 2, 3, 4], button=4, small=1, big=2, absent=(2,)), _Folder())
    assert stacks == {1: 1050, 2: 950, 3: 1000, 4: 1000}


def test_league_27_against_an_all_in_hand_the_dead_blinds_excess_goes_back() -> None:
    # The small blind is all in for 20; the absent big blind's 50 is dead. The small blind may
    # win only what it covered (rws 3.14.4): 20 from the big blind; the other 30 goes back.
    setup = _setup([1, 2, 3, 4], button=4, small=1, big=2, absent=(2,), chips={1: 20})
    _, stacks = _played(setup, _Folder())
    assert stacks == {1: 40, 2: 980, 3: 1000, 4: 1000}


class _Spy:
    """Calls, keeping every view it was given."""

    def __init__(self) -> None:
        self.views: list[SeatView] = []

    def act(self, view: SeatView, legal: Legal, rng: random.Random) -> Action:
        self.views.append(view)
        return Action.check_or_call()

    def draw(self, view: SeatView, rng: random.Random) -> Action:
        return Action.draw()


def test_bots_see_only_their_seat_through_views_that_hold_no_hand() -> None:
    spy = _Spy()
    dealt, _ = _played(_setup([1, 2, 3, 4], button=4, small=1, big=2), spy)
    assert spy.views
    hole = dealt.hand.hole
    for view in spy.views:
        assert not any(isinstance(getattr(view, f.name), Hand) for f in fields(view))
        assert set(view.hole) == set(hole[view.player])
        others = {card for p, cards in enumerate(hole) if p != view.player for card in cards}
        seen: set[Card | None] = set()
        for event in view.events:
            if isinstance(event, hand_events.DealHole):
                seen.update(event.cards)
        assert not seen & others  # other players' cards are hidden (None) until shown


def test_no_table_object_is_made_for_a_tournaments_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    import croupier.table

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a Table was made")

    monkeypatch.setattr(croupier.table.Table, "__init__", refuse)
    clock = ManualClock()
    t = Tournament(small_settings(table_size=4), seed=5, clock=clock)
    for index in range(8):
        t.register(f"bot{index}")
    t.start()
    run(t, EngineHands(), clock)
    assert t.finished


def test_a_tournament_runs_to_the_end_with_random_bots() -> None:
    clock = ManualClock()
    t = Tournament(small_settings(table_size=6), seed=3, clock=clock)
    for index in range(20):
        t.register(f"bot{index}")
    t.start()
    hands = EngineHands()
    run(t, hands, clock)
    assert t.finished and hands.hands > 0
    assert t.players[t.winner or ""].chips == t.chips_expected == 20_000
    standings = t.standings()
    assert sorted(s.place for s in standings if s.place is not None) == list(range(1, 21))
    assert sum(s.prize for s in standings) == t.prize_pool == 20 * 90
    again = Tournament(small_settings(table_size=6), seed=3, clock=ManualClock())
    for index in range(20):
        again.register(f"bot{index}")
    again.start()
    run(again, EngineHands(), again.clock_source)  # type: ignore[arg-type]
    assert again.events == t.events  # the same seed and inputs: the same tournament


def test_a_hand_steps_one_decision_at_a_time_and_gives_its_result_only_when_over() -> None:
    hands = EngineHands(bot_for=lambda name: CallingStation())
    dealt = hands.deal(_setup([1, 2, 3], button=3, small=1, big=2))
    with pytest.raises(ValueError, match="not over"):
        dealt.result()
    decisions = 0
    while not dealt.over:
        dealt.step()
        decisions += 1
    actions = [e for e in dealt.hand.events if isinstance(e, PLAYER_ACTIONS)]
    assert decisions == len(actions)
    with pytest.raises(ValueError, match="nobody is to act"):
        dealt.step()
    assert sum(hands.finish(dealt).stacks.values()) == 3000 and hands.hands == 1
