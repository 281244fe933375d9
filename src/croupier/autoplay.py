"""Hands played out by bots as fast as the engine deals them (``croupier sim``; compiled with
mypyc like the engine, see setup.py).

Each bot decides from its seat's :class:`~croupier.bots.SeatView` at every turn, as
:meth:`croupier.session.Session.play_hand` gives it: the view is made from the player's log as
:class:`~croupier.views.SeatLogs` keeps it (the spectator's log, and the player's own versions
of the events it sees in full) and works its fields out only when the bot reads one, so a bot
that reads none of them (the random bot, the calling station) costs the hand little. Like every
view, it holds no reference to the hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from croupier import events as ev
from croupier.bots import Bot, SeatView
from croupier.hand import Hand
from croupier.views import SeatLogs

__all__ = ["play_out", "tally"]


def play_out(hand: Hand, starting: Sequence[int], bots: Sequence[Bot], rng: random.Random) -> None:
    """Play ``hand`` to the end, ``bots[player]`` deciding for each player from its own view;
    ``starting``: the stacks it was dealt with. Raises ``ValueError`` when the hand waits for
    the dealer (a hand dealt step by step)."""
    logs = SeatLogs()
    events = hand.events
    rules = hand.rules
    while not hand.over:
        to_act = hand.to_act
        if to_act is None:
            raise ValueError("the hand waits for the dealer: bots play hands that deal themselves")
        player: int = to_act
        logs.update(events)
        drawing = hand.drawing
        view = SeatView.from_log(
            player, rules, starting, logs.public, logs.own(player), to_act=player,
            drawing=drawing, reducer=logs.reducer(player),
        )  # fmt: skip
        bot = bots[player]
        action = bot.draw(view, rng) if drawing else bot.act(view, hand.legal(), rng)
        action.apply(hand)


def tally(hand: Hand) -> tuple[int, bool]:
    """A finished hand's rake, and whether any hand was shown."""
    rake = 0
    shown = False
    for event in hand.events:
        if isinstance(event, ev.Rake):
            rake += event.amount
        elif isinstance(event, ev.Show):
            shown = True
    return rake, shown
