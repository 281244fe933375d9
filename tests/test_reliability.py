"""The faults found by testing croupier as an attacker and a careless user would (issue 13),
each with the test that found it: forked shufflers, chips lost on a fold, a cap that depended on
who asked, refused actions that changed the hand, and amounts of every type."""

from __future__ import annotations

import os
import random
from decimal import Decimal
from fractions import Fraction

import pytest

from croupier import events as ev
from croupier.betting import Betting, IllegalAction, Structure
from croupier.cards import DeckKind
from croupier.deck import SECURE, Deck, SecureShuffler, SeededShuffler
from croupier.games import GAMES
from croupier.hand import Hand, Phase, Rules
from croupier.rulebooks import load_rulebook
from scripted import STRUCTURES, act_passively, play_randomly


def snapshot(hand: Hand) -> tuple[object, ...]:
    """Everything a refused action must leave as it was."""
    round_ = hand.round
    betting = None
    if round_ is not None:
        betting = (
            round_.current, round_.full_level, round_.last_raise, round_.last_wager,
            round_.last_was_opening, round_.last_was_call, round_.raises, round_.reopen_count,
            list(round_.acted_at), round_.stuck, round_.opened, round_.brought_in,
        )  # fmt: skip
    return (
        hand.phase, hand.street, hand.to_act, list(hand.stacks), list(hand.bets),
        list(hand.contributed), hand.dead, hand.folded, list(hand.mucked),
        [list(c) for c in hand.hole], list(hand.hidden), [list(c) for c in hand.up],
        list(hand.board), list(hand.burned), list(hand.discards), hand.deck.cards,
        len(hand.events), hand.next_step(), hand.last_aggressor, hand.opener, betting,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# 1. Correlated decks after fork()


def _child_deck(shuffler: SecureShuffler) -> bytes:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child deals one deck and reports it
        try:
            os.close(read)
            cards = Deck.shuffled(DeckKind.STANDARD, shuffler).cards
            os.write(write, bytes(int(card) for card in cards))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    return data


@pytest.mark.parametrize("shuffler", [SECURE, SecureShuffler()], ids=["default", "new"])
def test_fork_children_never_deal_from_the_parents_random_bytes(shuffler: SecureShuffler) -> None:
    Deck.shuffled(DeckKind.STANDARD, shuffler)  # the parent has buffered bytes left over
    decks = [_child_deck(shuffler) for _ in range(6)]
    assert all(len(deck) == 52 for deck in decks)
    # Two independent shuffles share their last k cards in order with chance 1/(52!/(52-k)!):
    # no two children's decks may share even their last three cards.
    tails = [deck[-3:] for deck in decks]
    assert len(set(tails)) == len(tails), "forked children dealt related decks"


# ---------------------------------------------------------------------------------------------
# 2. Chips lost on a fold with a smallest chip above 1


@pytest.mark.parametrize("game", ["omaha", "manila3"])
def test_a_pot_won_by_a_fold_is_paid_whatever_the_smallest_chip(game: str) -> None:
    # Blinds of 1 and 2 with a smallest chip of 5: everyone folds to the big blind, whose pot of
    # 2 (the small blind's 1 and the 1 of the big blind that was called) is not a multiple of
    # the chip. au's odd chip goes by the hole cards used, and an uncontested winner shows none:
    # the pot was never paid and the chips were gone. One winner takes the pot whole.
    rules = load_rulebook("au-casino").rules(game, stakes=(1, 2), chip_unit=5)
    hand = Hand(rules, [100, 100, 100], Deck.shuffled(rules.deck, SeededShuffler(1)))
    while hand.phase is not Phase.OVER:
        hand.fold()
    assert hand.stacks == [99, 101, 100] and sum(hand.stacks) == 300
    for seed in range(30):  # and in random hands with stacks off the chip
        deck = Deck.shuffled(rules.deck, SeededShuffler(seed))
        hand = Hand(rules, [103, 99, 151], deck)
        rng = random.Random(seed)
        while hand.phase is not Phase.OVER:
            legal = hand.legal()
            if legal.raise_range and rng.random() < 0.4:
                hand.bet_or_raise_to(legal.raise_range[1])
            elif legal.can_fold and rng.random() < 0.5:
                hand.fold()
            else:
                act_passively(hand)
        assert sum(hand.stacks) + hand.commission == 353
        assert isinstance(hand.events[-1], ev.HandOver)


# ---------------------------------------------------------------------------------------------
# 3. A cap that depended on who asked


def test_a_capped_round_stays_capped_heads_up_whoever_asked_before() -> None:
    # Three players cap a fixed-limit round: the blind and three raises. The next player, short
    # of the call, calls all-in; the other two are then heads-up. The cap reached with three
    # players able to bet stays (cardroom betting 4-5), and that must not depend on whether
    # anyone asked the engine a question (can_bet_or_raise_to) while the short stack was to act.
    rules = Rules(
        game=GAMES["holdem"], blinds=(1, 2),
        betting=Betting(structures=(Structure.FIXED,), small_bet=2, big_bet=4, raise_cap=3,
                        cap_sticks=True),
    )  # fmt: skip
    offers = []
    for ask in (False, True):
        hand = Hand(rules, [100, 100, 7], Deck.shuffled(DeckKind.STANDARD, SeededShuffler(1)))
        hand.bet_or_raise_to(4)  # p3, the button
        hand.bet_or_raise_to(6)  # p1, the small blind
        hand.bet_or_raise_to(8)  # p2, the big blind: the blind and three raises, capped
        if ask:
            assert not hand.can_bet_or_raise_to(10)
        hand.check_or_call()  # p3 calls all-in for 3
        offers.append(str(hand.legal()))  # p1, heads-up with p2 now
    assert offers == ["call 2 · fold", "call 2 · fold"]


def test_random_capped_hands_offer_the_same_actions_whether_or_not_anyone_asked() -> None:
    for seed in range(200):
        rng = random.Random(seed)
        rules = Rules(
            game=GAMES["holdem"], blinds=(1, 2),
            betting=Betting(structures=(Structure.FIXED,), small_bet=2, big_bet=4,
                            raise_cap=rng.choice([1, 2, 3]), cap_sticks=True),
        )  # fmt: skip
        decisions = [rng.random() for _ in range(200)]
        logs = []
        for ask in (False, True):
            hand = Hand(rules, [60] * 4, Deck.shuffled(DeckKind.STANDARD, SeededShuffler(seed)))
            legal_seen = []
            for choice in decisions:
                if hand.phase is Phase.OVER:
                    break
                if ask:
                    hand.can_bet_or_raise_to(hand.bets[hand.to_act or 0] + 100)
                legal = hand.legal()
                legal_seen.append(str(legal))
                if legal.raise_range and choice < 0.5:
                    hand.bet_or_raise_to(legal.raise_range[0])
                elif choice < 0.7:
                    hand.fold()
                else:
                    hand.check_or_call()
            logs.append(legal_seen)
        assert logs[0] == logs[1], seed


# ---------------------------------------------------------------------------------------------
# 4. Refused actions that changed the hand, and amounts of every type


BAD_AMOUNTS = [True, False, 10.0, 10.5, "20", None, Decimal(20), Fraction(20), 2**80, -5, [20]]


def test_every_kind_of_bad_amount_is_an_illegal_action_in_both_builds() -> None:
    rules = Rules(
        game=GAMES["holdem"], blinds=(1, 2),
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=2),
    )  # fmt: skip
    hand = Hand(rules, [100, 100, 100], Deck.shuffled(DeckKind.STANDARD, SeededShuffler(3)))
    before = snapshot(hand)
    for amount in BAD_AMOUNTS:
        with pytest.raises(IllegalAction):
            hand.bet_or_raise_to(amount)
        assert not hand.can_bet_or_raise_to(amount)
        assert snapshot(hand) == before, amount
    with pytest.raises(IllegalAction, match=r"a bet must be a whole number of chips, got 10\.0"):
        hand.bet_or_raise_to(10.0)
    with pytest.raises(IllegalAction, match="got True"):
        hand.bet_or_raise_to(True)
    import numpy as np

    hand.bet_or_raise_to(np.int64(10))  # a numpy integer is a whole number of chips
    assert hand.bets[2] == 10


