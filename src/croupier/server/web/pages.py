"""What the browser table reads over HTTP beside docs/protocol.md's API: the shipped rulebooks
and a table's settings with their clauses (the rulebook page, the buy-in to offer), and a
finished hand's events as the asking player's seat saw them (the hand
history viewer). Every answer is built by the engine; the page only renders it.

The page itself is ``static/index.html`` and its ES modules under ``/static``.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from croupier.betting import Structure
from croupier.games import GAMES
from croupier.rulebooks import RulebookError, load_rulebook, rulebook_names
from croupier.rulebooks.schema import SPECS
from croupier.server.rooms.game_table import GameTable, RuleError
from croupier.server.rooms.table_spec import SpecError, TableSpec
from croupier.server.store import accounts as auth
from croupier.server.store import hands, lobby
from croupier.server.store.table_log import TableLogError
from croupier.server.web import histories
from croupier.wire import loads

if TYPE_CHECKING:
    from croupier.server.hall import CardRoom

__all__ = ["routes"]


def routes(room: CardRoom) -> list[Route]:
    pages = _Pages(room)
    return [
        Route("/api/rulebooks", pages.rulebooks),
        Route("/api/rulebooks/{name}", pages.rulebook),
        Route("/api/tables/{table:id}/rules", pages.table_rules),
        Route("/api/hands/{hand:id}/events", pages.hand_events),
    ]


def _error(status: int, message: str) -> Response:
    return JSONResponse({"error": message}, status_code=status)


def _chosen(game: GameTable) -> dict[str, str]:
    """What this table deals for the settings a book leaves to the house, written as the book
    writes its settings: the structure of each round, the ante, the commission and its cap,
    the maximum wager, and the short buy-in's size."""
    rules, commission = game.rules, game.rules.commission
    structures = dict.fromkeys(s.value for s in rules.betting.structures)
    values: dict[str, object] = {
        "ante": rules.ante,
        "commission": commission.kind,
        "commission_rate": commission.rate,
        "commission_cap": commission.cap,
        "max_wager": rules.betting.max_wager,
    }
    chosen = {name: SPECS[name].format(value) for name, value in values.items()}  # type: ignore[arg-type]
    chosen["structure"] = " / ".join(structures)
    if game.buy_in.short is not None:
        chosen["short_buy_in"] = f"once, at least {game.buy_in.short} chips"
    return chosen


def _settings(name: str, game: str | None, structure: Structure | None = None) -> dict[str, Any]:
    """A book's settings with their clauses: the case that applies to ``game`` (and
    ``structure``), or every case when ``game`` is None."""
    book = load_rulebook(name)
    rows = []
    for setting, cases in book.settings.items():
        for case in cases:
            if game is not None and not case.applies(game, structure):
                continue
            rows.append(
                {
                    "setting": setting,
                    "when": case.when or "",
                    "value": case.shown,
                    "clause": case.clause,
                    "note": case.note,
                    "silent": case.silent,
                    "house": case.house,
                }
            )
            if game is not None:
                break  # the first matching case applies
    return {
        "name": book.name,
        "title": book.title,
        "citation": book.citation,
        "games": [
            {
                "game": e.game,
                "clause": e.clause,
                "decks": e.describe_decks(),
                "structures": [x.value for x in book.structures(e.game)],
            }
            for e in book.games
        ],
        "settings": rows,
    }


HOUSE_NOTE = (
    "house rules: no casino book deals this game, so croupier's own rules deal it, and the "
    "cardroom book's general rules apply (buy-ins, betting and raises, showdown, ties)"
)

# A book's rules a player from elsewhere would not expect, said where a table is made:
# (setting, the value that is unusual, what it means at the table).
_UNUSUAL = (
    ("opening_raise_is_blind", True, "the first round's opening raise equals the second blind"),
    ("big_blind_option", False, "the second blind has no option: no check on the first round"),
)


@functools.cache
def _default_structure(book: str | None, game: str) -> str:
    """The structure a new table deals when none is chosen: the book's default for the game,
    else the game's usual one (stud and razz fixed limit, ...)."""
    return TableSpec(game=game, rulebook=book).written_out().structure or ""


@functools.cache
def _notes(name: str, game: str) -> list[dict[str, str]]:
    """The book's unusual rules for ``game``, each with its clause."""
    book = load_rulebook(name)
    notes = []
    for setting, unusual, text in _UNUSUAL:
        if setting not in book.settings:
            continue
        case = book.setting(setting, game)
        if case.value == unusual and not case.silent:
            notes.append({"setting": setting, "text": text, "clause": case.clause})
    return notes


