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
    "ActionHeld",
    "ActionVoided",
    "Announce",
    "Bet",
    "BoardAdded",
    "BringIn",
    "Burn",
    "Call",
    "CardGiven",
    "Check",
    "Collect",
    "DealBoard",
    "DealHole",
    "DealUp",
    "Discarded",
    "Discards",
    "Draw",
    "Event",
    "Exposed",
    "ExtraBurn",
    "Fold",
    "HandKilled",
    "HandOver",
    "HandVoided",
    "HeldResolved",
    "Muck",
    "PostAnte",
    "PostBlind",
    "PostDead",
    "PotCarried",
    "PotsAwarded",
    "Rake",
    "Reshuffle",
    "Restacked",
    "Restricted",
    "ReturnUncalled",
    "Revived",
    "RoundCapped",
    "RoundEnd",
    "RulingMade",
    "SetAside",
    "Show",
    "StreetStart",
    "StubReshuffled",
    "TreatedAllIn",
    "WagerCorrected",
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
class Discards(Event):
    """A drawing player's discards; the dealer's replacements follow (:class:`Draw`, which
    records both), at once or, in a hand dealt step by step, when the dealer gives them."""

    player: int
    cards: tuple[Card | None, ...]

    def __init__(self, player: int, cards: tuple[Card | None, ...]) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "cards", cards)

    def visible_to(self, viewer: object) -> Event:
        if viewer == self.player or viewer == HOUSE:
            return self
        return Discards(self.player, (None,) * len(self.cards))


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


# --- rulings: what a floor decided, and the corrections it applied (croupier.corrections) ----


@dataclass(frozen=True, slots=True)
class RulingMade(Event):
    """A ruling on a reported irregularity (croupier.irregularities): the situation, the clause
    of the book in force and how it was decided; the corrections it applied follow it in the log
    (``steps`` events). With ``choices`` and no ``choice`` it awaits a decision, which a later
    RulingMade with the ``choice`` records; while a ``blocking`` one waits, the hand refuses
    every player and dealer operation. ``player``: whose option a non-blocking choice is (au
    19.20)."""

    situation: str
    clause: str
    basis: str  # own | fill | decision | floor
    report: str  # the report, as the dealer assistant's command
    outcome: str
    choices: tuple[str, ...] = ()
    choice: str = ""
    blocking: bool = True
    player: int = -1
    steps: int = 0  # how many events after this one the ruling applied

    def __init__(
        self,
        situation: str,
        clause: str,
        basis: str,
        report: str,
        outcome: str,
        choices: tuple[str, ...] = (),
        choice: str = "",
        blocking: bool = True,
        player: int = -1,
        steps: int = 0,
    ) -> None:
        object.__setattr__(self, "situation", situation)
        object.__setattr__(self, "clause", clause)
        object.__setattr__(self, "basis", basis)
        object.__setattr__(self, "report", report)
        object.__setattr__(self, "outcome", outcome)
        object.__setattr__(self, "choices", choices)
        object.__setattr__(self, "choice", choice)
        object.__setattr__(self, "blocking", blocking)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "steps", steps)


@dataclass(frozen=True, slots=True)
class CardGiven(Event):
    """One card to a named player outside the street's deal (a replacement, a
    reconstruction); a folded seat's goes straight to the muck (au 19.12)."""

    player: int
    card: Card | None  # None: a card nobody saw, or hidden from the viewer
    up: bool = False

    def __init__(self, player: int, card: Card | None, up: bool = False) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "up", up)

    def visible_to(self, viewer: object) -> Event:
        if self.up or viewer == self.player or viewer == HOUSE:
            return self
        return CardGiven(self.player, None, self.up)


@dataclass(frozen=True, slots=True)
class ExtraBurn(Event):
    """A card burned by a ruling outside the deal's steps (later cards as if there had been no
    burn error, cardroom irregularities 16)."""

    card: Card | None

    def __init__(self, card: Card | None) -> None:
        object.__setattr__(self, "card", card)

    def visible_to(self, viewer: object) -> Event:
        return self if viewer == HOUSE else ExtraBurn(None)


@dataclass(frozen=True, slots=True)
class BoardAdded(Event):
    """Community cards a ruling deals outside the deal's steps, in the place of cards it took
    back (qld s35, au 19.26)."""

    cards: tuple[Card, ...]

    def __init__(self, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True)
