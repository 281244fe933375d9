"""The pure-Python fallback (no C compiler, or CROUPIER_PURE=1) is the same engine: a copy of the
package without its compiled modules must play and replay hands on its own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import croupier

SCRIPT = """
import croupier
from croupier.bots import RandomBot, play_hand
from croupier.cards import DeckKind
from croupier.deck import Deck, SeededShuffler
from croupier.hand import Hand
from croupier.history import HandHistory, dump_phh, history_from_hand, load_phh, replay
from croupier.history import standard_rules
import random

assert croupier.compiled_modules() == (), croupier.compiled_modules()
assert croupier.hand.__file__.endswith(".py")
table = HandHistory(
    variant="NT", antes=(0,) * 3, blinds_or_straddles=(1, 2, 0), min_bet=2,
    starting_stacks=(60, 100, 140),
)
rules = standard_rules(table)
rng = random.Random(3)
for seed in range(20):
    hand = Hand(rules, [60, 100, 140], Deck.shuffled(DeckKind.STANDARD, SeededShuffler(seed)))
    play_hand(hand, [RandomBot() for _ in range(3)], rng)
    assert sum(hand.stacks) + hand.commission == 300
    result = replay(load_phh(dump_phh(history_from_hand(hand))))
    assert result.ok and list(result.finishing_stacks) == hand.stacks, result
print("pure ok")
"""


def test_the_pure_python_package_plays_and_replays_hands(tmp_path: Path) -> None:
    source = Path(croupier.__file__).parent
    shutil.copytree(
        source, tmp_path / "croupier", ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__")
    )
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "pure ok"
