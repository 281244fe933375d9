"""The card room server: Starlette on uvicorn, WebSockets for play (docs/protocol.md), HTTP for
accounts, the lobby, the ledger and hand histories.

One :class:`CardRoom` per process. Each table lives in one process: the one holding its lease
(``tables.lease_owner``), which it renews while it runs the table; a process that stops renewing
loses its tables to another after :data:`~croupier.server.store.database.LEASE_SECONDS`, which
rebuilds each hand in progress from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, insert, or_, select, update
from starlette.applications import Starlette
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from croupier.server.hall import Hall
from croupier.server.rooms import seating, waiting
from croupier.server.rooms.game_table import GameTable, Move, check_new_table
from croupier.server.rooms.room import Refused, Room
from croupier.server.rooms.table_spec import TableSpec
from croupier.server.store import accounts as auth
from croupier.server.store import schema as s
from croupier.server.store.database import (
    HOUSE,
    LEASE_SECONDS,
    Store,
    StoreError,
)
from croupier.server.store.rooms import read_snapshot
from croupier.server.web.protocol import MAX_MESSAGE, ProtocolError, parse_client_message
from croupier.wire import dumps, loads

__all__ = ["CardRoom", "Conn", "Options", "create_app"]

log = logging.getLogger("croupier.server")
MAX_BODY = 16384


@dataclass(frozen=True)
class Options:
    """How the card room runs; the defaults suit people playing."""

    clock: float = 30.0  # seconds to act
    bank: float = 60.0  # each seat's time bank
    sit_out_after: int = 2  # hands timed out while disconnected before sitting out
    pause: float = 3.0  # seconds between hands
    seat_hold: float = 120.0  # seconds a seat won from the waiting list is held for a newcomer
    bot_delay: float = 1.0  # a bot's thinking time, so people can follow
    welcome: int = 10_000  # chips cashed in for a new account
    rate: float = 20.0  # messages per second per connection
    burst: int = 40
    demo: bool = True  # a table of bots waiting when the room has none
    tables_per_player: int = 20  # open tables a player may own (dealers and admins: any)
    registrations_per_hour: int = 20  # new accounts an address may make (0: any number)
    login_failures: int = 30  # failed logins an address may make in 10 minutes (0: any)
    name_login_failures: int = 100  # failed logins for one name, from anywhere, in 10 minutes
    public_url: str = ""  # how other processes and clients reach this one
    hello_seconds: float = 5.0  # a new connection's time to say hello before it is closed
    sockets_before_hello: int = 64  # connections an address may hold open before hello (0: any)
    # How long a token's and role's check against the database holds for the messages after
    # it (a logout or role change in another process reaches this one's sockets within it; in
    # this one, at once). 0: every message is checked against the database.
    session_seconds: float = 2.0
    tournament_clock: Callable[[], float] = time.time  # the tournaments' clock (tests: faster)


OUTBOX_LIMIT = 5000  # messages waiting for a connection before it is let go
KEPT_REQUESTS = 64  # an account's last requests kept to tell a resend from a reused id
# The WebSocket close codes the server chooses (docs/protocol.md, "Rules of the road").
CLOSE_UNREAD = 1008  # OUTBOX_LIMIT messages waited: the client does not read
CLOSE_LOGGED_OUT = 4001  # the connection's token was logged out or expired
CLOSE_NO_HELLO = 4002  # no hello within Options.hello_seconds
CLOSE_TOO_MANY = 4003  # the address holds Options.sockets_before_hello connections before hello


@dataclass
class Session:
    """A token's account and role as last checked against the database (monotonic time)."""

    account: int
    role: str
    checked: float


