"""What a tournament shows: the clock and level at a table, the table as each seat may see
it, the lobby's row and the details; and the director's controls, which the library checks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from croupier.tournament import Break, Tournament, TournamentError, TournamentSettings

if TYPE_CHECKING:
    from croupier.server.rooms.ports import Listener
    from croupier.server.store.tournaments import Member
    from croupier.server.tournaments.hand import Playing
    from croupier.server.tournaments.ports import Host

__all__ = [
    "CONTROLS",
    "VOID_RULE",
    "Shown",
    "clock_info",
    "control",
    "detail",
    "lobby_row",
    "results",
    "state_for",
]

VOID_RULE = "rws 5.1; cardroom irregularities 3"
# The director's controls, each with the clause it applies ("": the clock's, which no clause
# names). The details send them, so that the page cites what the server does.
CONTROLS: dict[str, str] = {
    "start": "league 2", "pause": "", "resume": "", "add_time": "",
    "close_registration": "league 19", "move": "league 14", "penalty": "league 35",
    "disqualify": "league 36", "absent": "league 25, 27", "present": "league 25, 27",
    "void": VOID_RULE,
}  # fmt: skip


class Shown(Protocol):
    """What the views read of a tournament run (croupier.server.tournaments.run)."""

    id: int
    name: str
    status: str
    starts_at: float | None
    settings: TournamentSettings
    t: Tournament
    entries: list[Member]  # registered before the start
    members: dict[str, Member]
    hands: dict[int, Playing]  # the hands in play, by table
    host: Host

    def table_of(self, conn: Listener) -> int | None:
        """The table ``conn`` follows."""

    def seat_in(self, conn: Listener, table: int) -> int | None:
        """``conn``'s seat at ``table``, if it has one."""


def clock_info(run: Shown) -> dict[str, object]:
    """The clock and the level as a table shows them."""
    t = run.t
    now = run.host.clock()
    remaining = t.remaining(now) if t.started else None
    level = t.level
    return {
        "level": t.level_number,
        "on_break": t.on_break,
        "paused": t.paused,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "big_blind_ante": level.big_blind_ante,
        "remaining": None if remaining is None else round(remaining, 1),
        "next_break": next_break(run, remaining),
        "players_left": t.players_left if t.started else len(run.entries),
        "entries": t.entries if t.started else len(run.entries),
        "average_stack": round(t.average_stack()) if t.started else run.settings.buy_in.chips,
        "prize_pool": t.prize_pool if t.started else pool_before_start(run),
        "registration_open": t.registration_open,
    }


def pool_before_start(run: Shown) -> int:
    return len(run.entries) * run.settings.buy_in.to_pool


def next_break(run: Shown, remaining: float | None) -> float | None:
    """Seconds until the next break begins (0 during one), None when none is left."""
    t = run.t
    if t.on_break:
        return 0.0
    stages = run.settings.stages
    start = t.stage if t.started else 0
    later = 0
    for stage in stages[start + 1 :]:
        if isinstance(stage, Break):
            left = remaining if remaining is not None else stages[start].seconds
            return round(left + later, 1)
        later += stage.seconds
    return None


def state_for(run: Shown, conn: Listener) -> dict[str, object]:
    table = run.table_of(conn)
    seats: list[dict[str, object]] = []
    hand = None
    you = None
    if table is not None:
        record = run.t.tables[table]
        you = run.seat_in(conn, table)
        for seat, name in sorted(record.seats.items()):
            player = run.t.players[name]
            member = run.members.get(name)
            seats.append(
                {
                    "seat": seat,
                    "name": name,
                    "chips": player.chips,
                    "bot": member is not None and member.bot,
                    "connected": member is not None
                    and (member.bot or run.host.connected(member.account)),
                    "absent": player.absent
                    or player.penalty_hands > 0
                    or (
                        player.penalty_until is not None and run.host.clock() < player.penalty_until
                    ),
                }
            )
        playing = run.hands.get(table)
        if playing is not None:
            hand = playing.view(you)
    return {
        "type": "tournament_state",
        "tournament": run.id,
        "name": run.name,
        "status": run.status,
        "table": table,
        "you": you,
        "seats": seats,
        "hand": hand,
        "clock": clock_info(run),
    }


def results(run: Shown) -> list[dict[str, object]]:
    return [{"place": st.place, "name": st.player, "prize": st.prize} for st in run.t.standings()]


def lobby_row(run: Shown) -> dict[str, object]:
    return {
        "tournament": run.id,
        "name": run.name,
        "status": run.status,
        "starts_at": run.starts_at,
        "buy_in": run.settings.buy_in.price,
        "registered": len(run.entries) if not run.t.started else len(run.t.players),
        "clock": clock_info(run),
    }


def detail(run: Shown) -> dict[str, object]:
    now = run.host.clock()
    tables = [
        {"table": n, "seats": [{"seat": s_, "name": name} for s_, name in sorted(t.seats.items())],
         "size": t.size, "hand": run.hands[n].number if n in run.hands else None}
        for n, t in sorted(run.t.tables.items())
    ]  # fmt: skip
    players = (
        [{"name": p.name, "status": p.status.value, "chips": p.chips, "table": p.table,
          "seat": p.seat, "entries": p.entries, "absent": p.absent,
          "penalty_hands": p.penalty_hands,
          "penalty_seconds": None if p.penalty_until is None or p.penalty_until <= now
          else round(p.penalty_until - now)}
         for p in run.t.players.values()]
        if run.t.started
        else [{"name": m.name, "status": "registered", "chips": 0, "table": None,
               "seat": None, "entries": 1, "absent": False, "penalty_hands": 0,
               "penalty_seconds": None} for m in run.entries]
    )  # fmt: skip
    return {
        **lobby_row(run),
        "tables": tables,
        "players": players,
        "standings": results(run) if run.t.started else [],
        "prizes": list(run.t.prizes()),
        "table_size": run.settings.table_size,
        "controls": CONTROLS,
    }


def control(t: Tournament, action: object, body: dict[str, Any]) -> str:
    """One of the director's controls on a running tournament, as the library allows it
    (a refusal is its :class:`TournamentError`, naming the clause, with nothing changed)."""
    player = body.get("player")
    if action == "pause":
        t.pause()
        return "clock paused"
    if action == "resume":
        t.resume()
        return "clock resumed"
    if action == "add_time":
        seconds = body.get("seconds")
        t.add_time(seconds)  # type: ignore[arg-type]  # the library checks it
        return f"{seconds} seconds added to the level"
    if action == "close_registration":
        t.close_registration()
        return f"registration closed ({CONTROLS['close_registration']})"
    if action == "move":
        t.move(player, body.get("table"), body.get("seat"))  # type: ignore[arg-type]
        return f"{player} moved to table {body.get('table')} seat {body.get('seat')}"
    if action == "penalty":
        t.penalise(player, orbits=body.get("orbits"), minutes=body.get("minutes"))  # type: ignore[arg-type]
        amount = body.get("orbits") or body.get("minutes")
        unit = "orbit" if body.get("orbits") is not None else "minute"
        unit += "" if amount == 1 else "s"
        return f"{player} sits out {amount} {unit} ({CONTROLS['penalty']})"
    if action == "disqualify":
        t.disqualify(player)  # type: ignore[arg-type]
        return f"{player} disqualified ({CONTROLS['disqualify']})"
    if action in ("absent", "present"):
        (t.mark_absent if action == "absent" else t.mark_present)(player)  # type: ignore[arg-type]
        return f"{player} marked {action} ({CONTROLS[action]})"
    raise TournamentError(f"unknown control {action!r}: {', '.join(CONTROLS)}")
