"""Reading rulebook profiles from TOML: the shipped ones by name, a user's own by path.

A file is checked key by key: an unknown key, a missing setting or a value of the wrong kind is
a :class:`RulebookError` naming the file, the key, what was wrong and what is allowed.

A user file may start from another profile with ``extends = "cardroom"`` (a shipped name, or a
path relative to the file). It then states only what differs: its own ``name`` (required), and
any of ``title``, ``source``, ``citation``, ``games_clause``; a ``[[games]]`` list replaces the
whole list; each setting it names replaces that setting (all its cases); its ``[[gaps]]`` are
added to the parent's.
"""

from __future__ import annotations

import functools
import importlib.resources
import os
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType

import tomli

from croupier.betting import Structure
from croupier.cards import CardError, DeckKind
from croupier.games import GAMES
from croupier.rulebooks.book import Rulebook
from croupier.rulebooks.schema import SPECS, GameEntry, Gap, RulebookError, Setting, Value, brief

__all__ = ["load_rulebook", "rulebook_names"]

_PACKAGE = "croupier.rulebooks"
_TEXT_KEYS = ("name", "title", "source", "citation", "games_clause")
_TOP_KEYS = (*_TEXT_KEYS, "extends", "games", "settings", "gaps")
_REQUIRED = ("name", "title", "citation", "games_clause")
_GAME_KEYS = ("game", "clause", "decks", "decks_clause", "note")
_CASE_KEYS = (
    "value", "clause", "note", "silent", "house", "choices", "min", "max", "games", "structures",
)  # fmt: skip
_GAP_KEYS = ("topic", "clause", "needs", "meanwhile")


def rulebook_names() -> tuple[str, ...]:
    """The names of the rulebooks shipped with croupier."""
    folder = importlib.resources.files(_PACKAGE)
    names = (item.name for item in folder.iterdir())
    return tuple(sorted(name[: -len(".toml")] for name in names if name.endswith(".toml")))


def load_rulebook(name_or_path: str | os.PathLike[str]) -> Rulebook:
    """A shipped rulebook by name (``rulebook_names()``), or a user's TOML file by path."""
    if isinstance(name_or_path, str) and name_or_path in rulebook_names():
        return _builtin(name_or_path)
    text = os.fspath(name_or_path)
    path = Path(text)
    if path.suffix == ".toml" or _exists(path) or os.sep in text or "/" in text:
        return _finish(_load_path(path), builtin=False)
    raise RulebookError(
        f"no rulebook named {brief(text)}: the rulebooks are {', '.join(rulebook_names())}, "
        f"or give the path to a .toml file"
    )


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):  # a name too long for the system, or with a NUL in it
        return False


def _resolved(path: Path, label: str) -> str:
    """The path as a key for finding cycles; RulebookError when the system cannot look it up."""
    try:
        return str(path.resolve())
    except (OSError, ValueError) as error:
        problem = error.strerror if isinstance(error, OSError) else str(error)
        raise RulebookError(f"{label}: cannot read the rulebook file: {problem}") from None


@functools.cache
def _builtin(name: str) -> Rulebook:
    return _finish(_load_builtin(name), builtin=True)


# ---------------------------------------------------------------------------------------------
# One file


@dataclass
class _Part:
    """What one file says (before its parent, if any, is merged in)."""

    label: str
    text: dict[str, str] = field(default_factory=dict)
    extends: str | None = None
    games: tuple[GameEntry, ...] | None = None
    game_origin: str = ""
    settings: dict[str, tuple[Setting, ...]] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)  # setting name -> file it came from
    gaps: tuple[Gap, ...] = ()


MAX_EXTENDS = 16
"""A profile extends at most this many others, one after the other."""
MAX_BYTES = 1 << 20
"""A rulebook file is at most 1 MiB (the shipped ones are about 20 KiB)."""
MAX_ITEMS = 64
"""A list in a rulebook file has at most 64 entries (the shipped ones, 7)."""


