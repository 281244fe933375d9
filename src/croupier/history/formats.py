"""Saved hands: the file's suffix picks the format.

==========  ============================================================  ================
suffix      what it holds                                                 appendable
==========  ============================================================  ================
``.phh``    one hand, as a PHH hand history (PokerKit reads it)           no
``.phhs``   many hands, a PHH collection, one ``[N]`` table per hand      yes
``.jsonl``  croupier's event log: one JSON object per hand, every event   yes
``.txt``    PokerStars hand histories, hands apart by two blank lines     yes
``.ohh``    Open Hand History (hold'em and Omaha): one JSON object a line yes
==========  ============================================================  ================

``--format`` (phh, phhs, jsonl, pokerstars, ohh) picks the format whatever the suffix.

Every format writes a hand as one viewer saw it (a player, the spectator, or the house's full
record, asked for by name): cards the viewer never saw are ``????`` in PHH and ``??`` in the
log. :func:`open_history` checks a path before anything is played (the suffix, the folder, an
existing file: refused unless overwritten or appended to, as asked), and every write failure
is a :class:`HistoryFileError` in one line. :func:`replay_event_logs` replays a ``.jsonl``
file; the PHH ones replay with :func:`croupier.history.replay`.

Another format is added here: a :class:`Format` in :data:`FORMATS` and its case in
:func:`hand_text`.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Final

from croupier import events as ev
from croupier.cards import Card, CardError
from croupier.deck import SeededShuffler
from croupier.events import HOUSE
from croupier.hand import Hand, Rules
from croupier.history.identity import HandIdentity, hand_number, session_number
from croupier.history.ohh import OHHError
from croupier.history.phh import PHHError, dump_phh, dump_phhs, load_phhs
from croupier.history.text import TextHistoryError
from croupier.history.write import (
    log_text,
    ohh_text,
    phh_history,
    pokerstars_text,
    started_now,
)

__all__ = [
    "FORMATS",
    "FORMAT_NAMES",
    "Format",
    "HistoryFileError",
    "HistoryWriter",
    "event_from_record",
    "format_of",
    "hand_text",
    "open_history",
    "replay_event_logs",
]


class HistoryFileError(ValueError):
    """A file croupier cannot save to or read as asked: names the file, what was wrong and
    what to do instead."""


@dataclass(frozen=True)
class Format:
    suffix: str
    name: str
    many: bool  # holds more than one hand
    appendable: bool


FORMATS: Mapping[str, Format] = {
    ".phh": Format(".phh", "a PHH hand history (one hand)", many=False, appendable=False),
    ".phhs": Format(".phhs", "a PHH collection (many hands)", many=True, appendable=True),
    ".jsonl": Format(".jsonl", "croupier's event log (JSON lines)", many=True, appendable=True),
    ".txt": Format(".txt", "PokerStars hand histories (text)", many=True, appendable=True),
    ".ohh": Format(".ohh", "Open Hand History (a JSON object per line)", True, True),
}
# --format names: the suffix each writes
FORMAT_NAMES: Mapping[str, str] = {
    "phh": ".phh", "phhs": ".phhs", "jsonl": ".jsonl", "pokerstars": ".txt", "ohh": ".ohh",
}  # fmt: skip


def format_of(path: str | Path, name: str | None = None) -> Format:
    """The format ``name`` (``--format``) gives, else the one the file's suffix names."""
    if name is not None:
        suffix = FORMAT_NAMES.get(name.lower())
        if suffix is None:
            raise HistoryFileError(f"--format {name!r}: the formats are {', '.join(FORMAT_NAMES)}")
        return FORMATS[suffix]
    suffix = Path(path).suffix.lower()
    found = FORMATS.get(suffix)
    if found is None:
        known = "; ".join(f"{f.suffix}: {f.name}" for f in FORMATS.values())
        got = f"{suffix} is no format croupier writes" if suffix else "it has no suffix"
        raise HistoryFileError(f"{path}: the suffix picks the format, and {got} ({known})")
    return found


