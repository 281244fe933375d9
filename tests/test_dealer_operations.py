"""The dealer's steps as operations, hands rebuilt from their logs, copies and steps back.

Every game is played with automatic dealing and again with the dealer's operations given the
same cards: the logs are identical. Random hands of every game and structure are rebuilt from
their logs to the same state. Forced bets are a value per hand: a big-blind ante and a button
ante are dealt, written as PHH and replayed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier import events as ev
from croupier.betting import Betting, IllegalAction, Structure
from croupier.cards import Card, DeckKind
from croupier.deck import Deck, SeededShuffler
from croupier.forced import Blind, BlindKind, ForcedBets
from croupier.games import GAMES
from croupier.hand import Hand, Phase, Rules, StepKind
from croupier.history import dump_phh, history_from_hand, load_phh, replay
from croupier.rebuild import RebuildError, rebuild
from peers import pokerkit_stacks
from scripted import STRUCTURES, play_randomly


def state(hand: Hand) -> tuple[object, ...]:
    """Everything a hand's future depends on, as plain values."""
    legal = None
    if hand.phase is Phase.BETTING and hand.to_act is not None:
        legal = hand.legal()
    return (
        hand.phase, hand.street, hand.to_act, hand.stacks, hand.bets, hand.contributed,
        hand.dead, hand.folded, hand.mucked, hand.hole, hand.hidden, hand.up, hand.board,
        hand.burned, hand.discards, hand.next_step(), legal, hand.payouts, hand.commission,
        hand.events,
    )  # fmt: skip


def random_rules(game_name: str, rng: random.Random) -> Rules:
    game = GAMES[game_name]
    deck = rng.choice(sorted(game.max_players, key=lambda kind: kind.size))
    small = rng.randint(1, 4)
    return Rules(
        game=game,
        deck=deck,
        betting=Betting(
            structures=(rng.choice(STRUCTURES),),
            small_bet=2 * small,
            big_bet=4 * small,
            raise_cap=rng.choice([None, 3]),
            cap_sticks=rng.choice([True, False]),
        ),
        blinds=(small, 2 * small),
        ante=rng.choice([0, 1]),
        chip_unit=rng.choice([1, 1, small]),
    )


def random_hands(count: int, seed: int) -> Iterator[Hand]:
    """``count`` hands of random play, spread over every game and structure."""
    rng = random.Random(seed)
    names = sorted(GAMES)
    for i in range(count):
        rules = random_rules(names[i % len(names)], rng)
        game, deck = rules.game, rules.deck
        players = rng.randint(2, game.max_players[deck])
        stacks = [rng.randint(1, 150) for _ in range(players)]
        hand = Hand(
            rules, stacks, Deck.shuffled(deck, SeededShuffler(i)), shuffler=SeededShuffler(i)
        )
        play_randomly(hand, random.Random(i), checks=False)
        yield hand


# ---------------------------------------------------------------------------------------------
# Automatic dealing and the dealer's operations


def dealt_step_by_step(hand: Hand) -> Hand:
    """The same hand, with every card given to the dealer's operations and every show or muck
    given as the automatic hand did it."""
    events = hand.events
    explicit = Hand(
        hand.rules, hand.starting, Deck.ordered(hand.rules.deck), shuffler=hand.shuffler,
        auto_deal=False, auto_show=False,
    )  # fmt: skip
    for i, event in enumerate(events):
        if i < len(explicit.events):
            continue  # made by the engine itself
        if isinstance(event, ev.DealHole):
            up = events[i + 1] if i + 1 < len(events) else None
            cards = list(event.cards)
            if isinstance(up, ev.DealUp) and up.player == event.player:
                cards += up.cards
            explicit.deal_hole(cards)
        elif isinstance(event, ev.DealUp):
            explicit.deal_hole(event.cards)
        elif isinstance(event, ev.Burn):
            explicit.burn(event.card)
        elif isinstance(event, ev.DealBoard):
            explicit.deal_board(event.cards)
        elif isinstance(event, ev.Show | ev.Muck):
            explicit.show_or_muck(isinstance(event, ev.Show))
        elif isinstance(event, ev.Draw):
            explicit.draw(event.discarded)
            if event.drawn:
                explicit.deal_hole(event.drawn)
        elif isinstance(event, ev.Fold):
            explicit.fold()
        elif isinstance(event, ev.Check | ev.Call):
            explicit.check_or_call()
        elif isinstance(event, ev.Bet):
            explicit.bet_or_raise_to(event.to)
        elif isinstance(event, ev.BringIn):
            explicit.post_bring_in()
    return explicit


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_every_game_deals_the_same_events_automatically_and_step_by_step(game_name: str) -> None:
    for seed in range(12):
        rng = random.Random(seed)
        game = GAMES[game_name]
        deck = next(iter(game.max_players))
        rules = Rules(
            game=game, deck=deck, blinds=(1, 2), ante=1,
            betting=Betting(structures=(rng.choice(STRUCTURES),), small_bet=2, big_bet=4),
        )  # fmt: skip
        players = rng.randint(2, game.max_players[deck])
        stacks = [rng.randint(5, 80) for _ in range(players)]
        hand = Hand(rules, stacks, Deck.shuffled(deck, SeededShuffler(seed)))
        play_randomly(hand, rng)
        explicit = dealt_step_by_step(hand)
        assert explicit.events == hand.events, seed
        assert explicit.stacks == hand.stacks and explicit.phase is Phase.OVER


