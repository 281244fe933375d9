"""The tournaments' HTTP API (docs/protocol.md, "HTTP"): the lobby, creating a tournament,
entries, bots and the director's controls. Play is on the WebSocket (``tournament_watch``,
``tournament_act``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

import tomli
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from croupier.history.identity import HandIdentity, TournamentIdentity
from croupier.server.rooms.game_table import GameTable, RuleError
from croupier.server.rooms.room import Refused
from croupier.server.store import hands
from croupier.server.store.accounts import Account
from croupier.server.store.tournaments import Member
from croupier.server.tournaments.hand import load_setup, move_of
from croupier.server.web import histories
from croupier.tournament import EngineHands, HandSetup, TournamentError
from croupier.tournament.events import HandStarted
from croupier.wire import loads

if TYPE_CHECKING:
    from croupier.server.hall import CardRoom
    from croupier.server.tournaments.run import TournamentRun

__all__ = ["routes"]

DIRECTORS = ("dealer", "admin")
MOST_BOTS = 100


class Api(Protocol):
    """What the tournaments' routes use of the card room's HTTP API
    (croupier.server.web.http.HttpApi): the card room, who asks, the request's body, and
    passing a request on to the process that runs the tournament."""

    @property
    def room(self) -> CardRoom: ...
    async def account(self, request: Request, *roles: str) -> Account: ...
    async def body(self, request: Request) -> dict[str, Any]: ...
    async def forward(self, refused: Refused, request: Request) -> Response: ...


RunHandler = Callable[[Api, Request, "TournamentRun"], Awaitable[Response]]


def routes(api: Api) -> list[Route]:
    return [
        Route("/api/tournaments", partial(lobby, api), methods=["GET"]),
        Route("/api/tournaments", partial(create, api), methods=["POST"]),
        Route("/api/tournaments/{id:id}", partial(_here(detail), api), methods=["GET"]),
        Route("/api/tournaments/{id:id}/register", partial(_here(register), api), methods=["POST"]),
        Route(
            "/api/tournaments/{id:id}/unregister", partial(_here(unregister), api), methods=["POST"]
        ),
        Route("/api/tournaments/{id:id}/rebuy", partial(_here(buy_chips), api), methods=["POST"]),
        Route("/api/tournaments/{id:id}/add_on", partial(_here(buy_chips), api), methods=["POST"]),
        Route("/api/tournaments/{id:id}/bots", partial(_here(bots), api), methods=["POST"]),
        Route("/api/tournaments/{id:id}/hands", partial(my_hands, api), methods=["GET"]),
        Route(
            "/api/tournaments/{id:id}/hands/{hand:id}/phh",
            partial(hand_phh, api),
            methods=["GET"],
        ),
        Route(
            "/api/tournaments/{id:id}/hands/{hand:id}/pokerstars",
            partial(hand_pokerstars, api),
            methods=["GET"],
        ),
        Route(
            "/api/tournaments/{id:id}/hands/{hand:id}/log",
            partial(hand_log, api),
            methods=["GET"],
        ),
        Route("/api/tournaments/{id:id}/director", partial(_here(direct), api), methods=["POST"]),
    ]


def _here(handler: RunHandler) -> Callable[[Api, Request], Awaitable[Response]]:
    """The handler of a request about one tournament, given the tournament, in the process
    that runs it: another process's request is answered by that process
    (:meth:`Api.forward`)."""

    async def answer(api: Api, request: Request) -> Response:
        try:
            run = await api.room.hall.get(int(request.path_params["id"]))
        except Refused as refused:
            if refused.code == "elsewhere":
                return await api.forward(refused, request)
            return _refused(refused)
        return await handler(api, request, run)

    return answer


def _refused(refused: Refused) -> Response:
    codes = {"not_found": 404, "refused": 409, "elsewhere": 409, "unavailable": 503}
    body = {"error": str(refused), "code": refused.code}
    if refused.url:
        body["url"] = refused.url  # the process that runs the tournament
    return JSONResponse(body, status_code=codes.get(refused.code, 400))


async def lobby(api: Api, request: Request) -> Response:
    return JSONResponse({"tournaments": await api.room.hall.lobby()})


async def detail(api: Api, request: Request, run: TournamentRun) -> Response:
    return JSONResponse(run.detail())


async def create(api: Api, request: Request) -> Response:
    """A tournament from a tournament file's fields: ``settings`` (JSON) or ``file`` (TOML)."""
    account = await api.account(request, *DIRECTORS)
    body = await api.body(request)
    try:
        data: Any = body.get("settings")
        if isinstance(body.get("file"), str):
            try:
                data = tomli.loads(body["file"])
            except tomli.TOMLDecodeError as error:
                raise TournamentError(f"file: not valid TOML: {error}") from None
        options = {key: body.get(key) for key in ("starts_at", "seed", "clock", "pause")}
        for key, value in options.items():
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int | float)
            ):
                raise TournamentError(f"{key} must be a number, got {value!r}")
        if options["seed"] is not None and not isinstance(options["seed"], int):
            raise TournamentError("seed must be a whole number")
        for key in ("clock", "pause"):
            value = options[key]
            if value is not None and not 0 <= value <= 3600:
                raise TournamentError(f"{key} must be 0..3600 seconds")
        run = await api.room.hall.create(
            account.id,
            str(body.get("name") or ""),
            data,
            bot=str(body.get("bot") or "random"),
            **options,
        )
    except TournamentError as error:
        return JSONResponse({"error": str(error)}, status_code=400)
    return JSONResponse(run.detail())


