"""One set of hand and move tables (issue 38 item 2): a tournament's hands are rows of
``hands``, marked with the tournament and its table number and holding the library's setup (the
deal is made again from its seed: no deck or seed of their own), and their moves are rows of
``moves``, with who decided (``by``). Every row of ``tournament_hands`` and
``tournament_moves`` is carried over (each hand under a new id, its moves with it), then those
tables go. The rows carried over kept no house records (``events`` null: a rebuild has nothing
to check them against); the code of this revision stores them.

A tournament's move kept its client's request id in a table of its own; in ``moves`` a request
id is once per account. An old tournament move whose request id the account used elsewhere
keeps its move and loses the id (NULL, as the clock's moves have): the request was applied long
ago, and no resend can still be waiting for its answer.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.alter_column("table_id", existing_type=sa.Integer, nullable=True)
        batch.alter_column("deck", existing_type=sa.Text, nullable=True)
        batch.alter_column("seed", existing_type=sa.BigInteger, nullable=True)
        batch.alter_column("events", existing_type=sa.Text, nullable=True)
        batch.add_column(sa.Column("tournament_id", sa.Integer, nullable=True))
        batch.add_column(sa.Column("table_no", sa.Integer, nullable=True))
        batch.add_column(sa.Column("setup", sa.Text, nullable=True))
        batch.create_foreign_key("hands_tournament", "tournaments", ["tournament_id"], ["id"])
    op.create_index("hands_of_tournament", "hands", ["tournament_id", "status"])
    with op.batch_alter_table("moves") as batch:
        batch.alter_column("events", existing_type=sa.Text, nullable=True)
        batch.add_column(sa.Column("by", sa.String(10), nullable=True))
    _carry_over(op.get_bind())
    op.drop_index("tournament_hands_playing", "tournament_hands")
    op.drop_table("tournament_moves")
    op.drop_table("tournament_hands")


def _spec(setup: dict[str, object]) -> str:
    """The table a tournament hand was dealt at, as the server named it: the league's no-limit
    hold'em at the level's blinds (TourneyHand.spec)."""
    forced = setup["forced"]
    assert isinstance(forced, dict)
    return json.dumps(
        {
            "game": "holdem",
            "rulebook": "league",
            "structure": "no-limit",
            "stakes": f"{forced['small_blind']}/{forced['big_blind']}",
            "seats": setup["table_size"],
            "buy_in": None,
            "rake": None,
            "rake_cap": None,
            "short_buy_in": None,
        }
    )


def _carry_over(connection: sa.Connection) -> None:
    names = connection.execute(sa.text("SELECT id, name FROM accounts"))
    accounts = {r.name: int(r.id) for r in names}
    used = {
        (int(r.account_id), str(r.request_id))
        for r in connection.execute(
            sa.text("SELECT account_id, request_id FROM moves WHERE request_id IS NOT NULL")
        )
    }
    old_hands = connection.execute(sa.text("SELECT * FROM tournament_hands ORDER BY id")).all()
    for old in old_hands:
        setup = json.loads(old.setup)
        seats = [
            [seat["seat"], accounts.get(seat["player"]), seat["player"], seat["chips"]]
            for seat in setup["seats"]
        ]
        new_id = connection.execute(
            sa.text(
                "INSERT INTO hands (tournament_id, table_no, number, status, spec, button, seats, "
                "setup, started, finished, result) VALUES (:tournament, :table_no, :number, "
                ":status, :spec, :button, :seats, :setup, :started, :finished, :result) "
                "RETURNING id"
            ),
            {
                "tournament": old.tournament_id,
                "table_no": old.table_no,
                "number": old.number,
                "status": old.status,
                "spec": _spec(setup),
                "button": setup["button"],
                "seats": json.dumps(seats),
                "setup": old.setup,
                "started": old.started,
                "finished": old.finished,
                "result": old.result,
            },
        ).scalar_one()
        moves = connection.execute(
            sa.text("SELECT * FROM tournament_moves WHERE hand_id = :hand ORDER BY seq"),
            {"hand": old.id},
        ).all()
        for move in moves:
            request = move.request_id
            if request is not None:
                if (int(move.account_id), str(request)) in used:
                    request = None  # applied long ago; the id is the account's other move's
                else:
                    used.add((int(move.account_id), str(request)))
            connection.execute(
                sa.text(
                    "INSERT INTO moves (hand_id, seq, seat, account_id, request_id, move, by, "
                    "at) VALUES (:hand, :seq, :seat, :account, :request, :move, :by, :at)"
                ),
                {
                    "hand": new_id,
                    "seq": move.seq,
                    "seat": move.seat,
                    "account": move.account_id,
                    "request": request,
                    "move": move.move,
                    "by": move.by,
                    "at": move.at,
                },
            )


def downgrade() -> None:
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
    connection = op.get_bind()
    connection.execute(
        sa.text(
            "INSERT INTO tournament_hands (id, tournament_id, table_no, number, setup, status, "
            "started, finished, result) SELECT id, tournament_id, table_no, number, setup, "
            "status, started, finished, result FROM hands WHERE tournament_id IS NOT NULL"
        )
    )
    connection.execute(
        sa.text(
            "INSERT INTO tournament_moves (hand_id, seq, seat, account_id, request_id, move, by, "
            "at) SELECT hand_id, seq, seat, account_id, request_id, move, COALESCE(by, 'player'), "
            "at FROM moves WHERE hand_id IN (SELECT id FROM hands WHERE tournament_id IS NOT NULL)"
        )
    )
    connection.execute(
        sa.text(
            "DELETE FROM moves WHERE hand_id IN (SELECT id FROM hands WHERE tournament_id IS NOT "
            "NULL)"
        )
    )
    connection.execute(sa.text("DELETE FROM hands WHERE tournament_id IS NOT NULL"))
    op.drop_index("hands_of_tournament", "hands")
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("by")
        batch.alter_column("events", existing_type=sa.Text, nullable=False)
    with op.batch_alter_table("hands") as batch:
        batch.drop_constraint("hands_tournament", type_="foreignkey")
        batch.drop_column("setup")
        batch.drop_column("table_no")
        batch.drop_column("tournament_id")
        batch.alter_column("events", existing_type=sa.Text, nullable=False)
        batch.alter_column("seed", existing_type=sa.BigInteger, nullable=False)
        batch.alter_column("deck", existing_type=sa.Text, nullable=False)
        batch.alter_column("table_id", existing_type=sa.Integer, nullable=False)
