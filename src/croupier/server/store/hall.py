"""What the process's hall reads and writes: the names of accounts, the bots' accounts, the
tables and tournaments it opens and looks up, and each account's last request ids (to tell a
resend after a restart)."""

from __future__ import annotations

import secrets
import time
from typing import Any

from sqlalchemy import Connection, insert, select

from croupier.server.records import Refused
from croupier.server.store import schema as s
from croupier.server.store.writer import LEASE_SECONDS

__all__ = [
    "account_name",
    "account_names",
    "any_table",
    "bot_account",
    "open_table",
    "open_tournament",
    "recent_requests",
    "table_row",
    "tournament_list",
    "tournament_row",
]


def account_names(conn: Connection) -> dict[int, str]:
    """Every account's name, by id."""
    return {r.id: r.name for r in conn.execute(select(s.accounts.c.id, s.accounts.c.name))}


def account_name(conn: Connection, account: int) -> str:
    return str(conn.scalar(select(s.accounts.c.name).where(s.accounts.c.id == account)))


def bot_account(conn: Connection, name: str) -> int:
    """The bot account called ``name``, made when there is none; :class:`Refused` when the
    name is a person's (registration refuses bots' names, so a bot's name is never taken)."""
    found = conn.execute(
        select(s.accounts.c.id, s.accounts.c.role).where(s.accounts.c.name == name)
    ).first()
    if found is not None:
        if found.role != "bot":
            raise Refused("refused", f"the bot's name {name!r} is another account's")
        return int(found.id)
    key = conn.execute(
        insert(s.accounts).values(
            name=name, password_hash="!", role="bot", balance=0, created=time.time()
        )
    ).inserted_primary_key
    assert key is not None
    return int(key[0])


def any_table(conn: Connection) -> int | None:
    """Some table's id, None when the card room has none yet."""
    found = conn.scalar(select(s.tables.c.id).limit(1))
    return None if found is None else int(found)


def open_table(
    conn: Connection, owner: int, name: str, spec: str, process: str, settings: dict[str, Any]
) -> int:
    """A new table (``spec``: its spec as JSON), leased to ``process``; its id."""
    now = time.time()
    key = conn.execute(
        insert(s.tables).values(
            name=name, owner_id=owner, spec=spec, status="open", created=now, hands=0,
            lease_owner=process, lease_until=now + LEASE_SECONDS, **settings,
        )
    ).inserted_primary_key  # fmt: skip
    assert key is not None
    return int(key[0])


def table_row(conn: Connection, table: int) -> Any:
    """The table's row (None: no such table)."""
    return conn.execute(select(s.tables).where(s.tables.c.id == table)).first()


def open_tournament(conn: Connection, values: dict[str, Any]) -> int:
    """A new tournament with its own prize pool account; its id."""
    pool = conn.execute(
        insert(s.accounts).values(
            name=f"#pool {secrets.token_hex(6)}", password_hash="!", role="pool", balance=0,
            created=time.time(),
        )
    ).inserted_primary_key  # fmt: skip
    assert pool is not None
    key = conn.execute(
        insert(s.tournaments).values(pool_id=int(pool[0]), **values)
    ).inserted_primary_key
    assert key is not None
    return int(key[0])


def tournament_row(conn: Connection, tournament: int) -> Any:
    """The tournament's row (None: no such tournament)."""
    return conn.execute(select(s.tournaments).where(s.tournaments.c.id == tournament)).first()


def tournament_list(conn: Connection) -> list[Any]:
    """Every tournament (id, name, status, starts_at), in the order they were made."""
    t = s.tournaments
    return list(conn.execute(select(t.c.id, t.c.name, t.c.status, t.c.starts_at).order_by(t.c.id)))


def recent_requests(conn: Connection, account: int) -> list[str]:
    """The account's last request ids stored (its moves, at cash and tournament tables, and
    its audited requests), so that a resend after a restart is still told from a new request."""
    found: list[str] = []
    for table, order in (
        (s.moves, s.moves.c.id),
        (s.audit, s.audit.c.id),
    ):
        rows = conn.execute(
            select(table.c.request_id)
            .where(table.c.account_id == account, table.c.request_id.is_not(None))
            .order_by(order.desc())
            .limit(1000)
        )
        found += [row.request_id for row in rows]
    return found
