"""A player's hands as the "Your hands" list shows them: the table's name and game, the hand's
number, status and times, and the player's net result (their ledger's result rows for it)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, func, select

from croupier.server.store import schema as s

__all__ = ["hands_listed"]


def hands_listed(conn: Connection, account: int) -> list[dict[str, Any]]:
    """The hands ``account`` played (a result or a refund in its ledger), oldest first, each
    with its table's name, the spec it was dealt by (JSON text) and the account's net."""
    ledger, hands, tables = s.ledger, s.hands, s.tables
    mine = (
        select(
            ledger.c.hand_id,
            func.sum(ledger.c.amount).filter(ledger.c.kind == "result").label("net"),
        )
        .where(ledger.c.account_id == account, ledger.c.kind.in_(("result", "refund")))
        .group_by(ledger.c.hand_id)
        .subquery()
    )
    query = (
        select(
            hands.c.id,
            hands.c.table_id,
            hands.c.number,
            hands.c.status,
            hands.c.started,
            hands.c.finished,
            hands.c.spec,
            tables.c.name,
            mine.c.net,
        )
        .join(mine, mine.c.hand_id == hands.c.id)
        .join(tables, tables.c.id == hands.c.table_id)
        .order_by(hands.c.id)
    )
    return [
        {
            "hand": r.id,
            "table": r.table_id,
            "table_name": r.name,
            "spec": r.spec,
            "number": r.number,
            "status": r.status,
            "started": r.started,
            "finished": r.finished,
            "net": int(r.net or 0),
        }
        for r in conn.execute(query)
    ]