def test_a_live_dealer_deals_unseen_hole_cards_and_names_them_at_the_showdown() -> None:
    rules = Rules(
        game=GAMES["holdem"], blinds=(1, 2),
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=2),
    )  # fmt: skip
    hand = Hand(rules, [100, 100, 100], auto_deal=False, auto_show=False)
    assert hand.phase is Phase.DEALING and hand.next_step().kind is StepKind.HOLE  # type: ignore[union-attr]
    for _ in range(3):
        hand.deal_hole([None, None])  # the dealer does not see the hole cards
    assert hand.hidden == [2, 2, 2] and hand.to_act == 2
    hand.check_or_call()
    hand.check_or_call()
    hand.check_or_call()
    with pytest.raises(IllegalAction, match="the dealer is to burn"):
        hand.deal_board([Card("Ah"), Card("Kh"), Card("Qh")])
    hand.burn(None)
    hand.deal_board([Card("Ah"), Card("Kh"), Card("Qh")])
    with pytest.raises(IllegalAction, match="Kh cannot be dealt to the board: it is on the board"):
        for _ in range(3):
            hand.check_or_call()
        hand.burn(None)
        hand.deal_board([Card("Kh")])
    hand.deal_board([Card("2c")])
    for _ in range(3):
        hand.check_or_call()
    hand.burn(None)
    hand.deal_board([Card("3d")])
    for _ in range(3):
        hand.check_or_call()
    assert hand.phase is Phase.SHOWDOWN
    with pytest.raises(IllegalAction, match="a shown hand is those cards"):
        hand.show_or_muck(True)  # the dealer needs the cards the player shows
    hand.show_or_muck(True, [Card("Jh"), Card("Th")])  # p1: a royal flush
    hand.show_or_muck(False)  # p2 mucks
    assert hand.phase is Phase.SHOWDOWN  # p3 still faces p1's hand
    hand.show_or_muck(False)
    assert hand.phase is Phase.OVER and hand.stacks == [104, 98, 98]
    assert hand.hole[0] == [Card("Jh"), Card("Th")] and hand.hidden == [0, 2, 2]


def test_a_player_left_alone_at_the_showdown_wins_unshown() -> None:
    rules = Rules(
        game=GAMES["holdem"], blinds=(1, 2),
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=2),
    )  # fmt: skip
    hand = Hand(rules, [100, 100], Deck.shuffled(DeckKind.STANDARD, SeededShuffler(4)),
                auto_show=False)  # fmt: skip
    while hand.phase is Phase.BETTING:
        hand.check_or_call()
    assert hand.phase is Phase.SHOWDOWN
    first = hand.next_step()
    assert first is not None and first.kind is StepKind.SHOW
    hand.show_or_muck(False)  # the first to show gives up: the other wins without showing
    assert hand.phase is Phase.OVER
    assert [e for e in hand.events if isinstance(e, ev.Show)] == []
    assert hand.stacks[1 - first.player] == 102


# ---------------------------------------------------------------------------------------------
# Rebuilding from the log


def test_ten_thousand_random_hands_of_every_game_rebuild_to_the_same_state() -> None:
    for hand in random_hands(10_000, seed=2026):
        again = rebuild(hand.rules, hand.starting, hand.events, forced=hand.forced)
        assert state(again) == state(hand)


