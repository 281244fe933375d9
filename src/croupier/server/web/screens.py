"""The floor's screens for tournaments, over the tournaments' HTTP API
(croupier.server.web.tournaments): the room's clock screen (``/clock/{id}``, no sign-in; a
private one needs its link's key), the director's console's reads (the seat draw, the move
slips, the log in one order, the schedule, the payouts as the pool grows, the screen's
settings), the templates a new tournament starts from, and a check of a tournament's settings
before it is made (its prizes for a field, the library's words for a mistake).

Every figure is the library's (croupier.tournament); the pages only draw them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from importlib import resources
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from croupier.server.rooms.room import Refused
from croupier.server.store import screens as screen_rows
from croupier.server.web.tournaments import DIRECTORS, Api
from croupier.tournament import Break, Level, TournamentError, TournamentSettings, prizes
from croupier.tournament.fileformat import tournament_from_mapping
from croupier.tournament.slips import log_lines, seat_draw, slips
from croupier.tournament.templates import templates

if TYPE_CHECKING:
    from croupier.server.tournaments.run import TournamentRun

__all__ = ["routes"]

MOST_FIELD = 10_000  # the largest field the settings check previews


def routes(api: Api) -> list[Route]:
    return [
        Route("/clock/{id:id}", clock_page, methods=["GET"]),
        Route("/api/tournament_templates", tournament_templates, methods=["GET"]),
        Route("/api/tournament_check", partial(check, api), methods=["POST"]),
        Route("/api/tournaments/{id:id}/clock", partial(_run(clock), api), methods=["GET"]),
        Route("/api/tournaments/{id:id}/console", partial(_run(console), api), methods=["GET"]),
        Route("/api/tournaments/{id:id}/screen", partial(_run(screen), api), methods=["POST"]),
    ]


Handler = Callable[[Api, Request, "TournamentRun"], Awaitable[Response]]


def _run(handler: Handler) -> Callable[[Api, Request], Awaitable[Response]]:
    """The handler, given the tournament, in the process that runs it (another process's
    request is passed to it)."""

    async def answer(api: Api, request: Request) -> Response:
        try:
            run = await api.room.hall.get(int(request.path_params["id"]))
        except Refused as refused:
            if refused.code == "elsewhere":
                return await api.forward(refused, request)
            status = 404 if refused.code == "not_found" else 409
            return JSONResponse({"error": str(refused), "code": refused.code}, status)
        return await handler(api, request, run)

    return answer


async def clock_page(request: Request) -> Response:
    page = (resources.files("croupier.server.web") / "static" / "clock.html").read_text()
    return HTMLResponse(page)


async def tournament_templates(request: Request) -> Response:
    return JSONResponse(templates())


def _stage(settings: TournamentSettings, index: int) -> dict[str, object]:
    stage = settings.stages[index]
    if isinstance(stage, Break):
        return {"stage": index, "break": True, "minutes": stage.seconds / 60}
    assert isinstance(stage, Level)
    return {
        "stage": index, "break": False, "level": settings.level_number(index),
        "small_blind": stage.small_blind, "big_blind": stage.big_blind, "ante": stage.ante,
        "big_blind_ante": stage.big_blind_ante, "minutes": stage.seconds / 60,
    }  # fmt: skip


def _prizes(run: TournamentRun) -> list[int]:
    """The prizes for places 1, 2, ... as the field stands (before the start: as it would be
    with those registered)."""
    if run.t.started:
        return list(run.t.prizes())
    count = len(run.entries)
    if not count:
        return []
    try:
        pool = count * run.settings.buy_in.to_pool
        return list(prizes(run.settings.payouts, pool, count, count))
    except TournamentError:
        return []


def _leader(run: TournamentRun) -> dict[str, object] | None:
    alive = [p for p in run.t.players.values() if p.status.value == "playing"]
    if not run.t.started or not alive:
        return None
    top = max(alive, key=lambda p: (p.chips, p.name))
    return {"name": top.name, "chips": top.chips}


async def clock(api: Api, request: Request, run: TournamentRun) -> Response:
    """What the room's clock screen shows; no sign-in, but a private screen needs its key."""
    found = await api.room.store.aread(lambda c: screen_rows.clock_screen(c, run.id))
    if found is None:
        return JSONResponse({"error": f"no tournament {run.id}"}, status_code=404)
    if found.private and request.query_params.get("key") != found.key:
        return JSONResponse(
            {"error": "this tournament's clock is private: open the link its director gives"},
            status_code=403,
        )
    stage = run.t.stage if run.t.started else 0
    stages = run.settings.stages
    later = [_stage(run.settings, i) for i in range(stage + 1, min(stage + 3, len(stages)))]
    return JSONResponse(
        {
            "tournament": run.id,
            "name": run.name,
            "status": run.status,
            "starts_at": run.starts_at,
            "clock": run.clock_info(),
            "stage": _stage(run.settings, stage),
            "next": later,
            "prizes": _prizes(run),
            "leader": _leader(run) if found.leader else None,
            "private": found.private,
        }
    )


