"""Everything that happens in a hand is one of these frozen records, appended to its log.

The log feeds hand histories, per-seat views and replays; nothing is derived twice. Players are
numbered in deal order: 0 is the first seat left of the button, the last is the button. Each
record writes its ``__init__`` out so that the compiled engine makes it natively (see
:mod:`croupier.frozen`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from croupier.cards import Card, format_cards
from croupier.frozen import Frozen

__all__ = [
    "HOUSE",
    "SPECTATOR",
    "Announce",
    "Bet",
    "BringIn",
    "Burn",
    "Call",
    "Check",
    "Collect",
    "DealBoard",
    "DealHole",
    "DealUp",
    "Draw",
    "Event",
    "Fold",
    "HandOver",
    "Muck",
    "PostAnte",
    "PostBlind",
    "PostDead",
    "Rake",
    "Reshuffle",
    "ReturnUncalled",
    "RoundEnd",
    "Show",
    "StreetStart",
]


SPECTATOR: Final = -1
"""The viewer who sees no hidden card: a player's own cards and the burns stay hidden."""
HOUSE: Final = -2
"""The viewer who sees every card: the house's record, only ever asked for by name."""


@dataclass(frozen=True, slots=True)
class Event(Frozen):
    def visible_to(self, viewer: object) -> Event:
        """The event as ``viewer`` may see it: a player (their index), :data:`SPECTATOR` or
        :data:`HOUSE`. Anything else sees no hidden card (typed ``object`` so that the compiled
        and the pure-Python engine answer the same for any input)."""
        return self


@dataclass(frozen=True, slots=True)
class PostAnte(Event):
    player: int
    amount: int
    dead: bool = False  # dead money in the main pot rather than the player's contribution

    def __init__(self, player: int, amount: int, dead: bool = False) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "dead", dead)


@dataclass(frozen=True, slots=True)
class PostBlind(Event):
    player: int
    amount: int
    all_in: bool = False

    def __init__(self, player: int, amount: int, all_in: bool = False) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "all_in", all_in)


@dataclass(frozen=True, slots=True)
class PostDead(Event):
    """A blind posted as dead money: it goes to the pot and is no part of the player's bet (a
    missed small blind made up on return)."""

    player: int
    amount: int

    def __init__(self, player: int, amount: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "amount", amount)


@dataclass(frozen=True, slots=True)
class BringIn(Event):
    """A stud opener's forced bet under the minimum (cardroom betting 16)."""

    player: int
    amount: int
    all_in: bool = False

    def __init__(self, player: int, amount: int, all_in: bool = False) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "all_in", all_in)


@dataclass(frozen=True, slots=True)
class DealHole(Event):
    player: int
    cards: tuple[Card | None, ...]  # None: hidden from the viewer

    def __init__(self, player: int, cards: tuple[Card | None, ...]) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "cards", cards)

    def visible_to(self, viewer: object) -> Event:
        if viewer == self.player or viewer == HOUSE:
            return self
        return DealHole(self.player, (None,) * len(self.cards))

    def __str__(self) -> str:
        return f"deal p{self.player + 1} {format_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class DealUp(Event):
    """Cards dealt face up to one player (stud): everyone sees them."""

    player: int
    cards: tuple[Card, ...]

    def __init__(self, player: int, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True)
class Draw(Event):
    """A player discards and receives replacements (draw poker, au 11.3)."""

    player: int
    discarded: tuple[Card | None, ...]
    drawn: tuple[Card | None, ...]

    def __init__(
        self, player: int, discarded: tuple[Card | None, ...], drawn: tuple[Card | None, ...]
    ) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "discarded", discarded)
        object.__setattr__(self, "drawn", drawn)

    def visible_to(self, viewer: object) -> Event:
        if viewer == self.player or viewer == HOUSE:
            return self
        hidden = (None,)
        return Draw(self.player, hidden * len(self.discarded), hidden * len(self.drawn))


