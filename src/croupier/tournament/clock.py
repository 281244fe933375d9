"""The tournament clock, kept as absolute times so that it survives a restart.

A stage (level or break) is stored as the moment it started, its pauses as absolute (start, end)
intervals and the time the director added; the time left is worked out from those and the time
now, never counted down. After a crash the clock, rebuilt from the log, shows what it would
have shown had nothing happened (a paused clock stays paused at the same time left).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from croupier.tournament.settings import TournamentError

__all__ = ["Clock", "ManualClock", "StageClock"]


Clock = Callable[[], float]
"""The time source a tournament is given: seconds as a float, e.g. ``time.time``."""


class ManualClock:
    """A clock that moves only when told: for tests and simulated tournaments."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = float(start)

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise TournamentError(f"a clock cannot go back in time ({seconds} seconds)")
        self.now += seconds

    def __repr__(self) -> str:
        return f"ManualClock({self.now!r})"


@dataclass(frozen=True)
class StageClock:
    """The clock of the stage in play."""

    stage: int
    started_at: float
    pauses: tuple[tuple[float, float | None], ...] = ()  # absolute; the last may be open
    added: int = 0  # seconds the director added (negative: took off)

    @property
    def paused(self) -> bool:
        return bool(self.pauses) and self.pauses[-1][1] is None

    def paused_for(self, now: float) -> float:
        """Seconds the clock has stood still in this stage up to ``now``."""
        return sum(min(now, now if end is None else end) - start for start, end in self.pauses)

    def elapsed(self, now: float) -> float:
        """Seconds of this stage that have run by ``now``."""
        return max(0.0, now - self.started_at - self.paused_for(now))

    def remaining(self, now: float, length: int) -> float:
        """Seconds left of a stage of ``length`` seconds (0 once it is over)."""
        return max(0.0, length + self.added - self.elapsed(now))

    def ends_at(self, length: int) -> float | None:
        """The absolute time the stage ends, ``None`` while paused (nobody knows yet)."""
        if self.paused:
            return None
        stood = sum(end - start for start, end in self.pauses if end is not None)
        return self.started_at + length + self.added + stood

    def pause(self, at: float) -> StageClock:
        if self.paused:
            raise TournamentError("the clock is already paused")
        return replace(self, pauses=(*self.pauses, (at, None)))

    def resume(self, at: float) -> StageClock:
        if not self.paused:
            raise TournamentError("the clock is running: only a paused clock can resume")
        start = self.pauses[-1][0]
        if at < start:
            raise TournamentError(f"the clock cannot resume at {at}, before its pause at {start}")
        return replace(self, pauses=(*self.pauses[:-1], (start, at)))

    def add(self, seconds: int, now: float, length: int) -> StageClock:
        """Add (or with a negative number take off) time; at least a second must be left."""
        if isinstance(seconds, bool) or not isinstance(seconds, int) or seconds == 0:
            raise TournamentError(
                f"time added must be a nonzero whole number of seconds, got {seconds!r}"
            )
        if self.remaining(now, length) + seconds < 1:
            raise TournamentError(
                f"taking off {-seconds} seconds would end the stage: "
                f"{self.remaining(now, length):.0f} seconds are left"
            )
        return replace(self, added=self.added + seconds)
