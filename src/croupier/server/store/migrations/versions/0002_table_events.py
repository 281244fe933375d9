"""The table's own events: a log per table that ``Table.restore`` rebuilds it from; each hand's
forced bets; the button and last big blind columns go (the events say where they are).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_events",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("event", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("forced", sa.Text))
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("button")
        batch.drop_column("last_big_blind")


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("last_big_blind", sa.Integer))
        batch.add_column(sa.Column("button", sa.Integer))
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("forced")
    op.drop_table("table_events")
