"""A Python client for the card room server (``croupier serve``; docs/protocol.md).

Bots, the load bench and scripts use it::

    import asyncio
    from croupier.client import Client

    async def main() -> None:
        client = await Client.register("http://127.0.0.1:8000", "alice", "a long password")
        await client.connect()
        table = (await client.tables())[0]["table"]
        await client.sit(table, seat=1, chips=200)
        while True:
            view = await client.my_turn(table)
            await client.act(table, "check_or_call")

    asyncio.run(main())

Every request carries an action id; :meth:`Client.request` resends the same id after a lost
connection, so the server applies it once. A table living in another server process answers
``elsewhere`` with its address, and the client follows it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import websockets

from croupier.client_socket import BytesLike, ClientSocket
from croupier.wire import dumps, loads

__all__ = ["Client", "ClientError", "TableView", "TournamentView"]


class ClientError(Exception):
    """The server refused a request: ``code`` (docs/protocol.md) and its message."""

    def __init__(self, code: str, message: str, url: str = "") -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.url = url


@dataclass
class TableView:
    """One table as this client has been told: kept up to date from the server's messages."""

    table: int
    you: int | None = None
    seats: list[dict[str, Any]] = field(default_factory=list)
    # The waiting list in order: name, seat (a seat change asked), since, offer (a seat held
    # for them) and offer_until.
    waiting: list[dict[str, Any]] = field(default_factory=list)
    offer: dict[str, Any] | None = None  # the last seat held for this player: seat, until
    closing: str | None = None  # why the table is closing
    closed: str | None = None  # why it closed (table_closed): the seats were cashed out
    moved_stack: int | None = None  # what this player may sit with elsewhere (buy-in 3)
    hand: int | None = None  # the hand number in play (or last played)
    button: int | None = None
    order: list[int] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    to_act: int | None = None
    legal: dict[str, Any] | None = None
    pot: int = 0
    results: list[dict[str, Any]] = field(default_factory=list)  # hand_over messages
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    # Set when it becomes this seat's turn (or the connection is lost): a player waiting for
    # its turn is not woken by every other message about the table.
    turn: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def my_turn(self) -> bool:
        return self.you is not None and self.to_act == self.you and self.legal is not None


