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

    # Then: the hand is under Hand history, named by its table, with the cards this seat
    # held and the net result, to replay under the table's name.
    page.click("a[href='#/history']")
    row = page.locator("#hands tbody tr", has=page.locator("a.replay")).first
    row.wait_for()
    assert row.locator("td.table-name").inner_text() == "My first table"
    assert "holdem" in row.inner_text()
    wait_for(lambda: row.locator("td.hole-cards .card").count() == 2)
    me.screenshot("hands.png")
    net = row.locator("td.net").inner_text()
    assert net == "0" or re.fullmatch(r"[+-]\d+", net), net
    row.locator("a.replay").click()
    page.wait_for_selector("#replay-title")
    assert page.inner_text("#replay-title").startswith("My first table, hand #")
