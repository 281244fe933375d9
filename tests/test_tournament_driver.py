"""The hands of a tournament played by today's table engine and bots (EngineHands)."""

from __future__ import annotations

import random

from croupier import events as hand_events
from croupier.betting import Legal
from croupier.bots import Action, CallingStation, SeatView
from croupier.tournament import (
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
PLAYER_ACTIONS = (hand_events.Fold, hand_events.Check, hand_events.Call, hand_events.Bet)


def _setup(
    order: list[int],
    *,
    button: int,
    small: int | None,
    big: int,
    absent: tuple[int, ...] = (),
    forced: ForcedBets = BLINDS,
    chips: int = 1000,
) -> HandSetup:
    seats = tuple(SeatInHand(s, f"s{s}", chips, s in absent) for s in order)
    return HandSetup(1, 1, seats, button, small, big, forced, 9, seed=4)


def _events(player: EngineHands) -> list[hand_events.Event]:
    assert player.last_table is not None and player.last_table.hand is not None
    return list(player.last_table.hand.events)


def _seat(player: EngineHands, index: int) -> int:
    assert player.last_table is not None
    return player.last_table.seat_of(index)


def test_league_12_the_due_big_blind_is_posted_with_no_small_blind_after_an_elimination() -> None:
    # Last hand button 1, small blind 2, big blind 3; seat 3 was eliminated. Seat 4 is due.
    hands = EngineHands(bot_for=lambda name: CallingStation())
    result = hands.play(_setup([4, 5, 6, 1, 2], button=2, small=None, big=4))
    blinds = [e for e in _events(hands) if isinstance(e, hand_events.PostBlind)]
    assert [(_seat(hands, e.player), e.amount) for e in blinds] == [(4, 50)]
    assert sum(result.stacks.values()) == 5000


def test_league_12_with_a_dead_button_the_previous_dealer_acts_last() -> None:
    # The small blind (seat 2) was eliminated: the button is dead on seat 2, seat 1 acts last.
    hands = EngineHands(bot_for=lambda name: CallingStation())
    hands.play(_setup([3, 4, 5, 6, 1], button=2, small=3, big=4))
    events = _events(hands)
    blinds = [
        (_seat(hands, e.player), e.amount) for e in events if isinstance(e, hand_events.PostBlind)
    ]
    assert blinds == [(3, 25), (4, 50)]
    # After the flop the first to act is the small blind's seat, the last seat 1.
    flop = events.index(next(e for e in events if isinstance(e, hand_events.DealBoard)))
    after = [e for e in events[flop:] if isinstance(e, PLAYER_ACTIONS)]
    assert _seat(hands, after[0].player) == 3 and _seat(hands, after[4].player) == 1


def test_heads_up_the_button_posts_the_small_blind() -> None:
    hands = EngineHands(bot_for=lambda name: CallingStation())
    hands.play(_setup([3, 5], button=5, small=5, big=3))
    blinds = [
        (_seat(hands, e.player), e.amount)
        for e in _events(hands)
        if isinstance(e, hand_events.PostBlind)
    ]
    assert sorted(blinds) == [(3, 50), (5, 25)]


def test_league_25_27_an_absent_players_blinds_are_posted_and_the_hand_folded_at_once() -> None:
    hands = EngineHands(bot_for=lambda name: CallingStation())
    result = hands.play(_setup([1, 2, 3, 4], button=4, small=1, big=2, absent=(2,)))
    events = _events(hands)
    absent = next(i for i in range(4) if _seat(hands, i) == 2)
    assert any(isinstance(e, hand_events.PostBlind) and e.player == absent for e in events)
    acts = [e for e in events if isinstance(e, PLAYER_ACTIONS) and e.player == absent]
    assert [type(e) for e in acts] == [hand_events.Fold]  # mucked: no other action
    assert result.stacks[2] == 950  # the big blind stays in the pot


class _Folder:
    def act(self, view: SeatView, legal: Legal, rng: random.Random) -> Action:
        return Action.fold()

    def draw(self, view: SeatView, rng: random.Random) -> Action:
        return Action.draw()


def test_league_27_an_absent_players_dead_hand_never_takes_the_pot() -> None:
    # Everyone folds to the absent big blind: the small blind, the last live hand, wins.
    hands = EngineHands(bot_for=lambda name: _Folder())
    result = hands.play(_setup([1, 2, 3, 4], button=4, small=1, big=2, absent=(2,)))
    assert result.stacks == {1: 1050, 2: 950, 3: 1000, 4: 1000}


def test_a_per_player_ante_is_posted_and_a_big_blind_ante_is_counted_as_skipped() -> None:
    hands = EngineHands(bot_for=lambda name: CallingStation())
    hands.play(_setup([1, 2, 3], button=3, small=1, big=2, forced=ForcedBets(25, 50, ante=10)))
    antes = [e.amount for e in _events(hands) if isinstance(e, hand_events.PostAnte)]
    assert antes == [10, 10, 10] and hands.skipped_big_blind_antes == 0
    hands.play(
        _setup([1, 2, 3], button=3, small=1, big=2, forced=ForcedBets(25, 50, big_blind_ante=50))
    )
    assert hands.skipped_big_blind_antes == 1


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