async def register(api: Api, request: Request, run: TournamentRun) -> Response:
    """Buy in (or re-enter): the price from your balance, as ledger rows."""
    account = await api.account(request)
    try:
        done = await run.enter(Member(account.id, account.name, False), account.id)
    except Refused as refused:
        return _refused(refused)
    return JSONResponse({"tournament": run.id, "name": account.name, "done": done})


async def buy_chips(api: Api, request: Request, run: TournamentRun) -> Response:
    """A rebuy or the add-on (house options), as the tournament's settings allow them."""
    account = await api.account(request)
    kind = "rebuy" if request.url.path.endswith("/rebuy") else "add-on"
    try:
        done = await run.buy_chips(Member(account.id, account.name, False), account.id, kind)
    except Refused as refused:
        return _refused(refused)
    return JSONResponse({"tournament": run.id, "name": account.name, "done": done})


async def unregister(api: Api, request: Request, run: TournamentRun) -> Response:
    account = await api.account(request)
    try:
        await run.leave(Member(account.id, account.name, False), account.id)
    except Refused as refused:
        return _refused(refused)
    return JSONResponse({"tournament": run.id, "name": account.name, "done": "unregistered"})


async def bots(api: Api, request: Request, run: TournamentRun) -> Response:
    """The house enters ``count`` bots (their buy-ins staked from the cage)."""
    account = await api.account(request, *DIRECTORS)
    body = await api.body(request)
    count = body.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MOST_BOTS:
        return JSONResponse({"error": f"count must be 1..{MOST_BOTS}"}, status_code=400)
    names = []
    try:
        for _ in range(count):
            name = f"t{run.id}-bot{sum(m.bot for m in run.members.values()) + 1}"
            bot = await api.room.bot_account(name)
            await run.enter(Member(bot, name, True), account.id)
            names.append(name)
    except Refused as refused:
        return _refused(refused)
    return JSONResponse({"tournament": run.id, "bots": names})


async def direct(api: Api, request: Request, run: TournamentRun) -> Response:
    """The director's controls (dealer or admin; audited, applied or refused)."""
    account = await api.account(request)
    body = await api.body(request)
    try:
        if account.role not in DIRECTORS:
            refusal = run.refuse(
                account.id, f"{body.get('action')}: only a dealer or an admin directs"
            )
            return JSONResponse(
                {"error": f"only a dealer or an admin directs a tournament ({refusal})"},
                status_code=403,
            )
        done = await run.direct(account.id, account.name, body)
    except Refused as refused:
        return _refused(refused)
    return JSONResponse({"tournament": run.id, "done": done, "clock": run.clock_info()})


async def my_hands(api: Api, request: Request) -> Response:
    """The finished hands of the tournament you were dealt into."""
    account = await api.account(request)
    tournament = int(request.path_params["id"])
    found = await api.room.store.aread(
        lambda c: hands.tournament_hands_of(c, tournament, account.name)
    )
    return JSONResponse({"hands": found})


@dataclass(frozen=True)
class _Played:
    """A finished tournament hand dealt again, and who asks for it."""

    tournament: int
    hand_id: int
    row: Any
    settings: Any  # the tournament's settings, as stored (JSON)
    started: HandStarted | None  # the log's record of the hand's start
    setup: HandSetup
    names: list[str]
    dealt: GameTable
    engine: EngineHands
    seat: int | None  # the asking player's seat; None: the house's record
    house: bool


