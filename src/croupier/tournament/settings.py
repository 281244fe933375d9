"""What a tournament director sets before the cards are in the air: the schedule of levels and
breaks, the buy-in and its options, the chips, the seats and the payouts.

Money (prices, fees, prizes) is an integer in the smallest money unit (cents); chips are an
integer in the smallest chip. Levels are numbered 1, 2, ... counting playing levels only; a
break belongs to the level before it. Every check names the clause it comes from; where the
league book is silent (fees, payouts, rebuys) the setting is the house's and the message says so.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = [
    "AddOn",
    "Break",
    "Level",
    "PayoutPlan",
    "PayoutRange",
    "Purchase",
    "Rebuys",
    "Stage",
    "TournamentError",
    "TournamentSettings",
]

CARDS_IN_A_DECK = 52  # a chip race deals one card per odd chip from one deck


class TournamentError(ValueError):
    """A tournament setting, command or result the rules do not allow; says which rule and what
    is allowed, and leaves the tournament as it was."""


def _whole(value: object, what: str, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise TournamentError(f"{what} must be a whole number of at least {least}, got {value!r}")
    return value


@dataclass(frozen=True)
class Level:
    """A level of the blind structure. The big blind is the minimum bet (league 8) and must be
    posted every hand (league 12); the big-blind ante is one ante posted by the big blind for
    the whole table."""

    small_blind: int
    big_blind: int
    seconds: int
    ante: int = 0  # from every player dealt in
    big_blind_ante: int = 0  # from the big blind only

    def __post_init__(self) -> None:
        _whole(self.small_blind, "the small blind", 1)
        _whole(self.big_blind, "the big blind", 1)
        _whole(self.seconds, "a level's length in seconds", 1)
        _whole(self.ante, "the ante", 0)
        _whole(self.big_blind_ante, "the big-blind ante", 0)
        if self.small_blind > self.big_blind:
            raise TournamentError(
                f"the small blind {self.small_blind} is above the big blind {self.big_blind}: "
                "the big blind is the minimum bet of the round (league 8, 12)"
            )
        if self.ante and self.big_blind_ante:
            raise TournamentError(
                "a level has either an ante from every player or a big-blind ante, not both "
                "(house setting: the league book has no antes)"
            )

    @property
    def forced_bets(self) -> tuple[int, ...]:
        return tuple(
            x for x in (self.small_blind, self.big_blind, self.ante, self.big_blind_ante) if x
        )


@dataclass(frozen=True)
class Break:
    """A break between levels: no hands are dealt; chips are coloured up here when due."""

    seconds: int

    def __post_init__(self) -> None:
        _whole(self.seconds, "a break's length in seconds", 1)


Stage = Level | Break


@dataclass(frozen=True)
class Purchase:
    """What a player pays for chips: ``price`` in money, of which ``fee`` goes to the house and
    the rest to the prize pool."""

    price: int
    chips: int
    fee: int = 0

    def __post_init__(self) -> None:
        _whole(self.price, "a price", 0)
        _whole(self.chips, "the chips bought", 1)
        _whole(self.fee, "a fee", 0)
        if self.fee > self.price:
            raise TournamentError(f"the fee {self.fee} is more than the price {self.price}")

    @property
    def to_pool(self) -> int:
        return self.price - self.fee


@dataclass(frozen=True)
class Rebuys:
    """Rebuys (a house option): while the level number is at most ``until_level``, a player in
    the tournament whose stack is at most ``stack_at_most`` may buy ``purchase`` again, up to
    ``most`` times (``None``: no limit), between the hands they are dealt."""

    purchase: Purchase
    until_level: int
    stack_at_most: int
    most: int | None = None

    def __post_init__(self) -> None:
        _whole(self.until_level, "the last rebuy level", 1)
        _whole(self.stack_at_most, "the stack that allows a rebuy", 0)
        if self.most is not None:
            _whole(self.most, "the most rebuys per player", 1)


@dataclass(frozen=True)
class AddOn:
    """An add-on (a house option): once per player, during level ``at_level`` and the break
    right after it."""

    purchase: Purchase
    at_level: int

    def __post_init__(self) -> None:
        _whole(self.at_level, "the add-on level", 1)


@dataclass(frozen=True)
class PayoutRange:
    """The shares of the prize pool, in percent for places 1, 2, ..., for a field of
    ``entrants_from`` to ``entrants_to`` entries (``None``: no upper bound)."""

    entrants_from: int
    entrants_to: int | None
    percent: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        span = f"entrants {self.entrants_from}-{self.entrants_to or ''}"
        _whole(self.entrants_from, f"{span}: the smallest field", 1)
        if self.entrants_to is not None and self.entrants_to < self.entrants_from:
            raise TournamentError(f"{span}: the range is empty")
        shares = tuple(Fraction(p) for p in self.percent)
        object.__setattr__(self, "percent", shares)
        if not shares or any(p <= 0 for p in shares) or sum(shares) != 100:
            raise TournamentError(
                f"{span}: the shares must be positive and sum to exactly 100 percent, "
                f"got {[float(p) for p in shares]} (sum {float(sum(shares))})"
            )
        if any(a < b for a, b in itertools.pairwise(shares)):
            raise TournamentError(f"{span}: a place may not pay more than the place above it")


@dataclass(frozen=True)
class PayoutPlan:
    """How the prize pool is paid (a house setting: the league book has no payouts).

    ``ranges``: a template by the number of entries; empty: the default (one place in three
    for up to 3 entries, two for up to 6, three for up to 10, then 15% of the field rounded
    up, each place's share proportional to 1/place). Every prize but the first is rounded down
    to a multiple of ``unit``; the first place gets what is left, so the prizes always sum to
    the pool."""

    ranges: tuple[PayoutRange, ...] = ()
    unit: int = 1

    def __post_init__(self) -> None:
        _whole(self.unit, "the payout rounding unit", 1)
        expected = 1
        for index, entry in enumerate(self.ranges):
            if entry.entrants_from != expected and not (index == 0 and entry.entrants_from <= 2):
                raise TournamentError(
                    f"payout ranges must follow each other without gaps or overlaps: the range "
                    f"starting at {entry.entrants_from} entrants should start at {expected}"
                )
            if entry.entrants_to is None and index != len(self.ranges) - 1:
                raise TournamentError("only the last payout range may be open-ended")
            expected = (entry.entrants_to or 0) + 1

    def shares(self, entrants: int) -> tuple[Fraction, ...]:
        """The percent for places 1, 2, ... with ``entrants`` entries."""
        if not self.ranges:
            return _default_shares(entrants)
        for entry in self.ranges:
            if entry.entrants_from <= entrants and (
                entry.entrants_to is None or entrants <= entry.entrants_to
            ):
                return entry.percent
        low = self.ranges[0].entrants_from
        high = self.ranges[-1].entrants_to
        raise TournamentError(
            f"no payout range for {entrants} entrants: the template covers {low} to {high}"
        )


def _default_shares(entrants: int) -> tuple[Fraction, ...]:
    if entrants <= 3:
        paid = 1
    elif entrants <= 6:
        paid = 2
    elif entrants <= 10:
        paid = 3
    else:
        paid = math.ceil(entrants * 15 / 100)
    weights = [Fraction(1, place) for place in range(1, paid + 1)]
    total = sum(weights)
    return tuple(100 * w / total for w in weights)


@dataclass(frozen=True)
class TournamentSettings:
    """A whole tournament's settings; checked as a whole when made."""

    stages: tuple[Stage, ...]
    buy_in: Purchase
    denominations: tuple[int, ...]
    table_size: int = 9
    final_table_size: int | None = None  # None: the table size
    late_until_level: int = 0  # league 19: registration stays open until this level ends
    re_entries: int = 0  # per player, while registration is open
    rebuys: Rebuys | None = None
    add_on: AddOn | None = None
    payouts: PayoutPlan = field(default_factory=PayoutPlan)
    chip_up: bool = True  # league 18: colour up chips no longer needed
    name: str = "tournament"
    max_table_size: int = 10  # the book's most players at a table (league: au 5.1(a)(iv))
    _in_play: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "stages", tuple(self.stages))
        object.__setattr__(self, "denominations", tuple(self.denominations))
        self._check_schedule()
        self._check_seats()
        self._check_options()
        self._check_chips()

    # --- the schedule ------------------------------------------------------------------------

    @property
    def levels(self) -> tuple[Level, ...]:
        return tuple(s for s in self.stages if isinstance(s, Level))

    def level_number(self, stage: int) -> int:
        """The level a stage is (a break: the level before it), numbered from 1."""
        return sum(1 for s in self.stages[: stage + 1] if isinstance(s, Level))

    def playing_level(self, stage: int) -> Level:
        """The level in force at ``stage``: the stage itself, or after a break the next level."""
        for candidate in self.stages[stage:]:
            if isinstance(candidate, Level):
                return candidate
        raise TournamentError("the schedule ends with a break")  # refused when made

    def _open_through(self, stage: int, last_level: int) -> bool:
        """Whether something open 'until level N ends' is open at ``stage``."""
        number = self.level_number(stage)
        if isinstance(self.stages[stage], Level):
            return number <= last_level
        return number < last_level

    def registration_open(self, stage: int) -> bool:
        """Late registration and re-entry are open at ``stage`` (league 19)."""
        return self._open_through(stage, self.late_until_level)

    def rebuys_open(self, stage: int) -> bool:
        return self.rebuys is not None and self._open_through(stage, self.rebuys.until_level)

    def add_on_open(self, stage: int) -> bool:
        if self.add_on is None:
            return False
        return self.level_number(stage) == self.add_on.at_level

    def in_play(self, stage: int) -> tuple[int, ...]:
        """The chip denominations in play at ``stage`` (league 18: chips no longer needed are
        coloured up at the first stage, a break or a level, that no longer needs them)."""
        return self._in_play[stage]

    @property
    def final_size(self) -> int:
        return self.final_table_size or self.table_size

    # --- checks ------------------------------------------------------------------------------

    def _check_schedule(self) -> None:
        if not self.stages or not isinstance(self.stages[0], Level):
            raise TournamentError("the schedule must start with a level: play starts the clock")
        if not isinstance(self.stages[-1], Level):
            raise TournamentError(
                "the schedule must end with a level: the last level lasts until the end"
            )
        for index, stage in enumerate(self.stages):
            if not isinstance(stage, Level | Break):
                raise TournamentError(f"stage {index + 1} is neither a level nor a break")

    def _check_seats(self) -> None:
        most = _whole(self.max_table_size, "the book's most players at a table", 2)
        for what, size in (("table size", self.table_size), ("final table size", self.final_size)):
            if _whole(size, f"the {what}", 2) > most:
                raise TournamentError(
                    f"the {what} {size} is over the {most} players one 52-card deck deals "
                    "hold'em to (league 2-3; au 5.1(a)(iv))"
                )

    def _check_options(self) -> None:
        count = len(self.levels)
        _whole(self.late_until_level, "the last level of late registration", 0)
        _whole(self.re_entries, "the re-entries per player", 0)
        if self.late_until_level > count:
            raise TournamentError(
                f"late registration until level {self.late_until_level}, but the schedule has "
                f"{count} levels (league 19: the director sets the level)"
            )
        if self.re_entries and not self.late_until_level:
            raise TournamentError(
                "re-entries are taken while registration is open: set a late registration "
                "level (league 19)"
            )
        for what, option, level in (
            ("rebuys", self.rebuys, self.rebuys.until_level if self.rebuys else 0),
            ("the add-on", self.add_on, self.add_on.at_level if self.add_on else 0),
        ):
            if option is not None and level > count:
                raise TournamentError(
                    f"{what} at level {level}, but the schedule has {count} levels (house option)"
                )

    def _check_chips(self) -> None:
        chips = self.denominations
        if not chips or any(isinstance(c, bool) or not isinstance(c, int) or c < 1 for c in chips):
            raise TournamentError(f"denominations must be positive whole chips, got {chips!r}")
        for low, high in itertools.pairwise(chips):
            if high <= low or high % low:
                raise TournamentError(
                    f"denominations must rise, each a multiple of the one below, so that "
                    f"chips can be exchanged at full value (league 48): {low} then {high}"
                )
        in_play = []
        current = chips
        for stage in range(len(self.stages)):
            while self.chip_up and len(current) > 1 and not self._needed(stage, current[1]):
                smallest, next_up = current[0], current[1]
                odd = next_up // smallest - 1
                seats = max(self.table_size, self.final_size)
                if odd * seats > CARDS_IN_A_DECK:
                    raise TournamentError(
                        f"colouring up {smallest} chips to {next_up} races up to {odd} odd chips "
                        f"per player, {odd * seats} cards at a table of {seats}: more than "
                        "one deck (league 18, 48); add a denomination between them"
                    )
                current = current[1:]
            in_play.append(current)
        object.__setattr__(self, "_in_play", tuple(in_play))
        for stage, level in enumerate(self.stages):
            smallest = in_play[stage][0]
            if isinstance(level, Level):
                for amount in level.forced_bets:
                    if amount % smallest:
                        raise TournamentError(
                            f"level {self.level_number(stage)}: {amount} cannot be made of the "
                            f"chips in play, the smallest of which is {smallest} (league 18)"
                        )
        for what, purchase in self._all_purchases():
            if purchase.chips % chips[0]:
                raise TournamentError(
                    f"{what} of {purchase.chips} chips cannot be made of the chips in play, "
                    f"the smallest of which is {chips[0]} (league 18)"
                )

    def _all_purchases(self) -> list[tuple[str, Purchase]]:
        found = [("the starting stack", self.buy_in)]
        if self.rebuys is not None:
            found.append(("a rebuy", self.rebuys.purchase))
        if self.add_on is not None:
            found.append(("the add-on", self.add_on.purchase))
        return found

    def _needed(self, stage: int, next_up: int) -> bool:
        """Whether the chips below ``next_up`` are still needed from ``stage`` on: some forced
        bet of a level to come is not a multiple of ``next_up``, or some chips sold are not
        (then the chips in play could not all be exchanged at full value, league 48)."""
        if any(p.chips % next_up for _, p in self._all_purchases()):
            return True
        for later in range(stage, len(self.stages)):
            level = self.stages[later]
            if isinstance(level, Level) and any(a % next_up for a in level.forced_bets):
                return True
        return False
