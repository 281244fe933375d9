"""Reinforcement-learning environments: every game under every rulebook, as PettingZoo and
Gymnasium expect them.

:class:`PokerEnv` is a PettingZoo AEC environment: one episode is one hand, the agents
``player_0`` .. ``player_{n-1}`` take turns as the engine asks, and each observes exactly what its
seat may see (its :class:`~croupier.views.HandView`, encoded as numbers), with an action mask from
the engine's legal actions. The button moves one seat every hand, so that no agent keeps a
position. Bet sizes are discrete (a minimum raise, half the pot, the pot, all-in) or continuous
(any size in the legal range). :class:`PokerGymEnv` is the Gymnasium single-agent view of the
same game: one seat learns, croupier's bots play the others.

Rewards are the chips won or lost in the hand, in big blinds, given at its end. Needs the
``env`` extra: ``pip install "croupier[env]"``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from croupier.betting import IllegalAction, Legal
from croupier.bots import Bot, CallingStation, RandomBot, SeatView, StrengthBot
from croupier.cards import Card
from croupier.deck import Deck, SeededShuffler
from croupier.hand import Hand, Rules
from croupier.views import HandView, view

__all__ = ["BET_ACTIONS", "PokerEnv", "PokerGymEnv", "encode"]

BET_ACTIONS = ("fold", "check or call", "minimum", "half pot", "pot", "all-in")
"""The discrete betting actions; draw games add one action per set of cards to throw."""

_FOLD, _CALL, _MIN, _HALF, _POT, _ALL = range(len(BET_ACTIONS))
_BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "calling": CallingStation,
    "strength": StrengthBot,
}


def _rules(rules: Rules | None, rulebook: str | None, game: str, structure: str | None) -> Rules:
    if rules is not None:
        return rules
    from croupier.rulebooks.tables import book_rules, house_rules

    if rulebook is not None:
        return book_rules(rulebook, game, structure, "1/2")
    return house_rules(game, structure or "no-limit", "1/2")


def _draw_cards(rules: Rules) -> int:
    """How many cards a draw game lets a player throw (0: no draw)."""
    if not any(street.draw for street in rules.game.streets):
        return 0
    return sum(street.hole for street in rules.game.streets)


def encode(seen: HandView, players: int, total: int) -> npt.NDArray[np.float32]:
    """A seat's view as numbers: its own cards, the board, every player's face-up cards (one-hot
    by card code), then per player the stack, this round's bet and the pot share (as fractions
    of all chips), folded, all-in and to act; the round, whether a draw is on, and the seat."""
    me = seen.viewer
    parts = [_cards([c for c in seen.hole[me] if c is not None]), _cards(seen.board)]
    parts += [_cards(seen.up[p]) for p in range(players)]
    table = np.zeros((players, 6), np.float32)
    for p in range(players):
        table[p] = (
            seen.stacks[p] / total,
            seen.bets[p] / total,
            seen.contributed[p] / total,
            seen.folded[p],
            seen.stacks[p] == 0 and not seen.folded[p],
            seen.to_act == p,
        )
    rounds = np.zeros(6, np.float32)
    rounds[min(max(seen.street, 0), 5)] = 1
    seat = np.zeros(players, np.float32)
    seat[me] = 1
    flags = np.array([seen.pot / total, seen.drawing], np.float32)
    return np.concatenate([*parts, table.ravel(), rounds, seat, flags])


def _cards(cards: Sequence[Card]) -> npt.NDArray[np.float32]:
    out = np.zeros(52, np.float32)
    for card in cards:
        out[int(card)] = 1
    return out


class PokerEnv(AECEnv):  # type: ignore[misc]
    """Hands of poker as a PettingZoo AEC environment (see the module notes)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "croupier_poker_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        rulebook: str | None = None,
        game: str = "holdem",
        structure: str | None = None,
        players: int = 2,
        stack: int = 100,
        bet_sizes: str = "discrete",
        render_mode: str | None = None,
    ) -> None:
        """``rules`` (or ``rulebook``, ``game`` and ``structure``, at stakes 1/2); ``stack``:
        each player's chips at the start of every hand, in big blinds; ``bet_sizes``:
        ``"discrete"`` or ``"continuous"``."""
        super().__init__()
        if bet_sizes not in ("discrete", "continuous"):
            raise ValueError(f"bet_sizes is 'discrete' or 'continuous', not {bet_sizes!r}")
        self.rules = _rules(rules, rulebook, game, structure)
        most = self.rules.game.max_players[self.rules.deck]
        if not 2 <= players <= most:
            raise ValueError(f"{self.rules.game.name} takes 2 to {most} players, not {players}")
        self.players = players
        self.big_blind = self.rules.betting.small_bet
        self.stack = stack * self.big_blind
        self.continuous = bet_sizes == "continuous"
        self.render_mode = render_mode
        self.throws = _draw_cards(self.rules)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = list(self.possible_agents)
        kinds = len(BET_ACTIONS) + (1 << self.throws if self.throws else 0)
        self._kinds = kinds
        size = 52 * (2 + players) + 6 * players + 6 + players + 2
        fields: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(0.0, 1.0, (size,), np.float32)
        }
        if not self.continuous:  # continuous: the mask of the action's kind is in the infos
            fields["action_mask"] = spaces.Box(0, 1, (kinds,), np.int8)
        observation = spaces.Dict(fields)
        if self.continuous:
            action: spaces.Space[Any] = spaces.Tuple(
                (spaces.Discrete(kinds), spaces.Box(0.0, 1.0, (1,), np.float32))
            )
        else:
            action = spaces.Discrete(kinds)
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: action for agent in self.possible_agents}
        self._rng = random.Random()
        self._button = players - 1
        self.hand: Hand | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the episode ----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng.seed(seed)
            self._button = self.players - 1
        self._button = (self._button + 1) % self.players
        self.agents = list(self.possible_agents)
        deck = Deck.shuffled(self.rules.deck, SeededShuffler(self._rng.getrandbits(64)))
        self.hand = Hand(self.rules, [self.stack] * self.players, deck)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._after_action()

    def player_of(self, agent: str) -> int:
        """The agent's index in this hand's deal order (the button moves every hand)."""
        seat = self.possible_agents.index(agent)
        return (seat - self._button - 1) % self.players

    def agent_of(self, player: int) -> str:
        return self.possible_agents[(player + self._button + 1) % self.players]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        hand = self._current()
        seen = view(hand, self.player_of(agent))
        observation = encode(seen, self.players, self.players * self.stack)
        if self.continuous:
            return {"observation": observation}
        return {"observation": observation, "action_mask": self._mask(agent)}

    def _mask(self, agent: str) -> npt.NDArray[np.int8]:
        """The actions legal for ``agent`` now (none when it is not their turn)."""
        hand = self._current()
        mask = np.zeros(self._kinds, np.int8)
        if not hand.over and hand.to_act == self.player_of(agent):
            mask[self._legal_kinds(hand)] = 1
        return mask

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        hand = self._current()
        self._apply(hand, action)
        self._cumulative_rewards[agent] = 0
        self._after_action()

    def _after_action(self) -> None:
        hand = self._current()
        if hand.over:
            for player in range(self.players):
                agent = self.agent_of(player)
                self.rewards[agent] = (hand.stacks[player] - self.stack) / self.big_blind
                self.terminations[agent] = True
            self.agent_selection = self.agent_of(self.players - 1)
        else:
            assert hand.to_act is not None
            self.agent_selection = self.agent_of(hand.to_act)
        if self.continuous:  # the kind's mask, and none on the size (a Tuple space's masks)
            for agent in self.agents:
                self.infos[agent] = {"action_mask": (self._mask(agent), None)}
        self._accumulate_rewards()

    def _current(self) -> Hand:
        if self.hand is None:
            raise RuntimeError("call reset() before using the environment")
        return self.hand

    # --- actions --------------------------------------------------------------------------

    def _legal_kinds(self, hand: Hand) -> list[int]:
        if hand.drawing:
            held = len(hand.hole[hand.to_act or 0])
            return [len(BET_ACTIONS) + m for m in range(1 << self.throws) if m < 1 << held]
        legal = hand.legal()
        kinds = [_CALL] if legal.can_check or legal.call else []
        if legal.can_fold and not legal.can_check:
            kinds.append(_FOLD)
        if legal.raise_range is not None:
            kinds += [_MIN, _HALF, _POT, _ALL]
        return kinds

    def _apply(self, hand: Hand, action: Any) -> None:
        kind, size = (
            (int(action[0]), float(action[1][0])) if self.continuous else (int(action), -1.0)
        )
        if kind not in self._legal_kinds(hand):
            raise IllegalAction(f"action {kind} is masked out now: legal {self._legal_kinds(hand)}")
        if kind >= len(BET_ACTIONS):
            pattern = kind - len(BET_ACTIONS)
            cards = hand.hole[hand.to_act or 0]
            hand.draw([card for i, card in enumerate(cards) if pattern >> i & 1])
            return
        legal = hand.legal()
        if kind == _FOLD:
            hand.fold()
        elif kind == _CALL:
            hand.check_or_call()
        else:
            hand.bet_or_raise_to(self._raise_to(hand, legal, kind, size))

    @staticmethod
    def _raise_to(hand: Hand, legal: Legal, kind: int, size: float) -> int:
        assert legal.raise_range is not None
        low, high = legal.raise_range
        if size >= 0:  # continuous: a fraction of the legal range
            return legal.snap(low + round(size * (high - low)))
        pot_after_call = hand.pot + legal.call
        wanted = {
            _MIN: low,
            _HALF: legal.facing + pot_after_call // 2,
            _POT: legal.facing + pot_after_call,
            _ALL: high,
        }[kind]
        return legal.snap(wanted)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.hand is None:
            return None
        return repr(self.hand)

    def close(self) -> None:
        self.hand = None


