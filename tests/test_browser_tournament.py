"""A tournament table in the browser (Debian's Chromium): the lobby lists the tournament, a
player registers from it, and once the director starts it the table shows the clock and the
level (blinds, time left, next break, players left, average stack, prize pool) and the player
plays their turn there; no other player's hole card reaches the page."""

from __future__ import annotations

import json
import math
import sqlite3
import urllib.error
from typing import Any

import pytest

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
    # The hand's moves as the seat saw them: its own cards named, no one else's (the next
    # hand's, if it is dealt meanwhile).

    def hand_logged() -> bool:
        cards = page.eval_on_selector_all(
            ".seat.you .hole .card", "cards => cards.map((c) => c.dataset.card)"
        )
        said = page.inner_text("#t-hand")
        return (
            "posts a blind of 5" in said
            and f"tann is dealt {' '.join(cards)}" in said
            and said.count("is dealt ?? ??") == 3
        )

    wait_for(hand_logged)
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


def detail(server: Server, token: str, number: int) -> dict[str, Any]:
    return dict(server.http("GET", f"/api/tournaments/{number}", token))


def notice(page: Any, text: str, kind: str = "info") -> None:
    """Wait until the page's notice says ``text`` (in part), as a notice of ``kind``."""
    wait_for(lambda: text in page.inner_text("#notice") and not page.is_hidden("#notice"), 10)
    assert page.get_attribute("#notice", "class") == kind, page.inner_text("#notice")


