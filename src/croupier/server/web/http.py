"""The card room's HTTP API: accounts, the lobby, the cashier, the ledger, hand histories and
the audit log (docs/protocol.md, "HTTP"). Play itself is on the WebSocket
(croupier.server.web.socket)."""

from __future__ import annotations

import asyncio
import math
import time
import urllib.error
import urllib.request
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import TYPE_CHECKING, Any, TypeVar

from starlette.convertors import Convertor, register_url_convertor
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from croupier.citing import book_prefix, in_force
from croupier.server.rooms.game_table import RuleError
from croupier.server.rooms.room import Refused
from croupier.server.rooms.table_spec import SpecError, TableSpec
from croupier.server.store import accounts as auth
from croupier.server.store import hand_list, hands, ledger, lobby
from croupier.server.store import rooms as room_rows
from croupier.server.store.database import StoreError
from croupier.server.store.table_log import TableLogError
from croupier.server.web import histories, live, pages, screens
from croupier.server.web import tournaments as tourney_http
from croupier.wire import loads

if TYPE_CHECKING:
    from croupier.server.hall import CardRoom

__all__ = ["HTTPError", "HttpApi", "SecurityHeaders", "http_error"]

MAX_BODY = 16384
FORWARDED = "x-croupier-forwarded"  # a request one process passed to another (HttpApi.forward)
PASSWORD_THREADS = 2
MAX_PASSWORD_WAITING = 64
FORWARD_THREADS = 4
MAX_FORWARDS_WAITING = 64
FORWARD_TIMEOUT = 15.0  # seconds another process has to answer a request passed to it
LEDGER_ROWS = 500  # GET /api/ledger: an account's last rows
T = TypeVar("T")


class IdConvertor(Convertor[int]):
    """A path's row id (``{table:id}``): at most 18 digits, so that a longer number is no
    route (404) rather than an integer the database cannot hold."""

    regex = "[0-9]{1,18}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(value)


register_url_convertor("id", IdConvertor())


class HTTPError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


async def http_error(request: Request, error: Exception) -> Response:
    """The API's refusals, and Starlette's own (no such route, method not allowed), as JSON
    ``{"error": ...}``; a page's are Starlette's plain text."""
    if isinstance(error, HTTPError):
        return JSONResponse({"error": str(error)}, status_code=error.status)
    assert isinstance(error, StarletteHTTPException)
    if not request.url.path.startswith("/api/"):
        return PlainTextResponse(error.detail, error.status_code, headers=error.headers)
    return JSONResponse(
        {"error": f"{error.detail}: {request.method} {request.url.path}"},
        status_code=error.status_code,
        headers=error.headers,
    )


async def _read_at_most(request: Request, limit: int) -> bytes:
    """The request's body, refused (413) once it is longer than ``limit``: what it says it
    holds is checked first, and what it sends is not read past the limit."""
    too_long = HTTPError(413, f"a request body holds at most {limit} bytes")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_long
    parts, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_long
        parts.append(chunk)
    return b"".join(parts)


# A table's house settings: the unit, the least and the most, and whether whole numbers only.
_TABLE_SETTINGS: dict[str, tuple[str, float, float, bool]] = {
    "clock": ("seconds to act", 1, 3600, False),
    "bank": ("seconds of time bank", 0, 3600, False),
    "pause": ("seconds between hands", 0, 3600, False),
    "sit_out_after": ("hands timed out while disconnected before sitting out", 0, 100, True),
}
_NAME_LENGTH = 60


def _cite(message: str, spec: object) -> str:
    """A refused table's ``message`` citing the clauses of the book it asked for."""
    book = spec.get("rulebook") if isinstance(spec, dict) else None
    return in_force(message, book_prefix(book))


def _throttled(throttle: Throttle, address: str, what: str) -> None:
    wait = throttle.wait(address)
    if wait > 0:
        raise HTTPError(
            429,
            f"too many {what} (at most {throttle.most} in {throttle.window / 60:g} minutes, "
            f"the house's limit): try again in {math.ceil(wait)} s",
        )


def _table_setting(key: str, value: object) -> float:
    words, least, most, whole = _TABLE_SETTINGS[key]
    kinds = int if whole else int | float
    if isinstance(value, bool) or not isinstance(value, kinds) or not least <= value <= most:
        number = "a whole number" if whole else "a number"
        raise SpecError(f"{key} is {number} of {words}, {least:g} to {most:g}; got {value!r}")
    return value


