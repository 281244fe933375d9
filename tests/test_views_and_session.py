"""The one reducer from events to what a viewer sees, and the session loop over a table."""

from __future__ import annotations

import random

import pytest

from croupier import events as ev
from croupier.betting import Betting, IllegalAction, Structure
from croupier.bots import Action, CallingStation, RandomBot
from croupier.cards import Card
from croupier.deck import Deck, SeededShuffler
from croupier.games import GAMES
from croupier.hand import Hand, Phase, Rules
from croupier.session import Session, SessionError, Timing
from croupier.table import BuyIn, HandFinished, HandStarted, Seated, Table
from croupier.views import HOUSE, SPECTATOR, Reducer, view, visible
from scripted import STRUCTURES, play_randomly


def table_state(hand: Hand) -> tuple[object, ...]:
    over = hand.phase is Phase.OVER
    return (
        tuple(hand.stacks),
        tuple(hand.bets),
        tuple(0 for _ in hand.contributed) if over else tuple(hand.contributed),
        0 if over else hand.dead,
        tuple(hand.folded),
        tuple(hand.board),
        tuple(tuple(cards) for cards in hand.up),
    )


def view_state(seen: object) -> tuple[object, ...]:
    return (
        seen.stacks, seen.bets, seen.contributed, seen.dead, seen.folded,  # type: ignore[attr-defined]
        seen.board, seen.up,  # type: ignore[attr-defined]
    )  # fmt: skip


def rules_for(game_name: str, rng: random.Random) -> Rules:
    game = GAMES[game_name]
    return Rules(
        game=game,
        deck=next(iter(game.max_players)),
        blinds=(1, 2),
        ante=rng.choice([0, 1]),
        betting=Betting(structures=(rng.choice(STRUCTURES),), small_bet=2, big_bet=4),
    )


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_the_house_view_follows_the_engine_after_every_step(game_name: str) -> None:
    # The reducer rebuilds stacks, bets, pots, folds and cards from the events alone; after
    # every action it agrees with the engine's own state.
    for seed in range(6):
        rng = random.Random(seed)
        rules = rules_for(game_name, rng)
        players = rng.randint(2, rules.game.max_players[rules.deck])
        hand = Hand(rules, [rng.randint(3, 90) for _ in range(players)],
                    Deck.shuffled(rules.deck, SeededShuffler(seed)))  # fmt: skip
        while True:
            house = view(hand, HOUSE)
            assert view_state(house) == table_state(hand), (seed, hand.events[-3:])
            assert house.pot == (0 if hand.phase is Phase.OVER else hand.pot)
            assert sum(pot.amount for pot in house.pots()) == house.pot
            for player in range(players):  # a seat sees its own cards, nobody else's
                seen = view(hand, player)
                assert [c for c in seen.hole[player] if c is not None] == hand.hole[player]
                others = {c for p in range(players) if p != player for c in seen.hole[p]}
                hidden = {c for p in range(players) if p != player for c in hand.hole[p]}
                shown = {c for e in hand.events if isinstance(e, ev.Show) for c in e.cards}
                assert not (others & hidden) - shown
            spectator = view(hand, SPECTATOR)
            shown = {c for e in hand.events if isinstance(e, ev.Show) for c in e.cards}
            assert {c for cards in spectator.hole for c in cards} <= shown | {None}
            if hand.phase is Phase.OVER:
                break
            play_randomly(hand, rng, steps=1)


def test_a_viewer_is_a_player_spectator_or_house_never_a_default() -> None:
    rules = rules_for("holdem", random.Random(1))
    hand = Hand(rules, [50, 50, 50])
    with pytest.raises(ValueError, match="SPECTATOR or HOUSE, not None"):
        view(hand, None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"players 0\.\.2, not 7"):
        view(hand, 7)
    assert all(c is None for cards in view(hand, SPECTATOR).hole for c in cards)
    assert view(hand, HOUSE).hole == tuple(tuple(cards) for cards in hand.hole)
    assert all(e.card is None for e in visible(hand.events, 0) if isinstance(e, ev.Burn))


def test_a_reducer_fed_one_event_at_a_time_equals_one_fed_all_at_once() -> None:
    rules = rules_for("stud7", random.Random(2))
    hand = Hand(rules, [60, 60, 60, 60], Deck.shuffled(rules.deck, SeededShuffler(2)))
    play_randomly(hand, random.Random(2))
    step = Reducer(hand.starting, 1)
    for event in visible(hand.events, 1):
        step.apply(event)
    at_once = Reducer(hand.starting, 1).feed(visible(hand.events, 1))
    assert step.snapshot(rules) == at_once.snapshot(rules)


