"""The game loop at one table: whose turn it is, the clock, actions applied, what each seat sees.

A :class:`Session` drives a :class:`~croupier.table.Table` hand after hand. It holds no display
and no input: the terminal (:mod:`croupier.play`) renders a session, the server broadcasts one,
and bots act through it. The clock is injected and every deadline is an absolute time, so that a
server restarted in the middle of a turn keeps the same deadline. When a player's time and time
bank run out, :meth:`Session.expire` takes the action the engine's one out-of-time rule gives
(:mod:`croupier.out_of_time`): a check where one is allowed, else a fold; standing pat in a
draw; a stud opener who must open posts the bring-in or the least bet. Any player may call the
clock on the player to act (:meth:`Session.call_clock`): past it, a player facing a bet has a
dead hand (cardroom dead-hands 1(f)). At a table charged by time, each hand starts by collecting the
period's charge (au 8.2(c)).

Each seat's view is kept up to date event by event (:class:`croupier.views.Reducer`), so that
asking for it costs nothing, and holds no reference to the hand: a bot given it cannot reach any
card its seat may not see.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from croupier import events as ev
from croupier.betting import IllegalAction, Legal
from croupier.bots import Action, ActionKind, Bot, SeatView
from croupier.deck import Deck, Shuffler
from croupier.hand import Hand, Phase
from croupier.out_of_time import out_of_time
from croupier.pots import CommissionKind
from croupier.table import ClockCalled, ClockExpired, HandSummary, Table
from croupier.views import HOUSE, SPECTATOR, HandView, Reducer, check_viewer

__all__ = ["Ask", "Session", "SessionError", "Timing", "Turn"]


class SessionError(ValueError):
    """An action from the wrong seat, at the wrong time, or with no hand in progress."""


@dataclass(frozen=True)
class Timing:
    """How long a player may think: ``action`` seconds for each action, then a ``bank`` of
    seconds that lasts the whole session (the usual online time bank; no book sets one)."""

    action: float = 30.0
    bank: float = 60.0


@dataclass(frozen=True)
class Turn:
    """Who must act now: the seat, their index in the hand, whether they bet or draw, what is
    legal (betting), and the absolute time by which they must (their time bank included)."""

    seat: int
    player: int
    drawing: bool
    legal: Legal | None
    started: float
    deadline: float
    clocked: bool = False  # the clock was called: past the deadline a bet faced kills the hand


class Session:
    """One table's hands, played through one loop."""

    def __init__(
        self,
        table: Table,
        *,
        shuffler: Shuffler | None = None,
        clock: Callable[[], float] = time.time,
        timing: Timing | None = None,
    ) -> None:
        self.table = table
        self.shuffler = shuffler
        self.clock = clock
        self.timing = timing if timing is not None else Timing()
        self.banks: dict[int, float] = {}  # seconds of time bank left, per seat
        self._turn: Turn | None = None
        self._views: dict[int, Reducer] = {}  # per viewer (player index, SPECTATOR, HOUSE)
        self._fed: dict[int, int] = {}  # events each view has been fed

    # --- hands -----------------------------------------------------------------------------

    @property
    def hand(self) -> Hand | None:
        """The hand in progress, or the last one."""
        return self.table.hand

    def start_hand(self, deck: Deck | None = None) -> Hand:
        """Deal the next hand at the table, after collecting any time charge due (au 8.2(c):
        in advance, from every seated player)."""
        if self.table.rules.commission.kind is CommissionKind.TIME_CHARGE:
            self.table.charge_time(self.clock())
        hand = self.table.start_hand(deck, self.shuffler)
        self._views.clear()
        self._fed.clear()
        self._turn = None
        return hand

    def finish_hand(self) -> HandSummary:
        """Write the finished hand back to the table (:meth:`Table.finish_hand`)."""
        return self.table.finish_hand()

    def turn(self) -> Turn | None:
        """Who must act now, and by when; None between hands and at dealer steps."""
        hand = self.hand
        if hand is None or hand.over or hand.to_act is None:
            self._turn = None
            return None
        player = hand.to_act
        seat = self.table.seat_of(player)
        turn = self._turn
        if turn is None or turn.seat != seat or turn.drawing != hand.drawing:
            now = self.clock()
            bank = self.banks.setdefault(seat, self.timing.bank)
            legal = None if hand.drawing else hand.legal()
            turn = Turn(seat, player, hand.drawing, legal, now, now + self.timing.action + bank)
            self._turn = turn
        return turn

    def act(self, seat: int, action: Action) -> list[ev.Event]:
        """The player in ``seat`` acts; the events that follow (the engine's too). Raises
        :class:`SessionError` when it is not that seat's turn, and the engine's
        :class:`~croupier.betting.IllegalAction` naming the rule when the rules forbid it; either
        way nothing changes."""
        turn = self.turn()
        hand = self.hand
        if turn is None or hand is None:
            raise SessionError("nobody is to act: no hand is in progress, or the dealer is to deal")
        if seat != turn.seat:
            raise SessionError(f"it is seat {turn.seat}'s turn, not seat {seat}'s")
        before = len(hand.events)
        action.apply(hand)
        self._spend(turn)
        return hand.events[before:]

    def call_clock(self, seat: int, seconds: float) -> Turn:
        """The clock is called on the player in ``seat``, who must be the one to act: they have
        ``seconds`` from now (never more than their time left). Past it, facing a bet, their
        hand is dead (cardroom dead-hands 1(f), filling the other books' silence); not facing
        one, they check (a decision: the book kills only a hand facing a bet)."""
        turn = self.turn()
        if turn is None:
            raise SessionError("nobody is to act: the clock is called on the player to act")
        if seat != turn.seat:
            raise SessionError(f"the clock is called on the player to act, seat {turn.seat}")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds <= 0:
            raise SessionError(f"the clock runs a positive number of seconds, not {seconds!r}")
        deadline = min(turn.deadline, self.clock() + seconds)
        self._turn = Turn(
            turn.seat, turn.player, turn.drawing, turn.legal, turn.started, deadline, True
        )
        self.table.record_clock(ClockCalled(seat, seconds, deadline))
        return self._turn

    def expire(self) -> list[ev.Event]:
        """Past the deadline, the player to act loses the turn to the engine's one out-of-time
        rule (:func:`croupier.out_of_time.out_of_time`): stand pat at the draw, a check where
        allowed, else a fold; an opener who may do neither (au 12.2(a), 13.2(a)) posts the
        bring-in or the least bet. Nothing happens before the deadline. On the clock, the hand
        of a player facing a bet is dead (cardroom dead-hands 1(f)): it is folded."""
        turn = self.turn()
        if turn is None or self.clock() < turn.deadline:
            return []
        action = out_of_time(turn.legal, drawing=turn.drawing)
        if turn.clocked:
            self.table.record_clock(ClockExpired(turn.seat, action.kind is ActionKind.FOLD))
        return self.act(turn.seat, action)

    def _spend(self, turn: Turn) -> None:
        """What the player took beyond the action's time comes out of the time bank."""
        over = self.clock() - turn.started - self.timing.action
        if over > 0:
            self.banks[turn.seat] = max(0.0, self.banks.get(turn.seat, 0.0) - over)
        self._turn = None

    # --- what each seat sees -----------------------------------------------------------------

    def view(self, viewer: int) -> HandView:
        """The hand as ``viewer`` sees it: a seat number, :data:`~croupier.views.SPECTATOR` or
        :data:`~croupier.views.HOUSE`. What is legal goes to the seat whose turn it is."""
        hand = self.hand
        if hand is None:
            raise SessionError("no hand has been dealt at this table")
        player = viewer
        if viewer not in (SPECTATOR, HOUSE):
            index = self.table.player_of(viewer)
            if index is None:
                raise SessionError(f"seat {viewer} is not dealt into this hand")
            player = index
        check_viewer(player, hand.players)
        reducer = self._views.get(player)
        if reducer is None:
            reducer = self._views[player] = Reducer(hand.starting, player)
            self._fed[player] = 0
        for event in hand.events[self._fed[player] :]:
            reducer.apply(event if player == HOUSE else event.visible_to(player))
        self._fed[player] = len(hand.events)
        over = hand.over
        to_act = None if over else hand.to_act
        betting = hand.phase is Phase.BETTING and to_act is not None
        legal = hand.legal() if betting and player in (to_act, HOUSE) else None
        return reducer.snapshot(
            hand.rules, to_act=to_act, drawing=hand.drawing, step=hand.next_step(),
            legal=legal, over=over,
        )  # fmt: skip

    def seat_view(self, seat: int) -> SeatView:
        """A bot's view of its seat (:class:`~croupier.bots.SeatView`)."""
        return SeatView.from_view(self.view(seat))

    # --- bots --------------------------------------------------------------------------------

    def play_hand(
        self,
        bots: Mapping[int, Bot],
        rng: random.Random,
        *,
        ask: Ask | None = None,
        told: Callable[[Sequence[ev.Event]], None] | None = None,
    ) -> HandSummary:
        """Deal a hand and play it to the end: bots (by seat) decide from their seat's view;
        ``ask`` decides for every other seat (a person at the terminal), and is asked again,
        with the error, after an action the rules refuse; ``told`` hears every event as it
        happens."""
        hand = self.start_hand()
        if told is not None:
            told(hand.events)
        while (turn := self.turn()) is not None:
            bot = bots.get(turn.seat)
            if bot is not None:
                new = self.act(turn.seat, self._decide(bot, turn, rng))
            elif ask is not None:
                new = self._ask(turn, ask)
            else:
                raise SessionError(f"seat {turn.seat} has no bot and nobody to ask")
            if told is not None:
                told(new)
        return self.finish_hand()

    def _decide(self, bot: Bot, turn: Turn, rng: random.Random) -> Action:
        view = self.seat_view(turn.seat)
        if turn.drawing:
            return bot.draw(view, rng)
        assert turn.legal is not None
        return bot.act(view, turn.legal, rng)

    def _ask(self, turn: Turn, ask: Ask) -> list[ev.Event]:
        refused: IllegalAction | None = None
        while True:
            action = ask(turn, self.view(turn.seat), refused)
            try:
                return self.act(turn.seat, action)
            except IllegalAction as error:
                refused = error


Ask = Callable[[Turn, HandView, IllegalAction | None], Action]
"""Decides for a seat at its turn, given its view and the error of its last refused action."""
