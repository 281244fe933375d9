"""The ledger as HTTP reads and changes it: an account's last rows (``GET /api/ledger``), the
cage cashing chips in (``POST /api/cashier``), the audit log (``GET /api/audit``) and the
ledger's check (``GET /api/ledger/check``: :func:`check_ledger`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from croupier.server.store import accounts
from croupier.server.store import schema as s
from croupier.server.store.database import CAGE, StoreError, check_ledger, post_ledger
from croupier.server.store.rooms import audit

__all__ = ["AUDIT_ROWS", "account_rows", "audit_rows", "cash_in", "check_ledger"]

AUDIT_ROWS = 500  # GET /api/audit: the log's last rows


def account_rows(conn: Connection, account: int, most: int) -> list[dict[str, Any]]:
    """Account ``account``'s last ``most`` ledger rows, newest first."""
    return [
        {
            "at": r.at,
            "kind": r.kind,
            "table": r.table_id,
            "hand": r.hand_id,
            "amount": r.amount,
            "memo": r.memo,
        }
        for r in conn.execute(
            select(s.ledger)
            .where(s.ledger.c.account_id == account)
            .order_by(s.ledger.c.id.desc())
            .limit(most)
        )
    ]


def cash_in(conn: Connection, name: str, amount: int, by: int, by_name: str) -> int:
    """The cage cashes ``amount`` chips in for the account ``name`` logs in to (a ledger row
    each, the memo saying who did it), audited as done by account ``by`` (``by_name``); the
    account's balance after. Raises :class:`StoreError` when ``name`` is no player, dealer or
    admin (the house's own accounts cash nothing in)."""
    account, _ = accounts.login_of(conn, name)
    if account is None:
        raise StoreError(f"no player, dealer or admin account {name!r}")
    cage = conn.scalar(select(s.accounts.c.id).where(s.accounts.c.name == CAGE))
    if cage is None:
        raise StoreError(f"no account {CAGE!r}")
    post_ledger(
        conn,
        [("cash_in", int(cage), None, -amount), ("cash_in", account.id, None, amount)],
        memo=f"by {by_name}",
    )
    detail = f"{amount} chips cashed in for {account.name}"
    audit(conn, by, None, None, None, "cash_in", "applied", detail)
    balance = conn.scalar(select(s.accounts.c.balance).where(s.accounts.c.id == account.id))
    return int(balance or 0)


def audit_rows(conn: Connection, most: int = AUDIT_ROWS) -> list[dict[str, Any]]:
    """The audit log's last ``most`` rows, newest first, each with its account's name."""
    return [
        {
            "at": r.at,
            "account": r.account_id,
            "name": r.name,
            "table": r.table_id,
            "hand": r.hand_id,
            "request": r.request_id,
            "kind": r.kind,
            "outcome": r.outcome,
            "detail": r.detail,
        }
        for r in conn.execute(
            select(s.audit, s.accounts.c.name)
            .outerjoin(s.accounts, s.accounts.c.id == s.audit.c.account_id)
            .order_by(s.audit.c.id.desc())
            .limit(most)
        )
    ]
