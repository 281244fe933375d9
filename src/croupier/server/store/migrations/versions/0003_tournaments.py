"""Tournaments: their settings, pre-start entries, event logs, hands and moves.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("owner_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("starts_at", sa.Float),
        sa.Column("pool_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("clock", sa.Float, nullable=False),
        sa.Column("pause", sa.Float, nullable=False),
        sa.Column("bot", sa.String(20), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("lease_owner", sa.String(64)),
        sa.Column("lease_until", sa.Float, nullable=False, server_default="0"),
    )
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "tournament_events",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("event", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "tournament_hands",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("setup", sa.Text, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("finished", sa.Float),
        sa.Column("result", sa.Text),
    )
    op.create_index("tournament_hands_playing", "tournament_hands", ["tournament_id", "status"])
    op.create_table(
        "tournament_moves",
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("tournament_hands.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("request_id", sa.String(64)),
        sa.Column("move", sa.Text, nullable=False),
        sa.Column("by", sa.String(10), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_index("tournament_hands_playing", "tournament_hands")
    for table in (
        "tournament_moves",
        "tournament_hands",
        "tournament_events",
        "tournament_entries",
        "tournaments",
    ):
        op.drop_table(table)