async def _played(api: Api, request: Request) -> _Played | Response:
    """The finished hand, if the asking account may have it: a player who sat in it (as their
    seat saw it), or an admin asking for the house's record (``?view=house``)."""
    account = await api.account(request)
    tournament, hand_id = int(request.path_params["id"]), int(request.path_params["hand"])
    house = request.query_params.get("view") == "house"
    if house and account.role != "admin":
        return JSONResponse({"error": "only an admin reads the house's record"}, status_code=403)
    stored = await api.room.store.aread(
        lambda c: hands.read_tournament_hand(c, tournament, hand_id)
    )
    row, moves, settings, starts = stored.row, stored.moves, stored.settings, stored.starts
    if row is None or row.status != "finished":
        return JSONResponse({"error": f"no finished hand {hand_id} here"}, status_code=404)
    setup = load_setup(row.setup)
    names = [seat.player for seat in setup.seats]
    # A table's hands are numbered again when it opens again: its start is the one with this
    # hand's seed and seats.
    dealt_in = tuple((x.seat, x.player, x.chips) for x in setup.seats)
    started = next((e for e in starts if e.seed == setup.seed and e.dealt == dealt_in), None)
    seat = next((x.seat for x in setup.seats if x.player == account.name), None)
    if seat is None and not house:
        return JSONResponse({"error": "you were not dealt into that hand"}, status_code=403)
    engine = EngineHands("league")
    try:
        dealt = GameTable.dealt_from(engine, setup, [(m.seat, move_of(m.move)) for m in moves])
    except (RuleError, ValueError) as error:
        return JSONResponse({"error": f"the hand cannot be dealt again: {error}"}, 422)
    return _Played(
        tournament, hand_id, row, settings, started, setup, names, dealt, engine,
        None if house else seat, house,
    )  # fmt: skip


async def _download(
    api: Api, request: Request, write: Callable[[_Played], str], what: str, suffix: str
) -> Response:
    """A finished tournament hand written by ``write``, as an attachment; 422 with the reason
    when it cannot be written as ``what``."""
    played = await _played(api, request)
    if isinstance(played, Response):
        return played
    try:
        text = write(played)
    except (RuleError, TournamentError, ValueError) as error:
        return JSONResponse({"error": f"the hand cannot be written as {what}: {error}"}, 422)
    name = f"tournament-{played.tournament}-hand-{played.hand_id}.{suffix}"
    return PlainTextResponse(
        text, headers={"content-disposition": f'attachment; filename="{name}"'}
    )


async def hand_phh(api: Api, request: Request) -> Response:
    """A finished tournament hand as PHH, as your seat saw it (``?view=house``: every card,
    admins only)."""
    return await _download(
        api, request,
        lambda p: histories.phh(
            p.dealt, p.seat, p.names, house=p.house,
            options=p.engine.options(p.setup.forced), identity=_identity(p),
        ),
        "PHH", "phh",
    )  # fmt: skip


async def hand_pokerstars(api: Api, request: Request) -> Response:
    """A finished tournament hand as PokerStars text, as your seat saw it (``?view=house``:
    every card, admins only): the ``Tournament #id, $buy-in+$fee`` header from the tournament's
    settings and the hand's blind level."""
    return await _download(
        api, request,
        lambda p: histories.pokerstars(
            p.dealt, p.seat, p.names, house=p.house, identity=_identity(p)
        ),
        "PokerStars text", "txt",
    )  # fmt: skip


async def hand_log(api: Api, request: Request) -> Response:
    """A finished tournament hand as croupier's event log (one JSON line: every event, as
    your seat saw it; ``?view=house``: every card, admins only), with its identity."""
    return await _download(
        api, request,
        lambda p: histories.event_log(
            p.dealt, p.seat, p.names, house=p.house, identity=_identity(p)
        ),
        "events", "jsonl",
    )  # fmt: skip


def _identity(played: _Played) -> HandIdentity:
    """The hand's identity: the card room's hand id, the table (PokerStars' 'T N': the
    tournament's number and the table's), its size and seats, the start, and the tournament:
    its number and name, the buy-in (to the prize pool) and fee in dollars (the settings'
    cents), and the blind level the hand was dealt at (the stage its HandStarted event
    records)."""
    from croupier.server.tournaments.run import read_settings  # the run's module, not at import

    settings = read_settings(loads(played.settings))
    if played.started is None:
        raise TournamentError(f"hand {played.hand_id}'s start is not in the tournament's log")
    number = settings.level_number(played.started.stage)
    price = settings.buy_in
    cents = Decimal(100)
    event = TournamentIdentity(
        played.tournament, number, settings.name,
        Decimal(price.price - price.fee) / cents if price.price else None,
        Decimal(price.fee) / cents,
    )  # fmt: skip
    return histories.identity(
        played.dealt, played.hand_id, played.row.table_no, played.row.started, event
    )