def _load_builtin(name: str) -> _Part:
    return _with_parents(_read_builtin(name), None, name)


def _load_path(path: Path) -> _Part:
    part = _read_path(path)
    return _with_parents(part, path.parent, _resolved(path, str(path)))


def _read_builtin(name: str) -> _Part:
    resource = importlib.resources.files(_PACKAGE) / f"{name}.toml"
    label = f"{name}.toml"
    part = _read(resource.read_text(encoding="utf-8"), label)
    if part.text.get("name") != name:
        raise RulebookError(f"{label}: name: expected {name!r}, got {part.text.get('name')!r}")
    return part


def _read_path(path: Path, via: str | None = None) -> _Part:
    """The file at ``path``; a file that cannot be read is named by ``via`` (where it was named:
    ``other.toml: extends``) when given."""
    label = str(path)
    try:
        size = path.stat().st_size
        data = path.read_bytes() if size <= MAX_BYTES else b""
    except (OSError, ValueError) as error:  # ValueError: a NUL in the name
        problem = error.strerror if isinstance(error, OSError) else str(error)
        where = f"{via}: {brief(str(path))}" if via else label
        raise RulebookError(f"{where}: cannot read the rulebook file: {problem}") from None
    if size > MAX_BYTES:
        raise RulebookError(
            f"{label}: {size:,} bytes: too large for a rulebook file "
            f"(at most {MAX_BYTES >> 20} MiB)"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise RulebookError(
            f"{label}: line {line}: not UTF-8 text: {error.reason} (byte {error.start})"
        ) from None
    return _read(text, label)


def _with_parents(part: _Part, folder: Path | None, key: str) -> _Part:
    """``part`` (found by ``key``, its name or resolved path) with the profiles it extends merged
    in. The chain is followed in a loop, not by recursion, and is at most :data:`MAX_EXTENDS`
    long."""
    chain = [part]
    keys = [key]
    while chain[-1].extends is not None:
        child = chain[-1]
        target = child.extends
        assert target is not None
        if len(chain) > MAX_EXTENDS:
            raise RulebookError(
                f"{child.label}: extends: {target!r} makes a chain of more than {MAX_EXTENDS} "
                f"profiles extending one another (from {part.label})"
            )
        is_path = target.endswith(".toml") or "/" in target or os.sep in target
        if not is_path and target in rulebook_names():
            key = target
            if key in keys:
                raise RulebookError(f"{child.label}: extends: {target!r} extends itself (a cycle)")
            parent = _read_builtin(target)
            folder = None
        elif is_path:
            path = Path(target) if folder is None else folder / target
            key = _resolved(path, f"{child.label}: extends")
            if key in keys:
                raise RulebookError(f"{child.label}: extends: {target!r} extends itself (a cycle)")
            parent = _read_path(path, via=f"{child.label}: extends")
            folder = path.parent
        else:
            raise RulebookError(
                f"{child.label}: extends: no rulebook named {target!r}: expected one of "
                f"{', '.join(rulebook_names())}, or a path to a .toml file"
            )
        keys.append(key)
        chain.append(parent)
    merged = chain[-1]
    for child in reversed(chain[:-1]):
        merged = _merge(child, merged)
    return merged


def _merge(part: _Part, parent: _Part) -> _Part:
    assert part.extends is not None
    if "name" not in part.text:
        raise RulebookError(
            f"{part.label}: name: missing: a profile that extends {part.extends!r} needs its "
            f"own name"
        )
    return _Part(
        label=part.label,
        text={**parent.text, **part.text},
        extends=part.extends,
        games=part.games if part.games is not None else parent.games,
        game_origin=part.game_origin if part.games is not None else parent.game_origin,
        settings={**parent.settings, **part.settings},
        origins={**parent.origins, **part.origins},
        gaps=parent.gaps + part.gaps,
    )


def _read(source: str, label: str) -> _Part:
    try:
        raw = tomli.loads(source)
    except tomli.TOMLDecodeError as error:
        raise RulebookError(f"{label}: not valid TOML: {error}") from None
    except (RecursionError, ValueError) as error:  # nested past tomli's bounds; 4,300 digits
        raise RulebookError(f"{label}: not a document croupier reads: {error}") from None
    _check_lists(raw, label)
    _check_keys(raw, _TOP_KEYS, label, "")
    part = _Part(label)
    for key in _TEXT_KEYS:
        if key in raw:
            part.text[key] = _text(raw[key], label, key)
    if "extends" in raw:
        part.extends = _text(raw["extends"], label, "extends")
    if "games" in raw:
        part.games = _games(raw["games"], label)
        part.game_origin = label
    settings = raw.get("settings", {})
    if not isinstance(settings, dict):
        raise RulebookError(f"{label}: settings: expected a table of settings")
    for name, entry in settings.items():
        if name not in SPECS:
            raise RulebookError(
                f"{label}: settings.{name}: unknown setting: the settings are {', '.join(SPECS)}"
            )
        part.settings[name] = _cases(name, entry, label)
        part.origins[name] = label
    part.gaps = _gaps(raw.get("gaps", []), label)
    return part


def _check_lists(raw: dict[str, object], label: str) -> None:
    """Every list in the file is at most :data:`MAX_ITEMS` long (found without recursion): a
    list of 40,000 blinds made every table's rules take a second."""
    pending: list[tuple[object, str]] = [(raw, "")]
    while pending:
        value, at = pending.pop()
        if isinstance(value, dict):
            pending.extend((item, f"{at}.{key}" if at else str(key)) for key, item in value.items())
        elif isinstance(value, list):
            if len(value) > MAX_ITEMS:
                raise RulebookError(
                    f"{label}: {at}: {len(value):,} entries: a rulebook's lists have at most "
                    f"{MAX_ITEMS}"
                )
            pending.extend((item, f"{at}[{index}]") for index, item in enumerate(value))


def _check_keys(table: dict[str, object], allowed: tuple[str, ...], label: str, at: str) -> None:
    for key in table:
        if key not in allowed:
            raise RulebookError(
                f"{label}: {at}{key}: unknown key: allowed keys here are {', '.join(allowed)}"
            )


def _text(value: object, label: str, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RulebookError(f"{label}: {key}: expected a non-empty string, got {brief(value)}")
    return value.strip()


def _games(raw: object, label: str) -> tuple[GameEntry, ...]:
    if not isinstance(raw, list) or not raw:
        raise RulebookError(f"{label}: games: expected a non-empty [[games]] list")
    entries: list[GameEntry] = []
    for index, item in enumerate(raw):
        at = f"games[{index}]"
        if not isinstance(item, dict):
            raise RulebookError(f"{label}: {at}: expected a table with keys {_GAME_KEYS}")
        _check_keys(item, _GAME_KEYS, label, f"{at}.")
        for key in _GAME_KEYS[:-1]:
            if key not in item:
                raise RulebookError(f"{label}: {at}.{key}: missing")
        name = _text(item["game"], label, f"{at}.game")
        if name not in GAMES:
            raise RulebookError(
                f"{label}: {at}.game: unknown game {name!r}: the engine deals {', '.join(GAMES)}"
            )
        if name in (e.game for e in entries):
            raise RulebookError(f"{label}: {at}.game: {name!r} is listed twice")
        decks = item["decks"]
        if not isinstance(decks, dict) or not decks:
            raise RulebookError(
                f"{label}: {at}.decks: expected a table of deck size = most players, "
                f'e.g. {{ "52" = 10 }}'
            )
        parsed: list[tuple[DeckKind, int]] = []
        for size, most in decks.items():
            try:
                kind = DeckKind.from_size(int(size))
            except (ValueError, CardError):
                raise RulebookError(
                    f"{label}: {at}.decks.{size}: not a deck size: expected 52, 40, 36, 32 or 20"
                ) from None
            if isinstance(most, bool) or not isinstance(most, int) or most < 2:
                raise RulebookError(
                    f"{label}: {at}.decks.{size}: expected the most players (2 or more), "
                    f"got {brief(most)}"
                )
            parsed.append((kind, most))
        entries.append(
            GameEntry(
                name,
                tuple(parsed),
                _text(item["clause"], label, f"{at}.clause"),
                _text(item["decks_clause"], label, f"{at}.decks_clause"),
                _text(item["note"], label, f"{at}.note") if "note" in item else "",
            )
        )
    return tuple(entries)


def _gaps(raw: object, label: str) -> tuple[Gap, ...]:
    if not isinstance(raw, list):
        raise RulebookError(f"{label}: gaps: expected a [[gaps]] list")
    gaps = []
    for index, item in enumerate(raw):
        at = f"gaps[{index}]"
        if not isinstance(item, dict):
            raise RulebookError(f"{label}: {at}: expected a table with keys {_GAP_KEYS}")
        _check_keys(item, _GAP_KEYS, label, f"{at}.")
        missing = [key for key in _GAP_KEYS if key not in item]
        if missing:
            raise RulebookError(f"{label}: {at}.{missing[0]}: missing")
        gaps.append(Gap(*(_text(item[key], label, f"{at}.{key}") for key in _GAP_KEYS)))
    return tuple(gaps)


def _cases(name: str, raw: object, label: str) -> tuple[Setting, ...]:
    if isinstance(raw, dict):
        items, keyed = [raw], False
    elif isinstance(raw, list) and raw and all(isinstance(item, dict) for item in raw):
        items, keyed = raw, True
    else:
        raise RulebookError(
            f"{label}: settings.{name}: expected a table (one case) or a list of tables "
            f"(cases by game and structure), got {brief(raw)}"
        )
    cases = []
    for index, item in enumerate(items):
        at = f"settings.{name}[{index}]" if keyed else f"settings.{name}"
        cases.append(_case(name, item, label, at))
    for index, case in enumerate(cases):
        last = index == len(cases) - 1
        conditional = case.games is not None or case.structures is not None
        if last and conditional:
            at = f"settings.{name}[{index}]" if keyed else f"settings.{name}"
            raise RulebookError(
                f"{label}: {at}: the last case must apply to every game and structure "
                f"(no 'games' or 'structures'), so that every table has a value"
            )
        if not last and not conditional:
            raise RulebookError(
                f"{label}: settings.{name}[{index}]: only the last case may apply everywhere "
                f"(the cases after it would never be used)"
            )
    return tuple(cases)


def _case(name: str, item: dict[str, object], label: str, at: str) -> Setting:
    spec = SPECS[name]
    _check_keys(item, _CASE_KEYS, label, f"{at}.")
    for key in ("value", "clause"):
        if key not in item:
            raise RulebookError(
                f"{label}: {at}.{key}: missing: every setting states its value and the clause "
                f"it comes from (where the book is silent: silent = true, a note, and the "
                f"clause of the rule that fills the gap)"
            )

    def parse(raw: object, key: str) -> Value:
        try:
            return spec.parse(raw)
        except ValueError as error:
            raise RulebookError(f"{label}: {at}.{key}: {error}") from None

    def flag(key: str) -> bool:
        value = item.get(key, False)
        if not isinstance(value, bool):
            raise RulebookError(f"{label}: {at}.{key}: expected true or false, got {brief(value)}")
        return value

    value = parse(item["value"], "value")
    clause = _text(item["clause"], label, f"{at}.clause")
    note = _text(item["note"], label, f"{at}.note") if "note" in item else ""
    silent, house = flag("silent"), flag("house")
    if silent and not note:
        raise RulebookError(
            f"{label}: {at}.note: missing: a silent setting says which default it took and why"
        )
    for key in ("choices", "min", "max"):
        if key in item and not house:
            raise RulebookError(
                f"{label}: {at}.{key}: only a house setting (house = true) has {key}"
            )
    choices = None
    if "choices" in item:
        raw_choices = item["choices"]
        if not isinstance(raw_choices, list) or not raw_choices:
            raise RulebookError(f"{label}: {at}.choices: expected a non-empty list")
        choices = tuple(parse(c, f"choices[{i}]") for i, c in enumerate(raw_choices))
        seen: set[Value] = set()
        for index, choice in enumerate(choices):
            if choice in seen:
                raise RulebookError(
                    f"{label}: {at}.choices[{index}]: {spec.format(choice)} is listed twice"
                )
            seen.add(choice)
    bounds: dict[str, Fraction | None] = {"min": None, "max": None}
    for key in bounds:
        if key in item:
            if not spec.ordered:
                raise RulebookError(
                    f"{label}: {at}.{key}: {name} has no order: use choices instead"
                )
            bound = parse(item[key], key)
            if bound is not None and not isinstance(bound, int | Fraction):
                raise RulebookError(f"{label}: {at}.{key}: expected a number, got {brief(bound)}")
            bounds[key] = None if bound is None else Fraction(bound)
    games = _names(item, "games", label, at)
    structures = None
    if "structures" in item:
        if not spec.by_structure:
            raise RulebookError(f"{label}: {at}.structures: {name} cannot depend on the structure")
        names = _names(item, "structures", label, at) or frozenset()
        members = set()
        for structure in sorted(names):
            try:
                member = SPECS["structure"].parse(structure)
            except ValueError as error:
                raise RulebookError(f"{label}: {at}.structures: {error}") from None
            assert isinstance(member, Structure)
            members.add(member)
        structures = frozenset(members)
    case = Setting(
        name, value, clause, note, silent, house, choices, bounds["min"], bounds["max"],
        games, structures,
    )  # fmt: skip
    if house:
        case.check(value, f"{label}: {at}.value")
    return case


def _names(item: dict[str, object], key: str, label: str, at: str) -> frozenset[str] | None:
    if key not in item:
        return None
    raw = item[key]
    if not isinstance(raw, list) or not raw or not all(isinstance(n, str) for n in raw):
        raise RulebookError(f"{label}: {at}.{key}: expected a non-empty list of names")
    return frozenset(n for n in raw if isinstance(n, str))


# ---------------------------------------------------------------------------------------------
# The whole profile


def _finish(part: _Part, *, builtin: bool) -> Rulebook:
    for key in _REQUIRED:
        if key not in part.text:
            raise RulebookError(f"{part.label}: {key}: missing")
    if part.games is None:
        raise RulebookError(f"{part.label}: games: missing: list the games with [[games]]")
    missing = [name for name in SPECS if name not in part.settings]
    if missing:
        raise RulebookError(
            f"{part.label}: settings: missing {', '.join(missing)}: every profile states every "
            f"setting (where the book is silent: silent = true and a note saying which default "
            f"it took and why)"
        )
    games = {entry.game for entry in part.games}
    for name, cases in part.settings.items():
        for index, case in enumerate(cases):
            unknown = sorted((case.games or frozenset()) - games)
            if unknown:
                raise RulebookError(
                    f"{part.origins[name]}: settings.{name}[{index}].games: {unknown[0]!r} is "
                    f"not one of the profile's games ({', '.join(sorted(games))})"
                )
    return Rulebook(
        name=part.text["name"],
        title=part.text["title"],
        citation=part.text["citation"],
        games_clause=part.text["games_clause"],
        games=part.games,
        settings=MappingProxyType({name: part.settings[name] for name in SPECS}),
        gaps=part.gaps,
        source=part.text.get("source", ""),
        path=part.label,
        extends=part.extends,
        builtin=builtin,
    )