def hand_text(
    fmt: Format,
    hand: Hand,
    *,
    number: int,
    viewer: int,
    players: Sequence[str] | None = None,
    rulebook: str | None = None,
    options: Mapping[str, object] | None = None,
    extra: Mapping[str, object] | None = None,
    identity: HandIdentity | None = None,
    session: int | None = None,
) -> str:
    """One hand in ``fmt``, as ``viewer`` saw it, ending with a newline, written by the one
    path every history takes (:mod:`croupier.history.write`). ``number`` names it (the
    ``[N]`` of a ``.phhs``) and, after ``session``'s number where one is given
    (:func:`~croupier.history.identity.hand_number`), is its hand number unless
    ``identity`` gives one;
    ``identity``: the table, seats, start and tournament (the start defaults to now);
    ``players``: names in deal order; ``rulebook``/``options``: the shipped book and house
    options, for PHH; ``extra``: more fields of the log's object (the table options that
    replay it)."""
    identity = identity or HandIdentity()
    if identity.number is None:
        tracked = number if session is None else hand_number(session, number)
        identity = dataclasses.replace(identity, number=tracked)
    if identity.started is None:
        identity = dataclasses.replace(identity, started=started_now())
    if fmt.suffix in (".phh", ".phhs"):
        history = phh_history(
            hand, viewer=viewer, identity=identity, names=players, rulebook=rulebook,
            options=options,
        )  # fmt: skip
        if fmt.suffix == ".phhs":
            return dump_phhs([dataclasses.replace(history, name=str(number))]) + "\n"
        return dump_phh(history) + "\n"
    if fmt.suffix == ".txt":
        text = pokerstars_text(hand, viewer=viewer, identity=identity, names=players)
        return text.rstrip("\n") + "\n\n\n"
    if fmt.suffix == ".ohh":
        return ohh_text(hand, viewer=viewer, identity=identity, names=players) + "\n"
    return log_text(hand, viewer=viewer, identity=identity, names=players, extra=extra) + "\n"


class HistoryWriter:
    """An open history file: :meth:`write` adds a hand, flushed at once, so that a hand
    written is on disk even if a later one fails."""

    def __init__(self, path: Path, fmt: Format, file: IO[str], first: int) -> None:
        self.path = path
        self.format = fmt
        self.file: IO[str] | None = file
        self.first = first  # the number the first hand written here gets
        self.written = 0
        # the session's number: the hands' numbers start with it, unique across files
        self.session = session_number(started_now())

    def write(self, hand: Hand, *, number: int | None = None, **fields: Any) -> None:
        """Add ``hand`` (:func:`hand_text`'s keywords; ``number`` counts from the hands the
        file already held when appending)."""
        count = self.written + 1 if number is None else number
        fields.setdefault("session", self.session)
        self.write_text(hand_text(self.format, hand, number=self.first - 1 + count, **fields))

    def write_text(self, text: str, hands: int = 1) -> None:
        """Add hands already written as text (by :func:`hand_text`, e.g. in a worker)."""
        if self.file is None:
            raise HistoryFileError(f"{self.path} is closed")
        if not self.format.many and self.written + hands > 1:
            raise HistoryFileError(
                f"{self.path}: a .phh file holds one hand; save more to a .phhs file"
            )
        try:
            self.file.write(text)
            self.file.flush()
        except OSError as error:
            self.close(quietly=True)
            raise HistoryFileError(
                f"cannot save hand #{self.first + self.written} to {self.path}: "
                f"{error.strerror or error}; the hands before it are saved"
            ) from None
        self.written += hands

    def close(self, *, quietly: bool = False) -> None:
        file, self.file = self.file, None
        if file is None:
            return
        try:
            file.close()
        except OSError as error:
            if not quietly:
                raise HistoryFileError(f"cannot finish {self.path}: {error.strerror}") from None

    def describe(self) -> str:
        count = self.written
        return f"{count} hand{'' if count == 1 else 's'} to {self.path} ({self.format.name})"