async def console(api: Api, request: Request, run: TournamentRun) -> Response:
    """The director's console's reads: the details, the schedule, the seat draw, the move
    slips, the log in one order, the payouts as the pool stands and the clock screen's
    settings and link."""
    await api.account(request, *DIRECTORS)
    found = await api.room.store.aread(lambda c: screen_rows.clock_screen(c, run.id))
    assert found is not None  # the run is loaded: its row is there
    events = run.t.events
    link = f"/clock/{run.id}" + (f"?key={found.key}" if found.private else "")
    return JSONResponse(
        {
            **run.detail(),
            "registrants": [m.name for m in run.entries],
            "prizes": _prizes(run),
            "buy_in": {
                "price": run.settings.buy_in.price,
                "fee": run.settings.buy_in.fee,
                "chips": run.settings.buy_in.chips,
            },
            "stage": run.t.stage if run.t.started else None,
            "schedule": [_stage(run.settings, i) for i in range(len(run.settings.stages))],
            "draw": seat_draw(events),
            "slips": [slip.to_json() for slip in slips(events)],
            "log": log_lines(events, run.settings),
            "screen": {"private": found.private, "leader": found.leader, "link": link},
        }
    )


async def screen(api: Api, request: Request, run: TournamentRun) -> Response:
    """The director keeps the clock screen private (or not) and names the chip leader on it
    (or not)."""
    account = await api.account(request, *DIRECTORS)
    body = await api.body(request)
    values = {key: body.get(key, False) for key in ("private", "leader")}
    for key, value in values.items():
        if not isinstance(value, bool):
            return JSONResponse({"error": f"{key} must be true or false"}, status_code=400)
    await api.room.store.write(
        lambda c: screen_rows.set_clock_screen(
            c, account.id, run.id, values["private"], values["leader"]
        )
    )
    found = await api.room.store.aread(lambda c: screen_rows.clock_screen(c, run.id))
    assert found is not None
    link = f"/clock/{run.id}" + (f"?key={found.key}" if found.private else "")
    return JSONResponse({"private": found.private, "leader": found.leader, "link": link})


async def check(api: Api, request: Request) -> Response:
    """A new tournament's settings checked by the library, without making it: the schedule
    and the prizes a field of ``entries`` would share, or the library's words for what is
    wrong (naming the key and the rule)."""
    await api.account(request, *DIRECTORS)
    body = await api.body(request)
    entries = body.get("entries", 10)
    if isinstance(entries, bool) or not isinstance(entries, int) or not 1 <= entries <= MOST_FIELD:
        return JSONResponse({"error": f"entries must be 1..{MOST_FIELD}"}, status_code=400)
    data: Any = body.get("settings")
    try:
        if not isinstance(data, dict):
            raise TournamentError("settings: must be a tournament file's fields")
        settings = tournament_from_mapping(data)
        pool = entries * settings.buy_in.to_pool
        paid = prizes(settings.payouts, pool, entries, entries)
    except TournamentError as error:
        return JSONResponse({"error": str(error)}, status_code=400)
    return JSONResponse(
        {
            "entries": entries,
            "pool": pool,
            "prizes": list(paid),
            "schedule": [_stage(settings, i) for i in range(len(settings.stages))],
        }
    )
