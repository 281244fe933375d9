"""Instructions per hand, croupier against PokerKit, counted by valgrind's callgrind.

Wall-clock rates (bench/hands.py) move with whatever else the machine runs; instruction counts
do not. Each engine plays bench/hands.py's hands (same policy, seed 2) in a child process under
``valgrind --tool=callgrind``, once with N hands and once with none, each after the same warm-up
hands (seed 1); the difference over N is the cost of one hand, imports and warm-up excluded.
Two runs of the same build still differ by a few million instructions in all (memory layout,
the collector), about 1k a hand over 6,000 hands: count many hands, and compare means.

    python bench/hands_instructions.py [--hands N] [--peer-hands N] [--warm-up N]

Needs valgrind. Takes a few minutes: callgrind runs some 50 times slower than the processor.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import sys
sys.path.insert(0, {bench!r})
import hands
play = hands.croupier_hands if sys.argv[1] == "croupier" else hands.pokerkit_hands
play(int(sys.argv[2]), 1)
if int(sys.argv[3]):
    play(int(sys.argv[3]), 2)
"""


def instructions(engine: str, warm_up: int, hands: int) -> int:
    """Instructions callgrind counts for a whole child process."""
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder, "play.py")
        script.write_text(CHILD.format(bench=str(Path(__file__).parent)), encoding="utf-8")
        done = subprocess.run(
            [
                "valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/out",
                sys.executable, str(script), engine, str(warm_up), str(hands),
            ],
            capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},  # the same string hashes every run
        )  # fmt: skip
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{done.stderr}")
    return int(found.group(1))


def per_hand(engine: str, warm_up: int, hands: int) -> float:
    return (instructions(engine, warm_up, hands) - instructions(engine, warm_up, 0)) / hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=6_000)
    parser.add_argument("--peer-hands", type=int, default=400)
    parser.add_argument("--warm-up", type=int, default=300)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: use bench/hands.py --rounds R instead")
    ours = per_hand("croupier", args.warm_up, args.hands)
    print(f"croupier  {ours:>12,.0f} instructions a hand  ({args.hands:,} hands)")
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        print("pokerkit  not installed")
        return
    theirs = per_hand("pokerkit", args.warm_up // 10, args.peer_hands)
    print(f"pokerkit  {theirs:>12,.0f} instructions a hand  ({args.peer_hands:,} hands)")
    print(f"ratio     {theirs / ours:>12.1f}x  (target: at least 40x)")


if __name__ == "__main__":
    main()