def open_history(
    path: str | os.PathLike[str],
    *,
    hands: int | None = None,
    overwrite: bool = False,
    append: bool = False,
    rules: Rules | None = None,
    rulebook: tuple[str, Mapping[str, object]] | None = None,
    format_name: str | None = None,
) -> HistoryWriter:
    """Open ``path`` to save ``hands`` hands (None: as many as are played) in the format
    ``format_name`` gives (``--format``), else the one its suffix names. An existing file is
    refused unless ``overwrite`` (replace it) or ``append`` (add to it, where the format
    allows); ``rules``: refuse now, before anything is played, rules the format cannot
    describe."""
    target = Path(path)
    fmt = format_of(target, format_name)
    if overwrite and append:
        raise HistoryFileError("--overwrite and --append: choose one")
    if not fmt.many and hands != 1:
        count = "as many hands as are played" if hands is None else f"{hands} hands"
        raise HistoryFileError(
            f"{target}: a .phh file holds one hand, and this would save {count}: "
            f"save to {target.with_suffix('.phhs').name} instead (or play --hands 1)"
        )
    if append and not fmt.appendable:
        raise HistoryFileError(
            f"{target}: a {fmt.suffix} file holds one hand: it cannot be appended to"
        )
    folder = target.parent
    if not folder.is_dir():
        raise HistoryFileError(f"{target}: there is no folder {folder}/: create it first")
    if target.is_dir():
        raise HistoryFileError(f"{target} is a folder, not a file")
    exists = target.exists()
    if exists and not (overwrite or append):
        also = " or --append to add to it" if fmt.appendable else ""
        raise HistoryFileError(f"{target} exists: pass --overwrite to replace it{also}")
    if rules is not None and fmt.suffix != ".jsonl":
        _check_format(target, fmt, rules, rulebook)
    first = 1
    if append and exists and fmt.suffix == ".phhs":
        first += _phhs_hands(target)
    elif append and exists:
        first += _log_hands(target, fmt.suffix == ".txt")
    try:
        file = target.open("a" if append else "w", encoding="utf-8")
    except OSError as error:
        raise HistoryFileError(f"cannot open {target}: {error.strerror}") from None
    return HistoryWriter(target, fmt, file, first)


def _check_format(
    target: Path, fmt: Format, rules: Rules, rulebook: tuple[str, Mapping[str, object]] | None
) -> None:
    """Refuse a save before the game when the format cannot describe these rules (PHH with
    croupier's fields; OHH, hold'em and Omaha only), tried on a hand played for the purpose."""
    name, options = rulebook if rulebook is not None else (None, None)
    players = min(2, max(rules.game.max_players.values()))
    hand = Hand(rules, [100 * rules.betting.small_bet] * players, shuffler=SeededShuffler(0))
    while not hand.over:  # the quickest way through: fold, check or open
        if hand.drawing:
            hand.draw([])
            continue
        legal = hand.legal()
        if legal.can_fold:
            hand.fold()
        elif legal.can_check or legal.call:
            hand.check_or_call()
        elif legal.bring_in is not None:
            hand.post_bring_in()
        else:
            assert legal.raise_range is not None
            hand.bet_or_raise_to(legal.raise_range[0])
    try:
        hand_text(fmt, hand, number=1, viewer=HOUSE, rulebook=name, options=options)
    except TextHistoryError as error:
        raise HistoryFileError(
            f"{target}: {error}: save to a .phh or .jsonl file instead"
        ) from None
    except (PHHError, OHHError) as error:
        raise HistoryFileError(f"{target}: {error}: save to a .jsonl file instead") from None


def _phhs_hands(target: Path) -> int:
    if target.stat().st_size == 0:
        return 0
    try:
        return len(load_phhs(target))
    except (PHHError, OSError) as error:
        raise HistoryFileError(
            f"{target} is not a PHH collection croupier can append to ({error}): "
            "choose another file, or --overwrite"
        ) from None


def _log_hands(target: Path, text: bool = False) -> int:
    """The hands a file holds: a line each (JSON lines), or a header each (PokerStars text)."""
    try:
        with target.open(encoding="utf-8") as file:
            if text:
                return sum(1 for line in file if line.startswith("PokerStars "))
            return sum(1 for line in file if line.strip())
    except (OSError, UnicodeDecodeError) as error:
        raise HistoryFileError(f"cannot read {target} to append to it: {error}") from None