@settings(max_examples=150, deadline=None)
@given(game_name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**31), cut=st.floats(0, 1))
def test_a_hand_stopped_anywhere_rebuilds_and_plays_on_the_same(
    game_name: str, seed: int, cut: float
) -> None:
    # Crash recovery: rebuild from the log as far as it goes, with the same deck order, and
    # the hand goes on exactly as the original did.
    rng = random.Random(seed)
    rules = random_rules(game_name, rng)
    players = rng.randint(2, min(6, rules.game.max_players[rules.deck]))
    stacks = [rng.randint(1, 120) for _ in range(players)]
    order = Deck.shuffled(rules.deck, SeededShuffler(seed)).cards
    full = Hand(rules, stacks, Deck(rules.deck, order), shuffler=SeededShuffler(seed))
    play_randomly(full, random.Random(seed))
    stop = int(cut * len(full.events))
    partial = Hand(rules, stacks, Deck(rules.deck, order), shuffler=SeededShuffler(seed))
    again_rng = random.Random(seed)
    while len(partial.events) < stop and partial.phase is not Phase.OVER:
        play_randomly(partial, again_rng, steps=1)
    again = rebuild(
        rules, stacks, partial.events, deck=Deck(rules.deck, order),
        shuffler=SeededShuffler(seed), auto_deal=True, auto_show=True,
    )  # fmt: skip
    assert state(again)[:-1] == state(partial)[:-1] and again.events == partial.events
    assert again.deck.cards == partial.deck.cards or any(
        isinstance(e, ev.Reshuffle) for e in partial.events
    )


def test_a_log_the_rules_do_not_allow_is_an_error_naming_the_event() -> None:
    hand = next(random_hands(1, seed=5))
    events = list(hand.events)
    action = next(i for i, e in enumerate(events) if isinstance(e, ev.Check | ev.Call | ev.Bet))
    events[action] = ev.Bet(events[action].player, 10**6, 10**6)  # type: ignore[attr-defined]
    with pytest.raises(RebuildError, match=f"event {action} "):
        rebuild(hand.rules, hand.starting, events)
    with pytest.raises(RebuildError, match="the engine made"):
        rebuild(hand.rules, hand.starting, [ev.PostBlind(0, 99), *hand.events[1:]])


def test_a_copy_is_independent_and_a_step_back_undoes_one_operation() -> None:
    rules = Rules(
        game=GAMES["holdem"], blinds=(1, 2),
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=2),
    )  # fmt: skip
    hand = Hand(rules, [100, 100, 100], Deck.shuffled(DeckKind.STANDARD, SeededShuffler(8)))
    hand.bet_or_raise_to(6)
    copy = hand.copy()
    assert state(copy) == state(hand) and copy.deck.cards == hand.deck.cards
    copy.fold()
    assert len(copy.events) == len(hand.events) + 1 and hand.to_act == 0
    back = hand.step_back()  # the raise to 6 is undone
    assert back.to_act == 2 and back.bets == [1, 2, 0] and back.events == hand.events[:-1]
    assert back.deck.cards == hand.deck.cards


def test_a_dealer_steps_back_a_mistyped_card() -> None:
    rules = Rules(
        game=GAMES["holdem"], blinds=(1, 2),
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=2),
    )  # fmt: skip
    hand = Hand(rules, [100, 100], auto_deal=False, auto_show=False)
    hand.deal_hole([Card("Ah"), Card("Ad")])
    hand.deal_hole([Card("Kh"), Card("Kd")])
    hand = hand.step_back()  # it was the Ks, not the Kh
    assert hand.next_step().player == 1 and Card("Kh") in hand.deck.cards  # type: ignore[union-attr]
    hand.deal_hole([Card("Ks"), Card("Kd")])
    assert hand.hole == [[Card("Ah"), Card("Ad")], [Card("Ks"), Card("Kd")]]


# ---------------------------------------------------------------------------------------------
# Forced bets as a value per hand


def holdem(blinds: tuple[int, ...] = (50, 100)) -> Rules:
    return Rules(
        game=GAMES["holdem"], blinds=blinds,
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=blinds[-1]),
    )  # fmt: skip


