"""The live tables' journals (croupier.server.live): a table's opening (its setup) and every
input the dealer's tablet applied, in order, from which the table is made again after a
restart or in another process.

A journal is kept in the audit log, where each line is also what it should be: who opened
the table, and who did each step (``kind`` ``live_open``, its detail the setup as JSON, and
``live_step``, ``{"live": number, "line": ...}``); the table's number is its opening row's id.
A table of its own would be cheaper to read and is for the store's next migration.
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


def _row(account: int, kind: str, detail: str) -> dict[str, object]:
    return {
        "at": time.time(), "account_id": account, "table_id": None, "hand_id": None,
        "request_id": None, "kind": kind, "outcome": "applied", "detail": detail,
    }  # fmt: skip


def _prefix(number: int) -> str:
    return json.dumps({"live": number})[:-1] + ","


def open_table(conn: Connection, owner: int, setup: dict[str, Any]) -> int:
    """A new table's journal, opened by ``owner``: its number."""
    done = conn.execute(insert(s.audit).values(_row(owner, OPENED, json.dumps(setup))))
    return int(done.inserted_primary_key[0])  # type: ignore[index]


def add_line(conn: Connection, actor: int, number: int, line: str) -> None:
    """One applied input (or ``next``, a new hand) at table ``number``."""
    detail = json.dumps({"live": number, "line": line})
    conn.execute(insert(s.audit).values(_row(actor, STEP, detail)))


def _steps(number: int) -> Any:
    return (s.audit.c.kind == STEP) & s.audit.c.detail.startswith(_prefix(number))


def lines_kept(conn: Connection, number: int) -> int:
    """How many lines table ``number``'s journal holds."""
    return int(conn.scalar(select(func.count()).select_from(s.audit).where(_steps(number))) or 0)


def journal(conn: Connection, number: int) -> Journal | None:
    """Table ``number``'s journal, or None."""
    opened = conn.execute(
        select(s.audit.c.account_id, s.audit.c.detail).where(
            s.audit.c.id == number, s.audit.c.kind == OPENED
        )
    ).first()
    if opened is None:
        return None
    rows = conn.execute(select(s.audit.c.detail).where(_steps(number)).order_by(s.audit.c.id))
    lines = [str(json.loads(row.detail)["line"]) for row in rows]
    return Journal(number, int(opened.account_id), json.loads(opened.detail), lines)


def tables_of(conn: Connection, owner: int | None, most: int = 50) -> list[Journal]:
    """The last ``most`` tables opened by ``owner`` (None: anyone's), newest first, without
    their lines."""
    query = select(s.audit.c.id, s.audit.c.account_id, s.audit.c.detail).where(
        s.audit.c.kind == OPENED
    )
    if owner is not None:
        query = query.where(s.audit.c.account_id == owner)
    rows = conn.execute(query.order_by(s.audit.c.id.desc()).limit(most))
    return [Journal(row.id, int(row.account_id), json.loads(row.detail), []) for row in rows]