class StubReshuffled(Event):
    """By a ruling, ``returned`` cards (from the board, the burns, set aside) go back into the
    stub, which is shuffled and cut (au 19.26-19.28, league 20); ``order``: the new stub, top
    first, the house's record only."""

    cards: int  # how many cards the new stub holds
    returned: tuple[Card | None, ...] = ()
    order: tuple[Card, ...] = ()

    def __init__(
        self, cards: int, returned: tuple[Card | None, ...] = (), order: tuple[Card, ...] = ()
    ) -> None:
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "returned", returned)
        object.__setattr__(self, "order", order)

    def visible_to(self, viewer: object) -> Event:
        return self if viewer == HOUSE else StubReshuffled(self.cards, self.returned, ())


@dataclass(frozen=True, slots=True)
class Exposed(Event):
    """A card became seen where it lies: by everyone (``to`` -1) or by one seat (show one).
    ``player``: whose face-down card it is, where the dealer had not seen it; ``stay_up``: the
    player's cards stay face up for the rest of the hand (league 26)."""

    card: Card | None  # None: shown to another seat, not to this viewer
    by: str = "dealer"  # dealer | player
    to: int = -1
    player: int = -1
    stay_up: bool = False

    def __init__(
        self,
        card: Card | None,
        by: str = "dealer",
        to: int = -1,
        player: int = -1,
        stay_up: bool = False,
    ) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "by", by)
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "stay_up", stay_up)

    def visible_to(self, viewer: object) -> Event:
        if self.to < 0 or viewer == HOUSE or viewer == self.to or _owns(viewer, self.player):
            return self
        return Exposed(None, self.by, self.to, self.player, self.stay_up)


@dataclass(frozen=True, slots=True)
class SetAside(Event):
    """A card taken from where it lay (a hand, the board, the burns, the stub) and kept as the
    next burn or the next community card (au 19.25, qld s34(2), s36(2))."""

    card: Card | None  # None: a card nobody saw, from ``player``'s hand
    role: str  # burn | board
    player: int = -1
    face_up: bool = False

    def __init__(
        self, card: Card | None, role: str, player: int = -1, face_up: bool = False
    ) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "role", role)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "face_up", face_up)

    def visible_to(self, viewer: object) -> Event:
        if self.face_up or viewer == HOUSE or self.card is None or _owns(viewer, self.player):
            return self
        return SetAside(None, self.role, self.player, self.face_up)


@dataclass(frozen=True, slots=True)
class Restacked(Event):
    """Cards put back on top of the stub, the first to be dealt next (a deal reconstructed).
    ``owners``: for each card, the player whose hand it left (-1: the board, the burns or the
    muck), so that every viewer can count each hand; ``public``: which were face up or exposed.
    A viewer sees named only its own cards and the public ones."""

    cards: tuple[Card | None, ...]
    owners: tuple[int, ...] = ()
    public: tuple[bool, ...] = ()

    def __init__(
        self,
        cards: tuple[Card | None, ...],
        owners: tuple[int, ...] = (),
        public: tuple[bool, ...] = (),
    ) -> None:
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "owners", owners)
        object.__setattr__(self, "public", public)

    def visible_to(self, viewer: object) -> Event:
        if viewer == HOUSE:
            return self
        count = len(self.cards)
        owners, public = self.owners or (-1,) * count, self.public or (False,) * count
        seen = tuple(
            card if public[i] or _owns(viewer, owners[i]) else None
            for i, card in enumerate(self.cards)
        )
        return Restacked(seen, owners, public)


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """A card to the muck, or out of the game (``scrap``: a joker, the cardroom's boxed card)."""

    card: Card | None  # None: a card nobody saw (from ``player``'s hand, or the stub's top)
    scrap: bool = False
    player: int = -1
    face_up: bool = False

    def __init__(
        self, card: Card | None, scrap: bool = False, player: int = -1, face_up: bool = False
    ) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "scrap", scrap)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "face_up", face_up)

    def visible_to(self, viewer: object) -> Event:
        if self.face_up or viewer == HOUSE or self.card is None or _owns(viewer, self.player):
            return self
        return Discarded(None, self.scrap, self.player, self.face_up)


