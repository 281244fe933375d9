"""The README's first tour, in Debian's Chromium, from a fresh database: serve (it says how to
make the first admin before it says where to open it), register, make a table (the form starts
on hold'em), seat bots, sit and play a hand, then find it under Hand history."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from browser_harness import Player, Server, play, wait_for

README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Any:
    running = Server(tmp_path_factory.mktemp("tour"), demo=True)  # as `croupier serve` starts
    yield running
    running.stop()


def test_the_readme_tour_from_a_fresh_database(fresh: Server, browser: Any) -> None:
    tour = README.read_text(encoding="utf-8")
    assert "croupier serve --admin NAME" in tour and "croupier dealer" in tour
    steps = re.findall(r"^\d\. \*\*(\w+)[^*]*\*\*", tour, flags=re.MULTILINE)
    assert steps == ["Serve", "Register", "Make", "Seat", "Play"]

    # 1. Serve: the first admin's recipe comes before the address to open.
    said = fresh.log_path.read_text()
    assert said.index("croupier serve --admin NAME") < said.index("open http")

    # 2. Register (the page's Register button, in Player) and land in the lobby, with the
    # demo table in it.
    me = Player(browser, fresh, "newcomer")
    page = me.page
    assert "10000 chips" in page.inner_text("#me")
    wait_for(lambda: page.locator("#tables tbody tr").count() == 1)

    # 3. Make a table: the form starts on hold'em.
    assert page.input_value("#new-game") == "holdem"
    page.fill("#new-name", "My first table")
    page.fill("#new-seats", "4")
    page.click("#create-table")
    page.wait_for_selector("#felt")
    assert page.inner_text("#table-name") == "My first table"

    # 4. Seat bots: the owner's "+ bot" on the empty seats.
    for seat in (2, 3):
        page.click(f".seat[data-seat='{seat}'] button.add-bot")
        page.wait_for_selector(f".seat[data-seat='{seat}'] .tag:text('bot')")

    # 5. Play: the buy-in box holds the table's minimum; sit, and a hand is dealt and played.
    minimum = int(page.input_value("#buy-in"))
    assert minimum > 0
    me.sit(1, minimum)
    dealt = "#results li.result[data-dealt='3']"  # a hand the bots did not play alone
    play([me], lambda: page.locator(dealt).count() >= 1, timeout=90)
    assert not me.errors

    # Then: the hand is under Hand history, to replay.
    page.click("a[href='#/history']")
    page.wait_for_selector("#hands tbody tr a.replay")
