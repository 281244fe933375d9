"""Rulebooks as rich tables, for ``croupier rules list`` and ``croupier rules show``."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from croupier.rulebooks.book import PARAMETERS, Rulebook
from croupier.rulebooks.schema import SPECS, Combination, GameEntry, Value, format_value

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


WIDE = 120
"""Columns from which ``rules show`` draws its settings as tables; narrower, as a list."""


class _Listed:
    """Rows drawn as a list for a narrow terminal: per row a head line (the first cells,
    the clause in brackets) and the long cell beneath it, indented, wrapped by the terminal."""

    def __init__(self, title: str) -> None:
        self.parts: list[RenderableType] = [Text(f"\n{title}", style="bold underline")]

    def section(self, name: str) -> None:
        self.parts.append(Text(f"\n{name}", style="italic"))

    def row(self, head: str, clause: str, *lines: str) -> None:
        line = Text(head, style="bold")
        if clause:
            line.append(f"  [{clause}]")
        self.parts.append(line)
        for text in lines:
            if text:
                self.parts.append(Padding(Text(text), (0, 0, 0, 4), expand=False))


def rulebook_view(book: Rulebook, width: int = WIDE) -> RenderableType:
    """Everything a profile says: games, every setting with its clause, the table options with
    their defaults, and the engine gaps; narrower than :data:`WIDE` columns, the settings,
    options and gaps as a list (a head line per setting, its note indented beneath)."""
    if width < WIDE:
        return _narrow_view(book)
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
        for entry in book.games:
            shown, allowed, clause = _game_option(book, name, default, entry)
            _row(options, name, f"games {entry.game}", shown, allowed, clause)
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


def _head(book: Rulebook) -> Text:
    head = Text()
    head.append(book.name, style="bold")
    head.append(f"  {book.title}\n")
    if book.source:
        head.append(f"book: {book.source}\n")
    if not book.builtin:
        head.append(f"file: {book.path}\n")
    head.append(f"citation: {book.citation}\n")
    if book.extends:
        head.append(f"extends: {book.extends}\n")
    head.append(f"games: {book.games_clause}")
    return head


def _narrow_view(book: Rulebook) -> RenderableType:
    """:func:`rulebook_view` for a terminal of fewer than :data:`WIDE` columns."""
    games = _Listed("Games and decks")
    for entry in book.games:
        clauses = ", ".join(c for c in (entry.clause, entry.decks_clause) if c)
        games.row(f"{entry.game}: {entry.describe_decks()}", clauses, entry.note)
    settings = _Listed("Settings (value and clause; the first matching case applies)")
    group = ""
    for name, spec in SPECS.items():
        if spec.group != group:
            group = spec.group
            settings.section(group)
        for case in book.settings[name]:
            value = case.shown + (" (house default)" if case.house else "")
            when = f" (when {case.when})" if case.when else ""
            note = ("[book silent] " if case.silent else "") + case.note
            settings.row(f"{name}{when} = {value}", case.clause, note)
    options = _Listed("Table options (keywords of Rulebook.rules) and their defaults")
    for name, default, _meaning in PARAMETERS:
        for entry in book.games:
            shown, allowed, clause = _game_option(book, name, default, entry)
            options.row(f"{name} (games {entry.game}) = {shown}", clause, f"allowed: {allowed}")
    for name in book.house_options():
        for case in book.settings[name]:
            if not case.house:
                continue
            allowed = case.allowed
            if SPECS[name].option_doc:
                allowed += f" ({SPECS[name].option_doc})"
            when = f" (when {case.when})" if case.when else ""
            options.row(f"{name}{when} = {case.shown}", case.clause, f"allowed: {allowed}")
    parts: list[RenderableType] = [_head(book), *games.parts, *settings.parts, *options.parts]
    if book.gaps:
        gaps = _Listed("Engine gaps: what the book needs that the engine cannot do yet")
        for gap in book.gaps:
            gaps.row(gap.topic, gap.clause, f"needs: {gap.needs}", f"meanwhile: {gap.meanwhile}")
        parts.extend(gaps.parts)
    return Group(*parts)


def _game_option(
    book: Rulebook, name: str, default: object, entry: GameEntry
) -> tuple[str, str, str]:
    """One table option for one of the book's games (``entry``): its default as shown, what
    it allows, and the clause."""
    if name == "structure":
        case = book.setting("structure", entry.game)
        allowed = ", ".join(s.value for s in book.structures(entry.game))
        combinations = book.setting("combinations", entry.game)
        if combinations.value:
            allowed += "; per round: " + format_value(combinations.value)
        return case.shown, allowed, case.clause
    if name == "deck":
        sizes = ", ".join(str(kind.size) for kind in entry.deck_kinds)
        return str(entry.deck_kinds[0].size), sizes, entry.decks_clause
    blinds = book.setting("blinds", entry.game)
    shares = format_value(blinds.value)
    if not blinds.value:
        allowed = "the minimum wager W (no blinds)"
    elif book.value("blind_amounts", entry.game) == "fixed":
        allowed = f"W (blinds {shares} of W), or exactly those blinds"
    else:
        allowed = f"W (blinds {shares} of W), or the house's blinds (b1, ..., W)"
    return str(default), allowed, blinds.clause
