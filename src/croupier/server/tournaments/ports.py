"""What a tournament needs of the process that runs it, as a protocol: the tournaments floor
knows no hall and no WebSocket (docs/server.md). Its connections are the rooms'
:class:`~croupier.server.rooms.ports.Listener`."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from croupier.server.rooms.ports import Listener
    from croupier.server.store.database import Store

__all__ = ["Host"]


class Host(Protocol):
    """The process a tournament runs in (the hall): its clock, its database and lease, its
    connections, and what it keeps of the tournaments it runs."""

    @property
    def clock(self) -> Callable[[], float]:
        """The tournaments' clock (levels and breaks; tests run it faster)."""

    @property
    def store(self) -> Store:
        """The database, and its writer."""

    @property
    def owner(self) -> str:
        """This process, as the tournaments' leases name it."""

    @property
    def bot_delay(self) -> float:
        """A bot's thinking time, in seconds."""

    @property
    def conns(self) -> Mapping[int, Collection[Listener]]:
        """Each account's open connections."""

    def connected(self, account: int) -> bool:
        """Whether ``account`` has a connection open."""

    def remember(self, account: int, request: str | None) -> None:
        """``account``'s request done (a resend of it is told apart)."""

    def drop(self, tournament: int) -> None:
        """Stop running ``tournament`` here: another process took its lease."""
