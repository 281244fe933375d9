"""Rulebooks as rich tables, for ``croupier rules list`` and ``croupier rules show``."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from croupier.rulebooks.book import PARAMETERS, Rulebook
from croupier.rulebooks.schema import SPECS, Combination, Value, format_value

__all__ = ["rulebook_list", "rulebook_view"]


def _row(table: Table, *cells: str) -> None:
    """A row of plain text: clauses and values hold brackets that are not markup."""
    table.add_row(*(Text(cell) for cell in cells))


def _patterns(value: Value) -> tuple[Combination, ...]:
    if not isinstance(value, tuple):
        return ()
    return tuple(p for p in value if isinstance(p, Combination))


def rulebook_list(books: Iterable[Rulebook]) -> Table:
    """One row per rulebook: its name, title, games (with decks) and structures."""
    table = Table(title="Rulebooks", show_lines=True)
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("title")
    table.add_column("games (decks)")
    table.add_column("structures")
    for book in books:
        games = "\n".join(
            f"{entry.game} ({', '.join(str(kind.size) for kind in entry.deck_kinds)})"
            for entry in book.games
        )
        structures = sorted({s.value for entry in book.games for s in book.structures(entry.game)})
        combinations = {
            pattern.name
            for entry in book.games
            for pattern in _patterns(book.value("combinations", entry.game))
        }
        shown = ", ".join(structures) + "".join(f", {name} (per round)" for name in combinations)
        _row(table, book.name, book.title, games, shown)
    return table


def rulebook_view(book: Rulebook) -> RenderableType:
    """Everything a profile says: games, every setting with its clause, the table options with
    their defaults, and the engine gaps."""
    head = Text()
    head.append(book.name, style="bold")
    head.append(f"  {book.title}\n")
    if book.source:
        head.append(f"book: {book.source}\n")
    if not book.builtin:  # a shipped profile's file is inside the package: no use to a reader
        head.append(f"file: {book.path}\n")
    head.append(f"citation: {book.citation}\n")
    if book.extends:
        head.append(f"extends: {book.extends}\n")
    head.append(f"games: {book.games_clause}")

    games = Table(title="Games and decks", show_lines=True)
    for column in ("game", "decks (players)", "clause", "decks clause", "note"):
        games.add_column(column)
    for entry in book.games:
        decks = entry.describe_decks()
        _row(games, entry.game, decks, entry.clause, entry.decks_clause, entry.note)

    settings = Table(title="Settings (value and clause; the first matching case applies)")
    for column in ("setting", "when", "value", "clause", "note"):
        settings.add_column(column, no_wrap=column == "setting")
    group = ""
    for name, spec in SPECS.items():
        if spec.group != group:
            group = spec.group
            settings.add_section()
            settings.add_row(Text(group, style="italic"), "", "", "", "")
        for case in book.settings[name]:
            value = case.shown
            if case.house:
                value += " (house default)"
            note = case.note
            if case.silent:
                note = "[book silent] " + note
            _row(settings, name, case.when or "-", value, case.clause, note)

    options = Table(title="Table options (keywords of Rulebook.rules) and their defaults")
    for column in ("option", "when", "default", "allowed", "clause"):
        options.add_column(column, no_wrap=column == "option")
    for name, default, _meaning in PARAMETERS:
        if name == "structure":
            for entry in book.games:
                case = book.setting("structure", entry.game)
                allowed = ", ".join(s.value for s in book.structures(entry.game))
                combinations = book.setting("combinations", entry.game)
                if combinations.value:
                    allowed += "; per round: " + format_value(combinations.value)
                _row(options, name, f"games {entry.game}", case.shown, allowed, case.clause)
        elif name == "deck":
            for entry in book.games:
                sizes = ", ".join(str(kind.size) for kind in entry.deck_kinds)
                first = str(entry.deck_kinds[0].size)
                _row(options, name, f"games {entry.game}", first, sizes, entry.decks_clause)
        else:
            for entry in book.games:
                blinds = book.setting("blinds", entry.game)
                shares = format_value(blinds.value)
                if not blinds.value:
                    allowed = "the minimum wager W (no blinds)"
                elif book.value("blind_amounts", entry.game) == "fixed":
                    allowed = f"W (blinds {shares} of W), or exactly those blinds"
                else:
                    allowed = f"W (blinds {shares} of W), or the house's blinds (b1, ..., W)"
                _row(options, name, f"games {entry.game}", default, allowed, blinds.clause)
    for name in book.house_options():
        for case in book.settings[name]:
            if not case.house:
                continue
            allowed = case.allowed
            if SPECS[name].option_doc:
                allowed += f" ({SPECS[name].option_doc})"
            _row(options, name, case.when or "-", case.shown, allowed, case.clause)

    parts: list[RenderableType] = [head, games, settings, options]
    if book.gaps:
        gaps = Table(title="Engine gaps: what the book needs that the engine cannot do yet")
        for column in ("topic", "clause", "the book needs", "meanwhile"):
            gaps.add_column(column)
        for gap in book.gaps:
            _row(gaps, gap.topic, gap.clause, gap.needs, gap.meanwhile)
        parts.append(gaps)
    return Group(*parts)
