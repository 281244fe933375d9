"""The reinforcement-learning environments: PettingZoo's and Gymnasium's own checks, for every
game, and observations that hold exactly what a seat may see."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from croupier.env import BET_ACTIONS, PokerEnv, PokerGymEnv
from croupier.games import GAMES
from croupier.hand import Phase

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game", sorted(GAMES))
def test_pettingzoo_api_test_passes_for_every_game(game: str) -> None:
    api_test(PokerEnv(game=game, players=3), num_cycles=300)


@pytest.mark.parametrize("rulebook", ["au-casino", "rws", "qld", "cardroom", "league"])
def test_pettingzoo_api_test_passes_under_every_rulebook_with_continuous_bets(
    rulebook: str,
) -> None:
    api_test(PokerEnv(rulebook=rulebook, players=4, bet_sizes="continuous"), num_cycles=300)


def test_the_action_mask_is_the_engines_legal_actions() -> None:
    env = PokerEnv(game="holdem", players=3)
    rng = random.Random(1)
    for episode in range(40):
        env.reset(seed=episode)
        for agent in env.agent_iter():
            observation, _, done, _, _ = env.last()
            if done:
                env.step(None)
                continue
            hand = env.hand
            assert hand is not None and hand.phase is not Phase.OVER
            legal = hand.legal()
            mask = observation["action_mask"]
            assert bool(mask[0]) == (legal.can_fold and not legal.can_check)
            assert bool(mask[1]) == (legal.can_check or legal.call > 0)
            assert bool(mask[2:6].any()) == (legal.raise_range is not None)
            for other in env.agents:  # nobody else may act now
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            env.step(int(rng.choice(np.flatnonzero(mask))))


def test_an_observation_holds_the_seats_own_cards_and_nobody_elses() -> None:
    env = PokerEnv(game="stud7", players=4)
    env.reset(seed=3)
    hand = env.hand
    assert hand is not None
    for agent in env.agents:
        player = env.player_of(agent)
        seen = np.flatnonzero(env.observe(agent)["observation"][:52])
        assert sorted(seen) == sorted(int(card) for card in hand.hole[player])
        others = {int(c) for p in range(4) if p != player for c in hand.hole[p]}
        cards = np.flatnonzero(env.observe(agent)["observation"][: 52 * 6])
        assert not others & {int(c) % 52 for c in cards if c >= 52}  # up cards only are public


def test_rewards_are_the_chips_won_in_big_blinds_and_sum_to_zero() -> None:
    env = PokerEnv(game="omaha", players=3, stack=50)
    rng = random.Random(2)
    for episode in range(30):
        env.reset(seed=episode)
        total = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, done, _, _ = env.last()
            total[agent] += reward
            env.step(None if done else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        assert abs(sum(total.values())) < 1e-9
        hand = env.hand
        assert hand is not None
        for agent in env.possible_agents:
            won = hand.stacks[env.player_of(agent)] - env.stack
            assert total[agent] == won / env.big_blind


def test_the_button_moves_every_hand() -> None:
    env = PokerEnv(players=3)
    buttons = []
    for episode in range(6):
        env.reset(seed=7 if episode == 0 else None)
        buttons.append(env.agent_of(2))
    assert buttons == ["player_0", "player_1", "player_2"] * 2


def test_draw_games_offer_one_action_per_set_of_cards_to_throw() -> None:
    env = PokerEnv(game="draw27", players=2)
    assert env.action_space("player_0").n == len(BET_ACTIONS) + 32  # type: ignore[attr-defined]
    env.reset(seed=1)
    for _agent in env.agent_iter():
        observation, _, done, _, _ = env.last()
        if done:
            env.step(None)
            continue
        if env.hand is not None and env.hand.drawing:
            assert observation["action_mask"][len(BET_ACTIONS) :].all()
            assert not observation["action_mask"][: len(BET_ACTIONS)].any()
        env.step(int(np.flatnonzero(observation["action_mask"])[-1]))


def test_bad_settings_and_masked_actions_are_errors() -> None:
    with pytest.raises(ValueError, match="2 to 10 players, not 11"):
        PokerEnv(players=11)
    with pytest.raises(ValueError, match="'discrete' or 'continuous'"):
        PokerEnv(bet_sizes="big")
    env = PokerEnv(players=2)
    env.reset(seed=4)
    env.step(1)  # the button calls: the big blind may check, so folding is masked out
    assert not env.observe(env.agent_selection)["action_mask"][0]
    with pytest.raises(ValueError, match="masked out"):
        env.step(0)


def test_the_gymnasium_wrapper_passes_gymnasiums_checker() -> None:
    env = PokerGymEnv(opponents=("calling", "random"), players=3)
    check_env(env, skip_render_check=True)
    observation, _ = env.reset(seed=5)
    rewards = []
    for _ in range(200):
        mask = observation["action_mask"]
        observation, reward, done, _, _ = env.step(int(np.flatnonzero(mask)[0]))
        if done:
            rewards.append(reward)
            observation, _ = env.reset()
    assert rewards and all(isinstance(r, float) for r in rewards)


def test_the_self_play_example_runs_and_learns_to_beat_a_calling_station() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "selfplay.py"), "--seconds", "20", "--seed", "1"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    lines = dict(line.split(":", 1) for line in result.stdout.splitlines() if ":" in line)
    assert float(lines["trained"].split()[0]) > float(lines["untrained"].split()[0])
