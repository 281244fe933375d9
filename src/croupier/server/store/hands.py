"""Finished hands as the histories and the replays read them: a cash table's hand
(:func:`read_finished`), the hands an account played (:func:`hands_of`), a tournament's hands a
player was dealt into (:func:`tournament_hands_of`) and one tournament hand with what its
history needs (:func:`read_tournament_hand`). What turns a stored hand into PHH or PokerStars
text is the web floor's (croupier.server.web.histories)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select

from croupier.server.store import schema as s
from croupier.tournament.events import HandStarted
from croupier.tournament.log import load_log
from croupier.wire import loads

__all__ = [
    "Finished",
    "TournamentHand",
    "hands_of",
    "read_finished",
    "read_tournament_hand",
    "tournament_hands_of",
]


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished hand as stored: its row, its moves in order, and its table's name."""

    row: Any
    moves: list[Any]
    table_name: str
    dealt: list[list[Any]]  # one row per player dealt in: seat, account, name, ..., stack

    def seat_of(self, account: int) -> int | None:
        return next((row[0] for row in self.dealt if row[1] == account), None)


def read_finished(conn: Connection, hand_id: int) -> Finished | None:
    """Hand ``hand_id`` if it is stored and finished."""
    row = conn.execute(select(s.hands).where(s.hands.c.id == hand_id)).first()
    if row is None or row.status != "finished" or row.table_id is None:  # a tournament's
        return None
    moves = list(
        conn.execute(select(s.moves).where(s.moves.c.hand_id == hand_id).order_by(s.moves.c.seq))
    )
    name = conn.scalar(select(s.tables.c.name).where(s.tables.c.id == row.table_id))
    return Finished(row, moves, str(name), list(loads(row.seats)))


def hands_of(conn: Connection, account: int) -> list[dict[str, Any]]:
    """The hands ``account`` played (a result or a refund in its ledger), oldest first."""
    played = select(s.ledger.c.hand_id).where(
        s.ledger.c.account_id == account, s.ledger.c.kind.in_(("result", "refund"))
    )
    return [
        {
            "hand": r.id,
            "table": r.table_id,
            "number": r.number,
            "status": r.status,
            "started": r.started,
        }
        for r in conn.execute(
            select(s.hands).where(s.hands.c.id.in_(played)).order_by(s.hands.c.id)
        )
    ]


def tournament_hands_of(conn: Connection, tournament: int, player: str) -> list[dict[str, Any]]:
    """The finished hands of ``tournament`` that ``player`` (a name) was dealt into, oldest
    first."""
    rows = conn.execute(
        select(s.hands)
        .where(
            s.hands.c.tournament_id == tournament,
            s.hands.c.status == "finished",
            s.hands.c.setup.contains(f'"player":"{player}"', autoescape=True),
        )
        .order_by(s.hands.c.id)
    )
    return [
        {"hand": r.id, "table": r.table_no, "number": r.number, "started": r.started}
        for r in rows
        if any(seat["player"] == player for seat in loads(r.setup)["seats"])
    ]


@dataclass(frozen=True, slots=True)
class TournamentHand:
    """A tournament's hand as stored (``row`` None: there is none of that id there), its moves
    in order, the tournament's settings (JSON), and the log's starts of a hand of its number
    at its table (a table's hands are numbered again when it opens again)."""

    row: Any
    moves: list[Any]
    settings: Any
    starts: list[HandStarted]


def read_tournament_hand(conn: Connection, tournament: int, hand_id: int) -> TournamentHand:
    """Hand ``hand_id`` of ``tournament``, whatever its status."""
    row = conn.execute(
        select(s.hands).where(
            s.hands.c.id == hand_id,
            s.hands.c.tournament_id == tournament,
        )
    ).first()
    moves = conn.execute(
        select(s.moves).where(s.moves.c.hand_id == hand_id).order_by(s.moves.c.seq)
    )
    settings = conn.scalar(select(s.tournaments.c.settings).where(s.tournaments.c.id == tournament))
    starts: list[HandStarted] = []
    if row is not None:
        for line in conn.scalars(
            select(s.tournament_events.c.event).where(
                s.tournament_events.c.tournament_id == tournament,
                s.tournament_events.c.event.startswith('{"type":"HandStarted",'),
                s.tournament_events.c.event.contains(f'"hand":{row.number},'),
            )
        ):
            event = load_log(line)[0]
            if isinstance(event, HandStarted) and event.table == row.table_no:
                starts.append(event)
    return TournamentHand(row, list(moves), settings, starts)