def test_the_director_runs_the_tournament_from_the_page(server: Server, browser: Any) -> None:
    """A dealer or admin directs from the tournament page: start, pause, add time, resume, a
    penalty (league 35), a void hand (rws 5.1), a move; each shown on the page and read back
    from the API, a refusal shown with the server's words; a player sees no panel."""
    td = Player(browser, server, "dtd")
    with sqlite3.connect(server.db) as db:
        db.execute("UPDATE accounts SET role = 'admin' WHERE name = 'dtd'")
    token = td.token
    settings = {**SETTINGS, "name": "Director cup"}
    # An hour's action clock: the steps below all happen within one turn of hers.
    made = server.http("POST", "/api/tournaments", token, {"settings": settings, "clock": 3600})
    number = int(made["tournament"])
    server.http("POST", f"/api/tournaments/{number}/bots", token, {"count": 3})
    # dann plays from no page: her turns wait for her clock, so a hand stays in play.
    dann = str(
        server.http("POST", "/api/register", "", {"name": "dann", "password": "pw-dann-1"})["token"]
    )
    server.http("POST", f"/api/tournaments/{number}/register", dann)
    page = td.page
    page.goto(f"{server.url}/#/tournament/{number}")
    page.wait_for_selector("#director[data-status='registering']")
    assert page.locator("#director .cite").first.inner_text() == "league 2"

    page.click("[data-control='start']")
    notice(page, "Director: started with 4 players.")
    page.wait_for_selector("#director[data-status='running']")
    assert detail(server, token, number)["status"] == "running"

    page.click("[data-control='pause']")
    notice(page, "Director: clock paused.")
    wait_for(lambda: page.inner_text("#t-time").endswith("left (paused)"))
    wait_for(lambda: page.is_visible("[data-control='resume']"))
    assert not page.is_visible("[data-control='pause']")
    before = detail(server, token, number)["clock"]
    assert before["paused"]

    page.fill("#d-minutes", "2")
    page.click("[data-control='add_time']")
    notice(page, "Director: 120 seconds added to the level.")
    clock = detail(server, token, number)["clock"]
    assert clock["remaining"] == before["remaining"] + 120
    left = math.ceil(clock["remaining"])
    wait_for(lambda: page.inner_text("#t-time") == f"{left // 60}:{left % 60:02d} left (paused)")

    page.click("[data-control='resume']")
    notice(page, "Director: clock resumed.")
    wait_for(lambda: not page.inner_text("#t-time").endswith("(paused)"))
    assert not detail(server, token, number)["clock"]["paused"]

    # dann's turn: the hand waits for her. League 35: she sits out an orbit from the next hand.
    wait_for(lambda: page.locator(".seat.to-act .name").all_inner_texts() == ["dann"], 30)
    page.select_option("#d-player", "dann")
    page.fill("#d-penalty", "1")
    page.select_option("#d-unit", "orbits")
    page.click("[data-control='penalty']")
    notice(page, "Director: dann sits out 1 orbit (league 35).")
    record = next(p for p in detail(server, token, number)["players"] if p["name"] == "dann")
    assert record["penalty_hands"] == 4  # an orbit: a hand for each of the table's four
    wait_for(lambda: "penalty: 4 hands" in page.inner_text("#d-player option[value='dann']"))
    wait_for(lambda: "out" in page.locator(".seat:has-text('dann') .tag").all_inner_texts())
    td.screenshot("director.png", full_page=True)  # the hand waits for dann: on the felt

    # Rws 5.1: the hand in play is void; every seat gets back what it was dealt with.
    hand = next(t["hand"] for t in detail(server, token, number)["tables"] if t["table"] == 1)
    assert hand is not None
    page.select_option("#d-void-table", "1")
    page.fill("#d-reason", "a card exposed in the deal")
    page.click("[data-control='void']")
    notice(page, f"table 1 hand {hand} void (rws 5.1; cardroom irregularities 3)")
    wait_for(lambda: f"table 1 hand {hand} void" in page.inner_text("#t-log"))
    with sqlite3.connect(server.db) as db:
        status = db.execute(
            "SELECT status FROM hands WHERE tournament_id = ? AND table_no = 1 AND number = ?",
            (number, hand),
        ).fetchone()
    assert status == ("void",)

    # Paused, the hands in play end and none is dealt: a player moves, between hands.
    page.click("[data-control='pause']")
    notice(page, "Director: clock paused.")
    wait_for(lambda: detail(server, token, number)["tables"][0]["hand"] is None, 20)
    # Nothing in play now: a void is refused, in the server's words.
    page.click("[data-control='void']")
    notice(page, "void: table 1 has no hand in play: nothing to void", "refused")
    info = detail(server, token, number)
    bot = next(p for p in info["players"] if p["name"].startswith(f"t{number}-bot"))
    taken = {s["seat"] for s in info["tables"][0]["seats"]}
    free = min(set(range(1, 7)) - taken)
    page.select_option("#d-player", bot["name"])
    page.select_option("#d-table", "1")
    page.select_option("#d-seat", str(free))
    page.click("[data-control='move']")
    notice(page, f"Director: {bot['name']} moved to table 1 seat {free}.")
    moved = next(p for p in detail(server, token, number)["players"] if p["name"] == bot["name"])
    assert (moved["table"], moved["seat"]) == (1, free)
    wait_for(lambda: bot["name"] in page.inner_text(f".seat[data-seat='{free}']"))
    assert f"director: {bot['name']} moved to table 1 seat {free}" in page.inner_text("#t-log")

    page.click("[data-control='resume']")
    notice(page, "Director: clock resumed.")
    wait_for(lambda: "hand #" in page.inner_text("#d-void-table"), 20)  # dealing again
    assert td.errors == []

    # A player sees no panel; the server refuses them the controls anyway.
    bob = Player(browser, server, "dbob")
    bob.page.goto(f"{server.url}/#/tournament/{number}")
    bob.page.wait_for_selector("#t-clock #t-level")
    assert bob.page.locator("#director").count() == 0
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.http("POST", f"/api/tournaments/{number}/director", bob.token, {"action": "pause"})
    assert refused.value.code == 403
    assert "only a dealer or an admin" in json.loads(refused.value.read())["error"]
    assert bob.errors == []
    bob.close()
    td.close()
