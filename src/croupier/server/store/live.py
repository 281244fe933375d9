"""The live tables' journals (croupier.server.live): a table's opening (its setup) and every
line the dealer's tablet applied, in order, from which the table is made again after a
restart or in another process.

A table is a row of ``live_tables`` (its number is its id), its journal the rows of
``live_steps``, numbered 1, 2, ... per table: two processes adding the same line number, one
fails and nothing is lost. Each opening and each line is also audited (``kind`` ``live_open``
and ``live_step``): the audit log says who did what; the journal is read from the tables
(migration 0008 carried the journals kept in the audit log before over).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, insert, select

from croupier.server.store import schema as s

__all__ = ["Journal", "add_line", "journal", "lines_kept", "open_table", "tables_of"]

OPENED = "live_open"
STEP = "live_step"


@dataclass(frozen=True)
class Journal:
    number: int
    owner: int
    setup: dict[str, Any]
    lines: list[str]


def _audit(account: int, kind: str, detail: str, at: float) -> dict[str, object]:
    return {
        "at": at, "account_id": account, "table_id": None, "hand_id": None,
        "request_id": None, "kind": kind, "outcome": "applied", "detail": detail,
    }  # fmt: skip


def open_table(conn: Connection, owner: int, setup: dict[str, Any]) -> int:
    """A new table's journal, opened by ``owner``: its number."""
    now = time.time()
    done = conn.execute(
        insert(s.live_tables).values(
            owner_id=owner, setup=json.dumps(setup), opened=now, status="open"
        )
    )
    number = int(done.inserted_primary_key[0])  # type: ignore[index]
    detail = json.dumps({"live": number, "setup": setup})
    conn.execute(insert(s.audit).values(_audit(owner, OPENED, detail, now)))
    return number


def add_line(conn: Connection, actor: int, number: int, line: str) -> None:
    """One applied line (an input, a seat's change, or ``next``, a new hand) at table
    ``number``, the next of its journal; audited."""
    now = time.time()
    seq = lines_kept(conn, number) + 1
    conn.execute(
        insert(s.live_steps).values(live_id=number, seq=seq, account_id=actor, line=line, at=now)
    )
    detail = json.dumps({"live": number, "line": line})
    conn.execute(insert(s.audit).values(_audit(actor, STEP, detail, now)))


def lines_kept(conn: Connection, number: int) -> int:
    """How many lines table ``number``'s journal holds."""
    found = conn.scalar(
        select(func.max(s.live_steps.c.seq)).where(s.live_steps.c.live_id == number)
    )
    return int(found or 0)


def journal(conn: Connection, number: int) -> Journal | None:
    """Table ``number``'s journal, or None."""
    opened = conn.execute(
        select(s.live_tables.c.owner_id, s.live_tables.c.setup).where(s.live_tables.c.id == number)
    ).first()
    if opened is None:
        return None
    rows = conn.execute(
        select(s.live_steps.c.line)
        .where(s.live_steps.c.live_id == number)
        .order_by(s.live_steps.c.seq)
    )
    lines = [str(row.line) for row in rows]
    return Journal(number, int(opened.owner_id), json.loads(opened.setup), lines)


def tables_of(conn: Connection, owner: int | None, most: int = 50) -> list[Journal]:
    """The last ``most`` tables opened by ``owner`` (None: anyone's), newest first, without
    their lines."""
    t = s.live_tables
    query = select(t.c.id, t.c.owner_id, t.c.setup)
    if owner is not None:
        query = query.where(t.c.owner_id == owner)
    rows = conn.execute(query.order_by(t.c.id.desc()).limit(most))
    return [Journal(row.id, int(row.owner_id), json.loads(row.setup), []) for row in rows]
