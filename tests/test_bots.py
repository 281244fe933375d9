"""Bots: they see only what their seat may see, and only ever do what the rules allow."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from croupier import events as ev
from croupier.betting import Betting, IllegalAction, Legal, MinRaise, ShortAllIn, Structure
from croupier.bots import (
    Action,
    ActionKind,
    Bot,
    CallingStation,
    RandomBot,
    SeatView,
    StrengthBot,
    decide,
    equity,
    play_hand,
)
from croupier.cards import Card, DeckKind, parse_cards
from croupier.deck import Deck, SeededShuffler
from croupier.games import GAMES, Game, Opener
from croupier.hand import Hand, Phase, Rules
from croupier.views import SeatLogs


def random_rules(game: Game, structure: Structure, rng: random.Random) -> Rules:
    deck = rng.choice(sorted(game.max_players, key=lambda d: d.size))
    small = rng.randint(1, 4)
    blinds = any(s.opener is Opener.LEFT_OF_BLINDS for s in game.streets)
    return Rules(
        game=game,
        deck=deck,
        betting=Betting(
            structures=(structure,),
            small_bet=2 * small,
            big_bet=4 * small,
            raise_cap=rng.choice([None, 3, 4]),
            max_wager=rng.choice([None, 40 * small]),
            min_raise=rng.choice(list(MinRaise)),
            short_all_in=rng.choice(list(ShortAllIn)),
        ),
        blinds=(small, 2 * small) if blinds else (),
        ante=rng.choice([0, 1]) if blinds else rng.randint(1, small),
    )


def random_hands(seeds: int) -> Iterator[tuple[Hand, random.Random]]:
    """Hands of every game and structure, with random players, stacks and settings."""
    for name in sorted(GAMES):
        for structure in Structure:
            for seed in range(seeds):
                rng = random.Random(f"{name}-{structure.value}-{seed}")
                rules = random_rules(GAMES[name], structure, rng)
                players = rng.randint(2, rules.game.max_players[rules.deck])
                stacks = [rng.choice([rng.randint(1, 30), rng.randint(30, 400)])
                          for _ in range(players)]  # fmt: skip
                deck = Deck.shuffled(rules.deck, SeededShuffler(rng.getrandbits(32)))
                yield Hand(rules, stacks, deck), rng


def cards_in(value: object) -> Iterator[Card]:
    """Every card anywhere inside a view: its fields, tuples, and the events' fields."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from cards_in(item)
    elif isinstance(value, ev.Event) or (
        dataclasses.is_dataclass(value) and isinstance(value, SeatView)
    ):
        for field in dataclasses.fields(value):
            yield from cards_in(getattr(value, field.name))


def hidden_from(hand: Hand, player: int, view: SeatView) -> set[Card]:
    """Cards ``player`` must not know: other players' face-down cards, the stub, the burns
    (less what the player threw away itself, which may have been shuffled back and redealt)."""
    secret = {c for p, cards in enumerate(hand.hole) if p != player for c in cards}
    secret.update(hand.deck.cards)
    secret.update(hand.burned)
    return secret - set(view.discarded)


def check_legal(action: Action, hand: Hand) -> None:
    """The action is one the rules allow now (checked before the engine applies it)."""
    if hand.drawing:
        assert action.kind is ActionKind.DRAW
        assert hand.to_act is not None
        own = hand.hole[hand.to_act]
        assert set(action.cards) <= set(own) and len(set(action.cards)) == len(action.cards)
        return
    legal = hand.legal()
    if action.kind is ActionKind.FOLD:
        assert legal.can_fold
    elif action.kind is ActionKind.CHECK_OR_CALL:
        assert legal.can_check or legal.call > 0
    elif action.kind is ActionKind.BET_OR_RAISE:
        assert legal.raise_range is not None and action.amount is not None
        assert legal.raise_range[0] <= action.amount <= legal.raise_range[1]
        assert hand.can_bet_or_raise_to(action.amount)
    else:
        raise AssertionError(f"a draw while betting: {action!r}")


BOTS: tuple[Bot, ...] = (RandomBot(), CallingStation(), StrengthBot(trials=24))


def test_bots_only_return_legal_actions_and_never_see_hidden_cards() -> None:
    """Thousands of decisions across every game, deck, structure and betting setting."""
    decisions = draws = 0
    games: set[str] = set()
    for hand, rng in random_hands(seeds=12):
        bots = [rng.choice(BOTS) for _ in range(hand.players)]
        total = sum(hand.starting)
        while hand.phase is not Phase.OVER:
            player = hand.to_act
            assert player is not None
            view = SeatView.of(hand, player)
            assert view.hole == tuple(hand.hole[player])
            assert view.up == tuple(tuple(cards) for cards in hand.up)
            assert view.board == tuple(hand.board)
            leaked = set(cards_in(view)) & hidden_from(hand, player, view)
            assert not leaked, f"p{player} sees {leaked} in {hand.rules.game.name}"
            action = decide(bots[player], hand, rng)
            check_legal(action, hand)
            action.apply(hand)
            decisions += 1
            draws += action.kind is ActionKind.DRAW
            games.add(hand.rules.game.name)
        assert sum(hand.stacks) + hand.commission == total
    assert games == set(GAMES)
    assert decisions > 3000 and draws > 50


