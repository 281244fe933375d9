"""A tournament table in the browser (Debian's Chromium): the lobby lists the tournament, a
player registers from it, and once the director starts it the table shows the clock and the
level (blinds, time left, next break, players left, average stack, prize pool) and the player
plays their turn there; no other player's hole card reaches the page."""

from __future__ import annotations

import sqlite3
from typing import Any

from browser_harness import CARD, Player, Server, wait_for

SETTINGS = {
    "name": "Browser cup",
    "table_size": 6,
    "denominations": [5, 25],
    "buy_in": {"price": 500, "fee": 50, "chips": 1500},
    "levels": [
        {"small_blind": 5, "big_blind": 10, "minutes": 20},
        {"break": 5},
        {"small_blind": 10, "big_blind": 20, "ante": 5, "minutes": 20},
    ],
}


def director(server: Server) -> str:
    made = server.http("POST", "/api/register", "", {"name": "td", "password": "password-123"})
    with sqlite3.connect(server.db) as db:
        db.execute("UPDATE accounts SET role = 'admin' WHERE name = 'td'")
    return str(made["token"])


def test_a_tournament_table_shows_its_clock_and_level_and_is_played_from_the_page(
    server: Server, browser: Any
) -> None:
    td = director(server)
    number = server.http("POST", "/api/tournaments", td, {"settings": SETTINGS, "bot": "tight"})[
        "tournament"
    ]
    server.http("POST", f"/api/tournaments/{number}/bots", td, {"count": 3})
    ann = Player(browser, server, "tann")
    page = ann.page
    page.reload()
    row = page.locator(f"#tournaments tr[data-tournament='{number}']")
    row.wait_for()
    assert "registering" in row.inner_text()
    row.locator("button.register").click()
    page.wait_for_selector("#t-clock #t-level")
    assert page.inner_text("#t-players") == "4 players left of 4"
    server.http("POST", f"/api/tournaments/{number}/director", td, {"action": "start"})
    wait_for(lambda: page.locator(".seat.you .hole .card").count() == 2, 20)
    assert page.inner_text("#t-level") == "Level 1"
    assert page.inner_text("#t-blinds") == "Blinds 5/10"
    assert page.inner_text("#t-players") == "4 players left of 4"
    assert page.inner_text("#t-pool") == "prize pool 1800"
    left = page.inner_text("#t-time")
    assert left.endswith("left") and left.startswith(("19:", "20:"))
    assert page.inner_text("#t-break").startswith(("next break 19:", "next break 20:"))
    mine = [str(c.get_attribute("data-card")) for c in page.locator(".seat.you .hole .card").all()]
    assert all(CARD.match(c) for c in mine)
    wait_for(lambda: ann.my_turn(), 20)
    before = ann.turn_key()
    ann.click("check_or_call" if ann.can("check_or_call") else "fold")
    wait_for(lambda: ann.turn_key() != before, 10)
    ann.screenshot("tournament.png")
    sent = 0
    for message in ann.messages():
        hand = message.get("hand") if message.get("type") == "tournament_state" else None
        if not isinstance(hand, dict):
            continue
        me = hand["order"].index(message["you"]) if message["you"] in hand["order"] else None
        for event in hand["events"]:
            if event["event"] == "DealHole" and event["player"] != me:
                assert set(event["cards"]) == {"??"}
                sent += 1
    assert sent > 0
    assert ann.errors == []
    ann.close()
