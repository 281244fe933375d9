"""The browser table in Debian's Chromium: three people sign in through the page, sit and play
hold'em hands (an all-in with a side pot among them), a refused raise shows the engine's words
with its clause, a reload mid-hand returns to the same seat, a spectator is never sent a hole
card, and the hand history viewer and rulebook page show what the server says. The pages'
screenshots are taken as the tests go (CROUPIER_SCREENS=docs/screens refreshes the README's)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from browser_harness import (
    CARD,
    CLAUSE,
    Player,
    Server,
    create_table,
    hole_cards_sent,
    play,
    simple,
    wait_for,
)


def full_hands(player: Player) -> int:
    """Hands finished with all three players dealt in."""
    return int(player.page.locator("#results li.result[data-dealt='3']").count())


def test_three_players_play_holdem_with_a_side_pot_a_refusal_a_reload_and_a_spectator(
    server: Server, browser: Any
) -> None:
    alice = Player(browser, server, "alice")
    # The lobby's form makes the table; other tables fill the lobby for its screenshot.
    page = alice.page
    page.select_option("#new-rulebook", "rws")
    page.select_option("#new-game", "holdem")
    page.fill("#new-name", "Hold'em for three")
    # The server's complaint, then the browser's own (too many seats): the newer is shown.
    page.fill("#new-stakes", "x/y")
    page.click("#create-table")
    page.locator("#notice.error", has_text="stakes").wait_for()
    page.fill("#new-stakes", "1/2")
    page.fill("#new-seats", "11")
    page.click("#create-table")
    page.locator("#notice.error", has_text="Seats:").wait_for()
    assert "stakes" not in page.inner_text("#notice")
    page.fill("#new-seats", "3")
    page.click("#create-table")
    page.wait_for_selector("#felt")
    table = int(page.evaluate("location.hash").split("/")[-1])
    create_table(server, alice.token, {"rulebook": "au-casino", "game": "stud7",
                                       "structure": "fixed", "stakes": "1/2", "seats": 6},
                 "Seven card stud (au)")  # fmt: skip
    house = create_table(server, alice.token, {"rulebook": None, "game": "omaha8", "seats": 6},
                 "Omaha hi-lo (house rules)")  # fmt: skip

    bob = Player(browser, server, "bob")
    carol = Player(browser, server, "carol", phone=True)  # she plays on a phone-sized screen
    dave = Player(browser, server, "dave")  # watches
    wait_for(lambda: dave.page.locator("#tables tbody tr").count() == 3)
    # Each table's structure as its rules say (the book's default when the spec names none).
    for row_table in (table, house):
        structure = server.http("GET", f"/api/tables/{row_table}/rules", dave.token)["structure"]
        cell = dave.page.locator(f"#tables tr[data-table='{row_table}'] td.structure")
        wait_for(lambda c=cell, s=structure: c.inner_text() == s)  # type: ignore[misc]
    dave.page.select_option("#filter-rulebook", "None")  # house rules only
    wait_for(lambda: dave.page.locator("#tables tbody tr").count() == 1)
    assert "house" in dave.page.locator("#tables tbody tr").inner_text()
    dave.page.select_option("#filter-rulebook", "")
    wait_for(lambda: dave.page.locator("#tables tbody tr").count() == 3)
    assert dave.page.locator("#tables-empty").is_hidden()
    dave.page.select_option("#filter-game", "razz")  # no table deals it: the lobby says so
    wait_for(lambda: dave.page.locator("#tables tbody tr").count() == 0)
    assert dave.page.inner_text("#tables-empty") == "No table matches these filters."
    dave.page.select_option("#filter-game", "")
    wait_for(lambda: dave.page.locator("#tables tbody tr").count() == 3)
    assert dave.page.locator("#tables-empty").is_hidden()
    # A phone's lobby fits its width: nothing to scroll sideways.
    assert carol.page.evaluate("document.documentElement.scrollWidth") <= 390
    dave.screenshot("lobby.png")
    dave.page.click(f"#tables tr[data-table='{table}'] a.watch")
    dave.page.wait_for_selector("#felt")
    for person in (bob, carol):
        person.page.click(f"#tables tr[data-table='{table}'] a.join")
        person.page.wait_for_selector("#felt")
    # A fractional buy-in is checked in the page; a refused sit's notice goes at a good sit.
    page.fill("#buy-in", "250.5")
    page.click(".seat[data-seat='1'] button.sit")
    page.locator("#notice.error", has_text="a whole number of chips").wait_for()
    page.fill("#buy-in", "1")
    page.click(".seat[data-seat='1'] button.sit")
    page.locator("#notice.refused", has_text="minimum").wait_for()
    alice.sit(1, 200)
    wait_for(lambda: not page.is_visible("#notice"))
    bob.sit(2, 400)
    carol.sit(3, 600)
    players = [alice, bob, carol]

    # A raise under the minimum: the engine refuses it, and the page shows its words.
    refused: list[str] = []
    looks: list[int] = []

    def spectator_sees_no_hole_card() -> None:
        """Before every move: dave's table shows hole cards face down, or as shown."""
        faces = dave.page.locator("#felt .hole .card:not(.back):not(.shown)").count()
        assert faces == 0, "the spectator's page shows a hole card"
        looks.append(dave.page.locator("#felt .hole .card.back").count())

    def refuse_once(player: Player) -> None:
        spectator_sees_no_hole_card()
        if not refused and player.page.locator("#amount").count():
            least = int(player.page.get_attribute("#amount", "min") or 0)
            most = int(player.page.get_attribute("#amount", "max") or 0)
            # An empty box and an amount over the most are said in the page, with the range.
            player.page.fill("#amount", "")
            player.click("bet_or_raise")
            said = player.page.inner_text("#actions #refusal")
            assert said.startswith("Type a whole number of chips")
            assert f"from {least} to {most}" in said
            player.page.fill("#amount", str(most + 1))
            player.click("bet_or_raise")
            said = player.page.inner_text("#actions #refusal")
            assert said.startswith(f"{most + 1} is more than you may"), said
            player.page.fill("#amount", str(least - 1))
            player.click("bet_or_raise")
            # The server's refusal is said once, beside the buttons, not above the table too.
            beside = player.page.locator("#actions #refusal", has_text="minimum")
            beside.wait_for()
            refused.append(beside.inner_text())
            assert player.page.is_hidden("#notice"), player.page.inner_text("#notice")
            assert "))" not in refused[0], refused[0]
            if player is not carol:  # a desktop: the table, the slider and the refusal in view
                bottom = player.page.locator("#actions #refusal").bounding_box()
                assert bottom and bottom["y"] + bottom["height"] <= 820
            player.screenshot("refused.png", full_page=True)
            assert player.my_turn()  # nothing changed: still this player's turn
            if player.can("fold"):  # preflop, facing the big blind
                key = player.turn_key()
                player.page.keyboard.press("f")  # f folds
                if player.page.locator("#actions button.fold-free").count():
                    # Checking was free: the fold is asked first, and f again confirms it.
                    assert "Checking is free" in player.page.inner_text("#actions")
                    player.page.keyboard.press("f")
                wait_for(lambda: player.turn_key() != key)
            return
        keyboard(player)

    def keyboard(player: Player) -> None:
        """Carol plays with the keys: c checks or calls."""
        if player is carol:
            # On her phone the actions panel stays in view, and her own cards above it.
            hole = carol.page.locator(".seat.you .hole").bounding_box()
            panel = carol.page.locator("#actions.mine").bounding_box()
            assert hole and panel and hole["y"] + hole["height"] <= panel["y"] <= 844
        if player is carol and player.can("check_or_call"):
            player.page.keyboard.press("c")
        else:
            simple(player)

    play(players, lambda: full_hands(alice) >= 1, refuse_once)
    assert refused, "no raise was offered in the first hand"
    assert CLAUSE.search(refused[0]), refused[0]
    assert "minimum" in refused[0]

    # A reload in the middle of a hand: the same seat, the same cards, still to act.
    reloaded: list[list[str]] = []

    def reload_once(player: Player) -> None:
        spectator_sees_no_hole_card()
        if not reloaded and player is bob:
            before = bob.my_cards()
            bob.page.reload()
            bob.page.wait_for_selector(".seat.you[data-seat='2'] .hole .card")
            wait_for(bob.my_turn)
            assert bob.my_cards() == before
            assert all(CARD.match(c) for c in before)
            reloaded.append(before)
        keyboard(player)

    play(players, lambda: full_hands(alice) >= 2, reload_once)
    assert reloaded

    # The third hand: carol, the biggest stack, moves all in; the others call for less.
    def shove(player: Player) -> None:
        spectator_sees_no_hole_card()
        if player is carol and player.can("bet_or_raise"):
            most = player.page.get_attribute("#amount", "max")
            player.page.fill("#amount", str(most))
            player.page.press("#amount", "Enter")  # Enter in the box bets it
            return
        if player is alice and not hasattr(shove, "shot") and player.can("fold"):
            alice.screenshot("holdem.png")  # facing the all-in
            carol.screenshot("phone.png")
            assert len([c for c in alice.my_cards() if CARD.match(c)]) == 2
            shove.shot = True  # type: ignore[attr-defined]
        simple(player)

    play(players, lambda: full_hands(alice) >= 3, shove)
    last = alice.page.locator("#results li.result").first
    assert "Main pot" in last.inner_text() and "Side pot 1" in last.inner_text()
    all_ins = [
        e
        for m in alice.messages()
        if m["type"] == "events"
        for e in m["events"]
        if e["event"] in ("Bet", "Call") and e.get("all_in")
    ]
    assert len(all_ins) >= 2
    # Chips are conserved on every page, the spectator's too (the next hand may be dealt).
    for person in (alice, dave):
        assert person.chips_on_table() == 1200

    assert looks and max(looks) == 6  # three players' backs seen at some move
    # The spectator was sent hole cards only as ??; the players their own.
    sent = hole_cards_sent(dave)
    assert sent and set(sent) == {"??"}
    mine = [c for c in hole_cards_sent(alice) if c != "??"]
    assert len(mine) >= 6 and all(CARD.match(c) for c in mine)
    for person in [*players, dave]:
        assert person.errors == []

    # The hand history: the all-in hand step by step, and its downloads.
    page.goto(f"{server.url}/#/history")
    page.wait_for_selector("#hands tbody tr")
    assert page.locator("#hands tbody tr").count() >= 3
    page.locator("#hands tbody tr a.replay").first.click()
    page.wait_for_selector("#replay-table #felt")
    assert page.locator("#replay-table .seat.you .hole .card").count() == 0  # step 0
    for _ in range(6):
        page.click("#replay-next")
    faces = page.locator("#replay-table .seat.you .hole .card:not(.back)").count()
    assert faces == 2
    page.click("#replay-end")
    assert "Side pot 1" in page.locator("#replay-table #pots").inner_text()
    alice.screenshot("history.png")
    with page.expect_download() as download:
        page.click("#dl-phh")
    text = Path(download.value.path()).read_text()
    assert "variant = " in text and "NT" in text
    with page.expect_download() as download:
        page.click("#dl-pokerstars")
    assert Path(download.value.path()).read_text().startswith("PokerStars Hand #")

    # The rulebook page: every setting with its clause.
    page.goto(f"{server.url}/#/rules/{table}")
    page.wait_for_selector("#settings tbody tr")
    row = page.locator("#settings tr[data-setting='min_raise']")
    assert "rws 3.3" in row.locator("td.clause").inner_text()
    alice.screenshot("rules.png")
    for person in [*players, dave]:
        person.close()