class PokerGymEnv(gymnasium.Env[dict[str, npt.NDArray[Any]], Any]):
    """One seat of :class:`PokerEnv` as a Gymnasium environment; croupier's bots play the others
    (``opponents``: bot kinds ``random``, ``calling``, ``strength``, one per seat, in turn)."""

    def __init__(self, *, opponents: Sequence[str] = ("calling",), **kwargs: Any) -> None:
        self.metadata = {"render_modes": ["ansi"]}
        unknown = [kind for kind in opponents if kind not in _BOTS]
        if unknown or not opponents:
            raise ValueError(f"opponents are some of {', '.join(_BOTS)}, not {list(opponents)}")
        self.poker = PokerEnv(**kwargs)
        self.learner = self.poker.possible_agents[0]
        self.bots: dict[str, Bot] = {
            agent: _BOTS[opponents[i % len(opponents)]]()
            for i, agent in enumerate(self.poker.possible_agents[1:])
        }
        self.observation_space = self.poker.observation_space(self.learner)
        self.action_space = self.poker.action_space(self.learner)
        self._rng = random.Random()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng.seed(seed)
        self.poker.reset(seed=seed)
        self._bots_act()
        return self.poker.observe(self.learner), {}

    def step(
        self, action: Any
    ) -> tuple[dict[str, npt.NDArray[Any]], float, bool, bool, dict[str, Any]]:
        self.poker.step(action)
        self._bots_act()
        done = self.poker.terminations[self.learner]
        reward = self.poker.rewards[self.learner] if done else 0.0
        return self.poker.observe(self.learner), float(reward), done, False, {}

    def _bots_act(self) -> None:
        poker = self.poker
        hand = poker._current()
        while not hand.over and poker.agent_selection != self.learner:
            bot = self.bots[poker.agent_selection]
            player = hand.to_act
            assert player is not None
            seen = SeatView.of(hand, player)
            act = (
                bot.draw(seen, self._rng)
                if hand.drawing
                else bot.act(seen, hand.legal(), self._rng)
            )
            act.apply(hand)
            poker._after_action()