def _table_name(value: object, default: str) -> str:
    if value is None or value == "":
        return default
    if not isinstance(value, str) or not value.isprintable() or len(value) > _NAME_LENGTH:
        raise SpecError(
            f"a table's name is text of at most {_NAME_LENGTH} printable characters; "
            f"got {value!r:.80}"
        )
    return value


class Throttle:
    """At most ``most`` events a key (a client's address, an account's name) within ``window``
    seconds; 0: no limit. Only the last ``keep`` keys are remembered, so memory stays bounded."""

    def __init__(self, most: int, window: float, keep: int = 10_000) -> None:
        self.most, self.window, self.keep = most, window, keep
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may act again (0: now)."""
        times = self._seen.get(key)
        if not self.most or times is None:
            return 0.0
        now = time.monotonic()
        while times and times[0] <= now - self.window:
            times.popleft()
        return 0.0 if len(times) < self.most else times[0] + self.window - now

    def note(self, key: str) -> None:
        if not self.most:
            return
        times = self._seen.pop(key, None) or deque(maxlen=self.most)
        times.append(time.monotonic())
        self._seen[key] = times
        if len(self._seen) > self.keep:
            self._seen.popitem(last=False)

    def forgive(self, key: str) -> None:
        """Take back the last :meth:`note` (an attempt counted before its outcome was known,
        which turned out not to count)."""
        times = self._seen.get(key)
        if times:
            times.pop()


class Lane:
    """Threads of their own for slow blocking work, so that a flood of it waits for them and
    not for the database reads everyone else waits on; at most ``most_waiting`` wait, and more
    are refused (503, ``busy``) until the queue drains."""

    def __init__(self, threads: int, most_waiting: int, name: str, busy: str) -> None:
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix=name)
        self.most_waiting, self.busy, self.waiting = most_waiting, busy, 0

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        if self.waiting >= self.most_waiting:
            raise HTTPError(503, self.busy)
        self.waiting += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)
        finally:
            self.waiting -= 1

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else ""


class SecurityHeaders:
    """Every HTTP answer's security headers: the page runs its own scripts and styles only (ES
    modules from /static, no inline script, no eval), talks to its own origin and, by
    WebSocket, to the card room's other processes (a table may live in one: CardRoom.peer_urls),
    is framed by nobody, and sends no referrer (docs/protocol.md, "HTTP")."""

    def __init__(self, app: Any, room: CardRoom) -> None:
        self.app, self.room = app, room
        self._policy: tuple[tuple[str, ...], list[tuple[bytes, bytes]]] = ((), [])

    def headers(self) -> list[tuple[bytes, bytes]]:
        peers = self.room.peer_urls
        if self._policy[1] and self._policy[0] == peers:
            return self._policy[1]
        sockets = sorted({_socket_url(url) for url in peers})
        connect = " ".join(["'self'", *sockets])
        policy = (
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"connect-src {connect}; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'"
        )
        headers = [
            (b"content-security-policy", policy.encode("latin-1")),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
        ]
        self._policy = (peers, headers)
        return headers

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *self.headers()]}
            await send(message)

        await self.app(scope, receive, with_headers)


def _socket_url(url: str) -> str:
    """The WebSocket origin of a process's public address (http://h:p -> ws://h:p)."""
    return "ws" + url.rstrip("/")[4:] if url.startswith("http") else url


