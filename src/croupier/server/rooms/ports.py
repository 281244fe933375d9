"""What a room needs of the world around it, as protocols: the rooms floor knows no WebSocket,
no app and no hall (docs/server.md).

- :class:`Listener`: a connection that hears tables (the web floor's ``Conn``).
- :class:`Host`: the process a room lives in (the hall's card room): the store, names, who is
  connected, the requests already applied, the bots' accounts, and letting a room go.
- :class:`TableActor`: the room as its collaborators (seating, the waiting list) see it: its
  state under its lock, and the operations they may ask of it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Mapping, MutableMapping
from typing import Any, Protocol, TypeVar

from croupier.server.records import SeatState, Wait
from croupier.server.rooms.game_table import GameTable
from croupier.server.store.database import Store

__all__ = ["Host", "Listener", "Settings", "TableActor"]

R_contra = TypeVar("R_contra", contravariant=True)  # the room the host lets go
T = TypeVar("T")


class Listener(Protocol):
    """A connection that hears tables: who it is, and where its messages go."""

    account_id: int | None
    name: str
    role: str
    rooms: set[int]  # the tables it hears
    closed: bool

    def send(self, message: dict[str, object]) -> None:
        """Send ``message`` (written as JSON)."""

    def send_text(self, text: str) -> None:
        """Send a message already written (the same text for every viewer who sees alike)."""


class Settings(Protocol):
    """The host's settings a room reads (the card room's Options)."""

    @property
    def seat_hold(self) -> float:
        """Seconds a seat won from the waiting list is held for a newcomer."""


class Host(Protocol[R_contra]):
    """The process a room lives in, as the room uses it (``R_contra``: the room type it lets
    go, for the card room ``Room``)."""

    @property
    def store(self) -> Store: ...

    @property
    def options(self) -> Settings: ...

    @property
    def house_id(self) -> int:
        """The house's account: it takes the commission."""

    @property
    def bot_delay(self) -> float:
        """A bot's thinking time, in seconds."""

    @property
    def stats(self) -> MutableMapping[str, float]:
        """Where an action's time goes, summed: actions, engine, store, broadcast seconds."""

    @property
    def conns(self) -> Mapping[int, Collection[Listener]]:
        """Each account's connections (a seat offer reaches them wherever they are)."""

    def name_of(self, account: int) -> str: ...

    def connected(self, account: int) -> bool: ...

    def remember(self, account: int, request: str | None) -> None:
        """``request`` of ``account`` is applied (a resend is answered as a duplicate)."""

    async def bot_account(self, name: str) -> int:
        """The account of the house's bot ``name``, made if new."""

    async def drop_room(self, room: R_contra) -> None:
        """Another process took the room's table: let it go, telling its viewers where."""

    def let_go(self, room: R_contra, code: str, message: str, url: str | None = None) -> None:
        """Stop serving the room's table: close and forget it, telling each viewer why."""


class TableActor(Protocol):
    """A room as seating and its waiting list use it (croupier.server.rooms.room.Room): every
    change under :attr:`lock`, stored, then heard."""

    id: int
    name: str
    owner_id: int
    lock: asyncio.Lock
    game: GameTable
    seats: dict[int, SeatState]
    waits: dict[int, Wait]
    viewers: dict[Listener, None]
    closing: str | None
    closed: bool
    bank: float  # a new seat's time bank
    hand_id: int | None
    number: int
    lapse: asyncio.TimerHandle | None  # when the next held seat's hold ends

    @property
    def store(self) -> Store: ...

    @property
    def server(self) -> Host[Any]: ...

    def seat_of(self, account: int | None) -> int | None: ...

    def state_message(
        self, account: int | None, shared: dict[str, Any] | None = None
    ) -> dict[str, object]: ...

    def broadcast_seats(self) -> None: ...

    def send_states(self) -> None: ...

    async def write_change(self, job: Callable[[Any], T]) -> T:
        """Store ``job`` with the table events the change made at the engine's table (one
        transaction); a failed write leaves the engine's table as stored."""

    def schedule_turn(self) -> None:
        """Start the turn of the seat to act (its clock, a bot, a seat that has left)."""

    def schedule_deal(self, delay: float) -> None:
        """Deal (or fill seats, or close) after ``delay`` unless a deal is pending already."""

    def audit_refusal(
        self, account: int | None, request: str | None, kind: str, why: str
    ) -> None: ...

    async def store_failed(self, error: BaseException) -> None:
        """The store refused a change: read the table again (or let it go)."""

    def close(self) -> None: ...
