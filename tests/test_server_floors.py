"""The card room is built in floors (docs/server.md), each importing only those below it:

    web/           the only code that knows Starlette, HTTP and WebSockets
    hall           the process's rooms and tournaments by id, leases, the demo table
    tournaments/   tournaments driving tables, hearing their hands end
    live/          live tables: a dealer's real cards, croupier as the assistant
    rooms/         one table in play: the actor, seats, waiting list, clock
    store/         the only code with SQL: named functions, the writer, schema, migrations
    records        plain values every floor passes

These tests read the imports of every module under src/croupier/server (also those inside
functions and under TYPE_CHECKING) and fail on an import that runs up a floor, on an import
circle, on SQLAlchemy outside the store, and on a private name taken from another module."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

SERVER = Path(__file__).resolve().parent.parent / "src" / "croupier" / "server"
FLOORS = ("records", "store", "rooms", "live", "tournaments", "hall", "web")  # bottom to top


def _module(path: Path) -> str:
    parts = path.relative_to(SERVER.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _floor(module: str) -> str | None:
    rest = module.removeprefix("croupier.server").lstrip(".").split(".")[0]
    return rest if rest in FLOORS else None


@functools.cache
def _modules() -> dict[str, ast.Module]:
    return {_module(p): ast.parse(p.read_text(), str(p)) for p in sorted(SERVER.rglob("*.py"))}


def _imports(tree: ast.Module, module: str, known: set[str]) -> list[tuple[str, str, int]]:
    """(imported module, name, line) for each import of croupier.server's modules or of
    other packages; a name imported from a package that is a module of its own counts as it."""
    found: list[tuple[str, str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, "", node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")[: len(module.split(".")) - node.level + 1]
                if not module.endswith(".__init__"):
                    package = module.split(".")[: -node.level]
                base = ".".join([*package, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append((sub, "", node.lineno) if sub in known else (base, alias.name,
                                                                            node.lineno))
    return found


@functools.cache
def _server_imports() -> dict[str, list[tuple[str, str, int]]]:
    trees = _modules()
    known = set(trees)
    return {module: _imports(tree, module, known) for module, tree in trees.items()}


def test_every_module_of_the_server_stands_on_a_floor() -> None:
    lost = [m for m in _modules() if m != "croupier.server" and _floor(m) is None]
    assert not lost, f"modules on no floor ({', '.join(FLOORS)}): {lost}"


def test_no_floor_imports_one_above_it() -> None:
    upward: list[str] = []
    for module, imports in _server_imports().items():
        floor = _floor(module)
        if floor is None:  # the package's face (croupier.server) may show any floor
            continue
        for imported, _name, line in imports:
            if not imported.startswith("croupier.server"):
                continue
            target = _floor(imported)
            if target is None or FLOORS.index(target) > FLOORS.index(floor):
                upward.append(f"{module}:{line} ({floor}) imports {imported} ({target})")
    assert not upward, "imports that run up a floor:\n" + "\n".join(upward)


def test_no_import_circle_in_the_server() -> None:
    graph: dict[str, set[str]] = {}
    for module, imports in _server_imports().items():
        if module == "croupier.server":
            continue
        graph[module] = {
            imported for imported, _, _ in imports
            if imported in _modules() and imported not in (module, "croupier.server")
        }  # fmt: skip
    circles = [component for component in _strongly_connected(graph) if len(component) > 1]
    assert not circles, f"import circles: {circles}"


def test_sqlalchemy_is_imported_only_in_the_store() -> None:
    outside = [
        f"{module}:{line}"
        for module, imports in _server_imports().items()
        for imported, _, line in imports
        if imported.split(".")[0] in ("sqlalchemy", "alembic") and _floor(module) != "store"
    ]
    assert not outside, f"SQL outside the store floor: {outside}"


def test_starlette_and_uvicorn_are_imported_only_in_the_web_floor() -> None:
    outside = [
        f"{module}:{line}"
        for module, imports in _server_imports().items()
        for imported, _, line in imports
        if imported.split(".")[0] in ("starlette", "uvicorn", "websockets")
        and _floor(module) not in ("web", None)
    ]
    assert not outside, f"web code outside the web floor: {outside}"


def test_no_private_name_is_imported_from_another_module() -> None:
    private = [
        f"{module}:{line} takes {name} from {imported}"
        for module, imports in _server_imports().items()
        for imported, name, line in imports
        if name.startswith("_") and not name.startswith("__") and imported.startswith("croupier")
    ]
    assert not private, "private names imported across modules:\n" + "\n".join(private)


def test_the_server_imports_no_shell() -> None:
    shells = ("croupier.play", "croupier.play_rules", "croupier.cli", "croupier.terminal")
    found = [
        f"{module}:{line} imports {imported}"
        for module, imports in _server_imports().items()
        for imported, _, line in imports
        if imported in shells or imported.startswith("croupier.terminal.")
    ]
    assert not found, f"the server imports the terminal: {found}"


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components of ``graph``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on.discard(top)
                component.append(top)
                if top == node:
                    break
            out.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out
