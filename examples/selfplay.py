"""Learn to beat a calling station at heads-up no-limit hold'em, in under a minute.

A small tabular Monte Carlo learner plays one seat of croupier's Gymnasium environment
(`croupier.env.PokerGymEnv`); croupier's calling station plays the other. The learner sees only
its observation: its own cards and the board (the first 104 numbers), from which it makes a coarse
state (the betting round and how strong its hand is), and chooses among folding, checking or
calling, and betting the pot. It prints what a player choosing at random among the legal actions
wins, then what it wins after training, both in big blinds per 100 hands.

    python examples/selfplay.py [--seconds 30] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

import numpy as np

from croupier.cards import Card
from croupier.env import PokerGymEnv
from croupier.evaluate import Category, best_hand

ACTIONS = (0, 1, 4)  # fold, check or call, bet or raise the pot


def state(observation: dict[str, np.ndarray]) -> tuple[int, int]:
    """(betting round, strength 0-3) from the learner's own cards and the board."""
    vector = observation["observation"]
    hole = [Card(int(c)) for c in np.flatnonzero(vector[:52])]
    board = [Card(int(c)) for c in np.flatnonzero(vector[52:104])]
    if not board:
        high = sorted((card.rank for card in hole), reverse=True)
        pair = len(hole) == 2 and hole[0].rank == hole[1].rank
        return 0, 3 if pair and high[0] >= 8 else 2 if pair or high[1] >= 9 else 1 if high[
            0
        ] >= 10 else 0
    category = list(Category).index(best_hand(hole, board).category)  # 0: high card ...
    return len(board) - 2, min(3, category)


def legal(observation: dict[str, np.ndarray]) -> list[int]:
    mask = observation["action_mask"]
    return [a for a in ACTIONS if mask[a]] or [int(np.flatnonzero(mask)[0])]


def play(env: PokerGymEnv, hands: int, choose) -> float:  # type: ignore[no-untyped-def]
    """Big blinds won per 100 hands over ``hands`` hands."""
    won = 0.0
    for _ in range(hands):
        observation, _ = env.reset()
        done = False
        while not done:
            observation, reward, done, _, _ = env.step(choose(observation))
        won += reward
    return 100 * won / hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="time spent learning")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    env = PokerGymEnv(opponents=("calling",), players=2, stack=100)
    env.reset(seed=args.seed)

    untrained = play(env, 2000, lambda o: rng.choice(legal(o)))
    print(f"untrained: {untrained:+.1f} bb/100 (random legal actions, 2,000 hands)")

    value: dict[tuple[tuple[int, int], int], float] = defaultdict(float)
    visits: dict[tuple[tuple[int, int], int], int] = defaultdict(int)
    hands = 0
    stop = time.perf_counter() + args.seconds
    while time.perf_counter() < stop:
        observation, _ = env.reset()
        taken = []
        done = False
        while not done:
            options = legal(observation)
            here = state(observation)
            if rng.random() < 0.2:
                action = rng.choice(options)
            else:
                action = max(options, key=lambda a: value[(here, a)])
            taken.append((here, action))
            observation, reward, done, _, _ = env.step(action)
        for key in taken:  # every step of the hand shares its result (Monte Carlo)
            visits[key] += 1
            value[key] += (reward - value[key]) / visits[key]
        hands += 1

    def greedy(observation: dict[str, np.ndarray]) -> int:
        here = state(observation)
        return max(legal(observation), key=lambda a: value[(here, a)])

    trained = play(env, 2000, greedy)
    print(f"trained: {trained:+.1f} bb/100 (after {hands:,} hands of learning, 2,000 hands)")


if __name__ == "__main__":
    main()
