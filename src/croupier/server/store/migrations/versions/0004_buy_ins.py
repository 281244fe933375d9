"""Buy-ins a restart must not forget: a seat remembers that its chips are a buy-in the engine's
table has not recorded yet (a short one counts against the one a game allows, cardroom buy-in
2); and a player whose table the house closed keeps, for a while, the right to sit with that
stack at a game of the same limit (cardroom buy-in 3).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(
            sa.Column("fresh", sa.Boolean, nullable=False, server_default=sa.text("false"))
        )
    op.create_table(
        "transfers",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("from_table", sa.Integer, sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("limit_key", sa.String(200), nullable=False),
        sa.Column("chips", sa.BigInteger, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("transfers_by_account", "transfers", ["account_id"])


def downgrade() -> None:
    op.drop_index("transfers_by_account", "transfers")
    op.drop_table("transfers")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("fresh")
