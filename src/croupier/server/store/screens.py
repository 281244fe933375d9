"""The room's clock screen for a tournament (``/clock/{id}``): whether its director keeps it
private (then it shows only with the link's key) and whether it names the chip leader.

The choice is a director's audited decision: each change is a row of the audit log
(``kind = 'clock_screen'``, its detail the JSON settings) and the last one stands, so it needs
no table of its own and survives a restart like everything audited. The key is derived from the
tournament's seed (a house secret, never sent) with HMAC, so it is the same in every process and
after a restart, and a link handed out stays good.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass

from sqlalchemy import Connection, select

from croupier.server.store import schema as s
from croupier.server.store.rooms import audit

__all__ = ["ClockScreen", "clock_screen", "set_clock_screen"]

KIND = "clock_screen"


@dataclass(frozen=True)
class ClockScreen:
    tournament: int
    private: bool  # shown only with the key
    leader: bool  # the chip leader named on the screen
    key: str  # the link's key (for a private screen)


def _detail(tournament: int, private: bool, leader: bool) -> str:
    return json.dumps({"tournament": tournament, "private": private, "leader": leader})


def clock_screen(conn: Connection, tournament: int) -> ClockScreen | None:
    """The clock screen's settings (public, no leader, until the director says otherwise), or
    None when there is no such tournament."""
    seed = conn.scalar(select(s.tournaments.c.seed).where(s.tournaments.c.id == tournament))
    if seed is None:
        return None
    key = hmac.new(str(seed).encode(), f"clock {tournament}".encode(), hashlib.sha256)
    prefix = json.dumps({"tournament": tournament})[:-1] + ","
    row = conn.execute(
        select(s.audit.c.detail)
        .where(s.audit.c.kind == KIND, s.audit.c.detail.startswith(prefix))
        .order_by(s.audit.c.id.desc())
        .limit(1)
    ).first()
    settings = json.loads(row.detail) if row is not None else {}
    return ClockScreen(
        tournament,
        bool(settings.get("private", False)),
        bool(settings.get("leader", False)),
        key.hexdigest()[:20],
    )


def set_clock_screen(
    conn: Connection, actor: int, tournament: int, private: bool, leader: bool
) -> None:
    """The director's choice for the screen, audited (the last one stands)."""
    audit(conn, actor, None, None, None, KIND, "applied", _detail(tournament, private, leader))
