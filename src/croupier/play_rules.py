"""The rules of a quick game at the terminal, from plain options: a rulebook's, or simple house
rules with each game's usual structure.

:class:`TableOptions` holds what a person types (``--game razz --stakes 1/2 --rake 5%``);
:meth:`TableOptions.rules` makes the :class:`~croupier.hand.Rules`, refusing what cannot be
played with a :class:`SetupError` (or the book's :class:`~croupier.rulebooks.RulebookError`)
that says what was wrong and what is allowed. The options are also written into saved event
logs, so that a log can be replayed under the same rules. What turns a book (or the house's
rules) into a table lives with the rulebooks (:mod:`croupier.rulebooks.tables`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

from croupier.betting import Structure
from croupier.pots import CommissionKind
from croupier.rulebooks import rulebook_names
from croupier.rulebooks.tables import (
    USUAL_STRUCTURE,
    SetupError,
    book_rules,
    book_table,
    house_rules,
    parse_rake,
    parse_stakes,
)
from croupier.rules import Rules

__all__ = [
    "USUAL_STRUCTURE",
    "SetupError",
    "TableOptions",
    "book_rules",
    "book_table",
    "describe_rules",
    "house_rules",
    "parse_rake",
    "parse_stakes",
]


@dataclass(frozen=True)
class TableOptions:
    """The options of ``croupier play`` and ``croupier sim`` that make a table's rules."""

    game: str = "holdem"
    structure: str | None = None  # None: the rulebook's default, else the game's usual one
    stakes: str = "1/2"
    rulebook: str | None = None
    ante: int | None = None
    deck: int | None = None
    rake: str | None = None
    max_wager: int | None = None

    def rules(self) -> Rules:
        if self.rulebook is None:
            return house_rules(
                self.game, self.structure, self.stakes, ante=self.ante, deck=self.deck,
                rake=self.rake, max_wager=self.max_wager,
            )  # fmt: skip
        return self.book()[0]

    def book(self) -> tuple[Rules, dict[str, object] | None]:
        """The rules, and the book's name and house options as a PHH history records them
        (None for house rules and for a user's own rulebook file, which no history can name)."""
        if self.rulebook is None:
            return self.rules(), None
        rules, options = book_table(
            self.rulebook, self.game, self.structure, self.stakes, ante=self.ante,
            deck=self.deck, rake=self.rake, max_wager=self.max_wager,
        )  # fmt: skip
        return rules, (options if self.rulebook in rulebook_names() else None)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> TableOptions:
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise SetupError(f"unknown table option {unknown[0]!r}: expected {sorted(known)}")
        return cls(**data)  # type: ignore[arg-type]


def describe_rules(rules: Rules) -> str:
    """A table in a line: ``holdem · no-limit · blinds 1/2 · 52-card deck``."""
    structure = "/".join(s.value for s in rules.betting.structures)
    if len(set(rules.betting.structures)) == 1:
        structure = rules.betting.structures[0].value
    betting = rules.betting
    parts = [rules.game.name, structure]
    if rules.blinds:
        parts.append(f"blinds {'/'.join(map(str, rules.blinds))}")
    if rules.ante:
        parts.append(f"ante {rules.ante}")
    if rules.bring_in:
        parts.append(f"bring-in {rules.bring_in}")
    if Structure.FIXED in betting.structures:
        parts.append(f"bets {betting.small_bet}/{betting.big_bet or betting.small_bet}")
    elif not rules.blinds:
        parts.append(f"minimum bet {betting.small_bet}")
    if betting.max_wager is not None:
        parts.append(f"maximum {betting.max_wager}")
    commission = rules.commission
    if commission.kind is CommissionKind.PERCENTAGE and commission.rate:
        cap = f" (at most {commission.cap})" if commission.cap else ""
        parts.append(f"rake {float(commission.rate * 100):g}%{cap}")
    parts.append(f"{rules.deck.size}-card deck")
    return " · ".join(parts)


GAMES_HELP = ", ".join(f"{name} ({structure.value})" for name, structure in USUAL_STRUCTURE.items())
"""Every game with its usual structure, for ``--help``."""
