"""Plain values every floor of the card room passes (docs/server.md): what a client is refused,
who asks, a move and the hands it is made in (dealt, stored, ended), a seat and a place on a
waiting list as the room keeps them, and a change the waiting list makes to the seats."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

__all__ = [
    "Actor",
    "HandEnd",
    "HandStart",
    "Move",
    "Record",
    "Refused",
    "SeatChange",
    "SeatState",
    "StoredHand",
    "Wait",
]

Record = dict[str, object]
"""One of the house's records of a hand (an event, as croupier.history writes it)."""


class Actor(Protocol):
    """Who asks: a connection, or the house itself."""

    account_id: int | None
    role: str


class Refused(Exception):  # noqa: N818 (a refusal, sent to the client)
    """A request refused: ``code`` as the protocol names it (docs/protocol.md), the message
    saying why, and where to go instead (``url``: the process that runs the table)."""

    def __init__(self, code: str, message: str, url: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.url = url


@dataclass(frozen=True)
class Move:
    """One player decision as the protocol carries it."""

    kind: str  # one of game_table.ACTIONS
    amount: int | None = None  # bet_or_raise: the total to bet or raise to this round
    cards: tuple[str, ...] = ()  # draw: the discards ("Ah"); none stands pat

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "amount": self.amount, "cards": list(self.cards)}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Move:
        amount = data.get("amount")
        cards = data.get("cards") or ()
        return cls(
            str(data["kind"]),
            amount if isinstance(amount, int) else None,
            tuple(str(c) for c in cards) if isinstance(cards, list | tuple) else (),
        )


@dataclass(frozen=True)
class HandStart:
    """A hand just dealt: what must be stored before anyone hears of it."""

    deck: tuple[int, ...]  # the full deck order dealt from (a house secret)
    seed: int  # seeds the reshuffles of burns and discards (a house secret)
    button: int  # the button's seat
    order: tuple[int, ...]  # seat of each player, in deal order
    starting: tuple[int, ...]  # stacks when dealt (after any participation fee), in deal order
    events: tuple[Record, ...]  # the house's records of the deal


@dataclass(frozen=True)
class StoredHand:
    """A hand in progress as the database keeps it: dealt again from its deck and seed, its
    moves re-applied, every event checked against the records stored."""

    deck: tuple[int, ...]
    seed: int
    button: int
    order: tuple[int, ...]
    events: tuple[Record, ...]  # the house records of the deal
    moves: tuple[tuple[int, Move, tuple[Record, ...]], ...]  # seat, move, the records it made


@dataclass(frozen=True)
class HandEnd:
    stacks: dict[int, int]  # seat -> chips after the hand (every dealt seat)
    commission: int  # taken by the house in this hand
    busted: tuple[int, ...] = field(default=())
    left: tuple[int, ...] = field(default=())  # seats the table let go (Bust.LEAVE: qld s31(4))


@dataclass
class SeatState:
    """One seat of a cash table, as its row says."""

    seat: int
    account: int
    name: str
    chips: int  # as of the last hand's end (plus top-ups)
    status: str  # playing, waiting, sitting_out
    bank: float
    away: int = 0
    leaving: bool = False
    bot: str | None = None
    # The chips are a buy-in the engine's table has not recorded yet: when it seats the player
    # it records the buy-in (a short one counts: cardroom buy-in 2). Stored, and cleared with
    # the deal that stores the engine's record of it, so a restart in between keeps it.
    fresh: bool = False


@dataclass
class Wait:
    """One person on a table's waiting list."""

    account: int
    name: str
    since: float  # when they asked: the list's order
    wanted: int | None = None  # the seat a seated player asks to move to (None: any)
    offer: int | None = None  # the seat held for them
    offer_until: float | None = None  # when the hold lapses


@dataclass(frozen=True)
class SeatChange:
    """What the waiting list does with a seat between hands: a hold that ``lapse``\\ d, a seated
    player's ``move`` from seat ``before`` to ``seat``, or an ``offer`` of ``seat`` held for a
    newcomer; ``detail`` says why, for the audit log."""

    kind: str  # lapse, move, offer
    account: int
    seat: int | None = None
    before: int | None = None
    detail: str = ""