def test_refused_attempts_leave_every_hand_exactly_as_it_was() -> None:
    attempts = refused = 0
    rng = random.Random(13)
    for seed in range(150):
        game = GAMES[sorted(GAMES)[seed % len(GAMES)]]
        deck_kind = next(iter(game.max_players))
        rules = Rules(
            game=game, deck=deck_kind, blinds=(1, 2), ante=seed % 2,
            betting=Betting(structures=(rng.choice(STRUCTURES),), small_bet=2, big_bet=4,
                            raise_cap=rng.choice([None, 2])),
            chip_unit=rng.choice([1, 2]),
        )  # fmt: skip
        players = rng.randint(2, game.max_players[deck_kind])
        hand = Hand(rules, [rng.randint(3, 60) for _ in range(players)],
                    Deck.shuffled(deck_kind, SeededShuffler(seed)))  # fmt: skip
        while hand.phase is not Phase.OVER:
            before = snapshot(hand)
            for _ in range(40):
                attempts += 1
                try:
                    _attempt(hand, rng)
                except (IllegalAction, ValueError):
                    refused += 1
                    assert snapshot(hand) == before
                else:
                    before = snapshot(hand)
                if hand.phase is Phase.OVER:
                    break
            if hand.phase is not Phase.OVER:
                play_randomly(hand, rng, steps=1)
    assert refused > 10_000 and attempts > refused


