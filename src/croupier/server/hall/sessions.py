"""Who a connection is, checked on every message (issue 43 item 2): the token it said hello
with must still be valid and its role is the account's role now. The checks are cached per
token; a logout or a role change made in this process updates the cache at once (and closes
the logged-out connections). One made by another process is read by :meth:`Sessions.sweep`,
which every ``Options.session_seconds`` reads all of this process's connected tokens in one
query, closes the connections of a token no longer valid and sets the new roles; a token the
sweeps have not seen for two periods is read again on its next message. (A read per token
per period on the message path cost 0.1 ms of server CPU per action on PostgreSQL.)"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from croupier.server.records import Refused
from croupier.server.rooms.ports import Listener
from croupier.server.store import accounts
from croupier.server.store.database import Store

__all__ = ["CLOSE_LOGGED_OUT", "Client", "Sessions"]

CLOSE_LOGGED_OUT = 4001  # the connection's token was logged out or expired (docs/protocol.md)
KEPT = 100_000  # tokens kept in the cache, and logged-out tokens remembered


class Client(Listener, Protocol):
    """A connection that said hello with a token (its digest: ``accounts.digest``)."""

    token: str

    def let_go(self, code: int, reason: str = "") -> None:
        """Close the connection with ``code``."""


@dataclass
class Session:
    """A token's account and role as last checked against the database (monotonic time)."""

    account: int
    role: str
    checked: float


class Sessions:
    """The tokens of this process's connections, as last checked. ``conns``: the process's
    connections by account (the hall's), which a logout closes and a role change updates."""

    def __init__(
        self, store: Store, conns: Mapping[int, Iterable[Client]], seconds: float
    ) -> None:
        self.store = store
        self.conns = conns
        self.seconds = seconds
        self._sessions: dict[str, Session] = {}
        self._revoked: OrderedDict[str, None] = OrderedDict()
        self.changes = 0  # logouts and role changes so far: a check read meanwhile is not kept

    def revoked(self, token: str) -> bool:
        return token in self._revoked

    def checked(self, token: str, account: int, role: str, changes: int) -> None:
        """``token`` was found valid for ``account`` with ``role``, by a read that began when
        :attr:`changes` was ``changes``: kept, unless a logout or role change came meanwhile."""
        if changes == self.changes:
            self._sessions[token] = Session(account, role, time.monotonic())
            if len(self._sessions) > KEPT:
                self._prune()

    async def sweep(self) -> None:
        """Read every connected token again, in one query: close the connections of those no
        longer valid (logged out, expired, by any process), give the others their account's
        role now."""
        live = {conn.token: conn.account_id for conns in self.conns.values() for conn in conns}
        live.pop("", None)
        if not live:
            return
        changes = self.changes
        found = await self.store.aread(lambda c: accounts.sessions_of(c, sorted(live)))
        if changes != self.changes:
            return  # a logout or role change came meanwhile: the next sweep reads again
        for token, account in live.items():
            got = found.get(token)
            if got is None or got[0] != account:
                self.revoke(token)
            else:
                self.checked(token, account, got[1], changes)
                self.set_role(account, got[1])

    async def authorise(self, conn: Client) -> None:
        """Check the connection's token and set its role before it is served a message; a
        token no longer valid closes every connection using it (:data:`CLOSE_LOGGED_OUT`) and
        the message is refused, ``unauthorised``."""
        token = conn.token
        session = None if token in self._revoked else self._sessions.get(token)
        # Fresh while the sweeps keep it so (two periods: a sweep may be under way).
        if session is not None and time.monotonic() - session.checked < 2 * self.seconds:
            conn.role = session.role
            return
        for _ in range(5):
            changes = self.changes
            account = await self.store.aread(lambda c: accounts.account_of_digest(c, token))
            if token in self._revoked or account is None or account.id != conn.account_id:
                self.revoke(token)
                raise Refused("unauthorised", "your token was logged out or expired: log in again")
            if changes == self.changes:  # no logout or role change meanwhile
                self.checked(token, account.id, account.role, changes)
                break
        assert account is not None
        self.set_role(account.id, account.role)

    def revoke(self, token: str) -> None:
        """A token (its digest) no longer works (logged out): every connection that said hello
        with it is closed at once, with :data:`CLOSE_LOGGED_OUT`."""
        self.changes += 1
        self._sessions.pop(token, None)
        self._revoked[token] = None
        while len(self._revoked) > KEPT:
            self._revoked.popitem(last=False)
        for conns in list(self.conns.values()):
            for conn in list(conns):
                if conn.token == token:
                    conn.let_go(CLOSE_LOGGED_OUT, "logged out: log in again")

    def role_changed(self, account: int, role: str) -> None:
        """An account's role changed (committed): its connections have the new role from now
        on, for their next message (a dealer made a player can no longer void a hand)."""
        self.changes += 1
        now = time.monotonic()
        for token, session in list(self._sessions.items()):
            if session.account == account:
                self._sessions[token] = Session(account, role, now)
        self.set_role(account, role)

    def set_role(self, account: int, role: str) -> None:
        for conn in self.conns.get(account, ()):
            conn.role = role

    def _prune(self) -> None:
        live = {conn.token for conns in self.conns.values() for conn in conns}
        for token in [t for t in self._sessions if t not in live]:
            del self._sessions[token]