class Conn:
    """One WebSocket connection: who it is, and the messages waiting to be sent to it, which
    its sender task sends in order (a client slow to read holds up nobody else).

    The outbox is a deque and one future the sender waits on when it is empty, not an
    asyncio.Queue: every action puts a message in five or six outboxes, and the queue's
    bookkeeping cost the server more than this."""

    def __init__(self, websocket: WebSocket, options: Options) -> None:
        self.websocket = websocket
        self.account_id: int | None = None
        self.name = ""
        self.role = ""
        self.token = ""  # the digest of the token it said hello with (auth.digest)
        self.address = ""  # its client's address, counted until hello (CardRoom.serve_socket)
        self.task: asyncio.Task[None] | None = None  # its sender
        self.closer: asyncio.Task[None] | None = None  # its close, once let go
        self.outbox: deque[str | None] = deque()  # None: close the connection
        self._wake: asyncio.Future[None] | None = None  # the sender's, while the outbox is empty
        self.rooms: set[int] = set()
        self.tokens = float(options.burst)
        self.rate, self.burst = options.rate, options.burst
        self.stamp = time.monotonic()
        self.closed = False

    def send(self, message: dict[str, object]) -> None:
        if not self.closed:
            self.send_text(dumps(message))

    def send_text(self, text: str) -> None:
        """Send a message already written (the same text for every viewer who sees alike)."""
        if self.closed:
            return
        if len(self.outbox) >= OUTBOX_LIMIT:  # a client that does not read: let it go
            self.let_go(CLOSE_UNREAD, "too many messages unread")
            return
        self.outbox.append(text)
        self._wake_sender()

    def let_go(self, code: int = CLOSE_UNREAD, reason: str = "") -> None:
        """Close the connection with ``code`` now, dropping what was waiting: the sender stops
        (a send it waits on, to a client that does not read, is not waited for) and the close
        is sent by a task of its own (socket_protocol: at once, behind what is buffered)."""
        if self.closer is not None:
            return
        self.closed = True
        self.outbox.clear()
        if self.task is not None:
            self.task.cancel()
        self.closer = asyncio.get_running_loop().create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.websocket.close(code, reason)

    async def sender(self) -> None:
        """The connection's sender task: the outbox's messages in order, until told to close
        or the connection fails."""
        try:
            while True:
                while not self.outbox:
                    self._wake = asyncio.get_running_loop().create_future()
                    try:
                        await self._wake
                    finally:
                        self._wake = None
                text = self.outbox.popleft()
                if text is None:
                    return
                await self.websocket.send_text(text)
        except Exception:
            self.closed = True

    def _wake_sender(self) -> None:
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class CardRoom:
    def __init__(self, db: str, options: Options | None = None) -> None:
        self.options = options or Options()
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.store = Store(db, owner=self.owner)
        self.rooms: dict[int, Room] = {}
        self.conns: dict[int, set[Conn]] = {}
        self._names: dict[int, str] = {}
        self._recent: dict[int, OrderedDict[str, None]] = {}
        self._kept: dict[int, OrderedDict[str, dict[str, Any]]] = {}  # CardRoom._keep
        # Tokens (by digest) as last checked, those logged out here, and a count of changes
        # (a check read from the database while one happened is not kept): CardRoom.authorise.
        self._sessions: dict[str, Session] = {}
        self._revoked: OrderedDict[str, None] = OrderedDict()
        self._session_changes = 0
        self._unheard: dict[str, int] = {}  # connections before hello, per address
        # The public addresses of the processes serving this room (the page's sockets may
        # follow a table to one: its Content-Security-Policy allows them), renewed with leases.
        self.peer_urls: tuple[str, ...] = ()
        self.bot_delay = self.options.bot_delay
        self.house_id = self.store.read(lambda c: self.store.account_id(c, HOUSE))
        self._tasks: list[asyncio.Task[None]] = []
        self.hall = Hall(self)
        # Where an action's time goes, summed (seen in /api/health, printed by the bench).
        self.stats: dict[str, float] = dict.fromkeys(
            ("actions", "engine_seconds", "store_seconds", "broadcast_seconds"), 0.0
        )

    # --- start and stop --------------------------------------------------------------------

    async def start(self) -> None:
        url = self.options.public_url
        await self.store.write(lambda conn: _register_server(conn, self.owner, url))
        names = await self.store.aread(
            lambda conn: {
                r.id: r.name for r in conn.execute(select(s.accounts.c.id, s.accounts.c.name))
            }
        )
        self._names.update(names)
        await self._read_peers()
        await self.claim_tables()
        await self.hall.start()
        if self.options.demo:
            await self._demo_table()
        self._tasks.append(asyncio.create_task(self._leases()))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        self.hall.stop()
        for room in list(self.rooms.values()):
            room.close()
        for conns in list(self.conns.values()):
            for conn in conns:
                conn.send(
                    {
                        "type": "error",
                        "id": None,
                        "code": "unavailable",
                        "message": "the server is stopping; reconnect",
                    }
                )
        with contextlib.suppress(Exception):
            await self.store.write(lambda conn: _release(conn, self.owner))
        self.rooms.clear()
        await self.store.aclose()

    async def _leases(self) -> None:
        while True:
            await asyncio.sleep(LEASE_SECONDS / 4)
            try:
                mine = list(self.rooms)
                lost = await self.store.write(
                    lambda conn, mine=mine: _renew(conn, self.owner, mine)  # type: ignore[misc]
                )
                for table in lost:
                    room = self.rooms.get(table)
                    if room is not None:
                        await self.drop_room(room)
                await self.claim_tables()
                await self.hall.renew()
                await self._read_peers()
            except Exception:
                log.exception("lease renewal failed")

    async def _read_peers(self) -> None:
        since = time.time() - 4 * LEASE_SECONDS
        urls = await self.store.aread(
            lambda conn: sorted(
                {
                    str(r.url)
                    for r in conn.execute(
                        select(s.servers.c.url).where(s.servers.c.heartbeat > since)
                    )
                    if r.url
                }
            )
        )
        self.peer_urls = tuple(urls)

    async def claim_tables(self) -> None:
        """Take every open table no live process runs (its lease ran out, or its process on
        this machine is dead), and resume its hand."""
        now = time.time()
        rows = await self.store.aread(
            lambda conn: list(
                conn.execute(
                    select(s.tables.c.id, s.tables.c.lease_owner, s.tables.c.lease_until).where(
                        s.tables.c.status.in_(s.LIVE)
                    )
                )
            )
        )
        for row in rows:
            if row.id in self.rooms:
                continue
            owner = row.lease_owner
            if owner is None or owner == self.owner or row.lease_until < now or _dead(owner):
                await self._take(row.id, owner)

    async def _take(self, table: int, dead: str | None = None) -> Room | None:
        got = await self.store.write(lambda conn: _claim(conn, table, self.owner, dead))
        if not got or table in self.rooms:
            return self.rooms.get(table)
        snap = await self.store.aread(lambda conn: read_snapshot(conn, table))
        for row in snap.seats:
            if row.account_id not in self._names:
                await self._learn_name(row.account_id)
        room = Room(self, snap)
        self.rooms[table] = room
        async with room.lock:
            await room.resume()
        return room

    async def drop_room(self, room: Room) -> None:
        """Another process took the room's table: its viewers are told where it went."""
        url = await self._owner_url(room.id)
        self.let_go(room, "elsewhere", f"table {room.id} moved to another server process", url)

    def let_go(self, room: Room, code: str, message: str, url: str | None = None) -> None:
        """This process stops serving the room's table: the room is closed and forgotten (if
        it is still the one served), and each viewer is told why by an error (``id`` null)."""
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        room.close()
        error: dict[str, object] = {"type": "error", "id": None, "code": code, "message": message}
        if url is not None:
            error["url"] = url
        for conn in list(room.viewers):
            conn.rooms.discard(room.id)
            conn.send(error)
        room.viewers.clear()

    async def _demo_table(self) -> None:
        count = await self.store.aread(lambda conn: conn.scalar(select(s.tables.c.id).limit(1)))
        if count is not None:
            return
        spec = TableSpec(game="holdem", rulebook="rws", stakes="1/2", seats=6)
        room = await self.create_table(self.house_id, "Demo: no-limit hold'em (rws)", spec, {})
        for seat in (2, 4, 6):
            await seating.add_bot(room, _SystemConn(self.house_id), f"demo-bot-{seat}", seat, None)

    # --- accounts and connections ----------------------------------------------------------

    def name_of(self, account: int) -> str:
        return self._names.get(account, f"account {account}")

    async def _learn_name(self, account: int) -> None:
        name = await self.store.aread(
            lambda conn: conn.scalar(select(s.accounts.c.name).where(s.accounts.c.id == account))
        )
        self._names[account] = str(name)

    def connected(self, account: int) -> bool:
        return bool(self.conns.get(account))

    # --- sessions: every message after hello is checked against the token and the role ------

    async def authorise(self, conn: Conn) -> None:
        """Check the connection's token, and set its role, before it is served a message: from
        this process's cache, which a logout or a role change made here updates at once
        (:meth:`revoke`, :meth:`role_changed`), read again from the database once it is older
        than ``Options.session_seconds`` (a logout, an expiry or a role change made by another
        process). A token no longer valid closes every connection using it
        (``CLOSE_LOGGED_OUT``) and the message is refused, ``unauthorised``."""
        token = conn.token
        session = None if token in self._revoked else self._sessions.get(token)
        if session is not None and time.monotonic() - session.checked < self._session_seconds:
            conn.role = session.role
            return
        for _ in range(5):
            changes = self._session_changes
            account = await self.store.aread(lambda c: auth.account_of_digest(c, token))
            if token in self._revoked or account is None or account.id != conn.account_id:
                self.revoke(token)
                raise Refused("unauthorised", "your token was logged out or expired: log in again")
            if changes == self._session_changes:  # no logout or role change meanwhile
                self._sessions[token] = Session(account.id, account.role, time.monotonic())
                if len(self._sessions) > 100_000:
                    self._prune_sessions()
                break
        assert account is not None
        self._set_role(account.id, account.role)

    @property
    def _session_seconds(self) -> float:
        return self.options.session_seconds

    def _prune_sessions(self) -> None:
        live = {conn.token for conns in self.conns.values() for conn in conns}
        for token in [t for t in self._sessions if t not in live]:
            del self._sessions[token]

    def revoke(self, token: str) -> None:
        """A token (its digest) no longer works (logged out): every connection that said hello
        with it is closed at once, with ``CLOSE_LOGGED_OUT``."""
        self._session_changes += 1
        self._sessions.pop(token, None)
        self._revoked[token] = None
        while len(self._revoked) > 100_000:
            self._revoked.popitem(last=False)
        for conns in list(self.conns.values()):
            for conn in list(conns):
                if conn.token == token:
                    conn.let_go(CLOSE_LOGGED_OUT, "logged out: log in again")

    def role_changed(self, account: int, role: str) -> None:
        """An account's role changed (committed): its connections have the new role from now
        on, for their next message (a dealer made a player can no longer void a hand)."""
        self._session_changes += 1
        now = time.monotonic()
        for token, session in list(self._sessions.items()):
            if session.account == account:
                self._sessions[token] = Session(account, role, now)
        self._set_role(account, role)

    def _set_role(self, account: int, role: str) -> None:
        for conn in self.conns.get(account, ()):
            conn.role = role

    def seen(self, account: int, request: str) -> bool:
        return request in self._recent.get(account, ())

    def _keep(self, account: int, request: str, message: dict[str, Any]) -> None:
        """Keep the last requests an account made, to tell a resend from a new request that
        reuses an id (only the last KEPT_REQUESTS: a resend comes soon after)."""
        kept = self._kept.setdefault(account, OrderedDict())
        kept[request] = message
        if len(kept) > KEPT_REQUESTS:
            kept.popitem(last=False)

    def _check_resent(self, account: int, request: str, message: dict[str, Any]) -> None:
        """A request whose id was applied already is a resend, answered as a duplicate, unless
        it asks for something else: then it is refused, and the first stands."""
        kept = self._kept.get(account)
        first = kept.get(request) if kept is not None else None
        if first is not None and first != message:
            raise Refused(
                "id_reused",
                f"the action id {request!r} was already used for another request, which "
                "stands; a resend repeats the request exactly, a new request takes a new id",
            )

    def remember(self, account: int, request: str | None) -> None:
        if request is None:
            return
        recent = self._recent.setdefault(account, OrderedDict())
        recent[request] = None
        while len(recent) > 2000:
            recent.popitem(last=False)

    async def bot_account(self, name: str) -> int:
        def job(conn: Connection) -> int:
            found = conn.execute(
                select(s.accounts.c.id, s.accounts.c.role).where(s.accounts.c.name == name)
            ).first()
            if found is not None:
                if found.role != "bot":  # registration refuses bots' names (auth.BOT_NAME)
                    raise Refused("refused", f"the bot's name {name!r} is another account's")
                return int(found.id)
            key = conn.execute(
                insert(s.accounts).values(
                    name=name, password_hash="!", role="bot", balance=0, created=time.time()
                )
            ).inserted_primary_key
            assert key is not None
            return int(key[0])

        account = await self.store.write(job)
        self._names[account] = name
        return account

    async def create_table(
        self, owner: int, name: str, spec: TableSpec, settings: dict[str, Any]
    ) -> Room:
        spec = spec.written_out()
        check_new_table(GameTable(spec))  # SpecError: a table the book or the room refuses
        options = self.options
        values = {
            "clock": float(settings.get("clock", options.clock)),
            "bank": float(settings.get("bank", options.bank)),
            "sit_out_after": int(settings.get("sit_out_after", options.sit_out_after)),
            "pause": float(settings.get("pause", options.pause)),
        }

        def job(conn: Connection) -> int:
            key = conn.execute(
                insert(s.tables).values(
                    name=name,
                    owner_id=owner,
                    spec=dumps(spec.to_json()),
                    status="open",
                    created=time.time(),
                    hands=0,
                    lease_owner=self.owner,
                    lease_until=time.time() + LEASE_SECONDS,
                    **values,
                )
            ).inserted_primary_key
            assert key is not None
            return int(key[0])

        table = await self.store.write(job)
        room = await self._take(table)
        assert room is not None
        return room

    async def room_for(self, table: int) -> Room:
        room = self.rooms.get(table)
        if room is not None:
            return room
        row = await self.store.aread(
            lambda conn: conn.execute(select(s.tables).where(s.tables.c.id == table)).first()
        )
        if row is None:
            raise Refused("not_found", f"no table {table}")
        if row.status not in s.LIVE:
            raise Refused("closed", f"table {table} is closed")
        owner = row.lease_owner
        if owner not in (None, self.owner) and row.lease_until > time.time() and not _dead(owner):
            url = await self._owner_url(table)
            raise Refused("elsewhere", f"table {table} is run by another server process", url)
        room = await self._take(table, owner)
        if room is None:
            raise Refused(
                "elsewhere",
                f"table {table} is run by another server process",
                await self._owner_url(table),
            )
        return room

    async def _owner_url(self, table: int) -> str:
        def read(conn: Connection) -> str:
            owner = conn.scalar(select(s.tables.c.lease_owner).where(s.tables.c.id == table))
            url = conn.scalar(select(s.servers.c.url).where(s.servers.c.id == owner))
            return str(url or "")

        return await self.store.aread(read)

    # --- the WebSocket -----------------------------------------------------------------------

    async def serve_socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        conn = Conn(websocket, self.options)
        address = websocket.client.host if websocket.client is not None else ""
        most = self.options.sockets_before_hello
        if most and self._unheard.get(address, 0) >= most:
            log.info("%s holds %d connections before hello: one more closed", address, most)
            with contextlib.suppress(Exception):
                await websocket.close(CLOSE_TOO_MANY, "too many connections before hello")
            return
        conn.address = address
        self._unheard[address] = self._unheard.get(address, 0) + 1
        conn.task = asyncio.create_task(conn.sender())
        deadline = asyncio.get_running_loop().call_later(
            self.options.hello_seconds, self._no_hello, conn
        )
        try:
            while not conn.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect" or conn.closed:
                    break
                text = message.get("text")
                if text is None:
                    conn.send(_error(None, "malformed", "send text frames holding JSON"))
                    continue
                if not conn.allow():
                    conn.send(
                        _error(_request_id(text), "rate_limited",
                               f"at most {conn.rate:g} messages a second")
                    )  # fmt: skip
                    continue
                await self.handle(conn, text)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            deadline.cancel()
            self._heard(conn)
            conn.closed = True
            conn.task.cancel()
            await self._gone(conn)
            if conn.closer is not None:  # its close sent (at once: socket_protocol)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(conn.closer), 5)

    def _no_hello(self, conn: Conn) -> None:
        if conn.account_id is None and not conn.closed:
            conn.let_go(CLOSE_NO_HELLO, "no hello in time")

    def _heard(self, conn: Conn) -> None:
        """The connection said hello, or ended: its address's connections before hello are
        one fewer."""
        if conn.address:
            left = self._unheard.get(conn.address, 1) - 1
            if left > 0:
                self._unheard[conn.address] = left
            else:
                self._unheard.pop(conn.address, None)
            conn.address = ""

    async def _gone(self, conn: Conn) -> None:
        self.hall.gone(conn)
        if conn.account_id is not None:
            conns = self.conns.get(conn.account_id, set())
            conns.discard(conn)
            if not conns:
                self.conns.pop(conn.account_id, None)
        for table in conn.rooms:
            room = self.rooms.get(table)
            if room is not None:
                room.viewers.pop(conn, None)
                if conn.account_id is not None and room.seat_of(conn.account_id) is not None:
                    room.broadcast_seats()

    async def handle(self, conn: Conn, text: str) -> None:
        """One client message: checked, then applied, then answered (``ok`` or ``error``)."""
        request: str | None = None
        try:
            message = parse_client_message(text)
            request = message["id"]
            kind = message["type"]
            if kind == "ping":
                conn.send({"type": "pong", "id": request})
                return
            if kind == "hello":
                await self._hello(conn, message["token"])
                return
            if conn.account_id is None:
                raise Refused("unauthorised", "send hello with your token first")
            assert request is not None
            await self.authorise(conn)  # the token still valid, the role as it is now
            if self.seen(conn.account_id, request):
                self._check_resent(conn.account_id, request, message)
                if kind in ("watch", "unwatch") and _following(conn, message) != (kind == "watch"):
                    # Following a table is the connection's: a watch resent on a new
                    # connection (the first one lost) follows it there too, state first.
                    await self._dispatch(conn, kind, message)
                conn.send({"type": "ok", "id": request, "duplicate": True})
                return
            answered = False
            if kind.startswith("tournament_"):
                await self._tournament(conn, kind, message)
            else:
                answered = await self._dispatch(conn, kind, message)
            if kind in ("watch", "unwatch"):  # kept in memory: they store nothing
                self.remember(conn.account_id, request)
            self._keep(conn.account_id, request, message)
            if not answered:  # an act's `events` carry its id as their `cause`: its answer
                conn.send({"type": "ok", "id": request, "duplicate": False})
        except ProtocolError as error:
            conn.send(_error(error.request, error.code, str(error)))
        except Refused as refused:
            if refused.code == "duplicate":
                conn.send({"type": "ok", "id": request, "duplicate": True})
                return
            conn.send(_error(request, refused.code, str(refused), refused.url))
        except (StoreError, OSError) as error:
            log.warning("request failed: %s", error)
            conn.send(_error(request, "unavailable", "the server could not do that now; resend"))

    async def _tournament(self, conn: Conn, kind: str, message: dict[str, Any]) -> None:
        run = await self.hall.get(message["tournament"])
        if kind == "tournament_watch":
            await run.watch(conn, message.get("table"))
        elif kind == "tournament_act":
            move = Move(message["action"], message.get("amount"), tuple(message.get("cards", ())))
            await run.act(conn, message["id"], message["table"], message["hand"], move)

    async def _dispatch(self, conn: Conn, kind: str, message: dict[str, Any]) -> bool:
        """Apply a table request; whether it is answered already (an action whose `events`
        the acting connection was sent: one frame fewer for every action)."""
        request = message["id"]
        room = await self.room_for(message["table"])
        if kind == "watch":
            room.viewers[conn] = None
            conn.rooms.add(room.id)
            conn.send(room.state_message(conn.account_id))
        elif kind == "unwatch":
            room.viewers.pop(conn, None)
            conn.rooms.discard(room.id)
        elif kind == "sit":
            # Seated, the player hears the table (sit sends them its state); refused, nothing.
            await seating.sit(room, conn, request, message["seat"], message["chips"])
            room.viewers[conn] = None
            conn.rooms.add(room.id)
        elif kind in ("wait", "unwait"):
            # On the list, the player hears the table: its seats and the list's changes.
            if kind == "wait":
                await waiting.wait(room, conn, request, message.get("seat"))
            else:
                await waiting.unwait(room, conn, request)
            if conn not in room.viewers:
                room.viewers[conn] = None
                conn.rooms.add(room.id)
                conn.send(room.state_message(conn.account_id))
        elif kind == "leave":
            await seating.leave(room, conn, request)
        elif kind == "top_up":
            await seating.top_up(room, conn, request, message["chips"])
        elif kind in ("sit_out", "sit_in"):
            await seating.sit_out(room, conn, request, kind == "sit_out")
        elif kind == "act":
            move = Move(message["action"], message.get("amount"), tuple(message.get("cards", ())))
            await room.act(conn, request, message["hand"], move)
            return conn in room.viewers and not conn.closed
        elif kind == "add_bot":
            await seating.add_bot(room, conn, request, message["seat"], message.get("chips"))
        elif kind == "remove_bot":
            await seating.remove_bot(room, conn, request, message["seat"])
        elif kind == "close_table":
            reason = message.get("reason") or f"at {conn.name}'s request"
            await seating.close_table(room, conn, request, reason)
        elif kind == "void_hand":
            if conn.role not in ("dealer", "admin"):
                raise Refused("unauthorised", "only a dealer or an admin voids a hand")
            await room.void(message.get("reason") or "voided by the floor", conn.account_id)
        return False

    async def _hello(self, conn: Conn, token: str) -> None:
        changes = self._session_changes
        account = await self.store.aread(lambda c: auth.account_of_token(c, token))
        if account is None or account.role not in auth.ROLES:
            raise Refused("unauthorised", "unknown or expired token: log in again")
        if conn.account_id is not None and conn.account_id != account.id:
            raise Refused("unauthorised", "this connection already belongs to another account")
        if conn.closed:
            return
        digest = auth.digest(token)
        if digest in self._revoked:
            raise Refused("unauthorised", "unknown or expired token: log in again")
        if changes == self._session_changes:  # else read again at the next message
            self._sessions[digest] = Session(account.id, account.role, time.monotonic())
        conn.account_id, conn.name, conn.role = account.id, account.name, account.role
        conn.token = digest
        self._heard(conn)
        self._set_role(account.id, account.role)
        self._names[account.id] = account.name
        self.conns.setdefault(account.id, set()).add(conn)
        if account.id not in self._recent:
            recent = await self.store.aread(lambda c: _recent_requests(c, account.id))
            for request in recent:
                self.remember(account.id, request)

        places = await self.store.aread(lambda c: seating.places_of(c, account.id))
        seats, waits = places["seats"], places["waits"]
        conn.send(
            {
                "type": "welcome",
                "account": account.id,
                "name": account.name,
                "role": account.role,
                "balance": account.balance,
                **places,
            }
        )
        # The tables the account sits at, then those whose waiting list it is on, are heard.
        sitting = [int(seat["table"]) for seat in seats]
        for table in [*sitting, *(int(wait["table"]) for wait in waits)]:
            if table in conn.rooms:
                continue
            try:
                room = await self.room_for(table)
            except Refused:
                continue  # run by another process: the client follows it when it acts there
            room.viewers[conn] = None
            conn.rooms.add(room.id)
            conn.send(room.state_message(account.id))
            if table in sitting:
                await seating.returned(room, account.id)
        await self.hall.returned(conn)


