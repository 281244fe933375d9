"""The room's clock screen for a tournament (``/clock/{id}``): whether its director keeps it
private (then it shows only with the link's key) and whether it names the chip leader.

The choice is a director's audited decision: it is kept in ``clock_screens`` (one row per
tournament, the last choice) and each change is also a row of the audit log (``kind =
'clock_screen'``, its detail the JSON settings; migration 0008 carried the choices audited
before over). The key is derived from the
tournament's seed (a house secret, never sent) with HMAC, so it is the same in every process and
after a restart, and a link handed out stays good.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass

from sqlalchemy import Connection, insert, select, update

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
    row = conn.execute(
        select(s.clock_screens.c.private, s.clock_screens.c.leader).where(
            s.clock_screens.c.tournament_id == tournament
        )
    ).first()
    private, leader = (bool(row.private), bool(row.leader)) if row is not None else (False, False)
    return ClockScreen(tournament, private, leader, key.hexdigest()[:20])


def set_clock_screen(
    conn: Connection, actor: int, tournament: int, private: bool, leader: bool
) -> None:
    """The director's choice for the screen, audited (the last one stands)."""
    chosen = {"private": private, "leader": leader, "account_id": actor, "at": time.time()}
    t = s.clock_screens
    done = conn.execute(update(t).where(t.c.tournament_id == tournament).values(**chosen))
    if not done.rowcount:
        conn.execute(insert(t).values(tournament_id=tournament, **chosen))
    audit(conn, actor, None, None, None, KIND, "applied", _detail(tournament, private, leader))
