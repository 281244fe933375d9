"""Say which engine the suite tests, and refuse to test compiled modules older than their source."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import croupier

# The bench's harness of servers (bench/server_clients.py) serves the tests too: free_port.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))


def pytest_report_header() -> str:
    compiled = croupier.compiled_modules()
    if not compiled:
        return "croupier: pure Python"
    return f"croupier: compiled with mypyc: {', '.join(compiled)}"


def pytest_sessionstart(session: pytest.Session) -> None:
    package = Path(croupier.__file__).parent
    # mypyc puts the code in one shared library beside the package; each module's own
    # extension is a small shim that a rebuild may leave untouched
    shared = [path.stat().st_mtime for path in package.parent.glob("*__mypyc*")]
    for name in croupier.compiled_modules():
        built = Path(importlib.import_module(name).__file__ or "")
        source = built.parent / (built.name.split(".")[0] + ".py")
        compiled_at = max([built.stat().st_mtime, *shared])
        if source.exists() and source.stat().st_mtime > compiled_at:
            pytest.exit(
                f"{source} changed after it was compiled, so the tests would run the old code: "
                "run `pip install -e .` again, or `CROUPIER_PURE=1 pip install -e .` to work "
                "uncompiled",
                returncode=4,
            )


@pytest.fixture(scope="session")
def postgres_dsn() -> object:
    """A throwaway PostgreSQL server (tools/postgres.sh) for the card room's tests; it fails,
    never skips, when PostgreSQL cannot be started."""
    from server_harness import start_postgres, stop_postgres

    dsn, folder = start_postgres()
    yield dsn
    stop_postgres(folder)


# The browser tests' fixtures: a card room and a Chromium of their own per test module.


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A real ``croupier serve`` for the browser tests (browser_harness.Server)."""
    from browser_harness import serving

    yield from serving(tmp_path_factory)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by playwright, for the browser tests."""
    from browser_harness import launching

    yield from launching()
