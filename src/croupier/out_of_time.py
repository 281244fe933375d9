"""What a player loses when their time is up: the one out-of-time rule.

The terminal session (:meth:`croupier.session.Session.expire`), the card room's cash tables and
its tournament tables all ask :func:`out_of_time` what the clock does for a player who has not
acted in time, so that the move is the same everywhere and always one the engine accepts.

The rule, in order:

- At the draw, the player stands pat: which cards to throw is the player's choice alone, and
  standing pat is always allowed.
- Where checking is allowed, the player checks: nothing is given up that the player could keep
  (a round not yet opened; the big blind's option, or the draw's over-blind's, au 11.1(c)(iv),
  when nobody raised).
- Facing a bet, the hand is folded. On the clock, a hand facing a bet whose time runs out is
  dead (cardroom dead-hands 1(f)); the other books are silent on a player out of time, and the
  cardroom book fills the gap.
- A player who may neither check nor fold is an opener forced to open: the stud player showing
  the lowest up card (au 12.2(a) in five-card stud, 13.2(a) in seven-card stud). Where the table
  has a bring-in the opener posts it, the least the book lets them open for (cardroom betting
  16); else they bet the table minimum, the least bet the book allows (au 12.2(a), 13.2(a)), or
  all they have when that is less.

The function reads only what is legal (:class:`~croupier.betting.Legal`) and whether the player
is drawing; :func:`out_of_time_in` asks a hand for both.
"""

from __future__ import annotations

from croupier.betting import Legal
from croupier.bots import Action
from croupier.hand import Hand

__all__ = ["out_of_time", "out_of_time_in"]


def out_of_time(legal: Legal | None, *, drawing: bool = False) -> Action:
    """The action taken for the player to act whose time is up: stand pat at the draw; check
    where checking is allowed; else fold (cardroom dead-hands 1(f)); a forced opener who may do
    neither posts the bring-in (cardroom betting 16) or bets the least allowed (au 12.2(a),
    13.2(a)). ``legal``: what the player may do (None only while drawing)."""
    if drawing:
        return Action.draw()
    if legal is None:
        raise ValueError("out of time while betting: what is legal is needed")
    if legal.can_check:
        return Action.check_or_call()
    if legal.can_fold:
        return Action.fold()
    if legal.bring_in is not None:
        return Action.bring_in()
    if legal.raise_range is not None:
        return Action.bet_or_raise_to(legal.raise_range[0])
    return Action.check_or_call()  # a call the player may not fold (no book has one)


def out_of_time_in(hand: Hand) -> Action:
    """:func:`out_of_time` for the player to act in ``hand``."""
    drawing = hand.drawing
    return out_of_time(None if drawing else hand.legal(), drawing=drawing)
