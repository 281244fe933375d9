"""Which process runs which table and tournament: the processes sharing the database, each
with its public address and heartbeat, and the leases they hold and renew. A lease that is
not renewed within :data:`LEASE_SECONDS` (or whose process on this machine has ended) may be
taken by another process, which then rebuilds the table from the database."""

from __future__ import annotations

import os
import socket
import time
from typing import Any

from sqlalchemy import Connection, insert, or_, select, update

from croupier.server.store import schema as s
from croupier.server.store.writer import LEASE_SECONDS

__all__ = [
    "LEASE_SECONDS",
    "claim_table",
    "dead",
    "live_tables",
    "peer_urls",
    "register",
    "release",
    "renew",
    "renew_tournaments",
    "table_owner_url",
    "tournament_owner_url",
    "unfinished_tournaments",
]


def register(conn: Connection, owner: str, url: str) -> None:
    """This process, reached at ``url``, shares the database from now on."""
    conn.execute(insert(s.servers).values(id=owner, url=url, heartbeat=time.time()))


def peer_urls(conn: Connection, since: float) -> list[str]:
    """The public addresses of the processes heard from since ``since``."""
    rows = conn.execute(select(s.servers.c.url).where(s.servers.c.heartbeat > since))
    return [str(row.url) for row in rows if row.url]


def release(conn: Connection, owner: str) -> None:
    """Give up every lease of ``owner`` (it stops): another process may take them at once."""
    for leased in (s.tables, s.tournaments):
        conn.execute(
            update(leased)
            .where(leased.c.lease_owner == owner)
            .values(lease_owner=None, lease_until=0)
        )


def live_tables(conn: Connection) -> list[Any]:
    """Every table a process should run (id, lease_owner, lease_until)."""
    query = select(s.tables.c.id, s.tables.c.lease_owner, s.tables.c.lease_until)
    return list(conn.execute(query.where(s.tables.c.status.in_(s.LIVE))))


def unfinished_tournaments(conn: Connection) -> list[Any]:
    """Every tournament a process should run (id, lease_owner, lease_until)."""
    t = s.tournaments
    query = select(t.c.id, t.c.lease_owner, t.c.lease_until)
    return list(conn.execute(query.where(t.c.status != "finished")))


def claim_table(conn: Connection, table: int, owner: str, holder: str | None = None) -> bool:
    """Take the lease of a table that is free, ours, expired, or held by ``holder`` when that
    is a process of this machine that no longer runs."""
    now = time.time()
    holders = [
        s.tables.c.lease_owner.is_(None),
        s.tables.c.lease_until < now,
        s.tables.c.lease_owner == owner,
    ]
    if holder is not None and dead(holder):
        holders.append(s.tables.c.lease_owner == holder)
    done = conn.execute(
        update(s.tables)
        .where(s.tables.c.id == table, s.tables.c.status.in_(s.LIVE), or_(*holders))
        .values(lease_owner=owner, lease_until=now + LEASE_SECONDS)
    )
    return done.rowcount == 1


def renew(conn: Connection, owner: str, tables: list[int]) -> list[int]:
    """Renew ``owner``'s heartbeat and table leases; the ``tables`` it no longer holds."""
    now = time.time()
    conn.execute(update(s.servers).where(s.servers.c.id == owner).values(heartbeat=now))
    held = set(conn.scalars(select(s.tables.c.id).where(s.tables.c.lease_owner == owner)))
    conn.execute(
        update(s.tables)
        .where(s.tables.c.lease_owner == owner)
        .values(lease_until=now + LEASE_SECONDS)
    )
    return [table for table in tables if table not in held]


def renew_tournaments(conn: Connection, owner: str) -> set[int]:
    """Renew ``owner``'s tournament leases; the tournaments it holds."""
    t = s.tournaments
    conn.execute(
        update(t).where(t.c.lease_owner == owner).values(lease_until=time.time() + LEASE_SECONDS)
    )
    return set(conn.scalars(select(t.c.id).where(t.c.lease_owner == owner)))


def table_owner_url(conn: Connection, table: int) -> str:
    """The address of the process that runs ``table`` ("" when none is known)."""
    owner = conn.scalar(select(s.tables.c.lease_owner).where(s.tables.c.id == table))
    url = conn.scalar(select(s.servers.c.url).where(s.servers.c.id == owner))
    return str(url or "")


def tournament_owner_url(conn: Connection, tournament: int) -> str:
    """The address of the process that runs ``tournament`` ("" when none is known)."""
    url = conn.scalar(
        select(s.servers.c.url)
        .join(s.tournaments, s.tournaments.c.lease_owner == s.servers.c.id)
        .where(s.tournaments.c.id == tournament)
    )
    return str(url or "")


def dead(owner: str) -> bool:
    """Whether a lease holder ("host:pid:nonce") is a process of this machine that has ended."""
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return int(pid) != os.getpid() and _zombie(int(pid))


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return False
