"""Playing a tournament's hands with the hand engine and bots.

:class:`EngineHands` deals each hand as a :class:`croupier.hand.Hand` under the league book's
no-limit hold'em at the level's stakes, with the tournament's own forced bets
(:func:`hand_forced_bets`) in the tournament's deal order: the small blind only when it is due
to somebody, the big blind from the seat that owes it, the button where the tournament put it,
dead or not (league 12), a per-player ante, or a big-blind ante as dead money. No table object
is kept between hands: the tournament keeps the seats, the button and the blinds. Bots decide
from a :class:`~croupier.bots.SeatView` built from the hand's log as their seat may see it
(:func:`croupier.views.view`), which holds no reference to the hand.

Absent players (league 25, 27; a penalty, league 35) are dealt in and their forced bets posted
from their own stacks; their hands are killed at the first card (``Hand.kill_hand``), so they
take no action and win nothing, not even when all in from the forced bets. The last live hand
wins what the dead ones put in. A killed hand is a floor's correction, which PHH cannot record:
such hands are kept as croupier's event log.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from croupier.bots import Action, Bot, RandomBot, SeatView
from croupier.deck import SeededShuffler
from croupier.forced import Blind
from croupier.forced import ForcedBets as HandForcedBets
from croupier.hand import Hand, Rules
from croupier.rulebooks import load_rulebook
from croupier.tournament.interface import ForcedBets, HandResult, HandSetup

__all__ = ["DealtHand", "EngineHands", "hand_forced_bets"]


def hand_forced_bets(setup: HandSetup) -> HandForcedBets:
    """The hand's forced bets, players numbered in the setup's deal order (the first seat after
    the button is 0): the per-player ante from everyone, or the big-blind ante from the big blind
    as dead money, which every player in the hand may win; then the small blind, when it is
    posted, and the big blind (league 12). A big blind too short for both posts the blind first
    and the rest as ante (the usual tournament practice; the league book is silent)."""
    level = setup.forced
    index = {seat.seat: player for player, seat in enumerate(setup.seats)}
    big = index[setup.big_blind]
    antes: tuple[int, ...] = ()
    if level.ante:
        antes = (level.ante,) * len(setup.seats)
    elif level.big_blind_ante:
        short = max(0, setup.seats[big].chips - level.big_blind)
        antes = tuple(
            min(level.big_blind_ante, short) if player == big else 0
            for player in range(len(setup.seats))
        )
    blinds = [Blind(big, level.big_blind)]
    if setup.small_blind is not None:
        blinds.insert(0, Blind(index[setup.small_blind], level.small_blind))
    return HandForcedBets(antes, blinds, dead_antes=bool(level.big_blind_ante))


@dataclass
class DealtHand:
    """One tournament hand in play: the engine's hand, the setup it was dealt from, and the bots
    of its players (in deal order). :meth:`step` plays one decision; :meth:`result` gives the
    chips back to the tournament once the hand is over."""

    setup: HandSetup
    hand: Hand
    bots: tuple[Bot | None, ...]  # None for an absent player
    rng: random.Random
    absent: frozenset[int] = field(default_factory=frozenset)  # players, in deal order

    @property
    def over(self) -> bool:
        return self.hand.over

    def seat_of(self, player: int) -> int:
        """The seat of the hand's ``player`` (deal order)."""
        return self.setup.seats[player].seat

    def step(self) -> Action:
        """The player to act decides and acts; returns what they did."""
        hand = self.hand
        player = hand.to_act
        if player is None:
            raise ValueError(f"nobody is to act: {hand!r}")
        action = self._decide(player)
        action.apply(hand)
        return action

    def _decide(self, player: int) -> Action:
        hand = self.hand
        seen = SeatView.of(hand, player)
        bot = self.bots[player]
        if bot is None:  # absent: the hand was killed at the first card (league 27)
            raise ValueError(f"p{player + 1} is absent and has no hand to play: {hand!r}")
        if hand.drawing:
            return bot.draw(seen, self.rng)
        return bot.act(seen, hand.legal(), self.rng)

    def result(self) -> HandResult:
        """Every dealt seat's chips after the hand."""
        if not self.over:
            raise ValueError(f"the hand is not over: {self.hand!r}")
        seats = self.setup.seats
        return HandResult({seats[p].seat: chips for p, chips in enumerate(self.hand.stacks)})


class EngineHands:
    """Plays each hand with the hand engine and bots (``bot_for(player)``, default a
    :class:`~croupier.bots.RandomBot` for everyone), under ``rulebook``'s no-limit hold'em.
    ``on_hand(dealt)`` is told of each hand once it is over (to save it, for instance)."""

    def __init__(
        self,
        rulebook: str = "league",
        bot_for: Callable[[str], Bot] | None = None,
        on_hand: Callable[[DealtHand], None] | None = None,
    ) -> None:
        self.rulebook = rulebook
        self.book = load_rulebook(rulebook)
        self.bot_for = bot_for if bot_for is not None else (lambda name: _RANDOM)
        self.on_hand = on_hand
        self.hands = 0
        self.last: DealtHand | None = None  # the last hand dealt
        self._rules: dict[ForcedBets, Rules] = {}

    def options(self, level: ForcedBets) -> dict[str, object]:
        """The house options of the book's rules for ``level`` (``Rulebook.rules`` keywords)."""
        return {"ante": level.ante, "chip_unit": level.chip_unit}

    def rules(self, level: ForcedBets) -> Rules:
        """The hand's rules: the book's no-limit hold'em at the level's blinds, in multiples of
        the smallest chip in play (league 18). The forced bets are the hand's own."""
        rules = self._rules.get(level)
        if rules is None:
            rules = self.book.rules(
                "holdem",
                "no-limit",
                stakes=(level.small_blind, level.big_blind),
                ante=level.ante,
                chip_unit=level.chip_unit,
            )
            self._rules[level] = rules
        return rules

    def deal(self, setup: HandSetup) -> DealtHand:
        """Deal ``setup``'s hand: the forced bets posted, the hole cards dealt."""
        hand = Hand(
            self.rules(setup.forced),
            [seat.chips for seat in setup.seats],
            forced=hand_forced_bets(setup),
            shuffler=SeededShuffler(setup.seed),
        )
        absent = frozenset(p for p, seat in enumerate(setup.seats) if seat.absent)
        for player in sorted(absent):  # mucked at the first card (league 27)
            if hand.can_kill_hand(player):  # not once the hand is over: its last hand won
                hand.kill_hand(player)
        bots = tuple(None if seat.absent else self.bot_for(seat.player) for seat in setup.seats)
        dealt = DealtHand(setup, hand, bots, random.Random(setup.seed), absent)
        self.last = dealt
        return dealt

    def finish(self, dealt: DealtHand) -> HandResult:
        """The chips after ``dealt`` (over), after telling ``on_hand``."""
        result = dealt.result()
        self.hands += 1
        if self.on_hand is not None:
            self.on_hand(dealt)
        return result

    def play(self, setup: HandSetup) -> HandResult:
        dealt = self.deal(setup)
        while not dealt.over:
            dealt.step()
        return self.finish(dealt)


_RANDOM = RandomBot()