class _SystemConn:
    """The house acting on its own tables (the demo's bots)."""

    def __init__(self, account: int) -> None:
        self.account_id: int | None = account
        self.role = "admin"
        self.name = HOUSE


def _following(conn: Conn, message: dict[str, Any]) -> bool:
    return message.get("table") in conn.rooms


def _error(
    request: str | None, code: str, message: str, url: str | None = None
) -> dict[str, object]:
    out: dict[str, object] = {"type": "error", "id": request, "code": code, "message": message}
    if url:
        out["url"] = url
    return out


def _request_id(text: str) -> str | None:
    """The id of a message refused unread (rate-limited), so the client knows which one."""
    if len(text) > MAX_MESSAGE:
        return None
    try:
        found = loads(text).get("id")
    except (ValueError, AttributeError, RecursionError):
        return None
    return found if isinstance(found, str) and 0 < len(found) <= 64 else None


def _register_server(conn: Connection, owner: str, url: str) -> None:
    conn.execute(insert(s.servers).values(id=owner, url=url, heartbeat=time.time()))


def _release(conn: Connection, owner: str) -> None:
    for leased in (s.tables, s.tournaments):
        conn.execute(
            update(leased)
            .where(leased.c.lease_owner == owner)
            .values(lease_owner=None, lease_until=0)
        )


