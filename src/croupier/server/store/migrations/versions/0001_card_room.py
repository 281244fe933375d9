"""The card room: accounts, tokens, tables, seats, hands, moves, ledger, audit, servers.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("role", sa.String(10), nullable=False),
        sa.Column("balance", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("owner_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("button", sa.Integer),
        sa.Column("last_big_blind", sa.Integer),
        sa.Column("hands", sa.Integer, nullable=False, server_default="0"),
        sa.Column("clock", sa.Float, nullable=False),
        sa.Column("bank", sa.Float, nullable=False),
        sa.Column("sit_out_after", sa.Integer, nullable=False),
        sa.Column("pause", sa.Float, nullable=False),
        sa.Column("lease_owner", sa.String(64)),
        sa.Column("lease_until", sa.Float, nullable=False, server_default="0"),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("chips", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("bank", sa.Float, nullable=False),
        sa.Column("away", sa.Integer, nullable=False, server_default="0"),
        sa.Column("leaving", sa.Boolean, nullable=False, server_default=sa.text("false")),
        sa.Column("bot", sa.String(20)),
        sa.UniqueConstraint("table_id", "account_id", name="one_seat_per_table"),
    )
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("deck", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("button", sa.Integer, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("events", sa.Text, nullable=False),
        sa.Column("to_act", sa.Integer),
        sa.Column("clock_end", sa.Float),
        sa.Column("bank_end", sa.Float),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("finished", sa.Float),
        sa.Column("commission", sa.BigInteger),
        sa.Column("result", sa.Text),
        sa.UniqueConstraint("table_id", "number", name="hand_number"),
    )
    op.create_index("hands_playing", "hands", ["table_id", "status"])
    op.create_table(
        "moves",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("request_id", sa.String(64)),
        sa.Column("move", sa.Text, nullable=False),
        sa.Column("events", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("clock_end", sa.Float),
        sa.Column("bank_end", sa.Float),
        sa.UniqueConstraint("hand_id", "seq", name="move_order"),
        sa.UniqueConstraint("account_id", "request_id", name="move_once"),
    )
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id")),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id")),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("memo", sa.Text, nullable=False, server_default=""),
    )
    op.create_index("ledger_wallet", "ledger", ["account_id", "table_id"])
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id")),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id")),
        sa.Column("request_id", sa.String(64)),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("outcome", sa.String(10), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
    )
    op.create_index(
        "audit_once",
        "audit",
        ["account_id", "request_id"],
        unique=True,
        sqlite_where=sa.text("outcome = 'applied'"),
        postgresql_where=sa.text("outcome = 'applied'"),
    )
    op.create_table(
        "servers",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("url", sa.String(200), nullable=False),
        sa.Column("heartbeat", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in (
        "servers",
        "audit",
        "ledger",
        "moves",
        "hands",
        "seats",
        "tables",
        "tokens",
        "accounts",
    ):
        op.drop_table(name)
