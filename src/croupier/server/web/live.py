"""The live table's HTTP API (a dealer's tablet at a table with real cards;
croupier.server.live): open a table, send each step the dealer taps, read what the table shows,
download a finished hand as PHH or as the event log, and the irregularity reports the page's
dialog asks about. A dealer or an admin only, checked on every request; a table is its
opener's (and any admin's). Every applied step is stored in the table's journal
(croupier.server.store.live) before it is answered: after a restart, or in another process,
the table is made again from it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from croupier.irregularities.catalogue import catalogue
from croupier.server.live.table import NEXT, LiveError, LiveSetup, LiveTable, LiveTables
from croupier.server.store import live as live_rows
from croupier.server.store.accounts import Account
from croupier.server.store.database import StoreError

if TYPE_CHECKING:
    from croupier.server.web.tournaments import Api

__all__ = ["routes"]

DEALERS = ("dealer", "admin")


def routes(api: Api) -> list[Route]:
    tables = LiveTables()  # this process's live tables in memory; their journals are stored
    locks: dict[int, asyncio.Lock] = {}  # one request at a time per table in this process

    async def load(number: int) -> LiveTable:
        """The table as its journal has it: kept in memory while it is up to date, else made
        again from the journal (after a restart, or a step taken in another process)."""
        store = api.room.store
        kept = await store.aread(lambda c: live_rows.lines_kept(c, number))
        table = tables.tables.get(number)
        if table is not None and table.journal == kept:
            return table
        found = await store.aread(lambda c: live_rows.journal(c, number))
        if found is None:
            raise LiveError(f"no live table {number}")
        return tables.rebuilt(number, found.owner, found.setup, found.lines)

    def at(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        async def answer(request: Request) -> Response:
            account = await api.account(request, *DEALERS)
            number = int(request.path_params["id"])
            async with locks.setdefault(number, asyncio.Lock()):
                try:
                    table = await load(number)
                    if table.owner != account.id and account.role != "admin":
                        return _error(403, f"live table {table.id} is another dealer's")
                    return await handler(api, request, table, account)
                except LiveError as error:
                    status = 404 if str(error) == f"no live table {number}" else 409
                    return _error(status, str(error))
                except StoreError as error:
                    tables.forget(number)  # what it holds may be ahead of the journal
                    return _error(503, f"not stored, nothing changed: {error}; try again")

        return answer

    return [
        Route("/api/live_reports", partial(reports, api), methods=["GET"]),
        Route("/api/live", partial(listing, api, tables), methods=["GET"]),
        Route("/api/live", partial(open_table, api, tables), methods=["POST"]),
        Route("/api/live/{id:id}", at(view), methods=["GET"]),
        Route("/api/live/{id:id}/step", at(step), methods=["POST"]),
        Route("/api/live/{id:id}/next", at(next_hand), methods=["POST"]),
        Route("/api/live/{id:id}/seat", at(seat), methods=["POST"]),
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
    """Your live tables (an admin: everyone's), newest first."""
    account = await api.account(request, *DEALERS)
    owner = None if account.role == "admin" else account.id
    found = await api.room.store.aread(lambda c: live_rows.tables_of(c, owner))
    rows = []
    for journal in found:
        held = tables.tables.get(journal.number)
        rows.append(
            {
                "live": journal.number,
                "name": journal.setup.get("name"),
                "book": journal.setup.get("book"),
                "game": journal.setup.get("game"),
                "players": len(journal.setup.get("seats") or []),
                "hand": held.hand_number if held is not None else None,
            }
        )
    return JSONResponse({"live": rows})


async def open_table(api: Api, tables: LiveTables, request: Request) -> Response:
    """A new live table: checked by opening its first hand, then its journal stored."""
    account = await api.account(request, *DEALERS)
    body = await api.body(request)
    try:
        setup = LiveSetup.from_json(body)
        table = LiveTable(0, account.id, setup)  # refused here when the book says no
    except LiveError as error:
        return _error(400, str(error))
    number = await api.room.store.write(
        lambda c: live_rows.open_table(c, account.id, setup.to_json())
    )
    table.id = number
    tables.keep(table)
    return JSONResponse(table.view())


async def view(api: Api, request: Request, table: LiveTable, account: Account) -> Response:
    return JSONResponse(table.view())


async def step(api: Api, request: Request, table: LiveTable, account: Account) -> Response:
    """One step; refused (409, the rule named, nothing changed) or done and stored, then
    answered: what it did (its rulings with their clauses) and the table now."""
    body = await api.body(request)
    entry = table.step(body)
    await _store(api, table, account, entry.line)
    return JSONResponse({"done": entry.to_json(), "table": table.view()})


async def seat(api: Api, request: Request, table: LiveTable, account: Account) -> Response:
    """A seat's change (a player sits down with chips, leaves, sits out or comes back), as the
    book allows it; refused (409, the rule named) or done and stored, then answered."""
    body = await api.body(request)
    entry = table.seat(body)
    await _store(api, table, account, entry.line)
    return JSONResponse({"done": entry.to_json(), "table": table.view()})


async def next_hand(api: Api, request: Request, table: LiveTable, account: Account) -> Response:
    table.next_hand()
    await _store(api, table, account, NEXT)
    return JSONResponse(table.view())


async def _store(api: Api, table: LiveTable, account: Account, line: str) -> None:
    """The applied line into the table's journal, committed before anyone hears of it."""
    await api.room.store.write(lambda c: live_rows.add_line(c, account.id, table.id, line))


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