def test_a_view_hides_other_hole_cards_and_shows_up_cards() -> None:
    # Stud: p0 down 2c up Kd; p1 down 3c up 5h. p1's view has the king but not the deuce.
    top = list(parse_cards("2c 3c Kd 5h"))
    deck = Deck(DeckKind.STANDARD, top + [c for c in DeckKind.STANDARD.cards if c not in top])
    rules = Rules(
        game=GAMES["stud5"],
        betting=Betting(structures=(Structure.FIXED,), small_bet=10, big_bet=20),
        ante=1,
    )
    hand = Hand(rules, [100, 100], deck)
    view = SeatView.of(hand, 1)
    assert view.hole == (Card("3c"),)
    assert view.up == ((Card("Kd"),), (Card("5h"),))
    assert Card("2c") not in set(cards_in(view))
    assert ev.DealHole(0, (None,)) in view.events
    assert view.cards == (Card("3c"), Card("5h"))
    assert not hasattr(view, "hand")


def test_a_view_follows_its_own_draw() -> None:
    rules = Rules(
        game=GAMES["draw"],
        betting=Betting(structures=(Structure.FIXED,), small_bet=2, big_bet=4),
        blinds=(1, 2),
    )
    hand = Hand(rules, [100, 100], Deck.shuffled(DeckKind.STANDARD, SeededShuffler(3)))
    hand.check_or_call()
    hand.check_or_call()
    assert hand.drawing and hand.to_act == 0
    thrown = hand.hole[0][:2]
    hand.draw(thrown)
    view = SeatView.of(hand, 0)
    assert view.hole == tuple(hand.hole[0]) and view.discarded == tuple(thrown)
    other = SeatView.of(hand, 1)
    assert not set(thrown) & set(cards_in(other))
    assert ev.Draw(0, (None, None), (None, None)) in other.events


def test_action_apply_repr_and_illegal_actions_raise_the_engine_error() -> None:
    rules = Rules(
        game=GAMES["holdem"],
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=2),
        blinds=(1, 2),
    )
    hand = Hand(rules, [100, 100, 100], Deck.shuffled(DeckKind.STANDARD, SeededShuffler(1)))
    with pytest.raises(IllegalAction, match=r"below the minimum 4"):
        Action.bet_or_raise_to(3).apply(hand)
    with pytest.raises(IllegalAction, match=r"nobody is drawing"):
        Action.draw().apply(hand)
    Action.bet_or_raise_to(6).apply(hand)
    Action.fold().apply(hand)
    Action.check_or_call().apply(hand)
    acted = [type(e) for e in hand.events if isinstance(e, ev.Bet | ev.Fold | ev.Call)]
    assert acted == [ev.Bet, ev.Fold, ev.Call]
    assert repr(Action.bet_or_raise_to(6)) == "Action.bet_or_raise_to(6)"
    assert repr(Action.fold()) == "Action.fold()"
    assert repr(Action.draw(parse_cards("Ah Kd"))) == "Action.draw(parse_cards('Ah Kd'))"
    assert str(Action.check_or_call()) == "check or call"
    assert str(Action.draw()) == "stand pat"


def test_stud_opener_bots_bet_when_they_must() -> None:
    legal = Legal(0, can_fold=False, can_check=False, call=0, raise_range=(10, 10))
    rules = Rules(
        game=GAMES["stud5"],
        betting=Betting(structures=(Structure.FIXED,), small_bet=10, big_bet=20),
        ante=1,
    )
    hand = Hand(rules, [100, 100], Deck.shuffled(DeckKind.STANDARD, SeededShuffler(5)))
    assert hand.legal().raise_range == (10, 10) and not hand.legal().can_check
    view = SeatView.of(hand, hand.legal().player)
    rng = random.Random(0)
    for bot in BOTS:
        for _ in range(20):
            assert bot.act(view, legal, rng) == Action.bet_or_raise_to(10)


def holdem(holes: list[str], stacks: list[int]) -> Hand:
    """Hold'em heads-up or more, dealing these hole cards (one at a time, as dealt)."""
    cards = [parse_cards(h) for h in holes]
    top = [cards[p][i] for i in range(2) for p in range(len(cards))]
    deck = Deck(DeckKind.STANDARD, top + [c for c in DeckKind.STANDARD.cards if c not in top])
    rules = Rules(
        game=GAMES["holdem"],
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=2),
        blinds=(1, 2),
    )
    return Hand(rules, stacks, deck)


def test_equity_against_random_hands_is_about_right() -> None:
    hand = holdem(["Ah As", "7d 2c"], [100, 100])
    aces = equity(SeatView.of(hand, 0), 4000, random.Random(1))
    trash = equity(SeatView.of(hand, 1), 4000, random.Random(1))
    assert 0.82 < aces < 0.88  # pocket aces against one random hand: about 85%
    assert 0.30 < trash < 0.38  # seven-deuce offsuit: about 35%
    assert equity(SeatView.of(hand, 0), 200, random.Random(7)) == equity(
        SeatView.of(hand, 0), 200, random.Random(7)
    )


