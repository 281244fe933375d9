"""The card room's tournaments (croupier.server.tournaments.run): loaded at the start, made by
the director, listed in the lobby, and followed again by a player who reconnects."""

from __future__ import annotations

import contextlib
import secrets
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, insert, select, update

from croupier.server.rooms.seating import Refused
from croupier.server.store import schema as s
from croupier.server.store.database import LEASE_SECONDS
from croupier.server.store.tournaments import claim, read_snapshot
from croupier.server.tournaments.run import TournamentRun, read_settings
from croupier.tournament import Status, TournamentError
from croupier.tournament.bots import BOTS
from croupier.wire import dumps

if TYPE_CHECKING:
    from croupier.server.web.app import CardRoom, Conn

__all__ = ["Hall"]


class Hall:
    """The card room's tournaments."""

    def __init__(self, room: CardRoom) -> None:
        self.room = room
        self.runs: dict[int, TournamentRun] = {}
        self.clock = room.options.tournament_clock

    async def start(self) -> None:
        await self.claim()

    async def claim(self) -> None:
        """Take every unfinished tournament no live process runs (as ``CardRoom.claim_tables``)."""
        from croupier.server.web.app import _dead

        now = time.time()
        rows = await self.room.store.aread(
            lambda conn: list(
                conn.execute(
                    select(
                        s.tournaments.c.id, s.tournaments.c.lease_owner, s.tournaments.c.lease_until
                    ).where(s.tournaments.c.status != "finished")
                )
            )
        )
        for row in rows:
            if row.id in self.runs:
                continue
            owner = row.lease_owner
            if owner is None or owner == self.room.owner or row.lease_until < now or _dead(owner):
                with contextlib.suppress(Refused):
                    await self.get(int(row.id))

    async def renew(self) -> None:
        """Renew this process's leases; stop running the tournaments another process took."""
        owner, mine = self.room.owner, sorted(self.runs)

        def job(conn: Connection) -> set[int]:
            conn.execute(
                update(s.tournaments)
                .where(s.tournaments.c.lease_owner == owner)
                .values(lease_until=time.time() + LEASE_SECONDS)
            )
            return set(
                conn.scalars(select(s.tournaments.c.id).where(s.tournaments.c.lease_owner == owner))
            )

        held = await self.room.store.write(job)
        for tournament in mine:
            run = self.runs.get(tournament)
            if run is not None and run.status != "finished" and tournament not in held:
                self.drop(tournament)
        await self.claim()

    def drop(self, tournament: int) -> None:
        run = self.runs.pop(tournament, None)
        if run is not None:
            run.close()

    def stop(self) -> None:
        for run in self.runs.values():
            run.close()
        self.runs.clear()

    async def get(self, tournament: int) -> TournamentRun:
        """The tournament, run by this process (its lease taken), or :class:`Refused`
        ``elsewhere`` with the address of the process that runs it."""
        from croupier.server.web.app import _dead

        run = self.runs.get(tournament)
        if run is not None:
            return run
        row = await self.room.store.aread(
            lambda conn: conn.execute(
                select(s.tournaments).where(s.tournaments.c.id == tournament)
            ).first()
        )
        if row is None:
            raise Refused("not_found", f"no tournament {tournament}")
        if row.status != "finished":
            dead = row.lease_owner if row.lease_owner and _dead(row.lease_owner) else None
            got = await self.room.store.write(
                lambda conn: claim(conn, tournament, self.room.owner, dead)
            )
            if not got:
                url = await self.room.store.aread(
                    lambda conn: conn.scalar(
                        select(s.servers.c.url)
                        .join(s.tournaments, s.tournaments.c.lease_owner == s.servers.c.id)
                        .where(s.tournaments.c.id == tournament)
                    )
                )
                raise Refused(
                    "elsewhere",
                    f"tournament {tournament} is run by another server process",
                    str(url or ""),
                )
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
            "settings": dumps(data),
            "seed": secrets.randbits(62) if seed is None else seed, "status": "registering",
            "starts_at": starts_at, "clock": options.clock if clock is None else clock,
            "pause": options.pause if pause is None else pause, "bot": bot,
            "created": time.time(), "lease_owner": self.room.owner,
            "lease_until": time.time() + LEASE_SECONDS,
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
                    await run.came_back(conn)
                    await run.watch(conn, None)

    def gone(self, conn: Conn) -> None:
        for run in self.runs.values():
            run.watchers.pop(conn, None)
