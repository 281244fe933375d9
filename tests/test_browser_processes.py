"""The browser table when the card room runs in two ``croupier serve`` processes on one
PostgreSQL (docs/scaling.md): a table lives in the process that made it, and a page served by
the other process is sent there (`elsewhere`): its socket follows, and the table plays as if it
were the page's own process's. In Debian's Chromium, against a real PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_harness import Player, Server, create_table, play, wait_for
from server_harness import fresh_postgres_db


@pytest.fixture
def processes(postgres_dsn: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    db = fresh_postgres_db(postgres_dsn)
    first = Server(tmp_path / "a", db)  # one at a time: the first makes the schema
    second = Server(tmp_path / "b", db)
    yield first, second
    second.stop()
    first.stop()


def _socket_of(server: Server) -> str:
    return server.url.replace("http://", "ws://") + "/ws"


def test_a_page_of_one_process_plays_a_table_the_other_process_runs(
    processes: tuple[Server, Server], browser: Any
) -> None:
    runner, front = processes
    alice, bob = (Player(browser, front, name) for name in ("alice", "bob"))
    assert alice.sockets == [_socket_of(front)]
    spec = {"rulebook": "rws", "game": "holdem", "stakes": "1/2", "seats": 2}
    table = create_table(runner, alice.token, spec, "Run elsewhere")  # it lives on `runner`
    for seat, person in enumerate((alice, bob), start=1):
        person.open_table(table)  # the page `front` served: its socket moves to `runner`
        wait_for(lambda p=person: p.sockets[-1] == _socket_of(runner))  # type: ignore[misc]
        person.sit(seat, 200)
    play([alice, bob], lambda: alice.page.locator("li.result").count() >= 2)
    wait_for(lambda: bob.page.locator("li.result").count() >= 2)
    alice.screenshot("processes-followed.png")
    # Followed quietly (not the player's mistake), and the whole hand heard from `runner`.
    for person in (alice, bob):
        assert "another server process" not in person.page.inner_text("#notice")
        assert person.errors == []

    # Back in the lobby and on to a table `front` runs: the socket follows back.
    other = create_table(front, alice.token, spec, "Run here")
    alice.open_table(other)
    wait_for(lambda: alice.sockets[-1] == _socket_of(front))
    alice.page.locator(".seat[data-seat='1'] button.sit").wait_for()
    for person in (alice, bob):
        person.close()


def test_the_lobby_keeps_up_with_the_other_process_and_a_seat_held_there(
    processes: tuple[Server, Server], browser: Any
) -> None:
    """A lobby on screen is read again every few seconds: a table made on the other process
    appears, and a seat that process holds for a player on its waiting list is shown to her,
    though her socket is on this process and heard no `seat_offer`."""
    runner, front = processes
    carol = Player(browser, front, "carol")
    alice, bob = (Player(browser, runner, name) for name in ("alice", "bob"))
    spec = {"rulebook": "au-casino", "game": "holdem", "stakes": "1/2", "seats": 2}
    table = create_table(runner, alice.token, spec, "Full, over there")
    row = carol.page.locator(f"#tables tr[data-table='{table}']")
    row.wait_for(timeout=15_000)  # no reload: the lobby's own poll
    for seat, person in enumerate((alice, bob), start=1):
        person.open_table(table)
        person.sit(seat, 200)
    carol.open_table(table)
    carol.page.click("#waiting button#wait")
    wait_for(lambda: carol.page.locator("#waiting button#unwait").count() == 1)
    # Her socket goes back to `front` with a table of its own, and she waits in the lobby.
    here = create_table(front, carol.token, spec, "Here")
    carol.open_table(here)
    wait_for(lambda: carol.sockets[-1] == _socket_of(front))
    carol.page.goto(f"{front.url}/#/lobby")
    assert row.locator(".tag.waits").inner_text() == "on the waiting list"

    bob.page.click("#leave")
    play([alice, bob], lambda: bob.page.locator(".seat.you").count() == 0)
    held = row.locator(".tag.held")
    held.wait_for(timeout=15_000)
    assert held.inner_text() == "seat 2 held for you"
    assert row.locator(".seats").inner_text() == "1/2 · 1 waiting"
    assert carol.sockets[-1] == _socket_of(front)  # told by the poll, not by a seat_offer
    carol.screenshot("processes-lobby-held.png")
    for person in (alice, bob, carol):
        assert person.errors == []
        person.close()
