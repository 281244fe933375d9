"""Tournament files (TOML): the levels and breaks, the buy-in and its options, the chips and the
payouts. ``croupier tournament FILE`` runs one; :func:`load_tournament` reads and checks it.

    name = "Thursday league"
    table_size = 9                   # players per table (league: at most 10, au 5.1)
    final_table_size = 9             # optional; default: the table size
    denominations = [25, 100, 500, 1000, 5000]
    chip_up = true                   # league 18: colour up chips no longer needed

    [buy_in]                         # money in the smallest unit (cents)
    price = 5500
    fee = 500                        # the house's part; the rest goes to the prize pool
    chips = 10000

    [registration]
    late_until_level = 2             # league 19: late registration until this level ends
    re_entries = 1                   # per player, while registration is open

    [rebuys]                         # optional (house option)
    price = 5000
    chips = 10000
    until_level = 1                  # the last level with rebuys
    stack_at_most = 10000            # the stack that allows one
    most = 2                         # per player; optional

    [add_on]                         # optional (house option)
    price = 5000
    chips = 15000
    at_level = 1                     # during this level and the break after it

    [[levels]]
    small_blind = 25
    big_blind = 50
    ante = 0                         # optional: from every player
    big_blind_ante = 0               # optional: from the big blind for the table
    minutes = 20

    [[levels]]
    break = 10                       # a break of 10 minutes

    [[levels]]                       # the schedule ends with a level, which lasts
    small_blind = 50
    big_blind = 100
    big_blind_ante = 100
    minutes = 20

    [payouts]                        # optional (house); default: 15% of the field paid
    unit = 100                       # prizes under first rounded down to this
    [[payouts.ranges]]
    from = 2
    to = 10                          # optional on the last range
    percent = [50, 30, 20]

Every mistake is a :class:`~croupier.tournament.settings.TournamentError` naming the file, the
key, what was wrong and, for the league's rules, the clause.
"""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path
from typing import Any

import tomli

from croupier.tournament.settings import (
    AddOn,
    Break,
    Level,
    PayoutPlan,
    PayoutRange,
    Purchase,
    Rebuys,
    Stage,
    TournamentError,
    TournamentSettings,
)

__all__ = ["load_tournament", "parse_tournament", "tournament_from_mapping"]

_TOP = {
    "name", "table_size", "final_table_size", "denominations", "chip_up", "buy_in",
    "registration", "rebuys", "add_on", "levels", "payouts",
}  # fmt: skip
_PURCHASE = {"price", "fee", "chips"}
_LEVEL = {"small_blind", "big_blind", "ante", "big_blind_ante", "minutes"}


def load_tournament(path: str | os.PathLike[str]) -> TournamentSettings:
    """The settings in a tournament file."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        raise TournamentError(
            f"{file}: cannot read the tournament file: {error.strerror}"
        ) from None
    return parse_tournament(text, str(file))


def parse_tournament(text: str, label: str = "tournament file") -> TournamentSettings:
    """The settings in the TOML ``text`` (``label`` names it in errors)."""
    try:
        data = tomli.loads(text)
    except tomli.TOMLDecodeError as error:
        raise TournamentError(f"{label}: not valid TOML: {error}") from None
    return tournament_from_mapping(data, label)


def tournament_from_mapping(data: dict[str, Any], label: str = "settings") -> TournamentSettings:
    """The settings in a tournament file's fields already parsed (TOML or JSON)."""
    try:
        return _Reader(label).settings(data)
    except TournamentError as error:
        if str(error).startswith(label):
            raise
        raise TournamentError(f"{label}: {error}") from None


