"""What a table is: its spec (the book, the game, the stakes and the house's money settings),
checked field by field, and what the spec makes of the book: the rules its hands are dealt by,
its buy-in and table stakes, its seating priority and its blind policy. A table the book (or
the engine) does not allow is a :class:`SpecError` that names the rule."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from croupier.betting import Structure
from croupier.blinds import BlindPolicy
from croupier.cards import CardError
from croupier.games import GameError
from croupier.hand import Rules
from croupier.rulebooks import RulebookError, load_rulebook, rulebook_names
from croupier.rulebooks.tables import (
    USUAL_STRUCTURE,
    book_table,
    house_rules,
    seat_priority,
    stake_clause,
    table_buy_in,
    table_stakes,
)
from croupier.seats import SeatPriority
from croupier.table import BuyIn, TableError

__all__ = [
    "HOUSE_LEAST_BIG_BLINDS",
    "MOST_BUY_IN",
    "SPEC_FIELDS",
    "SpecError",
    "TableSpec",
    "blind_policy_for",
    "buy_in_for",
    "check_house_buy_in",
    "clause_for",
    "rules_for",
    "seat_priority_for",
    "stakes_for",
]

MOST_BUY_IN = 10**9
"""The largest buy-in a table may ask: the most one cash-in brings (``/api/cashier``)."""

_STAKE_CLAUSES = {"au-casino": "au 7.4", "qld": "qld s19(3)(a)", "rws": "rws 3.4"}
HOUSE_LEAST_BIG_BLINDS = 20
"""The least full buy-in a new big-bet table may ask, in big blinds: the books ask a minimum
table stake (au 7.4, qld s19(3)(a), rws 3.4) and leave its size to the house; the default is
100 big blinds (cardroom buy-in 1 fixes only limit games: ten maximum bets)."""


class SpecError(ValueError):
    """A table the rulebook (or the engine) does not allow; the message names the rule."""


@dataclass(frozen=True)
class TableSpec:
    """What a table is: the book, the game and its stakes, and the house's money settings."""

    game: str = "holdem"
    rulebook: str | None = "rws"  # a shipped book; None: croupier's simple house rules
    structure: str | None = None  # None: the book's default for the game
    stakes: str = "1/2"  # blinds S/B; stud: ante S, bet B
    seats: int = 6
    buy_in: int | None = None  # the full buy-in; None: 100 B at big-bet games, the book's at limit
    rake: str | None = None  # e.g. "5%", where the book allows a percentage commission
    rake_cap: int | None = None  # the most commission a hand pays, where the book lets the house
    short_buy_in: int | None = None  # the one short buy-in's size, where the book allows one

    def to_json(self) -> dict[str, object]:
        return asdict(self)

    def written_out(self) -> TableSpec:
        """This spec as a new table stores it: the structure written out (the book's default
        for the game; under house rules the game's usual one, as ``croupier play`` deals it),
        so that what the table deals never depends on a default that may change (stored
        tables of before: migration 0006)."""
        if self.structure is not None:
            return self
        if self.rulebook is None:
            usual = USUAL_STRUCTURE.get(self.game)
            return self if usual is None else replace(self, structure=usual.value)
        rules, _ = rules_for(self)
        rounds = rules.betting.structures
        return replace(self, structure=",".join(structure.value for structure in rounds))

    @classmethod
    def from_json(cls, data: object) -> TableSpec:
        """The spec ``data`` gives; a field of the wrong type, or one no spec has, is a
        :class:`SpecError` naming it."""
        if not isinstance(data, Mapping):
            raise SpecError(f"a table's spec is an object of {', '.join(SPEC_FIELDS)}")
        unknown = sorted(str(key) for key in data if key not in SPEC_FIELDS)
        if unknown:
            raise SpecError(
                f"a table's spec has no {', '.join(unknown)}: its fields are "
                f"{', '.join(SPEC_FIELDS)}"
            )
        known: dict[str, Any] = {}
        for name, (kinds, words) in SPEC_FIELDS.items():
            if name in data:
                value = data[name]
                if isinstance(value, bool) or not isinstance(value, kinds):
                    raise SpecError(f"{name} must be {words}, got {value!r}")
                known[name] = value
        return cls(**known)


