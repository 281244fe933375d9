"""The card room's tournaments (croupier.server.tournaments.run): loaded at the start, made by
the director, listed in the lobby, and followed again by a player who reconnects."""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Callable, Collection, Mapping
from typing import Any, Protocol

from croupier.server.records import Refused
from croupier.server.rooms.ports import Listener
from croupier.server.store import hall as rows
from croupier.server.store import leases
from croupier.server.store.database import Store
from croupier.server.store.tournaments import claim, read_snapshot
from croupier.server.tournaments.run import TournamentRun, read_settings
from croupier.tournament import Status, TournamentError
from croupier.tournament.bots import BOTS
from croupier.wire import dumps

__all__ = ["Hall", "Process", "Settings"]


class Settings(Protocol):
    """The card room's settings a tournament starts from (hall.card_room.Options)."""

    @property
    def clock(self) -> float:
        """Seconds to act."""

    @property
    def pause(self) -> float:
        """Seconds between hands."""

    @property
    def tournament_clock(self) -> Callable[[], float]:
        """The tournaments' clock (tests run it faster)."""


class Process(Protocol):
    """What the tournaments' hall needs of the process's card room (hall.card_room)."""

    store: Store
    owner: str  # this process, as the leases name it

    @property
    def options(self) -> Settings: ...
    bot_delay: float

    @property
    def conns(self) -> Mapping[int, Collection[Listener]]:
        """Each account's open connections."""

    def connected(self, account: int) -> bool: ...

    def remember(self, account: int, request: str | None) -> None: ...


class Hall:
    """The card room's tournaments. To each tournament it runs it is the host
    (:class:`croupier.server.tournaments.ports.Host`): the process's clock, database, lease and
    connections."""

    def __init__(self, room: Process) -> None:
        self.room = room
        self.runs: dict[int, TournamentRun] = {}
        self.clock: Callable[[], float] = room.options.tournament_clock
        self.store = room.store
        self.owner = room.owner

    @property
    def bot_delay(self) -> float:
        return self.room.bot_delay

    @property
    def conns(self) -> Mapping[int, Collection[Listener]]:
        return self.room.conns

    def connected(self, account: int) -> bool:
        return self.room.connected(account)

    def remember(self, account: int, request: str | None) -> None:
        self.room.remember(account, request)

    async def start(self) -> None:
        await self.claim()

    async def claim(self) -> None:
        """Take every unfinished tournament no live process runs (as ``CardRoom.claim_tables``)."""
        now = time.time()
        for row in await self.store.aread(leases.unfinished_tournaments):
            if row.id in self.runs:
                continue
            owner = row.lease_owner
            if owner is None or owner == self.owner or row.lease_until < now or (
                leases.dead(owner)
            ):
                with contextlib.suppress(Refused):
                    await self.get(int(row.id))

    async def renew(self) -> None:
        """Renew this process's leases; stop running the tournaments another process took."""
        owner, mine = self.owner, sorted(self.runs)
        held = await self.store.write(lambda c: leases.renew_tournaments(c, owner))
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
        run = self.runs.get(tournament)
        if run is not None:
            return run
        row = await self.store.aread(lambda c: rows.tournament_row(c, tournament))
        if row is None:
            raise Refused("not_found", f"no tournament {tournament}")
        if row.status != "finished":
            dead = row.lease_owner if row.lease_owner and leases.dead(row.lease_owner) else None
            got = await self.store.write(
                lambda conn: claim(conn, tournament, self.owner, dead)
            )
            if not got:
                url = await self.store.aread(
                    lambda c: leases.tournament_owner_url(c, tournament)
                )
                raise Refused(
                    "elsewhere", f"tournament {tournament} is run by another server process", url
                )
        snap = await self.store.aread(lambda conn: read_snapshot(conn, tournament))
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
            "created": time.time(), "lease_owner": self.owner,
            "lease_until": time.time() + leases.LEASE_SECONDS,
        }  # fmt: skip
        return await self.get(await self.store.write(lambda c: rows.open_tournament(c, values)))

    async def lobby(self) -> list[dict[str, object]]:
        out: list[dict[str, object]] = []
        for row in await self.store.aread(rows.tournament_list):
            run = self.runs.get(row.id)
            if run is not None:
                out.append(run.lobby_row())
            else:
                out.append({"tournament": row.id, "name": row.name, "status": row.status,
                            "starts_at": row.starts_at})  # fmt: skip
        return out

    async def returned(self, conn: Listener) -> None:
        """A player back on the WebSocket follows their tournament table again."""
        for run in list(self.runs.values()):
            record = run.t.players.get(conn.name)
            if record is not None and record.status is Status.PLAYING:
                with contextlib.suppress(Refused):
                    await run.came_back(conn)
                    await run.watch(conn, None)

    def gone(self, conn: Listener) -> None:
        for run in self.runs.values():
            run.watchers.pop(conn, None)