@dataclass(frozen=True, slots=True)
class PotCarried(Event):
    """Chips forfeited in a voided deal, brought into this one as dead money in the main pot
    (cardroom irregularities 5-6): no player's stack pays them."""

    amount: int

    def __init__(self, amount: int) -> None:
        object.__setattr__(self, "amount", amount)

    def __str__(self) -> str:
        return f"pot carried {self.amount}"


@dataclass(frozen=True, slots=True)
class HandVoided(Event):
    """The hand is void: every chip each player put in goes back (``returned``, per player),
    except the ``kept`` players', which stay as a pot carried to the next deal (cardroom
    irregularities 5-6)."""

    returned: tuple[int, ...]
    carried: int = 0
    kept: tuple[int, ...] = ()

    def __init__(
        self, returned: tuple[int, ...], carried: int = 0, kept: tuple[int, ...] = ()
    ) -> None:
        object.__setattr__(self, "returned", returned)
        object.__setattr__(self, "carried", carried)
        object.__setattr__(self, "kept", kept)


@dataclass(frozen=True, slots=True)
class HandKilled(Event):
    """A dead hand: out of the hand, eligible for nothing; with ``refund``, every chip the
    player put in came back (``refunded``)."""

    player: int
    refund: bool = False
    refunded: int = 0

    def __init__(self, player: int, refund: bool = False, refunded: int = 0) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "refund", refund)
        object.__setattr__(self, "refunded", refunded)


@dataclass(frozen=True, slots=True)
class Revived(Event):
    """A folded, mucked or killed hand is live again, with the same chips in."""

    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


@dataclass(frozen=True, slots=True)
class PotsAwarded(Event):
    """Every pot goes to one player without a showdown (qld s33(4))."""

    player: int
    amount: int
    uncontested: bool = False  # only the chips no live hand can win (qld s33(5))

    def __init__(self, player: int, amount: int, uncontested: bool = False) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "uncontested", uncontested)


@dataclass(frozen=True, slots=True)
class RoundCapped(Event):
    """For the rest of the round nobody's total may pass ``to`` (au 19.29, qld s36(3))."""

    to: int

    def __init__(self, to: int) -> None:
        object.__setattr__(self, "to", to)


@dataclass(frozen=True, slots=True)
class ActionVoided(Event):
    """The betting action at log index ``index`` is undone: chips back, the same player to act."""

    index: int

    def __init__(self, index: int) -> None:
        object.__setattr__(self, "index", index)


@dataclass(frozen=True, slots=True)
class ActionHeld(Event):
    """An action out of turn, held: its chips are in front of the player, not in the pot, and
    the turn does not move (qld s37, cardroom betting 11, league 21)."""

    player: int
    action: str  # check | fold | call | bet | raise
    to: int  # the round total a bet, raise or call makes
    amount: int  # chips taken from the stack

    def __init__(self, player: int, action: str, to: int, amount: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "amount", amount)


@dataclass(frozen=True, slots=True)
class HeldResolved(Event):
    """A held action settled: ``apply`` (it becomes the player's action now), ``return`` (chips
    back), or ``forfeit`` (chips to the pot as dead money)."""

    player: int
    how: str
    amount: int

    def __init__(self, player: int, how: str, amount: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "how", how)
        object.__setattr__(self, "amount", amount)


@dataclass(frozen=True, slots=True)
class Restricted(Event):
    """Until the player's next action: ``no-bet-or-raise`` (cardroom betting 11) or
    ``min-raise-only`` (league 22)."""

    player: int
    rule: str

    def __init__(self, player: int, rule: str) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "rule", rule)


@dataclass(frozen=True, slots=True)
class TreatedAllIn(Event):
    """The player bets no more this hand and is eligible for what is in; the ``kept`` chips come
    back at the end (au 19.20)."""

    player: int
    kept: int

    def __init__(self, player: int, kept: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "kept", kept)


@dataclass(frozen=True, slots=True)
class WagerCorrected(Event):
    """A player's wager this round (or held wager) made ``to`` in all; ``delta`` chips moved
    from the stack (negative: back to it) (cardroom betting 13, 16; qld s37(6))."""

    player: int
    to: int
    delta: int

    def __init__(self, player: int, to: int, delta: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "delta", delta)


def _owns(viewer: object, player: int) -> bool:
    """Whether ``viewer`` is ``player`` (a seat; -1, nobody's, is never the spectator's)."""
    return player >= 0 and viewer == player
