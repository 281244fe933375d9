"""The tables' waiting lists: people waiting for a seat and seated players asking for a seat
change, with the seat held for whoever won a vacated one (au 11.1(a), qld s16(2)-(4)).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "waits",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("wanted", sa.Integer),
        sa.Column("offer", sa.Integer),
        sa.Column("offer_until", sa.Float),
    )


def downgrade() -> None:
    op.drop_table("waits")
