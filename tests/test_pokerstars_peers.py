"""Croupier's PokerStars text read by a reader not written here: PokerKit's
``PokerStarsParser`` (pokerkit 0.7.7, no-limit hold'em), which turns the text back into a hand
and plays it on its own engine. Not only that it parses: the seats, the table and the hand's
number and date, the starting stacks, every betting action, the board, the pots with their
winners and the finishing stacks must be the engine's (issue 41)."""

from __future__ import annotations

import random
import re
import warnings
from datetime import UTC, datetime

import pytest

from croupier import events as ev
from croupier.deck import SeededShuffler
from croupier.events import HOUSE
from croupier.hand import Hand
from croupier.history.identity import HandIdentity
from croupier.history.write import phh_history, pokerstars_text
from croupier.rulebooks import load_rulebook
from scripted import play_randomly

pokerkit = pytest.importorskip("pokerkit")

START = datetime(2026, 3, 14, 1, 59, 26, tzinfo=UTC)


def _hands(count: int) -> list[tuple[Hand, HandIdentity]]:
    """No-limit hold'em of 2 to 9 players, deep and short stacks (side pots, all-ins before
    the flop), each at real seats of a 9-max table, clockwise from the button's left."""
    rng = random.Random(41)
    rules = load_rulebook("rws").rules("holdem", "no-limit", stakes=(5, 10))
    out = []
    for k in range(count):
        players = rng.randint(2, 9)
        stacks = [rng.choice([30, 150, 400, 1000, 2500]) for _ in range(players)]
        hand = Hand(rules, stacks, shuffler=SeededShuffler(4100 + k))
        play_randomly(hand, rng, checks=False)
        taken = sorted(rng.sample(range(1, 10), players))
        turn = rng.randrange(players)
        seats = tuple(taken[turn:] + taken[:turn])  # deal order: the button last
        identity = HandIdentity(
            number=250_000_000_000 + k, table="Alice NLHE", seat_count=9, seats=seats,
            started=START,
        )  # fmt: skip
        out.append((hand, identity))
    return out


def _betting(hand: Hand) -> list[str]:
    """The engine's actions as PHH writes them (``pN f``, ``pN cc``, ``pN cbr TO``), with the
    check PokerKit wants of the last player with chips, who need not act (the PHH writer adds
    it; PokerKit's reader puts it back into the text's actions likewise)."""
    actions = phh_history(hand, viewer=HOUSE).actions
    return [a for a in actions if re.fullmatch(r"p\d+ (f|cc|cbr \d+)", a)]


HANDS = _hands(100)


def test_pokerkits_pokerstars_parser_reads_every_holdem_hand_to_the_engines_result() -> None:
    parser = pokerkit.PokerStarsParser()
    showdowns = side_pots = 0
    for hand, identity in HANDS:
        names = [f"player{p + 1}" for p in range(hand.players)]
        text = pokerstars_text(hand, viewer=HOUSE, identity=identity, names=names)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PokerKit's notes ("no reason to fold")
            (history,) = list(parser(text, error_status=True))
            states = list(history)
        # the table, the seats, the hand's number and date
        assert history.players == names
        assert tuple(history.seats) == identity.seats
        assert history.seat_count == 9 and history.table == "Alice NLHE"
        assert history.hand == identity.number
        assert (history.year, history.month, history.day) == (2026, 3, 14)
        assert history.time == START.time().replace(tzinfo=None)
        # the stacks, the betting and the board
        assert list(history.starting_stacks) == list(hand.starting)
        actions = [a for a in history.actions if re.fullmatch(r"p\d+ (f|cc|cbr \d+)", a)]
        assert actions == _betting(hand)
        board = "".join(a.split()[2] for a in history.actions if a.startswith("d db "))
        assert board == "".join(str(card) for card in hand.board)
        # the pots, their winners, and the chips at the end
        final = states[-1]
        assert list(final.stacks) == list(hand.stacks)
        pushed = [op for op in final.operations if type(op).__name__ == "ChipsPushing"]
        # (PokerKit makes one pot of pots the same players contest, and pulls back the chips
        # a folder did not match: its pots are not the text's, which are the engine's)
        announced = sorted(
            (e for e in hand.events if isinstance(e, ev.Announce)), key=lambda e: e.pot
        )
        ours = [e.amount for e in announced]
        pots = re.search(
            r"^Total pot (\d+)(?: Main pot (\d+)\.)?((?: Side pot(?:-\d+)? \d+\.)*)", text, re.M
        )
        assert pots is not None and int(pots.group(1)) == sum(ours)
        written = [int(pots.group(2))] if pots.group(2) else [int(pots.group(1))]
        written += [int(x) for x in re.findall(r"(\d+)\.", pots.group(3))]
        assert written == ours
        # the winners: those PokerKit pushes a pot to are those the engine paid
        winners = {p for op in pushed for p, amount in enumerate(op.amounts) if amount}
        assert winners == {e.player for e in hand.events if isinstance(e, ev.Collect)}
        showdowns += any(isinstance(e, ev.Show) for e in hand.events)
        side_pots += len(ours) > 1
    assert showdowns > 20 and side_pots > 5  # the hard cases were there


def test_a_dead_hand_is_a_fold_in_turn_that_pokerkit_reads_to_the_engines_result() -> None:
    """league 27: an absent player's hand is dealt, its blinds posted, and killed at the first
    card. PokerStars writes a hand sitting out as a fold at its turn; PokerKit reads the text
    back to the engine's stacks and winners."""
    parser = pokerkit.PokerStarsParser()
    rng = random.Random(27)
    rules = load_rulebook("league").rules("holdem", "no-limit", stakes=(50, 100))
    killed = 0
    for k in range(40):
        players = rng.randint(3, 9)
        hand = Hand(rules, [rng.choice([800, 3000, 10_000]) for _ in range(players)],
                    shuffler=SeededShuffler(2700 + k))  # fmt: skip
        for player in rng.sample(range(players), rng.randint(1, players - 2)):
            hand.kill_hand(player)
            killed += 1
        play_randomly(hand, rng, checks=False)
        names = [f"player{p + 1}" for p in range(players)]
        identity = HandIdentity(number=k + 1, table="T 1", seat_count=9,
                                seats=tuple(range(1, players + 1)), started=START)  # fmt: skip
        text = pokerstars_text(hand, viewer=HOUSE, identity=identity, names=names)
        dead = [e.player for e in hand.events if isinstance(e, ev.HandKilled)]
        for player in dead:
            assert f"{names[player]}: folds" in text.splitlines()
            assert re.search(
                rf"^Seat \d+: {names[player]}( \(.*\))? folded before Flop", text, re.M
            )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            (history,) = list(parser(text, error_status=True))
            states = list(history)
        assert list(states[-1].stacks) == list(hand.stacks), text
    assert killed > 40
