"""The card room's tournaments (croupier.server.tournaments): loaded at the start, made by
the director, listed in the lobby, and followed again by a player who reconnects."""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, insert, select

from croupier.server import schema as s
from croupier.server.seating import Refused
from croupier.server.tournaments import TournamentRun, read_settings
from croupier.server.tourney_store import read_snapshot
from croupier.tournament import Status, TournamentError
from croupier.tournament.bots import BOTS

if TYPE_CHECKING:
    from croupier.server.app import CardRoom, Conn

__all__ = ["Hall"]


class Hall:
    """The card room's tournaments."""

    def __init__(self, room: CardRoom) -> None:
        self.room = room
        self.runs: dict[int, TournamentRun] = {}
        self.clock = room.options.tournament_clock

    async def start(self) -> None:
        ids = await self.room.store.aread(
            lambda conn: list(
                conn.scalars(select(s.tournaments.c.id).where(s.tournaments.c.status != "finished"))
            )
        )
        for tournament in ids:
            await self.get(int(tournament))

    def stop(self) -> None:
        for run in self.runs.values():
            run.close()
        self.runs.clear()

    async def get(self, tournament: int) -> TournamentRun:
        run = self.runs.get(tournament)
        if run is not None:
            return run
        exists = await self.room.store.aread(
            lambda conn: conn.scalar(
                select(s.tournaments.c.id).where(s.tournaments.c.id == tournament)
            )
        )
        if exists is None:
            raise Refused("not_found", f"no tournament {tournament}")
        snap = await self.room.store.aread(lambda conn: read_snapshot(conn, tournament))
        run = self.runs.get(tournament)  # made meanwhile by another request
        if run is None:
            run = self.runs[tournament] = TournamentRun(self, snap)
            run.begin()
        return run

    async def create(
        self,
        owner: int,
        name: str,
        data: dict[str, Any],
        *,
        starts_at: float | None = None,
        seed: int | None = None,
        clock: float | None = None,
        pause: float | None = None,
        bot: str = "random",
    ) -> TournamentRun:
        settings = read_settings(data)  # refused here, before anything is stored
        if bot not in BOTS:
            raise TournamentError(f"no bot called {bot!r}: the bots are {', '.join(BOTS)}")
        options = self.room.options
        values = {
            "name": (name or settings.name)[:60], "owner_id": owner,
            "settings": json.dumps(data, separators=(",", ":")),
            "seed": secrets.randbits(62) if seed is None else seed, "status": "registering",
            "starts_at": starts_at, "clock": options.clock if clock is None else clock,
            "pause": options.pause if pause is None else pause, "bot": bot,
            "created": time.time(),
        }  # fmt: skip

        def job(conn: Connection) -> int:
            pool = conn.execute(
                insert(s.accounts).values(
                    name=f"#pool {secrets.token_hex(6)}",
                    password_hash="!",
                    role="pool",
                    balance=0,
                    created=time.time(),
                )
            ).inserted_primary_key
            assert pool is not None
            key = conn.execute(
                insert(s.tournaments).values(pool_id=int(pool[0]), **values)
            ).inserted_primary_key
            assert key is not None
            return int(key[0])

        return await self.get(await self.room.store.write(job))

    async def lobby(self) -> list[dict[str, object]]:
        rows = await self.room.store.aread(
            lambda conn: list(
                conn.execute(
                    select(
                        s.tournaments.c.id,
                        s.tournaments.c.name,
                        s.tournaments.c.status,
                        s.tournaments.c.starts_at,
                    ).order_by(s.tournaments.c.id)
                )
            )
        )
        out: list[dict[str, object]] = []
        for row in rows:
            run = self.runs.get(row.id)
            if run is not None:
                out.append(run.lobby_row())
            else:
                out.append({"tournament": row.id, "name": row.name, "status": row.status,
                            "starts_at": row.starts_at})  # fmt: skip
        return out

    async def returned(self, conn: Conn) -> None:
        """A player back on the WebSocket follows their tournament table again."""
        for run in list(self.runs.values()):
            record = run.t.players.get(conn.name)
            if record is not None and record.status is Status.PLAYING:
                with contextlib.suppress(Refused):
                    await run.watch(conn, None)

    def gone(self, conn: Conn) -> None:
        for run in self.runs.values():
            run.watchers.pop(conn, None)