class HttpApi:
    def __init__(self, room: CardRoom) -> None:
        self.room = room
        # New accounts (each comes with welcome chips) and failed logins, per address; and
        # failed logins per name, which guesses spread over many addresses meet.
        options = room.options
        self._registrations = Throttle(options.registrations_per_hour, 3600.0)
        self._login_failures = Throttle(options.login_failures, 600.0)
        self._name_failures = Throttle(options.name_login_failures, 600.0)
        # Slow work on lanes of its own: password hashing (argon2, slow on purpose) and
        # requests passed to other processes (which may hang until their time-out).
        self._passwords = Lane(
            PASSWORD_THREADS, MAX_PASSWORD_WAITING, "argon2",
            "too many logins and registrations at once: try again shortly",
        )  # fmt: skip
        self._forwards = Lane(
            FORWARD_THREADS, MAX_FORWARDS_WAITING, "forward",
            "too many requests being passed to other server processes: try again shortly",
        )  # fmt: skip

    def close(self) -> None:
        self._passwords.close()
        self._forwards.close()

    def routes(self) -> list[Any]:
        static = resources.files("croupier.server.web") / "static"
        return [
            Route("/", self.index),
            Route("/api/register", self.register, methods=["POST"]),
            Route("/api/login", self.login, methods=["POST"]),
            Route("/api/logout", self.logout, methods=["POST"]),
            Route("/api/me", self.me),
            Route("/api/tables", self.list_tables, methods=["GET"]),
            Route("/api/tables", self.new_table, methods=["POST"]),
            Route("/api/tables/{table:id}", self.table_info),
            Route("/api/ledger", self.my_ledger),
            Route("/api/ledger/check", self.ledger_check),
            Route("/api/cashier", self.cashier, methods=["POST"]),
            Route("/api/accounts/{name}/role", self.set_role, methods=["POST"]),
            Route("/api/hands", self.my_hands),
            Route("/api/hands/{hand:id}/phh", self.hand_phh),
            Route("/api/hands/{hand:id}/pokerstars", self.hand_pokerstars),
            Route("/api/audit", self.audit_log),
            Route("/api/health", self.health),
            *tourney_http.routes(self),  # the tournaments (croupier.server.web.tournaments)
            *screens.routes(self),  # the clock screen and the director's console's reads
            *live.routes(self),  # live tables: the dealer's tablet (croupier.server.live)
            *pages.routes(self.room),  # the browser table's reads (croupier.server.web.pages)
            Mount("/static", StaticFiles(directory=str(static)), name="static"),
        ]

    async def index(self, request: Request) -> Response:
        page = (resources.files("croupier.server.web") / "static" / "index.html").read_text()
        return HTMLResponse(page)

    async def health(self, request: Request) -> Response:
        writer = self.room.store.writer
        stats = {
            **self.room.stats,
            "commits": writer.commits,
            "writer_busy": writer.busy,
            "writer_commit": writer.committing,
            "writer_cpu": writer.cpu,
            "writer_overlapped": writer.overlapped,
            "writer_failed": writer.failed,
        }
        tables = sorted(self.room.rooms)
        return JSONResponse(
            {"ok": True, "server": self.room.owner, "tables": tables, "stats": stats}
        )

    async def body(self, request: Request) -> dict[str, Any]:
        raw = await _read_at_most(request, MAX_BODY)
        try:
            body = loads(raw or b"{}")
        except ValueError:
            raise HTTPError(400, "the body must be JSON") from None
        if not isinstance(body, dict):
            raise HTTPError(400, "the body must be a JSON object")
        return body

    async def forward(self, refused: Refused, request: Request) -> Response:
        """Answer a request about a table or tournament that another process runs (``refused``
        says where) with that process's own answer: any process answers any request, whatever
        a load balancer chose. Once only: a request forwarded already is answered 409 with the
        address, and an unknown address too."""
        if not refused.url or request.headers.get(FORWARDED):
            body = {"error": str(refused), "code": "elsewhere", "url": refused.url or ""}
            return JSONResponse(body, status_code=409)
        content = await _read_at_most(request, MAX_BODY)
        query = f"?{request.url.query}" if request.url.query else ""
        target = refused.url.rstrip("/") + request.url.path + query
        headers = {
            k: v for k, v in request.headers.items() if k in ("authorization", "content-type")
        }
        headers[FORWARDED] = "1"

        def call() -> tuple[int, str, bytes]:
            ask = urllib.request.Request(
                target, data=content or None, method=request.method, headers=headers
            )
            try:
                with urllib.request.urlopen(ask, timeout=FORWARD_TIMEOUT) as answer:
                    return answer.status, answer.headers.get_content_type(), answer.read()
            except urllib.error.HTTPError as error:  # its answer, a refusal: passed on as is
                return error.code, error.headers.get_content_type(), error.read()

        try:
            status, kind, answer = await self._forwards.run(call)
        except OSError:
            why = f"{refused}, at {refused.url}, which did not answer: try again in a moment"
            return JSONResponse({"error": why, "code": "unavailable"}, status_code=503)
        return Response(answer, status_code=status, media_type=kind)

    async def account(self, request: Request, *roles: str) -> auth.Account:
        header = request.headers.get("authorization", "")
        token = header[7:] if header.lower().startswith("bearer ") else ""
        account = await self.room.store.aread(lambda c: auth.account_of_token(c, token))
        if account is None:
            raise HTTPError(401, "log in first: Authorization: Bearer <token>")
        if roles and account.role not in roles:
            raise HTTPError(403, f"only {' or '.join(roles)} may do that")
        return account

    async def register(self, request: Request) -> Response:
        body = await self.body(request)
        name, password = body.get("name"), body.get("password")
        try:
            auth.check_new(name, password)  # type: ignore[arg-type]
        except auth.AuthError as error:
            raise HTTPError(400, str(error)) from None
        address = _address(request)
        _throttled(self._registrations, address, "new accounts from your address")
        self._registrations.note(address)
        hashed = await self._passwords.run(auth.hash_password, str(password))
        welcome = self.room.options.welcome
        try:
            account, token = await self.room.store.write(
                lambda c: auth.open_account(c, str(name), hashed, welcome)
            )
        except auth.AuthError as error:
            raise HTTPError(409, str(error)) from None
        self.room.named(account, str(name))
        return JSONResponse({"account": account, "name": name, "role": "player", "token": token})

    async def login(self, request: Request) -> Response:
        body = await self.body(request)
        name, password = str(body.get("name", ""))[:40], str(body.get("password", ""))[:200]
        address = _address(request)
        _throttled(self._login_failures, address, "failed logins from your address")
        _throttled(self._name_failures, name, "failed logins for this name")
        # Counted as a failure until it succeeds: guesses sent at once are each counted before
        # any is checked, so a burst is held to the limit too.
        self._login_failures.note(address)
        self._name_failures.note(name)
        try:
            account, stored = await self.room.store.aread(lambda c: auth.login_of(c, name))
            matches = await self._passwords.run(auth.password_matches, stored, password)
        except BaseException:  # not checked (503, the database): not a guess
            self._login_failures.forgive(address)
            self._name_failures.forgive(name)
            raise
        if account is None or not matches:
            raise HTTPError(401, "wrong name or password")
        self._login_failures.forgive(address)
        self._name_failures.forgive(name)
        token = await self.room.store.write(lambda c: auth.new_token(c, account.id))
        return JSONResponse(
            {"account": account.id, "name": account.name, "role": account.role, "token": token}
        )

    async def logout(self, request: Request) -> Response:
        await self.account(request)
        token = request.headers["authorization"][7:]
        await self.room.store.write(lambda c: auth.forget_token(c, token))
        # The token's connections here are closed now; other processes' at their next
        # message, or within Options.session_seconds (CardRoom.authorise).
        self.room.sessions.revoke(auth.digest(token))
        return JSONResponse({"ok": True})

    async def me(self, request: Request) -> Response:
        account = await self.account(request)
        places = await self.room.store.aread(lambda c: room_rows.places_of(c, account.id))
        return JSONResponse(
            {
                "account": account.id,
                "name": account.name,
                "role": account.role,
                "balance": account.balance,
                **places,
            }
        )

    async def list_tables(self, request: Request) -> Response:
        wanted = {
            k: v
            for k, v in request.query_params.items()
            if k in ("game", "rulebook", "structure", "stakes")
        }
        free = bool(request.query_params.get("open_seats"))
        tables = await self.room.store.aread(lambda c: lobby.tables(c, wanted, free))
        return JSONResponse({"tables": tables})

    async def new_table(self, request: Request) -> Response:
        account = await self.account(request)
        body = await self.body(request)
        try:
            unknown = sorted(set(body) - {"name", "spec", *_TABLE_SETTINGS})
            if unknown:
                raise SpecError(
                    f"a new table has no {', '.join(unknown)}: send name, spec and any of "
                    f"{', '.join(_TABLE_SETTINGS)}"
                )
            spec = TableSpec.from_json(body.get("spec", {}))
            settings = {k: _table_setting(k, body[k]) for k in _TABLE_SETTINGS if k in body}
            name = _table_name(body.get("name"), f"{account.name}'s table")
            await self._check_tables_owned(account)
            room = await self.room.create_table(account.id, name, spec, settings)
        except (SpecError, TypeError) as error:
            raise HTTPError(400, _cite(str(error), body.get("spec"))) from None
        return JSONResponse({"table": room.id, "name": room.name, "spec": room.spec.to_json()})

    async def _check_tables_owned(self, account: auth.Account) -> None:
        """A player owns at most the house's number of open tables (tables stay open, in
        memory, for as long as the room runs); dealers and admins make as many as they need."""
        most = self.room.options.tables_per_player
        if account.role != "player":
            return
        owned = await self.room.store.aread(lambda c: lobby.open_tables_of(c, account.id))
        if owned >= most:
            raise HTTPError(409, f"a player may own at most {most} open tables (the house's limit)")

    async def table_info(self, request: Request) -> Response:
        table = int(request.path_params["table"])
        try:
            room = await self.room.room_for(table)
        except Refused as refused:
            if refused.code == "elsewhere":
                return await self.forward(refused, request)
            return JSONResponse(
                {"error": str(refused), "url": refused.url or ""},
                status_code={"not_found": 404, "closed": 410}.get(refused.code, 409),
            )
        return JSONResponse(room.state_message(None))

    async def my_ledger(self, request: Request) -> Response:
        account = await self.account(request)
        rows = await self.room.store.aread(
            lambda c: ledger.account_rows(c, account.id, LEDGER_ROWS)
        )
        return JSONResponse({"balance": account.balance, "rows": rows[::-1]})

    async def ledger_check(self, request: Request) -> Response:
        await self.account(request, "dealer", "admin")
        problems = await self.room.store.aread(ledger.check_ledger)
        for room in self.room.rooms.values():
            problems += room.check_chips()
        return JSONResponse({"balanced": not problems, "problems": problems})

    async def cashier(self, request: Request) -> Response:
        """The cage: a dealer or admin cashes chips in for an account (a ledger row each)."""
        cashier = await self.account(request, "dealer", "admin")
        body = await self.body(request)
        name, amount = str(body.get("name", "")), body.get("amount")
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= 10**9:
            raise HTTPError(400, "amount must be a whole number of chips, 1..10^9")
        try:
            balance = await self.room.store.write(
                lambda c: ledger.cash_in(c, name, amount, cashier.id, cashier.name)
            )
        except StoreError as error:
            raise HTTPError(404, str(error)) from None
        return JSONResponse({"name": name, "balance": balance})

    async def set_role(self, request: Request) -> Response:
        admin = await self.account(request, "admin")
        body = await self.body(request)
        role, name = body.get("role"), request.path_params["name"]
        if role not in auth.ROLES:
            raise HTTPError(400, f"role must be one of {', '.join(auth.ROLES)}")
        account = await self.room.store.write(lambda c: auth.set_role(c, name, str(role), admin.id))
        if account is None:
            raise HTTPError(404, f"no player account {name!r}")
        # Its connections here have the new role from their next message on; other
        # processes' within Options.session_seconds (CardRoom.authorise).
        self.room.sessions.role_changed(account, str(role))
        return JSONResponse({"name": name, "role": role})

    async def my_hands(self, request: Request) -> Response:
        """The hands the account was dealt, each with its table's name and game, and the
        account's net result in it."""
        account = await self.account(request)
        rows = await self.room.store.aread(lambda c: hand_list.hands_listed(c, account.id))
        listed = []
        for row in rows:
            spec = loads(row.pop("spec"))
            listed.append(
                {
                    **row,
                    "game": spec.get("game"),
                    "rulebook": spec.get("rulebook"),
                    "stakes": spec.get("stakes"),
                }
            )
        return JSONResponse({"hands": listed})

    async def hand_phh(self, request: Request) -> Response:
        """A finished hand as PHH, as the asking player's seat saw it (an admin may ask for
        the house's record with ``?view=house``)."""
        return await self._history(request, "phh")

    async def hand_pokerstars(self, request: Request) -> Response:
        """A finished hand as PokerStars text, as the asking player's seat saw it (an admin
        may ask for the house's record with ``?view=house``)."""
        return await self._history(request, "txt")

    async def _history(self, request: Request, kind: str) -> Response:
        account = await self.account(request)
        hand_id = int(request.path_params["hand"])
        house = request.query_params.get("view") == "house"
        if house and account.role != "admin":
            raise HTTPError(403, "only an admin reads the house's record")
        found = await self.room.store.aread(lambda c: hands.read_finished(c, hand_id))
        if found is None:
            raise HTTPError(404, f"no finished hand {hand_id}")
        seat = found.seat_of(account.id)
        if seat is None and not house:
            raise HTTPError(403, "you were not dealt into that hand")
        viewer = None if house else seat
        names = [row[2] for row in found.dealt]
        try:
            game = histories.deal_again(found)
            identity = histories.identity(game, hand_id, found.table_name, found.row.started)
            if kind == "phh":
                text = histories.phh(
                    game, viewer, names, house=house, options=game.options, identity=identity
                )
            else:
                text = histories.pokerstars(game, viewer, names, house=house, identity=identity)
        except (RuleError, SpecError, TableLogError) as error:
            what = "PHH" if kind == "phh" else "PokerStars text"
            raise HTTPError(422, f"the hand cannot be written as {what}: {error}") from None
        return PlainTextResponse(
            text, headers={"content-disposition": f'attachment; filename="hand-{hand_id}.{kind}"'}
        )

    async def audit_log(self, request: Request) -> Response:
        await self.account(request, "dealer", "admin")
        rows = await self.room.store.aread(ledger.audit_rows)
        return JSONResponse({"rows": rows})
