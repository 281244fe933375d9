"""The README's hand histories (its "Hand histories" paragraph) are what croupier writes: one
hand of hold'em and one of seven card stud as PokerStars text, written again here from the
same deals and play and compared line by line."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime
from pathlib import Path

from croupier.betting import Betting, Structure
from croupier.deck import SeededShuffler
from croupier.games import game
from croupier.hand import Hand, Rules
from croupier.history.identity import HandIdentity
from croupier.history.write import pokerstars_text
from croupier.rulebooks import load_rulebook
from scripted import play_randomly

README = Path(__file__).resolve().parent.parent / "README.md"
START = datetime(2026, 12, 7, 19, 4, 12, tzinfo=UTC)


def holdem() -> str:
    rules = load_rulebook("rws").rules("holdem", "no-limit", stakes=(1, 2))
    hand = Hand(rules, [200, 150, 320, 200], shuffler=SeededShuffler(0))
    play_randomly(hand, random.Random(0), checks=False)
    identity = HandIdentity(
        number=218_833_655_123_000_042, table="Alice NLHE", seat_count=6, seats=(2, 4, 5, 1),
        started=START,
    )  # fmt: skip
    return pokerstars_text(hand, viewer=0, identity=identity, names=["Ann", "Bob", "Cy", "Di"])


def stud() -> str:
    betting = Betting(structures=(Structure.FIXED,), small_bet=10, big_bet=20)
    rules = Rules(game=game("stud7"), betting=betting, ante=1, bring_in=3)
    hand = Hand(rules, [200, 150, 320], shuffler=SeededShuffler(76))
    hand.post_bring_in()
    play_randomly(hand, random.Random(76), checks=False)
    identity = HandIdentity(
        number=218_833_655_123_000_043, table="Stud 8", seat_count=8, seats=(1, 3, 6),
        started=START,
    )  # fmt: skip
    return pokerstars_text(hand, viewer=0, identity=identity, names=["Ann", "Bob", "Cy"])


def _blocks() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("**Hand histories**") :]
    return re.findall(r"```text\n(PokerStars Hand.*?)```", section, re.S)


def test_the_readmes_holdem_and_stud_hands_are_what_croupier_writes() -> None:
    blocks = _blocks()
    assert blocks[0].splitlines() == holdem().splitlines()
    assert blocks[1].splitlines() == stud().splitlines()