@dataclass(frozen=True, slots=True)
class Reshuffle(Event):
    """Burned or discarded cards shuffled back to complete a deal (au 11.3(b), 12.4(a))."""

    cards: int  # how many cards the new stub holds

    def __init__(self, cards: int) -> None:
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True)
class Burn(Event):
    card: Card | None

    def __init__(self, card: Card | None) -> None:
        object.__setattr__(self, "card", card)

    def visible_to(self, viewer: object) -> Event:
        return self if viewer == HOUSE else Burn(None)


@dataclass(frozen=True, slots=True)
class DealBoard(Event):
    cards: tuple[Card, ...]

    def __init__(self, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True)
class StreetStart(Event):
    index: int  # betting round, 0-based

    def __init__(self, index: int) -> None:
        object.__setattr__(self, "index", index)


@dataclass(frozen=True, slots=True)
class RoundEnd(Event):
    """A betting round is over: its bets go into the pot."""

    index: int  # betting round, 0-based

    def __init__(self, index: int) -> None:
        object.__setattr__(self, "index", index)


@dataclass(frozen=True, slots=True)
class Fold(Event):
    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


@dataclass(frozen=True, slots=True)
class Check(Event):
    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


@dataclass(frozen=True, slots=True)
class Call(Event):
    player: int
    amount: int  # chips added
    all_in: bool = False

    def __init__(self, player: int, amount: int, all_in: bool = False) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "all_in", all_in)


@dataclass(frozen=True, slots=True)
class Bet(Event):
    """A bet or raise to ``to`` chips for the round."""

    player: int
    to: int
    amount: int  # chips added
    all_in: bool = False
    full: bool = True  # False: a short all-in that does not reopen the betting

    def __init__(
        self, player: int, to: int, amount: int, all_in: bool = False, full: bool = True
    ) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "all_in", all_in)
        object.__setattr__(self, "full", full)


@dataclass(frozen=True, slots=True)
class ReturnUncalled(Event):
    player: int
    amount: int

    def __init__(self, player: int, amount: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "amount", amount)


@dataclass(frozen=True, slots=True)
class Show(Event):
    player: int
    cards: tuple[Card, ...]
    description: str

    def __init__(self, player: int, cards: tuple[Card, ...], description: str) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "description", description)


@dataclass(frozen=True, slots=True)
class Muck(Event):
    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


@dataclass(frozen=True, slots=True)
class Announce(Event):
    """What the dealer announces for a pot before paying it: its amount, the commission, the
    amount paid out and the winning hands (qld s26(3)(b)-(e), s27(8), s27(9)(a)-(d))."""

    pot: int  # pot index, 0 = main
    amount: int
    commission: int
    paid: int  # amount - commission
    winners: tuple[int, ...]
    hands: tuple[str, ...]  # the winning hands' descriptions; empty when uncontested

    def __init__(
        self,
        pot: int,
        amount: int,
        commission: int,
        paid: int,
        winners: tuple[int, ...],
        hands: tuple[str, ...],
    ) -> None:
        object.__setattr__(self, "pot", pot)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "commission", commission)
        object.__setattr__(self, "paid", paid)
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "hands", hands)


@dataclass(frozen=True, slots=True)
class Rake(Event):
    pot: int  # pot index, 0 = main
    amount: int
    base: int  # the amount the commission was computed on

    def __init__(self, pot: int, amount: int, base: int) -> None:
        object.__setattr__(self, "pot", pot)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "base", base)


@dataclass(frozen=True, slots=True)
class Collect(Event):
    pot: int
    player: int
    amount: int

    def __init__(self, pot: int, player: int, amount: int) -> None:
        object.__setattr__(self, "pot", pot)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "amount", amount)


@dataclass(frozen=True, slots=True)
class HandOver(Event):
    stacks: tuple[int, ...]

    def __init__(self, stacks: tuple[int, ...]) -> None:
        object.__setattr__(self, "stacks", stacks)