def test_strength_bot_raises_strong_hands_and_folds_weak_ones_to_a_big_bet() -> None:
    bot = StrengthBot(trials=400)
    hand = holdem(["7d 2c", "Ah As", "9s 8s"], [200, 200, 200])
    view = SeatView.of(hand, 2)
    action = bot.act(view, hand.legal(), random.Random(0))  # 9-8 suited: not strong enough
    assert action.kind is not ActionKind.BET_OR_RAISE
    hand.bet_or_raise_to(200)  # player 2 shoves
    action = bot.act(SeatView.of(hand, 0), hand.legal(), random.Random(0))
    assert action == Action.fold()  # seven-deuce facing an all-in
    hand.fold()
    action = bot.act(SeatView.of(hand, 1), hand.legal(), random.Random(0))
    assert action.kind is ActionKind.CHECK_OR_CALL  # aces call (nothing left to raise)
    hand2 = holdem(["Ah As", "7d 2c"], [200, 200])
    # Heads-up, the button (player 1) acts first; let it call, then aces raise.
    hand2.check_or_call()
    action = bot.act(SeatView.of(hand2, 0), hand2.legal(), random.Random(0))
    assert action.kind is ActionKind.BET_OR_RAISE


def test_strength_bot_is_deterministic_given_the_rng() -> None:
    def actions(seed: int) -> list[Action]:
        hand = Hand(
            Rules(
                game=GAMES["omaha"],
                betting=Betting(structures=(Structure.POT,), small_bet=2),
                blinds=(1, 2),
            ),
            [150] * 5,
            Deck.shuffled(DeckKind.STANDARD, SeededShuffler(11)),
        )
        rng = random.Random(seed)
        taken = []
        bot = StrengthBot(trials=50)
        while hand.phase is not Phase.OVER:
            action = decide(bot, hand, rng)
            taken.append(action)
            action.apply(hand)
        return taken

    assert actions(4) == actions(4)


def test_strength_bot_draws_to_its_hand() -> None:
    rules = Rules(
        game=GAMES["draw"],
        betting=Betting(structures=(Structure.FIXED,), small_bet=2, big_bet=4),
        blinds=(1, 2),
    )
    # Dealt one at a time: p0 gets Ah 7h 7c 2d 9s (a pair), p1 4h 8h Jh Qh 3c (four hearts).
    top = list(parse_cards("Ah 4h 7h 8h 7c Jh 2d Qh 9s 3c"))
    deck = Deck(DeckKind.STANDARD, top + [c for c in DeckKind.STANDARD.cards if c not in top])
    hand = Hand(rules, [100, 100], deck)
    hand.check_or_call()
    hand.check_or_call()
    bot = StrengthBot(trials=10)
    rng = random.Random(0)
    assert set(bot.draw(SeatView.of(hand, 0), rng).cards) == set(parse_cards("Ah 2d 9s"))
    hand.draw(parse_cards("Ah 2d 9s"))
    assert bot.draw(SeatView.of(hand, 1), rng).cards == (Card("3c"),)


def test_play_hand_runs_bots_to_the_end() -> None:
    hand = holdem(["Ah As", "7d 2c", "9s 8s"], [50, 50, 50])
    play_hand(hand, [StrengthBot(trials=20), RandomBot(), CallingStation()], random.Random(2))
    assert hand.phase is Phase.OVER and sum(hand.stacks) + hand.commission == 150


def test_a_view_from_the_seat_logs_is_the_seats_view_whenever_it_is_read() -> None:
    """croupier.sim's views (SeatView.from_log, from views.SeatLogs): worked out when first
    read, equal to SeatView.of at the turn they were made for, read then, a turn later, or
    never; and they hold no reference to the hand (nor any hidden card)."""
    made = 0
    for hand, rng in random_hands(seeds=4):
        bots = [rng.choice(BOTS) for _ in range(hand.players)]
        logs = SeatLogs()
        late: list[tuple[SeatView, SeatView]] = []
        while hand.phase is not Phase.OVER:
            player = hand.to_act
            assert player is not None
            logs.update(hand.events)
            seen = SeatView.from_log(
                player, hand.rules, hand.starting, logs.public, logs.own(player),
                to_act=player, drawing=hand.drawing, reducer=logs.reducer(player),
            )  # fmt: skip
            assert not any(value is hand for value in vars(seen).values())
            expected = SeatView.of(hand, player)
            if rng.random() < 0.5:
                assert fields_of(seen) == fields_of(expected)
            else:
                late.append((seen, expected))  # read after later turns (or at the end)
            made += 1
            decide(bots[player], hand, rng).apply(hand)
        for seen, expected in late:
            assert fields_of(seen) == fields_of(expected)
    assert made > 500


def fields_of(seen: SeatView) -> tuple[object, ...]:
    return tuple(getattr(seen, field.name) for field in dataclasses.fields(SeatView))