def _claim(conn: Connection, table: int, owner: str, dead: str | None = None) -> bool:
    """Take the lease of a table that is free, ours, expired, or held by ``dead`` (a process
    of this machine that no longer runs)."""
    now = time.time()
    holders = [
        s.tables.c.lease_owner.is_(None),
        s.tables.c.lease_until < now,
        s.tables.c.lease_owner == owner,
    ]
    if dead is not None and _dead(dead):
        holders.append(s.tables.c.lease_owner == dead)
    done = conn.execute(
        update(s.tables)
        .where(s.tables.c.id == table, s.tables.c.status.in_(s.LIVE), or_(*holders))
        .values(lease_owner=owner, lease_until=now + LEASE_SECONDS)
    )
    return done.rowcount == 1


def _dead(owner: str) -> bool:
    """Whether a lease holder ("host:pid:nonce") is a process of this machine that has ended."""
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return int(pid) != os.getpid() and _zombie(int(pid))


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return False


def _renew(conn: Connection, owner: str, tables: list[int]) -> list[int]:
    """Renew this process's leases; the tables it no longer holds."""
    now = time.time()
    conn.execute(update(s.servers).where(s.servers.c.id == owner).values(heartbeat=now))
    held = {
        r.id for r in conn.execute(select(s.tables.c.id).where(s.tables.c.lease_owner == owner))
    }
    conn.execute(
        update(s.tables)
        .where(s.tables.c.lease_owner == owner)
        .values(lease_until=now + LEASE_SECONDS)
    )
    return [t for t in tables if t not in held]