@dataclass
class TournamentView:
    """A tournament as this client has been told: the table it follows (its own seat's, which
    the server moves when the tournament balances or breaks tables), the hand there, the clock
    and level, and the moves and results it was sent."""

    tournament: int
    table: int | None = None
    you: int | None = None
    status: str = ""
    seats: list[dict[str, Any]] = field(default_factory=list)
    hand: int | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    to_act: int | None = None
    legal: dict[str, Any] | None = None
    pot: int = 0
    clock: dict[str, Any] = field(default_factory=dict)
    moves: list[dict[str, Any]] = field(default_factory=list)  # tournament_move messages
    results: list[dict[str, Any]] = field(default_factory=list)  # tournament_hand_over
    standings: list[dict[str, Any]] | None = None  # at the end
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def my_turn(self) -> bool:
        return self.you is not None and self.to_act == self.you and self.legal is not None

    def receive(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "tournament_state":
            self.table, self.you, self.status = message["table"], message["you"], message["status"]
            self.seats, self.clock = message["seats"], message["clock"]
            hand = message["hand"]
            if hand is None:
                self.hand, self.events, self.to_act, self.legal, self.pot = None, [], None, None, 0
            else:
                self.hand, self.events = hand["number"], list(hand["events"])
                self.to_act, self.legal, self.pot = hand["to_act"], hand["legal"], hand["pot"]
        elif kind == "tournament_events":
            if message["table"] != self.table or message["hand"] != self.hand:
                return
            if message["from"] == len(self.events):
                self.events.extend(message["events"])
            self.to_act, self.legal, self.pot = message["to_act"], message["legal"], message["pot"]
        elif kind == "tournament_hand_over":
            self.results.append(message)
            if message["table"] == self.table:
                self.to_act = self.legal = None
        elif kind == "tournament_move":
            # Follow the move at once: the new table's state follows it.
            self.moves.append(message)
            self.table, self.you = message["table"], message["seat"]
            self.hand, self.events, self.to_act, self.legal = None, [], None, None
        elif kind == "tournament_over":
            self.standings = message["standings"]
            self.status = "finished"
        self.changed.set()


class Client:
    def __init__(self, url: str, token: str, name: str = "") -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.name = name
        self.ws: ClientSocket | None = None
        self.views: dict[int, TableView] = {}
        self.tournaments: dict[int, TournamentView] = {}
        self.welcome: dict[str, Any] | None = None
        self.listeners: list[Callable[[dict[str, Any]], None]] = []
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._acts: dict[str, Any] = {}  # the table of each action awaiting its answer
        self._ids = itertools.count(1)
        self._prefix = secrets.token_hex(4)
        self._hello: str | None = None  # the id of the hello the next welcome answers
        self._reconnecting = asyncio.Lock()
        self.closed = asyncio.Event()

    # --- accounts over HTTP -------------------------------------------------------------------

    @classmethod
    async def register(cls, url: str, name: str, password: str) -> Client:
        reply = await _http(url, "POST", "/api/register", {"name": name, "password": password})
        return cls(url, reply["token"], name)

    @classmethod
    async def login(cls, url: str, name: str, password: str) -> Client:
        reply = await _http(url, "POST", "/api/login", {"name": name, "password": password})
        return cls(url, reply["token"], name)

    async def http(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return await _http(self.url, method, path, body, self.token)

    async def tables(self, **filters: str) -> list[dict[str, Any]]:
        query = "&".join(f"{k}={v}" for k, v in filters.items())
        reply = await self.http("GET", "/api/tables" + (f"?{query}" if query else ""))
        return list(reply["tables"])

    async def create_table(self, spec: dict[str, Any], **settings: Any) -> int:
        reply = await self.http("POST", "/api/tables", {"spec": spec, **settings})
        return int(reply["table"])

    async def history(self, hand: int, kind: str = "phh") -> str:
        """A hand you played, as your seat saw it: ``kind`` "phh" or "pokerstars" (text)."""
        return await _http_text(self.url, f"/api/hands/{hand}/{kind}", self.token)

    # --- the WebSocket ------------------------------------------------------------------------

    async def connect(self, url: str | None = None) -> dict[str, Any]:
        """Open the WebSocket (to ``url``: another process's address) and say hello."""
        if url:
            self.url = url.rstrip("/")
        await self._close_socket()
        address = self.url.replace("http://", "ws://").replace("https://", "wss://") + "/ws"
        self.ws = await ClientSocket.connect(address, self._message, self._lost)
        self.closed.clear()
        self._hello = self.new_id()
        self.welcome = await self.request("hello", id=self._hello, token=self.token, want="welcome")
        return self.welcome

    def new_id(self) -> str:
        return f"{self._prefix}-{next(self._ids)}"

    async def send(self, message: dict[str, Any] | str) -> None:
        """Send as is (tests send malformed messages this way)."""
        if self.ws is None:
            raise ClientError("closed", "not connected")
        await self.ws.send(message if isinstance(message, str) else dumps(message))

    async def request(
        self,
        kind: str,
        *,
        id: str | None = None,
        want: str = "ok",
        retries: int = 3,
        timeout: float = 30.0,
        **fields: Any,
    ) -> dict[str, Any]:
        """Send a request and wait for its answer; after a lost connection, reconnect and send
        the same id again (applied once). Raises :class:`ClientError` when refused."""
        request = id or self.new_id()
        if kind == "act":  # answered by the events it causes at this table (or by `ok`)
            self._acts[request] = fields.get("table")
        try:
            return await self._request(kind, request, want, retries, timeout, fields)
        finally:
            if kind == "act":
                self._acts.pop(request, None)

    async def _request(
        self,
        kind: str,
        request: str,
        want: str,
        retries: int,
        timeout: float,
        fields: dict[str, Any],
    ) -> dict[str, Any]:
        for attempt in range(retries + 1):
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            # A lost connection fails every pending future, also one whose request gave up.
            future.add_done_callback(lambda f: f.cancelled() or f.exception())
            self._pending[request] = future
            try:
                await self.send({"type": kind, "id": request, **fields})
                reply = await asyncio.wait_for(future, timeout)
            except (websockets.ConnectionClosed, ConnectionError, ClientError) as error:
                self._pending.pop(request, None)
                if isinstance(error, ClientError) and error.code != "closed":
                    raise
                if attempt == retries or kind == "hello":
                    raise ClientError("closed", "the connection was lost") from None
                await asyncio.sleep(0.2 * (attempt + 1))
                await self.reconnect()
                continue
            if reply["type"] == "error":
                if reply["code"] == "elsewhere" and reply.get("url") and attempt < retries:
                    await self.connect(reply["url"])
                    continue
                if reply["code"] == "rate_limited" and attempt < retries:
                    await asyncio.sleep(0.5 * (attempt + 1))  # the same id again, later
                    continue
                raise ClientError(reply["code"], reply["message"], reply.get("url", ""))
            if want != "ok" and reply["type"] != want:
                raise ClientError("protocol", f"expected {want}, got {reply['type']}")
            return reply
        raise ClientError("closed", "gave up")

    async def reconnect(self) -> None:
        """Open a new connection unless another request already did (one at a time)."""
        lost = self.ws
        async with self._reconnecting:
            if self.ws is not lost and self.ws is not None and not self.closed.is_set():
                return
            with contextlib.suppress(OSError, websockets.WebSocketException, ClientError):
                await self.connect()
                for table in list(self.views):
                    # No retry here: a retry would reconnect, and this task holds the lock.
                    with contextlib.suppress(ClientError):
                        await self.request("watch", table=table, retries=0)
                for tournament in list(self.tournaments):
                    with contextlib.suppress(ClientError):
                        await self.request("tournament_watch", tournament=tournament, retries=0)

    def _message(self, data: BytesLike) -> None:
        self._receive(loads(data))

    def _lost(self, ws: ClientSocket) -> None:
        """The connection ``ws`` ended: every request waiting on it fails, every waiter wakes."""
        if self.ws is not None and ws is not self.ws:
            return  # one this client had already closed and replaced
        self.closed.set()
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ClientError("closed", "the connection was lost"))
        self._pending.clear()
        for view in self.views.values():
            view.changed.set()
            view.turn.set()
        for tournament in self.tournaments.values():
            tournament.changed.set()

    def _receive(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        for listener in self.listeners:
            listener(message)
        if kind in ("ok", "error", "pong", "welcome"):
            request = self._hello if kind == "welcome" else message.get("id")
            future = self._pending.pop(request, None) if request is not None else None
            if future is not None and not future.done():
                future.set_result(message)
            return
        if isinstance(kind, str) and kind.startswith("tournament_"):
            number = message["tournament"]
            self._tournament(number).receive(message)
            return
        table = message.get("table")
        if not isinstance(table, int):
            return
        view = self._view(table)
        if kind == "state":
            view.you, view.seats = message["you"], message["seats"]
            view.waiting, view.closing = message["waiting"], message["closing"]
            hand = message["hand"]
            if hand is None:
                view.to_act = view.legal = None
            else:
                view.hand, view.button, view.order = hand["number"], hand["button"], hand["order"]
                view.events = list(hand["events"])
                view.to_act, view.legal, view.pot = hand["to_act"], hand["legal"], hand["pot"]
        elif kind == "events":
            if message["hand"] == view.hand and message["from"] == len(view.events):
                view.events.extend(message["events"])
            view.to_act, view.legal, view.pot = message["to_act"], message["legal"], message["pot"]
            # Our action, stored and broadcast: the events it caused are its answer (no `ok`).
            cause = message["cause"]
            ours = cause is not None and self._acts.get(cause) == table
            if ours and _own_move_first(view, message):
                future = self._pending.pop(cause, None)
                if future is not None and not future.done():
                    future.set_result({"type": "ok", "id": cause, "duplicate": False})
        elif kind == "hand_over":
            view.results.append(message)
            view.to_act = view.legal = None
        elif kind == "seats":
            view.seats, view.waiting = message["seats"], message["waiting"]
        elif kind == "seat_offer":
            view.offer = {"seat": message["seat"], "until": message["until"]}
        elif kind == "table_closed":
            view.closed, view.moved_stack = message["reason"], message["moved_stack"]
            view.you, view.seats, view.waiting = None, [], []
            view.to_act = view.legal = None
        view.changed.set()
        if view.my_turn:
            view.turn.set()

    def _view(self, table: int) -> TableView:
        # Not setdefault: that would make (and drop) a view, two events with it, every message.
        view = self.views.get(table)
        if view is None:
            view = self.views[table] = TableView(table)
        return view

    def _tournament(self, number: int) -> TournamentView:
        view = self.tournaments.get(number)
        if view is None:
            view = self.tournaments[number] = TournamentView(number)
        return view

    # --- requests -------------------------------------------------------------------------------

    async def watch(self, table: int) -> TableView:
        view = self._view(table)
        await self.request("watch", table=table)
        return view

    async def sit(self, table: int, seat: int, chips: int) -> TableView:
        view = self._view(table)
        await self.request("sit", table=table, seat=seat, chips=chips)
        view.offer = None
        return view

    async def act(
        self,
        table: int,
        action: str,
        amount: int | None = None,
        cards: list[str] | None = None,
        *,
        id: str | None = None,
    ) -> dict[str, Any]:
        view = self.views[table]
        fields: dict[str, Any] = {"table": table, "hand": view.hand, "action": action}
        if amount is not None:
            fields["amount"] = amount
        if cards is not None:
            fields["cards"] = cards
        legal, view.legal = view.legal, None  # answered: wait for the next turn
        try:
            return await self.request("act", id=id, **fields)
        except ClientError as error:
            if error.code == "refused" and view.legal is None:
                view.legal = legal  # still our turn: choose again
            raise

    async def leave(self, table: int) -> None:
        await self.request("leave", table=table)

    async def wait(self, table: int, seat: int | None = None) -> None:
        """Join the table's waiting list: for a seat, or (seated) for a seat change, to
        ``seat`` or to any."""
        fields: dict[str, Any] = {"table": table}
        if seat is not None:
            fields["seat"] = seat
        await self.request("wait", **fields)

    async def unwait(self, table: int) -> None:
        """Leave the table's waiting list (and any seat held for this player)."""
        await self.request("unwait", table=table)

    async def top_up(self, table: int, chips: int) -> None:
        await self.request("top_up", table=table, chips=chips)

    async def add_bot(self, table: int, seat: int, chips: int | None = None) -> None:
        fields: dict[str, Any] = {"table": table, "seat": seat}
        if chips is not None:
            fields["chips"] = chips
        await self.request("add_bot", **fields)

    async def remove_bot(self, table: int, seat: int) -> None:
        """Take the bot in ``seat`` off the table (its owner, a dealer or an admin)."""
        await self.request("remove_bot", table=table, seat=seat)

    async def close_table(self, table: int, reason: str | None = None) -> None:
        """Close a table you own (or any, as a dealer or admin): after the hand in play, every
        seat is cashed out; the view's ``closed`` is set when it is done."""
        fields: dict[str, Any] = {"table": table}
        if reason is not None:
            fields["reason"] = reason
        await self.request("close_table", **fields)

    async def my_turn(self, table: int, timeout: float = 60.0) -> TableView:
        """Wait until this client's seat is to act at ``table``."""
        view = self.views[table]
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not view.my_turn:
            if self.closed.is_set():
                raise ClientError("closed", "the connection was lost")
            view.turn.clear()
            left = end - loop.time()
            if left <= 0:
                raise TimeoutError(f"not our turn at table {table} within {timeout} s")
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):  # no task per wait, as wait_for makes
                    await view.turn.wait()
        return view

    # --- tournaments ----------------------------------------------------------------------------

    async def tournament_list(self) -> list[dict[str, Any]]:
        """The lobby's tournaments: status, players, level, starting time."""
        return list((await self.http("GET", "/api/tournaments"))["tournaments"])

    async def tournament_info(self, tournament: int) -> dict[str, Any]:
        return dict(await self.http("GET", f"/api/tournaments/{tournament}"))

    async def create_tournament(self, settings: dict[str, Any], **options: Any) -> int:
        """A tournament from a tournament file's fields (dealer or admin); ``options``:
        name, starts_at, seed, clock, pause, bot."""
        reply = await self.http("POST", "/api/tournaments", {"settings": settings, **options})
        return int(reply["tournament"])

    async def register_tournament(self, tournament: int) -> str:
        """Buy in (or re-enter): the price leaves your balance. Refused, with the clause,
        when the rules do not allow it (late registration closed: league 19)."""
        return str((await self.http("POST", f"/api/tournaments/{tournament}/register"))["done"])

    async def buy_chips(self, tournament: int, kind: str = "rebuy") -> str:
        """A rebuy (``kind`` "rebuy") or the add-on ("add_on"), when the tournament has them."""
        return str((await self.http("POST", f"/api/tournaments/{tournament}/{kind}"))["done"])

    async def unregister_tournament(self, tournament: int) -> None:
        await self.http("POST", f"/api/tournaments/{tournament}/unregister")

    async def direct(self, tournament: int, action: str, **fields: Any) -> dict[str, Any]:
        """A director's control (dealer or admin): start, pause, resume, add_time, move,
        penalty, disqualify, close_registration, absent, present, void."""
        body = {"action": action, **fields}
        return dict(await self.http("POST", f"/api/tournaments/{tournament}/director", body))

    async def follow_tournament(self, tournament: int, table: int | None = None) -> TournamentView:
        """Follow your table in ``tournament`` (``table``: a table to watch when you have
        none); the view moves with you when the tournament moves you."""
        view = self._tournament(tournament)
        fields: dict[str, Any] = {"tournament": tournament}
        if table is not None:
            fields["table"] = table
        await self.request("tournament_watch", **fields)
        return view

    async def tournament_act(
        self, tournament: int, action: str, amount: int | None = None
    ) -> dict[str, Any]:
        view = self.tournaments[tournament]
        fields: dict[str, Any] = {
            "tournament": tournament, "table": view.table, "hand": view.hand, "action": action,
        }  # fmt: skip
        if amount is not None:
            fields["amount"] = amount
        view.legal = None  # answered: wait for the next turn
        return await self.request("tournament_act", **fields)

    async def tournament_turn(self, tournament: int, timeout: float = 60.0) -> TournamentView:
        """Wait until it is this client's turn in ``tournament``, or the tournament is over
        for it (eliminated, or finished: ``my_turn`` is then false)."""
        view = self.tournaments[tournament]
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not view.my_turn and view.status != "finished" and not self._out(view):
            if self.closed.is_set():
                raise ClientError("closed", "the connection was lost")
            view.changed.clear()
            left = end - loop.time()
            if left <= 0:
                raise TimeoutError(f"not our turn in tournament {tournament} within {timeout} s")
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):
                    await view.changed.wait()
        return view

    @staticmethod
    def _out(view: TournamentView) -> bool:
        return view.status == "running" and view.you is None  # not (or no longer) seated

    async def _close_socket(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        self.ws = None

    async def close(self) -> None:
        await self._close_socket()


def _own_move_first(view: TableView, message: dict[str, Any]) -> bool:
    """Whether an `events` message begins with this view's own seat's move. Action ids are
    each account's own, so another player at the table may use the same id: its events name
    that id as their cause too, and must not answer this client's action. True where the
    events do not say whose move they begin with."""
    player = message["events"][0].get("player") if message["events"] else None
    if not isinstance(player, int) or not 0 <= player < len(view.order):
        return True
    return view.order[player] == view.you


async def _http(
    url: str, method: str, path: str, body: dict[str, Any] | None = None, token: str = ""
) -> Any:
    def call() -> Any:
        data = dumps(body).encode() if body is not None else None
        request = urllib.request.Request(url.rstrip("/") + path, data=data, method=method)
        request.add_header("content-type", "application/json")
        if token:
            request.add_header("authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return loads(response.read())
        except urllib.error.HTTPError as error:
            try:
                detail = loads(error.read()).get("error", str(error))
            except ValueError:
                detail = str(error)
            raise ClientError(f"http {error.code}", str(detail)) from None

    return await asyncio.to_thread(call)


async def _http_text(url: str, path: str, token: str) -> str:
    def call() -> str:
        request = urllib.request.Request(url.rstrip("/") + path)
        request.add_header("authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return str(response.read().decode())
        except urllib.error.HTTPError as error:
            raise ClientError(f"http {error.code}", error.read().decode()) from None

    return await asyncio.to_thread(call)
