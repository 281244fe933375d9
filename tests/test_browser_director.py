"""The floor's tournament screens in the browser (Debian's Chromium): the director creates a
tournament from the console's form (a template's levels edited, payouts checked to sum to 100
by the server), a player registers into it from the lobby, the director seats bots and starts
it from the console (the seat draw listed), and the room's clock screen, with no sign-in, shows
the level, a pause, a level change and a network drop, and keeps a private screen to its
link."""

from __future__ import annotations

import sqlite3
import urllib.error
from typing import Any

import pytest

from browser_harness import Player, Server, wait_for


def admin(server: Server, player: Player) -> None:
    with sqlite3.connect(server.db) as db:
        db.execute("UPDATE accounts SET role = 'admin' WHERE name = ?", (player.name,))


def console(server: Server, token: str, number: int) -> dict[str, Any]:
    return dict(server.http("GET", f"/api/tournaments/{number}/console", token))


def test_a_tournament_is_created_registered_into_started_and_shown_on_the_clock_screen(
    server: Server, browser: Any
) -> None:
    td = Player(browser, server, "ctd")
    admin(server, td)
    page = td.page
    page.goto(f"{server.url}/#/director")
    page.wait_for_selector("#f-create")
    page.fill("#f-name", "Console cup")
    page.select_option("#f-template", "turbo")
    assert page.input_value("#f-chips") == "5000"
    assert page.locator("#f-levels tr").count() > 10
    # The first level a minute long, so that the next one comes within the test.
    page.fill("#f-levels tr:first-child [data-field='minutes']", "1")
    page.fill("#f-table-size", "6")
    page.fill("#f-price", "550")
    page.fill("#f-fee", "50")
    page.fill("#f-entries", "4")
    # Payouts of the director's own, checked by the server: they must sum to 100.
    page.select_option("#f-payouts", "custom")
    page.fill("#f-custom", "60, 30")
    wait_for(lambda: page.locator("#f-problem").count() == 1)
    assert "sum to exactly 100 percent" in page.inner_text("#f-problem")
    assert page.inner_text("#f-custom-sum") == "sum 90%"
    page.fill("#f-custom", "60, 40")
    wait_for(lambda: page.locator("#f-prizes").count() == 1)
    assert page.inner_text("#f-prizes") == "Pays 1. 1200 · 2. 800"  # 4 x 500 to the pool
    page.click("#f-submit")
    page.wait_for_selector("#console[data-status='registering']")
    number = int(page.url.rsplit("/", 1)[1])
    assert f"Tournament {number} created: Console cup" in page.inner_text("#notice")
    assert page.text_content("#dc-state") == "registering"
    assert page.inner_text("#dc-starts") == "starts when you press Start"

    # A player registers from the lobby, and is told so.
    ann = Player(browser, server, "cann")
    ann.page.reload()
    row = ann.page.locator(f"#tournaments tr[data-tournament='{number}']")
    row.wait_for()
    row.locator("button.register").click()
    wait_for(lambda: "You registered in Console cup" in ann.page.inner_text("#notice"))
    wait_for(lambda: "cann" in page.inner_text("#dc-registrants"))

    page.fill("#dc-bots", "3")
    page.click("[data-dc='bots']")
    wait_for(lambda: page.locator("#dc-registrants li").count() == 4)
    wait_for(lambda: page.inner_text("#dc-pool") == "prize pool 2000")
    assert page.locator("#dc-prizes li").all_inner_texts() == ["1200", "800"]

    # The room's clock, no sign-in: before the start it says registration is open.
    wall = browser.new_context(viewport={"width": 1920, "height": 1080})
    clock = wall.new_page()
    errors: list[str] = []
    clock.on("pageerror", lambda error: errors.append(str(error)))
    clock.goto(f"{server.url}/clock/{number}")
    clock.wait_for_selector("#c-main[data-mode='registering']")
    assert clock.inner_text("#c-level") == "Registration open"
    assert clock.inner_text("#c-pool .c-figure") == "2,000"

    page.click("[data-dc='start']")
    page.wait_for_selector("#console[data-state='running']")
    wait_for(lambda: page.locator("#dc-draw li").count() == 4)
    drawn = page.locator("#dc-draw li").all_inner_texts()
    assert all(line.startswith("seat ") for line in drawn)
    assert any(line.endswith(": cann") for line in drawn)
    assert "the tournament starts: the clock runs" in page.inner_text("#dc-log")
    td.screenshot("director-console.png", full_page=True)

    clock.wait_for_selector("#c-main[data-mode='running']")
    assert clock.inner_text("#c-level") == "Level 1"
    assert clock.inner_text("#c-blinds") == "25 / 50"
    assert clock.inner_text("#c-next").startswith("Level 2 · 50 / 100")
    assert clock.inner_text("#c-players .c-figure") == "4"

    # The director pauses: "paused" on the console and on the wall.
    page.click("[data-dc='pause']")
    page.wait_for_selector("#console[data-state='paused']")
    assert page.text_content("#dc-state") == "paused"
    clock.wait_for_selector("#c-main[data-mode='paused']")
    assert clock.inner_text("#c-banner") == "PAUSED"
    held = clock.inner_text("#c-time")
    clock.wait_for_timeout(1500)
    assert clock.inner_text("#c-time") == held  # a paused clock stands still
    clock.screenshot(path=str(_screens() / "clock-paused.png"))
    page.click("[data-dc='resume']")
    page.wait_for_selector("#console[data-state='running']")
    clock.wait_for_selector("#c-main[data-mode='running']")

    # The network drops: the screen keeps counting, says so, and comes back by itself.
    wall.route("**/api/tournaments/*/clock*", lambda route: route.abort())
    wait_for(lambda: clock.inner_text("#c-link").startswith("Reconnecting"), 15)
    assert clock.inner_text("#c-level") == "Level 1"
    wall.unroute("**/api/tournaments/*/clock*")
    wait_for(lambda: clock.inner_text("#c-link") == "live", 20)

    # The level ends (the director takes the time off): the screen moves to level 2 itself.
    left = console(server, td.token, number)["clock"]["remaining"]
    server.http(
        "POST", f"/api/tournaments/{number}/director", td.token,
        {"action": "add_time", "seconds": -(int(left) - 3)},
    )  # fmt: skip
    wait_for(lambda: clock.inner_text("#c-level") == "Level 2", 30)
    assert clock.inner_text("#c-blinds") == "50 / 100"
    clock.screenshot(path=str(_screens() / "clock.png"))
    wait_for(lambda: "level 2: blinds 50/100" in page.inner_text("#dc-log"), 10)

    # The director names the chip leader on the wall.
    page.check("#dc-leader")
    wait_for(lambda: clock.locator("#c-leader").count() == 1, 10)
    assert clock.inner_text("#c-leader").startswith("Chip leader: ")

    # Private: the screen shows only with its link's key.
    page.check("#dc-private")
    wait_for(lambda: "?key=" in page.inner_text("#dc-screen-link"))
    link = page.get_attribute("#dc-screen-link", "href")
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.http("GET", f"/api/tournaments/{number}/clock", "")
    assert refused.value.code == 403
    wait_for(lambda: clock.locator("#c-link.down").count() == 1, 15)  # the open screen is told
    clock.goto(f"{server.url}{link}")
    clock.wait_for_selector("#c-main[data-mode='running']")
    page.uncheck("#dc-private")
    assert errors == [] and td.errors == [] and ann.errors == []
    wall.close()
    ann.close()
    td.close()