# --- reading the event log back ----------------------------------------------------------------

_EVENTS: Mapping[str, type[ev.Event]] = {name: getattr(ev, name) for name in ev.__all__
                                         if isinstance(getattr(ev, name), type)}  # fmt: skip


def event_from_record(record: Mapping[str, object]) -> ev.Event:
    """The event a log record (:func:`~croupier.history.event_record`) describes."""
    name = record.get("event")
    kind = _EVENTS.get(name) if isinstance(name, str) else None
    if kind is None or kind is ev.Event:
        raise HistoryFileError(f"unknown event {name!r}")
    values: dict[str, object] = {}
    for item in dataclasses.fields(kind):
        if item.name not in record:
            if item.default is dataclasses.MISSING:
                raise HistoryFileError(f"{name} without its {item.name!r}")
            continue
        declared = item.type if isinstance(item.type, str) else getattr(item.type, "__name__", "")
        cards = item.name in _CARD_FIELDS.get(kind.__name__, ())
        values[item.name] = _field(cards, declared, record[item.name], kind.__name__)
    return kind(**values)


# The fields holding cards, event by event: compiled events keep only ``tuple`` or ``object``
# of their annotations (tests/test_event_log.py holds this to events.py's source).
_CARD_FIELDS: Final[Mapping[str, frozenset[str]]] = {
    name: frozenset(fields)
    for name, fields in {
        "DealHole": ("cards",), "DealUp": ("cards",), "Draw": ("discarded", "drawn"),
        "Burn": ("card",), "DealBoard": ("cards",), "Show": ("cards",), "CardGiven": ("card",),
        "ExtraBurn": ("card",), "BoardAdded": ("cards",), "StubReshuffled": ("returned", "order"),
        "Exposed": ("card",), "SetAside": ("card",), "Restacked": ("cards",),
        "Discarded": ("card",), "Discards": ("cards",),
    }.items()
}  # fmt: skip


def _field(cards: bool, declared: str, value: object, event: str) -> object:
    """``declared`` is the annotation as text (pure build) or the bare class name (compiled)."""
    if declared.startswith("tuple"):
        if not isinstance(value, list):
            raise HistoryFileError(f"{event}: expected a list, got {value!r}")
        if cards:
            return tuple(_card(item, event) for item in value)
        return tuple(value)
    if cards:
        return _card(value, event)
    if declared == "int" and (isinstance(value, bool) or not isinstance(value, int)):
        raise HistoryFileError(f"{event}: expected a whole number, got {value!r}")
    return value


def _card(value: object, event: str) -> Card | None:
    if value is None or value == "??":
        return None
    try:
        return Card(str(value))
    except CardError as error:
        raise HistoryFileError(f"{event}: {error}") from None


@dataclass(frozen=True)
class LogReplay:
    """One hand of an event log replayed: its number, whether it matched, and why not."""

    hand: object
    ok: bool
    error: str | None = None


def replay_event_logs(
    path: str | Path, rules_of: Callable[[Mapping[str, Any]], Rules]
) -> Iterator[LogReplay]:
    """Rebuild each hand of a ``.jsonl`` event log from its starting stacks and events under
    ``rules_of(record)`` (every action re-applied through the engine's checks), and compare
    the final stacks with the recorded ones."""
    from croupier.rebuild import RebuildError, rebuild

    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise HistoryFileError(f"cannot read {path}: {error}") from None
    for index, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        label: object = index
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise HistoryFileError("a hand is a JSON object")
            label = record.get("hand", index)
            events = [event_from_record(item) for item in record["events"]]
            hand = rebuild(rules_of(record), record["starting"], events)
            if list(hand.stacks) != list(record["stacks"]):
                raise HistoryFileError(
                    f"the stacks come out {list(hand.stacks)}, the log says {record['stacks']}"
                )
        except (ValueError, KeyError, TypeError, RebuildError) as error:
            what = f"missing field {error}" if isinstance(error, KeyError) else str(error)
            yield LogReplay(label, False, f"line {index}: {what}")
        else:
            yield LogReplay(label, True)
