"""The modules mypyc compiles (setup.py's COMPILED) keep to what compiles to the same program.
A name bound by two ``except ... as`` clauses of one function is given the first clause's type
when compiled, so binding it to another exception fails there with a TypeError that the pure
build never raises (it hid a store failure's handling in the card room)."""

from __future__ import annotations

import ast
import re

from server_harness import ROOT


def _compiled() -> list[str]:
    setup = (ROOT / "setup.py").read_text()
    listed = setup.split("COMPILED = [", 1)[1].split("]", 1)[0]
    return re.findall(r'"(src/croupier/[\w/]+\.py)"', listed)


def _except_names_of_two_types(source: str) -> list[str]:
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        types: dict[str, set[str]] = {}
        for node in ast.walk(function):
            if isinstance(node, ast.ExceptHandler) and node.name:
                caught = ast.unparse(node.type) if node.type else "BaseException"
                types.setdefault(node.name, set()).add(caught)
        found += [
            f"{function.name} (line {function.lineno}): {name} as {' and '.join(sorted(kinds))}"
            for name, kinds in types.items()
            if len(kinds) > 1
        ]
    return found


def test_no_compiled_function_binds_one_name_to_two_kinds_of_exception() -> None:
    modules = _compiled()
    assert len(modules) > 20 and "src/croupier/server/rooms/room.py" in modules
    found = {m: _except_names_of_two_types((ROOT / m).read_text()) for m in modules}
    assert {m: names for m, names in found.items() if names} == {}


def test_the_check_finds_a_name_bound_to_two_kinds_of_exception() -> None:
    source = (
        "def f():\n"
        "    try: pass\n"
        "    except KeyError as error: pass\n"
        "    try: pass\n"
        "    except BaseException as error: pass\n"
    )
    assert _except_names_of_two_types(source) == ["f (line 1): error as BaseException and KeyError"]