def _attempt(hand: Hand, rng: random.Random) -> None:
    """A random attempt, legal or not: a raise of any size, a fold or call out of place, a
    draw of cards the player may not hold, a dealer step when none is due."""
    roll = rng.randrange(8)
    if roll == 0:
        hand.bet_or_raise_to(rng.choice([*BAD_AMOUNTS, rng.randint(-3, 400)]))
    elif roll == 1:
        hand.draw(rng.sample(list(hand.rules.deck.cards), rng.randint(0, 3)))
    elif roll == 2:
        hand.post_bring_in()
    elif roll == 3:
        hand.burn(None)
    elif roll == 4:
        hand.deal_board([None])
    elif roll == 5:
        hand.show_or_muck(rng.random() < 0.5)
    elif roll == 6 and hand.phase is Phase.BETTING and not hand.legal().can_fold:
        hand.fold()
    elif roll == 7:
        hand.deal_hole([None, None])


# Errors cite the clauses of the book in force, not another book's.
MIN_RAISE_CLAUSE = {
    # qld: the first round's only raise is to twice the second blind (s24(4)), not s28(4)
    "au-casino": "au 11.5(d)", "rws": "rws 3.3", "qld": "qld s24(4)",
    "cardroom": "cardroom betting 6", "league": "league 7-9",
}  # fmt: skip
CAP_CLAUSE = {"au-casino": "au 11.5(g)", "cardroom": "cardroom betting 4(a)", "qld": "qld s9(2)"}


@pytest.mark.parametrize("book", sorted(MIN_RAISE_CLAUSE))
def test_a_raise_below_the_minimum_cites_the_book_in_force(book: str) -> None:
    structure = "pot" if book == "qld" else "no-limit"
    hand = Hand(load_rulebook(book).rules("holdem", structure, stakes=10), [1000] * 3)
    with pytest.raises(IllegalAction) as refused:
        hand.bet_or_raise_to(11)
    message = str(refused.value)
    assert MIN_RAISE_CLAUSE[book] in message
    others = [c for b, c in MIN_RAISE_CLAUSE.items() if b != book]
    assert not any(clause in message for clause in others), message


@pytest.mark.parametrize("book", sorted(CAP_CLAUSE))
def test_a_raise_past_the_cap_cites_the_book_in_force(book: str) -> None:
    extra = {"max_wager": 20} if book == "qld" else {}  # qld s28(8)(b): the late rounds' size
    rules = load_rulebook(book).rules("holdem", "fixed", stakes=10, **extra)
    hand = Hand(rules, [1000] * 3)
    while hand.legal().raise_range is not None:
        hand.bet_or_raise_to(hand.legal().raise_range[0])  # type: ignore[index]
    with pytest.raises(IllegalAction, match="capped") as refused:
        hand.bet_or_raise_to(1000)
    assert CAP_CLAUSE[book] in str(refused.value)
    if book != "au-casino":
        assert "au 11.5" not in str(refused.value)
