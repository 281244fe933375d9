"""The live table's HTTP API (a dealer's tablet at a table with real cards;
croupier.server.live): open a table, send each step the dealer taps, read what the table shows,
download a finished hand as PHH or as the event log, and the irregularity reports the page's
dialog asks about. A dealer or an admin only, checked on every request; a table is its
opener's (and any admin's)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from croupier.irregularities.catalogue import catalogue
from croupier.server.live.table import LiveError, LiveSetup, LiveTable, LiveTables
from croupier.server.store.accounts import Account

if TYPE_CHECKING:
    from croupier.server.web.tournaments import Api

__all__ = ["routes"]

DEALERS = ("dealer", "admin")


def routes(api: Api) -> list[Route]:
    tables = LiveTables()  # this process's live tables

    def at(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        async def answer(request: Request) -> Response:
            account = await api.account(request, *DEALERS)
            try:
                table = tables.get(int(request.path_params["id"]))
                if table.owner != account.id and account.role != "admin":
                    return _error(403, f"live table {table.id} is another dealer's")
                return await handler(api, request, table, account)
            except LiveError as error:
                return _error(409, str(error))

        return answer

    return [
        Route("/api/live_reports", partial(reports, api), methods=["GET"]),
        Route("/api/live", partial(listing, api, tables), methods=["GET"]),
        Route("/api/live", partial(open_table, api, tables), methods=["POST"]),
        Route("/api/live/{id:id}", at(view), methods=["GET"]),
        Route("/api/live/{id:id}/step", at(step), methods=["POST"]),
        Route("/api/live/{id:id}/next", at(next_hand), methods=["POST"]),
        Route("/api/live/{id:id}/hands/{hand:id}/phh", at(phh), methods=["GET"]),
        Route("/api/live/{id:id}/hands/{hand:id}/log", at(log), methods=["GET"]),
    ]


Handler = Callable[["Api", Request, LiveTable, Account], Awaitable[Response]]


def _error(status: int, message: str) -> Response:
    return JSONResponse({"error": message}, status_code=status)


async def reports(api: Api, request: Request) -> Response:
    await api.account(request, *DEALERS)
    return JSONResponse({"groups": catalogue()})


async def listing(api: Api, tables: LiveTables, request: Request) -> Response:
    account = await api.account(request, *DEALERS)
    mine = [
        row
        for row in tables.listing()
        if account.role == "admin" or tables.get(int(str(row["live"]))).owner == account.id
    ]
    return JSONResponse({"live": mine})


async def open_table(api: Api, tables: LiveTables, request: Request) -> Response:
    account = await api.account(request, *DEALERS)
    body = await api.body(request)
    try:
        table = tables.open(account.id, LiveSetup.from_json(body))
    except LiveError as error:
        return _error(400, str(error))
    return JSONResponse(table.view())


async def view(api: Api, request: Request, table: LiveTable, account: Account) -> Response:
    return JSONResponse(table.view())


async def step(api: Api, request: Request, table: LiveTable, account: Account) -> Response:
    """One step; refused (409, the rule named, nothing changed) or done: what it did (its
    rulings with their clauses) and the table now."""
    body = await api.body(request)
    entry = table.step(body)
    return JSONResponse({"done": entry.to_json(), "table": table.view()})


async def next_hand(api: Api, request: Request, table: LiveTable, account: Account) -> Response:
    table.next_hand()
    return JSONResponse(table.view())


async def phh(api: Api, request: Request, table: LiveTable, account: Account) -> Response:
    number = int(request.path_params["hand"])
    text = table.phh(number)
    name = f"live-{table.id}-hand-{number}.phh"
    return PlainTextResponse(
        text, headers={"content-disposition": f'attachment; filename="{name}"'}
    )


async def log(api: Api, request: Request, table: LiveTable, account: Account) -> Response:
    number = int(request.path_params["hand"])
    text = table.event_log(number)
    name = f"live-{table.id}-hand-{number}.json"
    return Response(
        text,
        media_type="application/json",
        headers={"content-disposition": f'attachment; filename="{name}"'},
    )