def test_the_page_is_served_from_the_package_with_no_network(server: Server) -> None:
    """Every asset the page loads is under /static, shipped in the package."""
    import urllib.request

    with urllib.request.urlopen(server.url + "/") as answer:
        html = answer.read().decode()
    assert 'src="/static/app.js"' in html and "http" not in html.split("<body>")[0]
    with urllib.request.urlopen(server.url + "/static/app.js") as answer:
        assert b"import" in answer.read()
    rules = json.loads(urllib.request.urlopen(server.url + "/api/rulebooks").read())
    assert {b["name"] for b in rules["rulebooks"]} >= {"rws", "au-casino"}


def test_a_missing_chromium_fails_the_tests_and_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import browser_harness

    monkeypatch.setattr(browser_harness.shutil, "which", lambda name: None)
    monkeypatch.setattr(browser_harness, "DEBIAN_CHROMIUM", Path("/nonexistent/chromium"))
    with pytest.raises(pytest.fail.Exception, match=r"bash tools/chromium\.sh"):
        browser_harness.chromium()


def test_the_form_sets_the_houses_money_options_and_the_rules_page_shows_them(
    server: Server, browser: Any
) -> None:
    """rws 4.1: the house sets the rake (at most 5%) and its cap; the table's rules page shows
    the table's own values beside the book's clauses."""
    erin = Player(browser, server, "erin")
    page = erin.page
    page.select_option("#new-rulebook", "rws")
    page.select_option("#new-game", "holdem")
    page.fill("#new-name", "Raked")
    page.fill("#new-buy-in", "300")
    page.fill("#new-rake", "4%")
    page.fill("#new-rake-cap", "3")
    page.click("#create-table")
    page.wait_for_selector("#felt")
    table = int(page.evaluate("location.hash").split("/")[-1])
    rules = server.http("GET", f"/api/tables/{table}/rules", erin.token)
    assert rules["minimum_buy_in"] == 300
    assert (rules["spec"]["rake"], rules["spec"]["rake_cap"]) == ("4%", 3)
    page.goto(f"{server.url}/#/rules/{table}")
    page.wait_for_selector("#settings tbody tr")
    for setting, shown in [
        ("commission_rate", "4% (this table)"),
        ("commission_cap", "3 (this table)"),
    ]:
        row = page.locator(f"#settings tr[data-setting='{setting}']")
        assert row.locator("td").nth(1).inner_text() == shown
        assert "rws 4.1" in row.locator("td.clause").inner_text()
    erin.close()


