"""Playing a tournament's hands with today's table engine and bots.

:class:`EngineHands` is a :class:`~croupier.tournament.interface.HandPlayer` built only on the
public API of ``croupier.table.Table`` (one table object per hand, the tournament keeping the
button and the blinds across hands), ``croupier.rulebooks`` and ``croupier.bots``. It is kept in
this one module so that it can be ported to the redesigned table engine (issue 14), which is to
take the forced bets as a value per hand. What today's engine cannot do, and how it is bridged:

- a dead button: the button is given to the last player dealt in, which deals the same order;
- a dead small blind (league 12): the hand's rules get a single blind, the big blind, posted by
  the first player dealt (the seat after the empty small-blind seat);
- the big-blind ante: the engine has per-player antes only, so a big-blind ante is not posted
  (:attr:`EngineHands.skipped_big_blind_antes` counts the hands); a per-player ante is;
- an absent player's hand mucked at the first card (league 27): the engine cannot kill a hand,
  so the absent player folds at their first turn, their blinds and antes posted (league 25);
  and a present player never folds when only absent players' hands are left against them (the
  pot is theirs: a dead hand cannot win it), checking or calling instead, which the absent
  player's fold then hands back. One difference remains: an absent player all in from their
  forced bets never has a turn to fold, so their hand stays live to the showdown.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from croupier.betting import Legal
from croupier.bots import Action, ActionKind, Bot, RandomBot, SeatView, play_hand
from croupier.deck import SeededShuffler
from croupier.hand import Rules
from croupier.rulebooks import load_rulebook
from croupier.table import Bust, BuyIn, Table
from croupier.tournament.interface import ForcedBets, HandResult, HandSetup

__all__ = ["AbsentPlayer", "EngineHands"]


class AbsentPlayer:
    """Stands in for an absent player: folds at the first chance (league 27)."""

    def act(self, view: SeatView, legal: Legal, rng: random.Random) -> Action:
        return Action.fold() if legal.can_fold else Action.check_or_call()

    def draw(self, view: SeatView, rng: random.Random) -> Action:
        return Action.draw()

    def __repr__(self) -> str:
        return "AbsentPlayer()"


class _FacingDeadHands:
    """A present player's bot that does not fold when only absent players' hands, which
    cannot win (league 27), are left against it."""

    def __init__(self, bot: Bot, absent: frozenset[int]) -> None:
        self.bot = bot
        self.absent = absent

    def act(self, view: SeatView, legal: Legal, rng: random.Random) -> Action:
        action = self.bot.act(view, legal, rng)
        others = view.opponents
        if action.kind is ActionKind.FOLD and others and all(p in self.absent for p in others):
            return Action.check_or_call()
        return action

    def draw(self, view: SeatView, rng: random.Random) -> Action:
        return self.bot.draw(view, rng)


class EngineHands:
    """Plays each hand with ``croupier.table.Table`` and bots (``bot_for(player)``, default a
    :class:`~croupier.bots.RandomBot` for everyone), under ``rulebook``'s no-limit hold'em."""

    def __init__(
        self, rulebook: str = "league", bot_for: Callable[[str], Bot] | None = None
    ) -> None:
        self.book = load_rulebook(rulebook)
        self.bot_for = bot_for if bot_for is not None else (lambda name: _RANDOM)
        self.hands = 0
        self.skipped_big_blind_antes = 0
        self.last_table: Table | None = None  # the last hand's table, for its events
        self._rules: dict[tuple[ForcedBets, bool], Rules] = {}

    def rules(self, forced: ForcedBets, dead_small_blind: bool) -> Rules:
        """The hand's rules: the book's no-limit hold'em at the level's blinds and ante."""
        key = (forced, dead_small_blind)
        rules = self._rules.get(key)
        if rules is None:
            rules = self.book.rules(
                "holdem",
                "no-limit",
                stakes=(forced.small_blind, forced.big_blind),
                ante=forced.ante,
                chip_unit=forced.chip_unit,
            )
            if dead_small_blind:
                rules = dataclasses.replace(rules, blinds=(forced.big_blind,))
            self._rules[key] = rules
        return rules

    def play(self, setup: HandSetup) -> HandResult:
        dead_small = setup.small_blind is None and not setup.heads_up
        table = Table(
            self.rules(setup.forced, dead_small),
            setup.table_size,
            buy_in=BuyIn(minimum=1),
            first_button=setup.seats[-1].seat,
            bust=Bust.LEAVE,
        )
        for seat in setup.seats:
            table.sit(seat.seat, seat.player, seat.chips)
        hand = table.start_hand(shuffler=SeededShuffler(setup.seed))
        absent = frozenset(i for i, seat in enumerate(setup.seats) if seat.absent)
        bots: list[Bot] = []
        for index, seat in enumerate(setup.seats):
            if table.seat_of(index) != seat.seat:  # the engine must deal in the tournament's order
                raise AssertionError(f"deal order {setup.seats} differs from the table's")
            bot = _ABSENT if seat.absent else self.bot_for(seat.player)
            bots.append(_FacingDeadHands(bot, absent) if absent and not seat.absent else bot)
        play_hand(hand, bots, random.Random(setup.seed))
        summary = table.finish_hand()
        self.hands += 1
        self.skipped_big_blind_antes += bool(setup.forced.big_blind_ante)
        self.last_table = table
        return HandResult(stacks=dict(summary.stacks))


_RANDOM = RandomBot()
_ABSENT = AbsentPlayer()