class _Reader:
    def __init__(self, label: str) -> None:
        self.label = label

    def fail(self, key: str, message: str) -> TournamentError:
        return TournamentError(f"{self.label}: {key}: {message}")

    def table(self, data: dict[str, Any], key: str, allowed: set[str]) -> dict[str, Any]:
        """``data[key]`` (``data`` itself for no key), a table with only ``allowed`` keys."""
        return self.keys(data.get(key, {}) if key else data, key or "top level", allowed)

    def keys(self, value: object, where: str, allowed: set[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, "must be a table of settings")
        unknown = sorted(set(value) - allowed)
        if unknown:
            raise self.fail(
                where, f"unknown key {unknown[0]!r}; the keys are {', '.join(sorted(allowed))}"
            )
        return value

    def whole(self, data: dict[str, Any], key: str, where: str, default: int | None = None) -> int:
        value = data.get(key, default)
        if value is None:
            raise self.fail(f"{where}{key}", "is required")
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{where}{key}", f"must be a whole number, got {value!r}")
        return value

    def minutes(self, value: object, key: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(key, f"must be a number of minutes, got {value!r}")
        seconds = Fraction(str(value)) * 60
        if seconds.denominator != 1 or seconds < 1:
            raise self.fail(key, f"{value} minutes is not a positive whole number of seconds")
        return int(seconds)

    def settings(self, data: dict[str, Any]) -> TournamentSettings:
        self.table(data, "", _TOP)
        name = data.get("name", "tournament")
        if not isinstance(name, str):
            raise self.fail("name", f"must be text, got {name!r}")
        chips = data.get("denominations")
        if not isinstance(chips, list) or not chips:
            raise self.fail(
                "denominations", "is required: the chip values in play, e.g. [25, 100, 500]"
            )
        registration = self.table(data, "registration", {"late_until_level", "re_entries"})
        chip_up = data.get("chip_up", True)
        if not isinstance(chip_up, bool):
            raise self.fail("chip_up", f"must be true or false (league 18), got {chip_up!r}")
        final = data.get("final_table_size")
        return TournamentSettings(
            stages=self.stages(data.get("levels")),
            buy_in=self.purchase(data, "buy_in"),
            denominations=tuple(chips),
            table_size=self.whole(data, "table_size", "", 9),
            final_table_size=None if final is None else self.whole(data, "final_table_size", ""),
            late_until_level=self.whole(registration, "late_until_level", "registration.", 0),
            re_entries=self.whole(registration, "re_entries", "registration.", 0),
            rebuys=self.rebuys(data),
            add_on=self.add_on(data),
            payouts=self.payouts(data),
            chip_up=chip_up,
            name=name,
        )

    def purchase(
        self, data: dict[str, Any], key: str, extra: frozenset[str] = frozenset()
    ) -> Purchase:
        if key not in data:
            raise self.fail(key, "is required: price, fee and chips")
        section = self.table(data, key, _PURCHASE | extra)
        where = f"{key}."
        try:
            return Purchase(
                price=self.whole(section, "price", where),
                chips=self.whole(section, "chips", where),
                fee=self.whole(section, "fee", where, 0),
            )
        except TournamentError as error:
            if str(error).startswith(self.label):
                raise
            raise self.fail(key, str(error)) from None

    def rebuys(self, data: dict[str, Any]) -> Rebuys | None:
        if "rebuys" not in data:
            return None
        keys = frozenset({"until_level", "stack_at_most", "most"})
        section = self.table(data, "rebuys", _PURCHASE | keys)
        most = section.get("most")
        return Rebuys(
            purchase=self.purchase(data, "rebuys", keys),
            until_level=self.whole(section, "until_level", "rebuys."),
            stack_at_most=self.whole(section, "stack_at_most", "rebuys."),
            most=None if most is None else self.whole(section, "most", "rebuys."),
        )

    def add_on(self, data: dict[str, Any]) -> AddOn | None:
        if "add_on" not in data:
            return None
        section = self.table(data, "add_on", _PURCHASE | {"at_level"})
        return AddOn(
            purchase=self.purchase(data, "add_on", frozenset({"at_level"})),
            at_level=self.whole(section, "at_level", "add_on."),
        )

    def stages(self, levels: object) -> tuple[Stage, ...]:
        if not isinstance(levels, list) or not levels:
            raise self.fail("levels", "is required: a [[levels]] table for each level or break")
        stages: list[Stage] = []
        number = 0
        for index, entry in enumerate(levels, start=1):
            where = f"levels[{index}]"
            if isinstance(entry, dict) and "break" in entry:
                self.keys(entry, f"{where} (a break has only its length)", {"break"})
                stages.append(Break(self.minutes(entry["break"], f"{where}.break")))
                continue
            number += 1
            self.keys(entry, where, _LEVEL)
            if "minutes" not in entry:
                raise self.fail(f"{where}.minutes", "is required: how long the level lasts")
            try:
                stages.append(
                    Level(
                        small_blind=self.whole(entry, "small_blind", f"{where}."),
                        big_blind=self.whole(entry, "big_blind", f"{where}."),
                        seconds=self.minutes(entry["minutes"], f"{where}.minutes"),
                        ante=self.whole(entry, "ante", f"{where}.", 0),
                        big_blind_ante=self.whole(entry, "big_blind_ante", f"{where}.", 0),
                    )
                )
            except TournamentError as error:
                if str(error).startswith(self.label):
                    raise
                raise self.fail(f"{where} (level {number})", str(error)) from None
        return tuple(stages)

    def payouts(self, data: dict[str, Any]) -> PayoutPlan:
        section = self.table(data, "payouts", {"unit", "ranges"})
        ranges = section.get("ranges", [])
        if not isinstance(ranges, list):
            raise self.fail("payouts.ranges", "must be a list of [[payouts.ranges]] tables")
        found = []
        for index, entry in enumerate(ranges, start=1):
            where = f"payouts.ranges[{index}]"
            self.keys(entry, where, {"from", "to", "percent"})
            percent = entry.get("percent")
            if not isinstance(percent, list) or not all(
                isinstance(p, int | float) and not isinstance(p, bool) for p in percent
            ):
                raise self.fail(f"{where}.percent", f"must be a list of numbers, got {percent!r}")
            upper = entry.get("to")
            try:
                found.append(
                    PayoutRange(
                        entrants_from=self.whole(entry, "from", f"{where}."),
                        entrants_to=None if upper is None else self.whole(entry, "to", f"{where}."),
                        percent=tuple(Fraction(str(p)) for p in percent),
                    )
                )
            except TournamentError as error:
                if str(error).startswith(self.label):
                    raise
                raise self.fail(where, str(error)) from None
        try:
            return PayoutPlan(tuple(found), self.whole(section, "unit", "payouts.", 1))
        except TournamentError as error:
            if str(error).startswith(self.label):
                raise
            raise self.fail("payouts", str(error)) from None