def test_a_reconnect_keeps_a_half_filled_new_table_form(server: Server, browser: Any) -> None:
    """The socket drops while the lobby's form is half filled: the page reconnects and reloads
    the list of tables, and the form still holds what was chosen (it used to be drawn afresh,
    so the table was made under the first book in the list)."""
    frank = Player(browser, server, "frank", droppable=True)
    page = frank.page
    frank.welcomed(1)
    page.select_option("#new-rulebook", "qld")
    page.select_option("#new-game", "holdem")
    page.fill("#new-name", "Queensland after a drop")
    frank.drop_socket()
    frank.welcomed(2)
    page.wait_for_selector("#tables[data-loaded]")
    assert page.input_value("#new-rulebook") == "qld"
    assert page.input_value("#new-name") == "Queensland after a drop"
    page.click("#create-table")
    page.wait_for_selector("#felt")
    table = int(page.evaluate("location.hash").split("/")[-1])
    rules = server.http("GET", f"/api/tables/{table}/rules", frank.token)
    assert (rules["spec"]["rulebook"], rules["name"]) == ("qld", "Queensland after a drop")
    frank.close()


def test_a_table_let_go_while_its_database_was_unreadable_is_watched_again_by_the_page(
    server: Server, browser: Any
) -> None:
    """The server lets a table go when it cannot read its database after a failed write, and
    says so (`unavailable`, id null); the page on that table asks to watch it again, and
    shows it again from the state the server sends."""
    ida = Player(browser, server, "ida", droppable=True)
    table = create_table(server, ida.token, {"rulebook": "rws", "game": "holdem"}, "Reloaded")
    ida.open_table(table)
    ida.sit(1, 200)
    watches = sum('"type":"watch"' in frame for frame in ida.sent)
    states = sum('"type":"state"' in frame for frame in ida.frames)
    ida.tell({"type": "error", "id": None, "code": "unavailable",
              "message": f"table {table} is being reloaded: watch it again"})  # fmt: skip
    wait_for(lambda: "being reloaded" in ida.page.inner_text("#notice"))

    def count(frames: list[str], kind: str) -> int:
        ida.page.wait_for_timeout(30)  # lets playwright deliver the frames meanwhile
        return sum(f'"type":"{kind}"' in frame for frame in frames)

    wait_for(lambda: count(ida.sent, "watch") > watches)  # sent again 2 s after the news
    wait_for(lambda: count(ida.frames, "state") > states)
    ida.page.wait_for_selector(".seat.you[data-seat='1']")
    assert ida.errors == []
    ida.close()


