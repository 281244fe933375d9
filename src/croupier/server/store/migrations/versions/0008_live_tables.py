"""The live tables and the clock screens get tables of their own. A live table's journal (its
setup, then every line the dealer's tablet applied) and a tournament's clock-screen settings
were kept in the audit log, read by matching the start of the detail's text; now
``live_tables`` and ``live_steps`` (one row a line, numbered per table) and ``clock_screens``
(one row per tournament) hold them. The journals and settings already in the audit log are
carried over (a table keeps its number, its opening row's id); the audit rows stay, the audit
log of who did what.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "live_tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("owner_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("setup", sa.Text, nullable=False),
        sa.Column("opened", sa.Float, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
    )
    op.create_table(
        "live_steps",
        sa.Column("live_id", sa.Integer, sa.ForeignKey("live_tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("line", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "clock_screens",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("leader", sa.Boolean, nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("at", sa.Float, nullable=False),
    )
    _carry_over(op.get_bind())


def _carry_over(connection: sa.Connection) -> None:
    """The audit log's journals and clock-screen settings, into their tables."""
    audited = sa.text(
        "SELECT id, at, account_id, kind, detail FROM audit "
        "WHERE kind IN ('live_open', 'live_step', 'clock_screen') AND outcome = 'applied' "
        "ORDER BY id"
    )
    opened: set[int] = set()
    lines: dict[int, int] = {}
    screens: dict[int, dict[str, object]] = {}
    for row in connection.execute(audited).all():
        if row.kind == "live_open":
            connection.execute(
                sa.text(
                    "INSERT INTO live_tables (id, owner_id, setup, opened, status) "
                    "VALUES (:id, :owner, :setup, :at, 'open')"
                ),
                {"id": row.id, "owner": row.account_id, "setup": row.detail, "at": row.at},
            )
            opened.add(row.id)
        elif row.kind == "live_step":
            step = json.loads(row.detail)
            number = int(step["live"])
            if number not in opened:
                continue  # a step of no table (never written so): nothing to carry
            lines[number] = lines.get(number, 0) + 1
            connection.execute(
                sa.text(
                    "INSERT INTO live_steps (live_id, seq, account_id, line, at) "
                    "VALUES (:live, :seq, :account, :line, :at)"
                ),
                {"live": number, "seq": lines[number], "account": row.account_id,
                 "line": str(step["line"]), "at": row.at},
            )  # fmt: skip
        else:
            chosen = json.loads(row.detail)
            screens[int(chosen["tournament"])] = {
                "private": bool(chosen.get("private")), "leader": bool(chosen.get("leader")),
                "account": row.account_id, "at": row.at,
            }  # fmt: skip
    known = {r.id for r in connection.execute(sa.text("SELECT id FROM tournaments")).all()}
    for tournament, chosen in screens.items():
        if tournament in known:  # the last choice stands
            connection.execute(
                sa.text(
                    "INSERT INTO clock_screens (tournament_id, private, leader, account_id, at) "
                    "VALUES (:t, :private, :leader, :account, :at)"
                ),
                {"t": tournament, **chosen},
            )
    if opened and connection.dialect.name == "postgresql":
        # The numbers carried over are taken: new tables are numbered after them.
        connection.execute(
            sa.text(
                "SELECT setval(pg_get_serial_sequence('live_tables', 'id'), "
                "(SELECT MAX(id) FROM live_tables))"
            )
        )


def downgrade() -> None:
    """The audit log still holds every journal and setting: the tables go."""
    op.drop_table("clock_screens")
    op.drop_table("live_steps")
    op.drop_table("live_tables")
