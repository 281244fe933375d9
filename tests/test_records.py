"""Records that write their ``__init__`` out (compiled by mypyc it runs natively, unlike the one
``@dataclass`` generates) must still set every field, and frozen ones take exactly the fields,
in order, with the same defaults."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import croupier

SOURCES = ["events.py", "betting.py", "pots.py", "history/dealing.py"]


def _written_inits() -> list[tuple[str, ast.ClassDef, ast.FunctionDef]]:
    found = []
    for name in SOURCES:
        tree = ast.parse((Path(croupier.__file__).parent / name).read_text())
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.decorator_list:
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                        found.append((name, node, item))
    return found


INITS = _written_inits()
FROZEN = [found for found in INITS if "frozen=True" in ast.unparse(found[1].decorator_list[0])]


def _fields(cls: ast.ClassDef) -> list[tuple[str, str | None]]:
    return [
        (item.target.id, None if item.value is None else ast.unparse(item.value))
        for item in cls.body
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
    ]


def test_the_hot_records_write_their_init() -> None:
    names = {cls.name for _, cls, _ in INITS}
    assert {"Bet", "Call", "Check", "Fold", "DealHole", "Legal", "PotResult", "Settlement"} <= names
    assert {"BettingRound", "Slot"} <= names


@pytest.mark.parametrize(("module", "cls", "init"), INITS, ids=[c.name for _, c, _ in INITS])
def test_a_written_init_sets_every_field(
    module: str, cls: ast.ClassDef, init: ast.FunctionDef
) -> None:
    assigned = set()
    for node in ast.walk(init):
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "object.__setattr__":
            assigned.add(ast.literal_eval(node.args[1]))
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            assigned.add(node.attr)
    assert assigned == {name for name, _ in _fields(cls)}, module


@pytest.mark.parametrize(("module", "cls", "init"), FROZEN, ids=[c.name for _, c, _ in FROZEN])
def test_a_frozen_record_takes_its_fields_in_order_with_their_defaults(
    module: str, cls: ast.ClassDef, init: ast.FunctionDef
) -> None:
    arguments = init.args.args[1:]
    defaults = [None] * (len(arguments) - len(init.args.defaults)) + [
        ast.unparse(d) for d in init.args.defaults
    ]
    assert [(a.arg, d) for a, d in zip(arguments, defaults, strict=True)] == _fields(cls), module
