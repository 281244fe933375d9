"""The lobby as the database holds it: the tables open to play (``GET /api/tables``), one
table's row (its rules page) and how many open tables an account owns (the house's limit)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, func, select

from croupier.server.store import schema as s
from croupier.wire import loads

__all__ = ["open_tables_of", "table", "tables"]


def tables(conn: Connection, wanted: Mapping[str, str], open_seats: bool) -> list[dict[str, Any]]:
    """The tables in play (open or closing) whose spec has each of ``wanted``'s values (as
    text), with at least one free seat if ``open_seats``: each with its spec, the seats taken,
    the players waiting, the hands dealt and whether it is closing."""
    taken: dict[int, int] = {}
    for row in conn.execute(select(s.seats.c.table_id)):
        taken[row.table_id] = taken.get(row.table_id, 0) + 1
    waiting: dict[int, int] = {}
    for row in conn.execute(select(s.waits.c.table_id)):
        waiting[row.table_id] = waiting.get(row.table_id, 0) + 1
    out = []
    for row in conn.execute(select(s.tables).where(s.tables.c.status.in_(s.LIVE))):
        spec = loads(row.spec)
        if any(str(spec.get(k)) != v for k, v in wanted.items()):
            continue
        used = taken.get(row.id, 0)
        if open_seats and spec["seats"] - used < 1:
            continue
        out.append(
            {
                "table": row.id,
                "name": row.name,
                "spec": spec,
                "seats_taken": used,
                "waiting": waiting.get(row.id, 0),
                "hands": row.hands,
                "closing": row.status == "closing",
            }
        )
    return out


def table(conn: Connection, table_id: int) -> Any | None:
    """Table ``table_id``'s row (its name, spec, status, ...), or None."""
    return conn.execute(select(s.tables).where(s.tables.c.id == table_id)).first()


def open_tables_of(conn: Connection, owner: int) -> int:
    """How many open tables account ``owner`` owns."""
    owned = conn.scalar(
        select(func.count())
        .select_from(s.tables)
        .where(s.tables.c.owner_id == owner, s.tables.c.status == "open")
    )
    return int(owned or 0)