def test_the_owner_closes_a_table_the_hand_ends_then_every_seat_is_cashed_out(
    server: Server, browser: Any
) -> None:
    """Only the owner (or a dealer) is offered Close; the table then says it is closing to
    everyone, offers no seat, and after the hand each page goes back to the lobby, the player's
    chips back in the balance."""
    gina = Player(browser, server, "gina")
    hank = Player(browser, server, "hank")
    spec = {"rulebook": "rws", "game": "holdem", "stakes": "1/2", "seats": 3}
    table = create_table(server, gina.token, spec, "Closing soon")
    gina.open_table(table)
    gina.sit(1, 200)
    gina.page.click(".seat[data-seat='2'] button.add-bot")
    hank.open_table(table, watch=True)
    wait_for(lambda: gina.my_turn() or gina.page.locator(".seat.to-act").count() == 1)
    assert hank.page.locator("#close-table").is_hidden()  # not his table
    assert hank.page.locator("button.add-bot").count() == 0  # nor his bots to seat
    assert gina.page.locator("button.add-bot").count() == 1  # seat 3's, hers to offer
    assert hank.page.locator("button.remove-bot").count() == 0  # nor his to remove
    assert gina.page.locator(".seat[data-seat='2'] button.remove-bot").count() == 1
    # A watcher is told whose turn it is.
    wait_for(lambda: hank.page.inner_text("#actions").endswith(" to act"))
    acting = hank.page.inner_text("#actions").removesuffix(" to act")
    assert acting in hank.page.locator(".seat.to-act").inner_text()
    close = gina.page.locator("#close-table")
    assert close.inner_text() == "Close table"
    close.click()  # asked again, on the page (for 5 seconds)
    assert close.inner_text() == "Close it: cash out every seat after this hand"
    assert gina.page.locator("#closing").is_hidden()  # nothing sent yet
    gina.screenshot("close-confirm.png")
    if close.inner_text() == "Close table":  # a slow screenshot: asked again
        close.click()
    close.click()
    for person in (gina, hank):
        banner = person.page.locator("#closing")
        banner.wait_for()
        assert "no more hands after this one" in banner.inner_text()
    assert hank.page.locator("button.sit").count() == 0  # no seat offered while closing
    assert gina.page.locator("#close-table").is_hidden()
    gina.screenshot("closing.png")
    closed = f"Table {table} closed"
    play([gina], lambda: closed in gina.page.inner_text("#notice"))
    wait_for(lambda: closed in hank.page.inner_text("#notice"))
    for person in (gina, hank):
        person.page.wait_for_selector("#tables[data-loaded]")
        assert person.page.locator(f"#tables tr[data-table='{table}']").count() == 0
    balance = server.http("GET", "/api/me", gina.token)["balance"]
    wait_for(lambda: gina.page.inner_text("#me") == f"gina · {balance} chips")
    over = [m for m in gina.messages() if m["type"] == "hand_over" and m["table"] == table]
    assert balance == 10_000 - 200 + over[-1]["stacks"]["1"]  # cashed out with the last stack
    assert over[-1]["hand"] == 1  # the hand in play when the table closed was the last
    assert gina.errors == [] and hank.errors == []
    gina.close()
    hank.close()


