"""The process's card room: the tables it runs (one :class:`~croupier.server.rooms.room.Room`
each), its tournaments (:class:`~croupier.server.hall.tournaments.Hall`), the connections of
each account and the sessions they hold, the leases that say which process runs which table,
and the demo table.

Each table lives in one process: the one holding its lease (``tables.lease_owner``), which it
renews while it runs the table; a process that stops renewing loses its tables to another
after :data:`~croupier.server.store.leases.LEASE_SECONDS`, which rebuilds each hand in
progress from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from croupier.server.hall.sessions import Client, Sessions
from croupier.server.hall.tournaments import Hall
from croupier.server.records import Refused
from croupier.server.rooms import seating
from croupier.server.rooms.game_table import GameTable, check_new_table
from croupier.server.rooms.room import Room
from croupier.server.rooms.table_spec import TableSpec, check_house_buy_in
from croupier.server.store import hall as rows
from croupier.server.store import leases
from croupier.server.store import schema as s
from croupier.server.store.database import HOUSE, Store
from croupier.server.store.rooms import read_snapshot
from croupier.wire import dumps

__all__ = ["CardRoom", "Options"]

log = logging.getLogger("croupier.server")
KEPT_REQUESTS = 64  # an account's last requests kept to tell a resend from a reused id


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


class _House:
    """The house acting on its own tables (the demo's bots)."""

    def __init__(self, account: int) -> None:
        self.account_id: int | None = account
        self.role = "admin"
        self.name = HOUSE


class CardRoom:
    """One per process: its rooms by table id, its tournaments, its accounts' connections."""

    def __init__(self, db: str, options: Options | None = None) -> None:
        self.options = options or Options()
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.store = Store(db, owner=self.owner)
        self.rooms: dict[int, Room] = {}
        self.conns: dict[int, set[Client]] = {}
        self.sessions = Sessions(self.store, self.conns, self.options.session_seconds)
        self._names: dict[int, str] = {}
        self._recent: dict[int, OrderedDict[str, None]] = {}
        self._kept: dict[int, OrderedDict[str, dict[str, Any]]] = {}  # CardRoom.keep
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
        await self.store.write(lambda c: leases.register(c, self.owner, url))
        self._names.update(await self.store.aread(rows.account_names))
        await self._read_peers()
        await self.claim_tables()
        await self.hall.start()
        if self.options.demo:
            await self._demo_table()
        self._tasks.append(asyncio.create_task(self._leases()))
        if self.sessions.seconds > 0:
            self._tasks.append(asyncio.create_task(self._sweeps()))

    async def _sweeps(self) -> None:
        """The sessions read again every ``Options.session_seconds``: a logout or a role change
        made by another process reaches this one's connections within it."""
        while True:
            await asyncio.sleep(self.sessions.seconds)
            try:
                await self.sessions.sweep()
            except Exception:
                log.exception("the sessions' sweep failed")

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        self.hall.stop()
        for room in list(self.rooms.values()):
            room.close()
        stopping: dict[str, object] = {"type": "error", "id": None, "code": "unavailable",
                    "message": "the server is stopping; reconnect"}  # fmt: skip
        for conns in list(self.conns.values()):
            for conn in conns:
                conn.send(stopping)
        with contextlib.suppress(Exception):
            await self.store.write(lambda c: leases.release(c, self.owner))
        self.rooms.clear()
        await self.store.aclose()

    async def _leases(self) -> None:
        while True:
            await asyncio.sleep(leases.LEASE_SECONDS / 4)
            try:
                mine = list(self.rooms)
                lost = await self.store.write(
                    lambda c, mine=mine: leases.renew(c, self.owner, mine)  # type: ignore[misc]
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
        since = time.time() - 4 * leases.LEASE_SECONDS
        urls = await self.store.aread(lambda c: leases.peer_urls(c, since))
        self.peer_urls = tuple(sorted(set(urls)))

    async def claim_tables(self) -> None:
        """Take every open table no live process runs (its lease ran out, or its process on
        this machine is dead), and resume its hand."""
        now = time.time()
        for row in await self.store.aread(leases.live_tables):
            if row.id in self.rooms:
                continue
            owner = row.lease_owner
            if owner is None or owner == self.owner or row.lease_until < now or leases.dead(owner):
                await self._take(row.id, owner)

    async def _take(self, table: int, holder: str | None = None) -> Room | None:
        got = await self.store.write(lambda c: leases.claim_table(c, table, self.owner, holder))
        if not got or table in self.rooms:
            return self.rooms.get(table)
        snap = await self.store.aread(lambda c: read_snapshot(c, table))
        for row in snap.seats:
            if row.account_id not in self._names:
                await self.learn_name(row.account_id)
        room = Room(self, snap)
        self.rooms[table] = room
        async with room.lock:
            await room.resume()
        return room

    async def drop_room(self, room: Room) -> None:
        """Another process took the room's table: its viewers are told where it went."""
        url = await self.store.aread(lambda c: leases.table_owner_url(c, room.id))
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
        if await self.store.aread(rows.any_table) is not None:
            return
        spec = TableSpec(game="holdem", rulebook="rws", stakes="1/2", seats=6)
        room = await self.create_table(self.house_id, "Demo: no-limit hold'em (rws)", spec, {})
        for seat in (2, 4, 6):
            await seating.add_bot(room, _House(self.house_id), f"demo-bot-{seat}", seat, None)

    # --- accounts and connections ----------------------------------------------------------

    def name_of(self, account: int) -> str:
        return self._names.get(account, f"account {account}")

    def named(self, account: int, name: str) -> None:
        """The account is called ``name`` (it registered, or said hello)."""
        self._names[account] = name

    async def learn_name(self, account: int) -> None:
        self._names[account] = await self.store.aread(lambda c: rows.account_name(c, account))

    def connected(self, account: int) -> bool:
        return bool(self.conns.get(account))

    def joined(self, conn: Client) -> None:
        """A connection said hello as its account."""
        assert conn.account_id is not None
        self.conns.setdefault(conn.account_id, set()).add(conn)

    def left(self, conn: Client) -> None:
        """A connection ended: it hears no table any more."""
        if conn.account_id is not None:
            conns = self.conns.get(conn.account_id, set())
            conns.discard(conn)
            if not conns:
                self.conns.pop(conn.account_id, None)
        self.hall.gone(conn)
        for table in conn.rooms:
            room = self.rooms.get(table)
            if room is not None:
                room.viewers.pop(conn, None)
                if conn.account_id is not None and room.seat_of(conn.account_id) is not None:
                    room.broadcast_seats()

    # --- requests: a resend is told from a new request ---------------------------------------

    async def recall(self, account: int) -> None:
        """The account's last stored request ids, read once per process (after a restart a
        resend is still a resend)."""
        if account not in self._recent:
            for request in await self.store.aread(lambda c: rows.recent_requests(c, account)):
                self.remember(account, request)

    def seen(self, account: int, request: str) -> bool:
        return request in self._recent.get(account, ())

    def keep(self, account: int, request: str, message: dict[str, Any]) -> None:
        """Keep the last requests an account made, to tell a resend from a new request that
        reuses an id (only the last KEPT_REQUESTS: a resend comes soon after)."""
        kept = self._kept.setdefault(account, OrderedDict())
        kept[request] = message
        if len(kept) > KEPT_REQUESTS:
            kept.popitem(last=False)

    def check_resent(self, account: int, request: str, message: dict[str, Any]) -> None:
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

    # --- tables --------------------------------------------------------------------------------

    async def bot_account(self, name: str) -> int:
        account = await self.store.write(lambda c: rows.bot_account(c, name))
        self._names[account] = name
        return int(account)

    async def create_table(
        self, owner: int, name: str, spec: TableSpec, settings: dict[str, Any]
    ) -> Room:
        spec = spec.written_out()
        game = GameTable(spec)
        check_new_table(game)  # SpecError: a table the book or the room refuses
        check_house_buy_in(spec, game.rules, game.buy_in.minimum)
        options = self.options
        values = {
            "clock": float(settings.get("clock", options.clock)),
            "bank": float(settings.get("bank", options.bank)),
            "sit_out_after": int(settings.get("sit_out_after", options.sit_out_after)),
            "pause": float(settings.get("pause", options.pause)),
        }
        text = dumps(spec.to_json())
        table = await self.store.write(
            lambda c: rows.open_table(c, owner, name, text, self.owner, values)
        )
        room = await self._take(table)
        assert room is not None
        return room

    async def room_for(self, table: int) -> Room:
        """The room of ``table``, run by this process (its lease taken), or :class:`Refused`:
        ``not_found``, ``closed``, or ``elsewhere`` with the process that runs it."""
        room = self.rooms.get(table)
        if room is not None:
            return room
        row = await self.store.aread(lambda c: rows.table_row(c, table))
        if row is None:
            raise Refused("not_found", f"no table {table}")
        if row.status not in s.LIVE:
            raise Refused("closed", f"table {table} is closed")
        owner = row.lease_owner
        running = owner not in (None, self.owner) and row.lease_until > time.time()
        room = None if running and not leases.dead(owner) else await self._take(table, owner)
        if room is None:
            url = await self.store.aread(lambda c: leases.table_owner_url(c, table))
            raise Refused("elsewhere", f"table {table} is run by another server process", url)
        return room
