"""What a room (and a tournament) needs of the connections that hear it, as a protocol: the
rooms floor knows no WebSocket (docs/server.md)."""

from __future__ import annotations

from typing import Protocol

__all__ = ["Listener"]


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
