"""``croupier serve`` as an operator first meets it: whatever stops it starting is one line,
said before anything tells anyone to open an address, with an exit code that is not 0; and
while no admin exists it says how to make the first one (``--admin``)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from server_harness import free_port

SERVE = [sys.executable, "-c", "from croupier.cli import app; app()", "serve", "--no-demo"]


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SERVE, *args], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
    )


def _one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    said = (result.stdout + result.stderr).strip()
    assert result.returncode != 0, said
    assert "Traceback" not in said and "open http" not in said, said
    assert len(said.splitlines()) == 1, said
    assert said.startswith("error: "), said
    return said


def test_a_database_file_that_cannot_be_opened_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "room.db"
    said = _one_line_error(_serve("--db", str(missing), "--port", str(free_port())))
    assert f"cannot open the database file {missing}" in said
    assert "does its folder exist" in said


def test_a_file_that_is_not_a_database_is_one_line(tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("not a database, but long enough to have a header of sorts\n" * 20)
    said = _one_line_error(_serve("--db", str(other), "--port", str(free_port())))
    assert "file is not a database" in said


def test_an_unreachable_postgresql_is_one_line_without_its_password() -> None:
    closed = free_port()  # nothing listens there
    url = f"postgresql://croupier:s3cret@127.0.0.1:{closed}/cards"
    said = _one_line_error(_serve("--db", url, "--port", str(free_port())))
    assert f"cannot reach the database postgresql://croupier:***@127.0.0.1:{closed}/cards" in said
    assert "s3cret" not in said


def test_a_port_already_taken_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        said = _one_line_error(_serve("--db", str(tmp_path / "room.db"), "--port", str(port)))
    assert f"cannot listen at 127.0.0.1:{port}: another program is listening there" in said


def test_serve_says_how_to_make_the_first_admin_until_one_exists(tmp_path: Path) -> None:
    db = str(tmp_path / "room.db")

    def first_lines(*extra: str, env: dict[str, str] | None = None) -> list[str]:
        process = subprocess.Popen(
            [*SERVE, "--db", db, "--port", str(free_port()), *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        lines: list[str] = []
        try:
            assert process.stdout is not None
            for line in process.stdout:
                lines.append(line.strip())
                if "open http" in line or "error" in line:
                    break
        finally:
            process.terminate()
            process.wait(timeout=30)
        return lines

    fresh = first_lines()
    assert "open http" in fresh[-1], fresh
    assert any("croupier serve --admin NAME" in line for line in fresh[:-1]), fresh
    env = {**os.environ, "CROUPIER_ADMIN_PASSWORD": "password-123"}
    made = first_lines("--admin", "boss", env=env)
    assert "open http" in made[-1], made
    assert not any("--admin" in line for line in made), made
    again = first_lines()
    assert not any("--admin" in line for line in again), again