class _Pages:
    def __init__(self, room: CardRoom) -> None:
        self.room = room

    async def _account(self, request: Request) -> auth.Account | None:
        header = request.headers.get("authorization", "")
        token = header[7:] if header.lower().startswith("bearer ") else ""
        return await self.room.store.aread(lambda c: auth.account_of_token(c, token))

    async def rulebooks(self, request: Request) -> Response:
        books = []
        for name in rulebook_names():
            book = load_rulebook(name)
            books.append(
                {
                    "name": name,
                    "title": book.title,
                    "games": [
                        {
                            "game": e.game,
                            "structures": [x.value for x in book.structures(e.game)],
                            "default": _default_structure(name, e.game),
                            "notes": _notes(name, e.game),
                        }
                        for e in book.games
                    ],
                }
            )
        covered = {e.game for name in rulebook_names() for e in load_rulebook(name).games}
        return JSONResponse(
            {
                "rulebooks": books,
                "games": list(GAMES),  # croupier's house rules deal every game
                "structures": [x.value for x in Structure],
                # House rules: each game's usual structure, and the games no book deals.
                "usual": {g: _default_structure(None, g) for g in GAMES},
                "house_only": [g for g in GAMES if g not in covered],
                "house_note": HOUSE_NOTE,
            }
        )

    async def rulebook(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in rulebook_names():
            return _error(404, f"no rulebook {name!r}: the books are {', '.join(rulebook_names())}")
        raw, game = request.query_params.get("structure"), request.query_params.get("game")
        games = [entry.game for entry in load_rulebook(name).games]
        if game is not None and game not in games:
            return _error(400, f"{name} deals no {game!r}: its games are {', '.join(games)}")
        try:
            structure = Structure(raw) if raw else None
            return JSONResponse(_settings(name, game, structure))
        except (RulebookError, ValueError) as error:
            return _error(400, str(error))

    async def table_rules(self, request: Request) -> Response:
        """A table's spec, its minimum buy-in and its book's settings for its game."""
        table = int(request.path_params["table"])
        row = await self.room.store.aread(lambda c: lobby.table(c, table))
        if row is None:
            return _error(404, f"no table {table}")
        spec = TableSpec.from_json(loads(row.spec))
        try:
            game = GameTable(spec)
        except SpecError as error:
            return _error(422, str(error))
        structure = game.rules.betting.structures[0]  # the first round's, where rounds differ
        book = _settings(spec.rulebook, spec.game, structure) if spec.rulebook else None
        if book is not None:
            chosen = _chosen(game)
            for case in book["settings"]:  # what the house chose, where the book lets it
                name = case["setting"]
                if name in chosen and (case["house"] or name == "short_buy_in"):
                    case["value"], case["chosen"] = chosen[name], True
        return JSONResponse(
            {
                "table": table,
                "name": row.name,
                "spec": spec.to_json(),
                "minimum_buy_in": game.minimum_buy_in,
                "big_blind": game.big_blind,
                "structure": structure.value,
                "rulebook": book,
            }
        )

    async def _finished(self, request: Request) -> tuple[GameTable, hands.Finished, int] | Response:
        """The finished hand asked for, dealt again, with the asker's seat in it."""
        account = await self._account(request)
        if account is None:
            return _error(401, "log in first: Authorization: Bearer <token>")
        hand_id = int(request.path_params["hand"])
        found = await self.room.store.aread(lambda c: hands.read_finished(c, hand_id))
        if found is None:
            return _error(404, f"no finished hand {hand_id}")
        seat = found.seat_of(account.id)
        if seat is None:
            return _error(403, "you were not dealt into that hand")
        try:
            game = histories.deal_again(found)
        except (RuleError, SpecError, TableLogError) as error:
            return _error(422, f"the hand cannot be dealt again: {error}")
        return game, found, seat

    async def hand_events(self, request: Request) -> Response:
        """A finished hand's events as the asker's seat saw them, to replay step by step."""
        found = await self._finished(request)
        if isinstance(found, Response):
            return found
        game, hand, seat = found
        dealt, row = hand.dealt, hand.row
        table_id = int(row.table_id)
        table = await self.room.store.aread(lambda c: lobby.table(c, table_id))
        return JSONResponse(
            {
                "hand": row.id,
                "table": row.table_id,
                "table_name": table.name if table is not None else f"table {table_id}",
                "number": row.number,
                "spec": loads(row.spec),
                "button": row.button,
                "order": [row[0] for row in dealt],
                "names": [row[2] for row in dealt],
                "starting": [row[4] for row in dealt],
                "you": seat,
                "events": game.visible(seat),
            }
        )