def _recent_requests(conn: Connection, account: int) -> list[str]:
    moves = conn.execute(
        select(s.moves.c.request_id)
        .where(s.moves.c.account_id == account, s.moves.c.request_id.is_not(None))
        .order_by(s.moves.c.id.desc())
        .limit(1000)
    )
    audits = conn.execute(
        select(s.audit.c.request_id)
        .where(s.audit.c.account_id == account, s.audit.c.request_id.is_not(None))
        .order_by(s.audit.c.id.desc())
        .limit(1000)
    )
    tournament = conn.execute(
        select(s.tournament_moves.c.request_id)
        .where(
            s.tournament_moves.c.account_id == account,
            s.tournament_moves.c.request_id.is_not(None),
        )
        .order_by(s.tournament_moves.c.at.desc())
        .limit(1000)
    )
    return (
        [r.request_id for r in moves]
        + [r.request_id for r in audits]
        + [r.request_id for r in tournament]
    )


def create_app(room: CardRoom) -> Starlette:
    """The ASGI app: the HTTP API (croupier.server.web.http) and the WebSocket at /ws."""
    from starlette.middleware import Middleware

    from croupier.server.web.http import HttpApi, HTTPError, SecurityHeaders, http_error

    api = HttpApi(room)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await room.start()
        try:
            yield
        finally:
            api.close()
            await room.stop()

    routes = [*api.routes(), WebSocketRoute("/ws", room.serve_socket)]
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        HTTPError: http_error,
        StarletteHTTPException: http_error,
    }
    middleware = [Middleware(SecurityHeaders, room=room)]
    return Starlette(
        routes=routes, lifespan=lifespan, exception_handlers=handlers, middleware=middleware
    )
