"""Plain values every floor of the card room passes (docs/server.md): what a client is refused,
who asks. (The rooms floor adds its moves, hand starts, stored hands and hand ends here.)"""

from __future__ import annotations

from typing import Protocol

__all__ = ["Actor", "Refused"]


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
