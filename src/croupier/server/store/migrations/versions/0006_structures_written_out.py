"""Every stored table and hand names its betting structure. A table made under a book with no
structure was dealt the book's default of its day; the defaults then changed (issue 45: where
au 7.2 and the cardroom book leave the structure to the house, the game's usual one), so a
table stored without one would have come back dealing another game. Each gets the structure it
was dealt: the defaults as they were up to this revision, per book (every game alike).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

DEALT = {"au-casino": "no-limit", "cardroom": "fixed", "league": "no-limit", "qld": "pot",
         "rws": "no-limit"}  # fmt: skip
"""The structure a book's table with none named was dealt before this revision."""


def upgrade() -> None:
    connection = op.get_bind()
    for name in ("tables", "hands"):
        rows = connection.execute(sa.text(f"SELECT id, spec FROM {name}")).all()
        for row in rows:
            spec = json.loads(row.spec)
            dealt = DEALT.get(spec.get("rulebook") or "")
            if spec.get("structure") is None and dealt is not None:
                spec["structure"] = dealt
                connection.execute(
                    sa.text(f"UPDATE {name} SET spec = :spec WHERE id = :id"),
                    {"spec": json.dumps(spec), "id": row.id},
                )


def downgrade() -> None:
    """Nothing to undo: a named structure deals what the blank one did."""
