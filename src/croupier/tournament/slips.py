"""A tournament's event log as a director reads it: the seat draw as a list to read out, the
moves as slips to hand a player ("seat 4 at table 2 moves to table 1 seat 7"), and every event
as one line, in the log's one order. Read from the events only (:mod:`croupier.tournament.events`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from croupier.tournament import events as ev
from croupier.tournament.settings import Break, TournamentSettings

__all__ = ["Slip", "describe", "log_lines", "seat_draw", "slips"]

# Why a player moves, in the words a slip uses (with the clause the library applied).
_REASONS = {
    ev.SeatReason.BALANCE: "to balance the tables (league 14)",
    ev.SeatReason.BREAK: "from a broken table (league 14)",
    ev.SeatReason.FINAL: "to the final table (redraw)",
    ev.SeatReason.DIRECTOR: "by the director",
    ev.SeatReason.LATE: "late entry",
    ev.SeatReason.DRAW: "seat draw (league 2)",
}


@dataclass(frozen=True)
class Slip:
    """One move: who, from where (None: newly seated), to where, why and when."""

    number: int  # the event's index in the log
    at: float
    player: str
    from_table: int | None
    from_seat: int | None
    table: int
    seat: int
    reason: str

    @property
    def text(self) -> str:
        to = f"table {self.table} seat {self.seat}"
        if self.from_table is None:
            return f"{self.player} takes {to} ({self.reason})"
        return (
            f"seat {self.from_seat} at table {self.from_table} ({self.player}) moves to {to} "
            f"({self.reason})"
        )

    def to_json(self) -> dict[str, object]:
        return {
            "number": self.number, "at": self.at, "player": self.player,
            "from_table": self.from_table, "from_seat": self.from_seat, "table": self.table,
            "seat": self.seat, "reason": self.reason, "text": self.text,
        }  # fmt: skip


def slips(events: Sequence[ev.TournamentEvent]) -> list[Slip]:
    """Every move after the seat draw (balancing, broken tables, the final table, the
    director's, late entries), in the log's order."""
    where: dict[str, tuple[int, int]] = {}
    out: list[Slip] = []
    for number, event in enumerate(events):
        if isinstance(event, ev.Seated):
            before = where.get(event.player)
            where[event.player] = (event.table, event.seat)
            if event.reason is ev.SeatReason.DRAW:
                continue
            from_table, from_seat = before if before else (None, None)
            reason = _REASONS[event.reason]
            slip = Slip(
                number,
                event.at,
                event.player,
                from_table,
                from_seat,
                event.table,
                event.seat,
                reason,
            )
            out.append(slip)
        elif isinstance(event, ev.Eliminated | ev.Disqualified):
            where.pop(event.player, None)
    return out


def seat_draw(events: Sequence[ev.TournamentEvent]) -> list[dict[str, object]]:
    """The seat draw at the start (league 2), by table then seat: each player's table and seat."""
    drawn = sorted(
        (e.table, e.seat, e.player)
        for e in events
        if isinstance(e, ev.Seated) and e.reason is ev.SeatReason.DRAW
    )
    return [{"player": player, "table": table, "seat": seat} for table, seat, player in drawn]


def describe(event: ev.TournamentEvent, settings: TournamentSettings) -> str | None:
    """One event in a line, or None for one the log need not show (a hand's start and end are
    the tables' own record)."""
    if isinstance(event, ev.Registered):
        kind = "registers" if event.entry == 1 else f"re-enters (entry {event.entry})"
        return f"{event.player} {kind}: {event.purchase.chips} chips"
    if isinstance(event, ev.Rebought):
        return f"{event.player} rebuys: {event.purchase.chips} chips"
    if isinstance(event, ev.AddedOn):
        return f"{event.player} takes the add-on: {event.purchase.chips} chips"
    if isinstance(event, ev.Started):
        return "the tournament starts: the clock runs"
    if isinstance(event, ev.RegistrationClosed):
        return "registration closes (league 19)"
    if isinstance(event, ev.StageStarted):
        stage = settings.stages[event.stage]
        if isinstance(stage, Break):
            return f"break: {stage.seconds // 60} minutes"
        ante = f", ante {stage.ante}" if stage.ante else ""
        ante += f", big-blind ante {stage.big_blind_ante}" if stage.big_blind_ante else ""
        number = settings.level_number(event.stage)
        return f"level {number}: blinds {stage.small_blind}/{stage.big_blind}{ante}"
    if isinstance(event, ev.ClockPaused):
        return "clock paused"
    if isinstance(event, ev.ClockResumed):
        return "clock resumed"
    if isinstance(event, ev.TimeAdded):
        verb = "added to" if event.seconds > 0 else "taken off"
        return f"{abs(event.seconds)} seconds {verb} the level"
    if isinstance(event, ev.TableOpened):
        return f"table {event.table} opens ({event.size} seats)"
    if isinstance(event, ev.TableClosed):
        return f"table {event.table} breaks"
    if isinstance(event, ev.Seated):
        return None  # the seat draw's list and the slips show these
    if isinstance(event, ev.ButtonDrawn):
        return f"table {event.table}: the button drawn to seat {event.button} (league 2)"
    if isinstance(event, ev.Eliminated):
        return f"{event.player} is eliminated"
    if isinstance(event, ev.MarkedAbsent):
        return f"{event.player} marked absent (league 25, 27)"
    if isinstance(event, ev.MarkedPresent):
        return f"{event.player} marked present"
    if isinstance(event, ev.Penalised):
        span = f"{event.hands} hands" if event.hands else "a time"
        return f"{event.player} penalised: sits out {span} (league 35)"
    if isinstance(event, ev.Disqualified):
        return f"{event.player} disqualified; {event.chips} chips leave play (league 36)"
    if isinstance(event, ev.ChippedUp):
        return "chips coloured up (league 18, 48)"
    if isinstance(event, ev.Finished):
        return f"the tournament is over: {event.winner} wins"
    return None  # hands started and finished


def log_lines(
    events: Sequence[ev.TournamentEvent], settings: TournamentSettings
) -> list[dict[str, object]]:
    """The log in its one order, moves as their slips: ``{"number", "at", "text"}``."""
    moved = {slip.number: slip for slip in slips(events)}
    out: list[dict[str, object]] = []
    for number, event in enumerate(events):
        text = moved[number].text if number in moved else describe(event, settings)
        if text is not None:
            out.append({"number": number, "at": event.at, "text": text})
    return out