# ---------------------------------------------------------------------------------------------
# The session


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def session(clock: FakeClock, seats: int = 3) -> Session:
    rules = Rules(
        game=GAMES["holdem"], blinds=(1, 2),
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=2),
    )  # fmt: skip
    table = Table(rules, 6, buy_in=BuyIn(minimum=100))
    for seat in range(1, seats + 1):
        table.sit(seat, f"s{seat}", 200)
    return Session(table, shuffler=SeededShuffler(5), clock=clock, timing=Timing(30, 60))


def test_the_turn_has_an_absolute_deadline_and_the_time_bank_pays_for_overtime() -> None:
    clock = FakeClock()
    play = session(clock)
    play.start_hand()
    turn = play.turn()
    assert turn is not None and turn.deadline == 1000 + 30 + 60
    assert play.turn() == turn  # asking again changes nothing
    clock.now += 45  # 15 s over the action's time: taken from the bank
    play.act(turn.seat, Action.check_or_call())
    assert play.banks[turn.seat] == 45
    nxt = play.turn()
    assert nxt is not None and nxt.deadline == clock.now + 30 + 60


def test_time_running_out_checks_where_it_can_and_folds_where_it_cannot() -> None:
    clock = FakeClock()
    play = session(clock)
    hand = play.start_hand()
    turn = play.turn()
    assert turn is not None and not turn.legal.can_check  # type: ignore[union-attr]
    assert play.expire() == []  # not yet
    clock.now = turn.deadline
    assert play.expire() == [ev.Fold(turn.player)]
    while hand.to_act is not None and hand.legal().call:
        play.act(play.turn().seat, Action.check_or_call())  # type: ignore[union-attr]
    turn = play.turn()
    assert turn is not None and turn.legal is not None and turn.legal.can_check
    clock.now = turn.deadline + 1
    assert play.expire()[0] == ev.Check(turn.player)


def test_an_action_out_of_turn_or_refused_changes_nothing() -> None:
    clock = FakeClock()
    play = session(clock)
    hand = play.start_hand()
    turn = play.turn()
    assert turn is not None
    before = list(hand.events)
    other = next(s for s in (1, 2, 3) if s != turn.seat)
    with pytest.raises(SessionError, match=f"it is seat {turn.seat}'s turn, not seat {other}'s"):
        play.act(other, Action.fold())
    with pytest.raises(IllegalAction, match="below the minimum"):
        play.act(turn.seat, Action.bet_or_raise_to(3))
    assert hand.events == before and play.turn() == turn


def test_a_hand_played_by_bots_through_the_session_records_the_table_events() -> None:
    clock = FakeClock()
    play = session(clock, seats=4)
    rng = random.Random(3)
    told: list[ev.Event] = []
    summary = play.play_hand({s: RandomBot() for s in range(1, 5)}, rng, told=told.extend)
    assert told == play.hand.events  # type: ignore[union-attr]
    assert sum(summary.stacks.values()) + summary.commission == 800
    kinds = [type(e) for e in play.table.events]
    assert kinds.count(Seated) == 4 and HandStarted in kinds and kinds[-1] is HandFinished


def test_a_person_is_asked_again_after_a_refused_action() -> None:
    clock = FakeClock()
    play = session(clock)
    asked: list[str | None] = []

    def ask(turn: object, seen: object, refused: IllegalAction | None) -> Action:
        asked.append(None if refused is None else str(refused))
        return Action.bet_or_raise_to(3) if refused is None else Action.fold()

    bots = {2: CallingStation(), 3: CallingStation()}
    play.play_hand(bots, random.Random(1), ask=ask)
    assert asked[0] is None and "below the minimum" in (asked[1] or "")


def test_a_seat_view_holds_no_reference_to_the_hand() -> None:
    clock = FakeClock()
    play = session(clock)
    hand = play.start_hand()
    seen = play.seat_view(1)
    assert not any(value is hand for value in vars(seen).values())
    assert seen.hole == tuple(hand.hole[play.table.player_of(1)])  # type: ignore[index]
    assert all(isinstance(card, Card) for card in seen.hole)