def _screens() -> Any:
    from browser_harness import SCREENS

    SCREENS.mkdir(parents=True, exist_ok=True)
    return SCREENS


def test_the_clock_screen_comes_back_by_itself_after_a_server_restart(
    tmp_path: Any, browser: Any
) -> None:
    """The server stops and starts again on the same address and database: the wall's clock
    says it is reconnecting meanwhile, keeps counting, and shows the tournament again, rebuilt
    from its log, without anyone touching it."""
    import subprocess
    import sys

    first = Server(tmp_path / "room")
    made = first.http("POST", "/api/register", "", {"name": "rtd", "password": "password-123"})
    with sqlite3.connect(first.db) as db:
        db.execute("UPDATE accounts SET role = 'admin' WHERE name = 'rtd'")
    token = str(made["token"])
    settings = {
        "name": "Restart cup", "table_size": 6, "denominations": [5, 25],
        "buy_in": {"price": 500, "fee": 50, "chips": 1500},
        "levels": [{"small_blind": 5, "big_blind": 10, "minutes": 20},
                   {"small_blind": 10, "big_blind": 20, "minutes": 20}],
    }  # fmt: skip
    # An hour's action clock and a player at no page: a hand waits for her, so that the bots
    # do not play the tournament to its end meanwhile.
    body = {"settings": settings, "clock": 3600}
    number = first.http("POST", "/api/tournaments", token, body)["tournament"]
    first.http("POST", f"/api/tournaments/{number}/bots", token, {"count": 3})
    her = first.http("POST", "/api/register", "", {"name": "rann", "password": "password-123"})
    first.http("POST", f"/api/tournaments/{number}/register", str(her["token"]))
    first.http("POST", f"/api/tournaments/{number}/director", token, {"action": "start"})
    wall = browser.new_context(viewport={"width": 1280, "height": 720})
    clock = wall.new_page()
    clock.goto(f"{first.url}/clock/{number}")
    clock.wait_for_selector("#c-main[data-mode='running']")
    assert clock.inner_text("#c-blinds") == "5 / 10"
    clock.screenshot(path=str(_screens() / "clock-720.png"))
    first.process.terminate()
    first.process.wait(timeout=20)
    wait_for(lambda: clock.inner_text("#c-link").startswith("Reconnecting"), 20)
    counting = clock.inner_text("#c-time")
    clock.wait_for_timeout(1200)
    assert clock.inner_text("#c-time") != counting  # it keeps counting meanwhile
    command = [
        sys.executable, "-c", "from croupier.cli import app; app()", "serve",
        "--db", str(first.db), "--port", str(first.port), "--no-demo", "--clock", "30",
        "--bank", "30", "--pause", "0.4", "--bot-delay", "0",
    ]  # fmt: skip
    log = (tmp_path / "second.log").open("wb")
    second = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: clock.inner_text("#c-link") == "live", 60)
        assert clock.inner_text("#c-level") == "Level 1"
        assert clock.inner_text("#c-players .c-figure") == "4"
    finally:
        second.terminate()
        second.wait(timeout=20)
        log.close()
        first.log.close()
        wall.close()
