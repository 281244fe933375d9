"""The card room's WebSocket (docs/protocol.md): one :class:`Conn` per connection, its
messages read, rate-limited, parsed against the protocol, its sender's token and role checked
again (:class:`~croupier.server.hall.sessions.Sessions`), its id checked for a resend, then
handed to the room or tournament that runs the table; answered ``ok`` or ``error``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from croupier.server.hall import CardRoom, Options
from croupier.server.records import Refused
from croupier.server.rooms import seating, waiting
from croupier.server.rooms.chat import Chats
from croupier.server.rooms.game_table import Move
from croupier.server.store import accounts
from croupier.server.store.database import StoreError
from croupier.server.web.protocol import MAX_MESSAGE, ProtocolError, parse_client_message
from croupier.wire import dumps, loads

__all__ = ["Conn", "Sockets"]

log = logging.getLogger("croupier.server")

OUTBOX_LIMIT = 5000  # messages waiting for a connection before it is let go
# The WebSocket close codes the server chooses (docs/protocol.md, "Rules of the road").
CLOSE_UNREAD = 1008  # OUTBOX_LIMIT messages waited: the client does not read
CLOSE_NO_HELLO = 4002  # no hello within Options.hello_seconds
CLOSE_TOO_MANY = 4003  # the address holds Options.sockets_before_hello connections before hello


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


class Sockets:
    """The process's WebSocket connections, served for its card room."""

    def __init__(self, room: CardRoom) -> None:
        self.room = room
        self.unheard: dict[str, int] = {}  # connections before hello, per address
        self.chats = Chats()  # the chat of each table this process runs

    async def serve_socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        conn = Conn(websocket, self.room.options)
        address = websocket.client.host if websocket.client is not None else ""
        most = self.room.options.sockets_before_hello
        if most and self.unheard.get(address, 0) >= most:
            log.info("%s holds %d connections before hello: one more closed", address, most)
            with contextlib.suppress(Exception):
                await websocket.close(CLOSE_TOO_MANY, "too many connections before hello")
            return
        conn.address = address
        self.unheard[address] = self.unheard.get(address, 0) + 1
        conn.task = asyncio.create_task(conn.sender())
        deadline = asyncio.get_running_loop().call_later(
            self.room.options.hello_seconds, self._no_hello, conn
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
            self.room.left(conn)
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
            left = self.unheard.get(conn.address, 1) - 1
            if left > 0:
                self.unheard[conn.address] = left
            else:
                self.unheard.pop(conn.address, None)
            conn.address = ""

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
            await self.room.sessions.authorise(conn)  # the token still valid, the role as it is now
            if self.room.seen(conn.account_id, request):
                self.room.check_resent(conn.account_id, request, message)
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
                self.room.remember(conn.account_id, request)
            self.room.keep(conn.account_id, request, message)
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
        run = await self.room.hall.get(message["tournament"])
        if kind == "tournament_watch":
            await run.watch(conn, message.get("table"))
        elif kind == "tournament_act":
            move = Move(message["action"], message.get("amount"), tuple(message.get("cards", ())))
            await run.act(conn, message["id"], message["table"], message["hand"], move)

    async def _dispatch(self, conn: Conn, kind: str, message: dict[str, Any]) -> bool:
        """Apply a table request; whether it is answered already (an action whose `events`
        the acting connection was sent: one frame fewer for every action)."""
        request = message["id"]
        room = await self.room.room_for(message["table"])
        if kind == "watch":
            room.viewers[conn] = None
            conn.rooms.add(room.id)
            conn.send(room.state_message(conn.account_id))
            self.chats.recall(room, conn)
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
        elif kind == "chat":
            await self.chats.say(room, conn, request, message["text"])
        elif kind == "chat_silence":
            await self.chats.silence(room, conn, request, message["seat"], message["silenced"])
        elif kind == "void_hand":
            if conn.role not in ("dealer", "admin"):
                raise Refused("unauthorised", "only a dealer or an admin voids a hand")
            await room.void(message.get("reason") or "voided by the floor", conn.account_id)
        return False

    async def _hello(self, conn: Conn, token: str) -> None:
        room, sessions = self.room, self.room.sessions
        changes = sessions.changes
        account = await room.store.aread(lambda c: accounts.account_of_token(c, token))
        if account is None or account.role not in accounts.ROLES:
            raise Refused("unauthorised", "unknown or expired token: log in again")
        if conn.account_id is not None and conn.account_id != account.id:
            raise Refused("unauthorised", "this connection already belongs to another account")
        if conn.closed:
            return
        digest = accounts.digest(token)
        if sessions.revoked(digest):
            raise Refused("unauthorised", "unknown or expired token: log in again")
        sessions.checked(digest, account.id, account.role, changes)
        conn.account_id, conn.name, conn.role = account.id, account.name, account.role
        conn.token = digest
        self._heard(conn)
        sessions.set_role(account.id, account.role)
        room.named(account.id, account.name)
        room.joined(conn)
        await room.recall(account.id)

        places = await room.store.aread(lambda c: seating.places_of(c, account.id))
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
                table_room = await room.room_for(table)
            except Refused:
                continue  # run by another process: the client follows it when it acts there
            table_room.viewers[conn] = None
            conn.rooms.add(table_room.id)
            conn.send(table_room.state_message(account.id))
            if table in sitting:
                await seating.returned(table_room, account.id)
        await room.hall.returned(conn)


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