def test_cardroom_buy_in_3_the_lobby_lists_the_rights_a_broken_game_left_until_used(
    server: Server, browser: Any
) -> None:
    """A cardroom table the house closes leaves each player the right to sit with the stack
    they had (cardroom buy-in 3): the lobby lists it (after a reload too: the welcome carries
    it), and no longer once it is used."""
    ivy = Player(browser, server, "ivy")
    spec = {"rulebook": "cardroom", "game": "holdem", "structure": "fixed", "stakes": "5/10",
            "seats": 6}  # fmt: skip
    broken = create_table(server, ivy.token, spec, "Breaking")
    ivy.open_table(broken)
    ivy.sit(1, 170)  # alone: nothing is dealt
    ivy.page.click("#close-table")
    ivy.page.click("#close-table")  # and again, to confirm
    wait_for(lambda: f"Table {broken} closed" in ivy.page.inner_text("#notice"))
    rights = ivy.page.locator("#transfers li")
    for _ in range(2):
        ivy.page.wait_for_selector("#tables[data-loaded]")
        wait_for(lambda: rights.count() == 1)
        text = rights.inner_text()
        assert f"Table {broken} closed" in text and "170 chips" in text
        assert "cardroom holdem fixed 5/10" in text and "(cardroom buy-in 3)" in text
        ivy.screenshot("transfers.png")
        ivy.page.reload()
    other = create_table(server, ivy.token, spec, "Moved to")
    ivy.open_table(other)
    ivy.sit(1, 170)
    ivy.page.goto(f"{server.url}/#/lobby")
    ivy.page.wait_for_selector("#tables[data-loaded]")
    assert rights.count() == 0 and ivy.page.locator("#transfers").is_hidden()
    assert ivy.errors == []
    ivy.close()
