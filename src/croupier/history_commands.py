"""The command line's hand-history commands, ``croupier replay`` and ``croupier convert``
(registered by croupier.cli), and the reading of a table option ``KEY=VALUE``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, NoReturn

import tomli
import typer
from rich.console import Console
from rich.text import Text

from croupier.hand import Rules
from croupier.history import (
    Amount,
    HandHistory,
    PHHError,
    ReplayResult,
    chip_scale,
    load_phh,
    load_phhs,
    replay,
    standard_rules,
)
from croupier.history.extensions import OPTIONS, RULEBOOK, extension_rules
from croupier.rulebooks import RulebookError, load_rulebook

console = Console(highlight=False)


def replay_command(
    path: Annotated[str, typer.Argument(help="A .phh or .phhs file, or a folder of them.")],
    rulebook: Annotated[
        str | None,
        typer.Option(help="Replay under a rulebook (its commission and odd-chip rules)."),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            help="A table option KEY=VALUE, repeatable (keys: 'croupier rules show NAME'; "
            "without --rulebook, those of docs/phh-extensions.md)."
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per hand on its own line.")
    ] = False,
) -> None:
    """Replay hand histories: every action legal, every finishing stack to the chip.

    Every action must be legal in order, and recorded finishing stacks must match to the
    chip. Exit code 0 only when every hand does.

    Without --rulebook, PHH's own rules apply (no commission), with whatever the files' croupier
    fields say (docs/phh-extensions.md); --rulebook and --option override those fields.

    Example: croupier replay hands/ --rulebook au-casino --option commission_cap=3 --json
    """
    root = Path(path)
    if not root.exists():
        console.print(f"[red]error:[/red] no such file or folder: {path}", soft_wrap=True)
        raise typer.Exit(2)
    files = [root]
    if root.is_dir():
        kinds = (".phh", ".phhs", ".jsonl")
        files = sorted(f for f in root.rglob("*") if f.suffix in kinds and f.is_file())
        if not files:
            console.print(
                f"[red]error:[/red] no .phh, .phhs or .jsonl files in {path}", soft_wrap=True
            )
            raise typer.Exit(2)
    try:
        if rulebook is not None:
            load_rulebook(rulebook)
        options = dict(table_option(text) for text in option or ())
    except (RulebookError, typer.BadParameter) as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from None
    hands = failures = 0
    for file in files:
        if file.suffix == ".jsonl":  # croupier's event log, replayed under its table's rules
            replayed = _replay_log(file, as_json)
            hands, failures = hands + replayed[0], failures + replayed[1]
            continue
        try:
            histories = load_phhs(file) if file.suffix == ".phhs" else [load_phh(file)]
        except (PHHError, OSError) as error:
            failures += 1
            _report(
                as_json, {"file": str(file), "hand": None, "name": None, "ok": False,
                          "error": str(error)},
            )  # fmt: skip
            continue
        for index, history in enumerate(histories):
            hands += 1
            where = {"file": str(file), "hand": index + 1, "name": history.name}
            try:
                rules = _table_rules(history, rulebook, options)
            except PHHError as error:
                failures += 1
                _report(as_json, {**where, "ok": False, "error": str(error)})
                continue
            result = replay(history, rules)
            failures += not result.ok
            _report(as_json, {**where, **_replay_record(result)})
    if not as_json:
        verdict = "all replayed and matched" if not failures else f"{failures} failed"
        console.print(f"{hands} hand(s) in {len(files)} file(s): {verdict}")
    if failures:
        raise typer.Exit(1)


def convert_command(
    paths: Annotated[list[str], typer.Argument(help="PHH files (.phh, .phhs) or folders.")],
    to: Annotated[str, typer.Option("--to", help="phh, pokerstars, ohh or jsonl.")],
    viewer: Annotated[
        str, typer.Option(help="Whose record: a seat in PHH order (1 is p1), or 'house' (all).")
    ] = "house",
    output: Annotated[
        str | None, typer.Option(help="Write here instead of to standard output.")
    ] = None,
) -> None:
    """Convert hand histories between formats, keeping hidden cards hidden.

    A card the history does not name stays unknown, and --viewer SEAT gives that player's
    own record (the others' cards only where shown). Exit code 0 only when every hand
    converts; each failure is one line on standard error.

    Example: croupier convert hands/ --to pokerstars --viewer 2 --output hands.txt
    """
    from croupier.events import HOUSE
    from croupier.history.convert import ConvertError, Format, convert

    errors = Console(stderr=True, highlight=False)

    def refuse(message: str) -> NoReturn:
        errors.print(f"error: {message}", markup=False, soft_wrap=True)
        raise typer.Exit(2)

    try:
        target = Format(to.lower())
    except ValueError:
        refuse(f"--to {to!r}: expected one of {', '.join(f.value for f in Format)}")
    seat = HOUSE
    if viewer.lower() != "house":
        if not viewer.isdigit() or int(viewer) < 1:
            refuse(f"--viewer {viewer!r}: expected a seat in PHH order (1, 2, ...) or 'house'")
        seat = int(viewer) - 1
    files: list[Path] = []
    for path in paths:
        root = Path(path)
        if not root.exists():
            refuse(f"{path}: no such file or folder")
        files += sorted(root.rglob("*.phh*")) if root.is_dir() else [root]
    pieces: list[str] = []
    failures = 0
    for file in files:
        try:
            histories = load_phhs(file) if file.suffix == ".phhs" else [load_phh(file)]
        except (PHHError, OSError) as error:
            failures += 1
            errors.print(f"error: {file}: {error}", markup=False, soft_wrap=True)
            continue
        for index, history in enumerate(histories):
            label = history.name if history.name is not None else index + 1
            try:
                text = convert(history, target, seat)
            except ConvertError as error:
                failures += 1
                errors.print(f"error: {file} hand {label}: {error}", markup=False, soft_wrap=True)
                continue
            if target is Format.PHH and file.suffix == ".phhs":
                text = f"[{label}]\n{text}"
            pieces.append(text)
    joined = ("\n" if target in (Format.POKERSTARS, Format.PHH) else "").join(pieces)
    if output is None:
        typer.echo(joined, nl=False)
    else:
        Path(output).write_text(joined, encoding="utf-8")
    if failures:
        raise typer.Exit(1)


def _replay_log(file: Path, as_json: bool) -> tuple[int, int]:
    """Replay a .jsonl event log (croupier.history.formats); (hands, failures)."""
    from croupier.history.formats import HistoryFileError, replay_event_logs
    from croupier.play_rules import TableOptions

    def rules_of(record: Mapping[str, Any]) -> Rules:
        if not isinstance(record.get("table"), dict):
            raise HistoryFileError("the hand does not name its table's rules ('table')")
        return TableOptions.from_dict(record["table"]).rules()

    hands = failures = 0
    try:
        for done in replay_event_logs(file, rules_of):
            hands += 1
            failures += not done.ok
            _report(as_json, {"file": str(file), "hand": done.hand, "ok": done.ok,
                              "error": done.error})  # fmt: skip
    except HistoryFileError as error:
        failures += 1
        _report(as_json, {"file": str(file), "hand": None, "ok": False, "error": str(error)})
    return hands, failures


def table_option(text: str) -> tuple[str, object]:
    """``KEY=VALUE``; the value read as TOML where it is TOML (``3``, ``true``, ``[1, 2]``),
    else as text (``5%``, ``percentage``)."""
    key, equals, value = text.partition("=")
    if not equals or not key.strip():
        raise typer.BadParameter(f"--option {text!r}: expected KEY=VALUE, e.g. commission_cap=3")
    try:
        parsed: object = tomli.loads(f"v = {value.strip()}", parse_float=Decimal)["v"]
    except (tomli.TOMLDecodeError, RecursionError, ValueError, ArithmeticError):
        parsed = value.strip()  # not TOML, or TOML nested or sized past reading: the text
    return key.strip(), parsed


def _table_rules(
    history: HandHistory, rulebook: str | None, options: dict[str, object]
) -> Rules | None:
    """The rules --rulebook and --option give a history: the same as writing them into its
    croupier fields (docs/phh-extensions.md), options without a rulebook changing the PHH rules
    replay() plays the variant by; None when neither is given."""
    if rulebook is None and not options:
        return None
    fields = dict(history.user_fields)
    if rulebook is not None:
        fields[RULEBOOK] = rulebook
    if options:
        given = fields.get(OPTIONS)
        fields[OPTIONS] = {**given, **options} if isinstance(given, dict) else options
    described = replace(history, user_fields=fields)
    return extension_rules(described, chip_scale(history), lambda: standard_rules(described))


def _amount(value: Amount) -> int | float | str:
    """An amount for JSON: an int when whole, 'inf' for an unlimited stack, else a float."""
    if isinstance(value, Decimal):
        if value.is_infinite():
            return "inf"
        return int(value) if value == value.to_integral_value() else float(value)
    return int(value)


def _replay_record(result: ReplayResult) -> dict[str, object]:
    return {
        "ok": result.ok,
        "finishing_stacks": [_amount(s) for s in result.finishing_stacks or ()],
        "pots": [
            {
                "amount": _amount(p.amount),
                "commission": _amount(p.commission),
                "eligible": list(p.eligible),
                "winners": list(p.winners),
                "shares": [_amount(s) for s in p.shares],
            }
            for p in result.pots
        ],
        "commission": _amount(result.commission),
        "error": None if result.error is None else str(result.error),
    }


def _report(as_json: bool, record: dict[str, object]) -> None:
    """One line per hand; hands are numbered from 1 in a .phh and a .phhs alike, a .phhs hand's
    table name shown beside its number when it differs (as PHHError names them)."""
    if as_json:
        print(json.dumps(record))
        return
    where = str(record["file"])
    if record["hand"] is not None:
        where += f" hand {record['hand']}"
        name = record.get("name")
        if name is not None and name != str(record["hand"]):
            where += f" [{name}]"
    if record["ok"]:
        line = Text.assemble(("ok", "green"), f"   {where}")
    else:
        line = Text.assemble(("fail", "red"), f" {where}: {record['error']}")
    console.print(line, soft_wrap=True)