SPEC_FIELDS: dict[str, tuple[tuple[type, ...], str]] = {  # each field's types, in words
    "game": ((str,), "text"),
    "rulebook": ((str, type(None)), "text or null"),
    "structure": ((str, type(None)), "text or null"),
    "stakes": ((str,), "text such as 1/2"),
    "seats": ((int,), "a whole number"),
    "buy_in": ((int, type(None)), "a whole number of chips or null"),
    "rake": ((str, type(None)), "text such as 5% or null"),
    "rake_cap": ((int, type(None)), "a whole number of chips or null"),
    "short_buy_in": ((int, type(None)), "a whole number of chips or null"),
}


def rules_for(spec: TableSpec) -> tuple[Rules, dict[str, object] | None]:
    """The table's rules, and the house options its book was asked for (None for house
    rules), which its hands' histories record."""
    try:
        if spec.rulebook is None:
            # No structure: a table stored before new tables wrote theirs out (written_out),
            # which was dealt no-limit.
            rules = house_rules(
                spec.game, spec.structure or "no-limit", spec.stakes, rake=spec.rake,
                rake_cap=spec.rake_cap,
            )  # fmt: skip
            return rules, None
        if spec.rulebook not in rulebook_names():
            raise SpecError(
                f"unknown rulebook {spec.rulebook!r}: the server deals the shipped books "
                f"{', '.join(rulebook_names())}"
            )
        return book_table(
            spec.rulebook, spec.game, spec.structure, spec.stakes, rake=spec.rake,
            rake_cap=spec.rake_cap,
        )  # fmt: skip
    except (GameError, RulebookError, TableError, CardError) as error:
        raise SpecError(str(error)) from None


def buy_in_for(spec: TableSpec, rules: Rules) -> BuyIn:
    """The table's money rules (:func:`croupier.rulebooks.tables.table_buy_in`): the full
    buy-in (given, else 100 big blinds at big-bet games and ten maximum bets at limit, cardroom
    buy-in 1), and the book's table-stake settings."""
    try:
        return table_buy_in(
            spec.rulebook, spec.game, rules, full=spec.buy_in, short=spec.short_buy_in
        )
    except (GameError, TableError) as error:
        raise SpecError(str(error)) from None


def stakes_for(spec: TableSpec) -> dict[str, object]:
    """The book's table-stake settings (short_buy_in, restake, rejoin_minimum, bust,
    broken_game_transfer); house rules: any short buy-in the table asks, the stack left plays,
    the seat kept when bust, a stack moved from a closed table kept."""
    return dict(table_stakes(spec.rulebook, spec.game))


def clause_for(spec: TableSpec, setting: str) -> str:
    assert spec.rulebook is not None
    return stake_clause(spec.rulebook, spec.game, setting)


def seat_priority_for(spec: TableSpec) -> tuple[SeatPriority, str]:
    """Who comes first for a vacated seat (the book's ``seat_priority``), and the rule to cite
    for it; house rules: the players seated, then newcomers."""
    return seat_priority(spec.rulebook, spec.game)


def blind_policy_for(spec: TableSpec) -> BlindPolicy:
    """The book's blind policy (its ``blind_policy`` setting); the moving button without one."""
    if spec.rulebook is None:
        return BlindPolicy.MOVING_BUTTON
    policy = load_rulebook(spec.rulebook).value("blind_policy", spec.game)
    assert isinstance(policy, BlindPolicy)
    return policy


def check_house_buy_in(spec: TableSpec, rules: Rules, buy_in: int) -> None:
    """A new table's own full buy-in (``spec.buy_in``) at a big-bet game is at least
    :data:`HOUSE_LEAST_BIG_BLINDS` big blinds: SpecError, naming the rule, below it. A table
    made before this bound still loads (it is checked only when a table is made)."""
    if spec.buy_in is None:
        return
    if all(s in (Structure.FIXED, Structure.SPREAD) for s in rules.betting.structures):
        return
    big_blind = rules.betting.small_bet
    least = HOUSE_LEAST_BIG_BLINDS * big_blind
    if buy_in < least:
        clause = _STAKE_CLAUSES.get(spec.rulebook or "")
        why = (
            f"{clause} asks a minimum table stake and leaves its size to the house"
            if clause
            else "cardroom buy-in 1 sizes only a limit game's buy-in; a big-bet game's is the "
            "house's"
        )
        raise SpecError(
            f"a buy-in of {buy_in} is below {HOUSE_LEAST_BIG_BLINDS} big blinds ({least}), the "
            f"least this card room sets at a big-bet table ({why})"
        )