@pytest.mark.parametrize(
    ("name", "antes"),
    [("big-blind ante", [0, 100, 0, 0, 0]), ("button ante", [0, 0, 0, 0, 100])],
)
def test_a_big_blind_ante_and_a_button_ante_are_dealt_written_and_replayed(
    name: str, antes: list[int]
) -> None:
    # One player antes for the table: dead money in the main pot, which every player may win.
    forced = ForcedBets(antes, [Blind(0, 50), Blind(1, 100)], dead_antes=True)
    for seed in range(20):
        deck = Deck.shuffled(DeckKind.STANDARD, SeededShuffler(seed))
        hand = Hand(holdem(), [3000, 5000, 800, 4000, 2000], deck, forced=forced)
        assert hand.pot == 250 and hand.dead == 100
        play_randomly(hand, random.Random(seed))
        history = history_from_hand(hand)
        assert history.antes == tuple(antes) and history.ante_trimming_status is None
        text = dump_phh(history)
        result = replay(load_phh(text))
        assert result.ok and result.finishing_stacks == tuple(hand.stacks), (name, seed)
        assert pokerkit_stacks(text) == hand.stacks


def test_dead_and_posted_blinds() -> None:
    # A player back from missing the blinds posts a live big blind and a dead small blind; the
    # action still starts left of the big blind, and the returning player keeps the option.
    forced = ForcedBets(
        blinds=[
            Blind(0, 1),
            Blind(1, 2),
            Blind(3, 2, BlindKind.POSTED),
            Blind(3, 1, BlindKind.DEAD),
        ]
    )
    hand = Hand(holdem((1, 2)), [100] * 5, forced=forced)
    assert hand.to_act == 2 and hand.pot == 6
    assert [type(e).__name__ for e in hand.events[:4]] == ["PostBlind"] * 3 + ["PostDead"]
    assert hand.dead == 1 and hand.bets[3] == 2 and hand.stacks[3] == 97
    hand.check_or_call()  # p3 calls 2
    legal = hand.legal()  # p4 has posted 2: the option to check or raise
    assert legal.player == 3 and legal.can_check and legal.raise_range == (4, 99)
    hand.check_or_call()  # p4 checks
    hand.check_or_call()  # p5 calls 2
    hand.check_or_call()  # p1 completes the small blind
    hand.check_or_call()  # p2, the big blind, checks
    assert hand.street == 1 and hand.pot == 11


def test_forced_bets_that_do_not_fit_the_hand_are_refused() -> None:
    with pytest.raises(IllegalAction, match="antes are given for 2 players"):
        Hand(holdem(), [100, 100, 100], forced=ForcedBets([1, 1]))
    with pytest.raises(IllegalAction, match="a blind for player 5"):
        Hand(holdem(), [100, 100, 100], forced=ForcedBets(blinds=[Blind(5, 2)]))


def test_a_replay_gives_the_engine_the_histories_cards_and_never_reorders_a_deck() -> None:
    # Every card a history names is dealt through the dealer's operations; the replay's deck is
    # the unshuffled deck, and what is left of it after the hand is exactly that deck less the
    # cards taken, in the same order: nothing was restacked to make the engine deal them.
    from pathlib import Path

    from croupier.history import ActionKind, load_phhs

    fixtures = Path(__file__).parent / "fixtures" / "phh"
    histories = [load_phh(path) for path in sorted(fixtures.glob("*.phh"))]
    histories += [h for path in sorted(fixtures.glob("*.phhs")) for h in load_phhs(path)]
    checked = 0
    for history in histories:
        result = replay(history)
        hand = result.hand
        if not result.ok or hand is None or any(isinstance(e, ev.Reshuffle) for e in hand.events):
            continue
        named = [
            card
            for action in history.parsed_actions()
            for card in action.cards
            if card is not None and action.kind in (ActionKind.DEAL_HOLE, ActionKind.DEAL_BOARD)
        ]
        dealt = [
            card
            for e in hand.events
            for card in (e.drawn if isinstance(e, ev.Draw) else getattr(e, "cards", ()))
            if card is not None and isinstance(e, ev.DealHole | ev.DealUp | ev.DealBoard | ev.Draw)
        ]
        assert sorted(dealt) == sorted(named), history.name
        taken = set(dealt) | {e.card for e in hand.events if isinstance(e, ev.Burn) and e.card}
        assert hand.deck.cards == tuple(c for c in hand.rules.deck.cards if c not in taken)
        checked += 1
    assert checked >= 10
