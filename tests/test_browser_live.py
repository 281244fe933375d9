"""The live table page in the browser (Debian's Chromium), a dealer's tablet at 1024x768 beside
a table dealt with real cards: a hold'em hand under rws and one under qld from the first blind
to the payouts (side pots as they form, who shows first, the chips to push); a stud hand opened
by the lowest up card (au 12.2(a)); a misdeal (au 19.1, the supervisor's choice) and an exposed
card (league 10) ruled through the page's dialog with the clause shown and the hand going on;
an undo; the hand's PHH and event log downloaded."""

from __future__ import annotations

import json
import sqlite3
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from browser_harness import CLAUSE, Player, Server, wait_for


@pytest.fixture(scope="module")
def dealer(server: Server, browser: Any) -> Iterator[Player]:
    person = Player(browser, server, "ldealer")
    with sqlite3.connect(server.db) as db:
        db.execute("UPDATE accounts SET role = 'dealer' WHERE name = 'ldealer'")
    person.page.set_viewport_size({"width": 1024, "height": 768})
    yield person
    assert person.errors == []
    person.close()


def open_live(
    player: Player, book: str, game: str, seats: str, stakes: str, structure: str = "",
    options: str = "",
) -> int:  # fmt: skip
    page = player.page
    page.goto(f"{player.server.url}/#/live")
    page.wait_for_selector("#l-create")
    page.select_option("#l-book", book)
    page.select_option("#l-game", game)
    page.select_option("#l-structure", structure)
    page.fill("#l-stakes", stakes)
    page.fill("#l-options", options)
    page.fill("#l-seats", seats)
    page.click("#l-open")
    page.wait_for_selector("#live")
    return int(page.url.rsplit("/", 1)[1])


def tap(page: Any, selector: str) -> None:
    """Tap and wait for the table the server answers with."""
    version = page.get_attribute("#live", "data-version")
    page.click(selector)
    wait_for(
        lambda: (
            page.get_attribute("#live", "data-version") != version
            or page.get_attribute("#notice", "class") == "refused"
        )
    )


def prompt(page: Any) -> str:
    return str(page.inner_text("#l-prompt"))


def fill_and_tap(page: Any, field: str, text: str, button: str) -> None:
    page.fill(field, text)
    tap(page, button)


def test_a_live_holdem_hand_under_rws_with_side_pots_to_the_payouts(
    dealer: Player, server: Server
) -> None:
    page = dealer.page
    # rws 3.1: the first button is on the dealer's immediate left, seat 1 (di).
    number = open_live(dealer, "rws", "holdem", "di 150\nann 1000\nbob 300\ncy 1000", "5/10")
    assert "rws · holdem · no-limit · 5/10 · hand 1" in page.inner_text("#l-spec")
    assert prompt(page) == "the dealer to hole p1 2 cards"
    assert page.text_content("#l-button-seat") == "button: seat 1 (di)"
    assert page.inner_text("#l-button-clause") == "rws 3.1"
    # The blinds are posted by the book: p1 small, p2 big, left of the button.
    assert page.inner_text(".l-seat[data-p='0'] .l-bet") == "bet 5"
    assert page.inner_text(".l-seat[data-p='1'] .l-bet") == "bet 10"
    assert "button" in str(page.text_content(".l-seat[data-p='3'] .l-seat-head"))
    tap(page, "#l-deal")
    assert page.inner_text("#l-to-call") == "cy: 10 to call"
    assert page.inner_text("#l-range") == "raise to 20 to 1000"
    # Presets: half the pot and the pot after the call (10 + 25), within the book's range.
    assert page.inner_text("[data-preset='pot']") == "pot 35"
    assert page.inner_text("[data-preset='half_pot']") == "½ pot 22"
    page.fill("#l-amount", "")
    page.click(".l-key:text('4')")
    page.click(".l-key:text('0')")
    tap(page, "[data-act='bet']")  # cy raises to 40 from the keypad
    assert page.inner_text("#l-to-call") == "di: 40 to call"
    tap(page, "[data-act='all-in']")  # di: 150
    tap(page, "[data-act='fold']")  # ann
    tap(page, "[data-act='all-in']")  # bob: 300
    tap(page, "[data-act='call']")  # cy
    # The pots as they formed: di's all-in caps the main pot, bob's the side pot.
    pots = page.locator("#l-pots li").all_inner_texts()
    assert pots == ["Main pot 455 · bob, cy, di", "Side pot 1 300 · bob, cy"]
    assert prompt(page) == "p2 shows first (or mucks)"
    assert page.locator(".l-seat.to-show .l-name").inner_text() == "bob"
    dealer.screenshot("live-table.png")
    fill_and_tap(page, "#l-show-cards", "As Ac", "#l-show")
    fill_and_tap(page, "#l-show-cards", "Kh Ks", "#l-show")
    fill_and_tap(page, "#l-show-cards", "2h 2d", "#l-show")
    tap(page, "#l-deal")  # the burn
    fill_and_tap(page, "#l-board-cards", "Ah Kd 2c", "#l-board")
    tap(page, "#l-deal")
    fill_and_tap(page, "#l-board-cards", "7s", "#l-board")
    tap(page, "#l-deal")
    fill_and_tap(page, "#l-board-cards", "9h", "#l-board")
    assert prompt(page).startswith("pot ready: push")
    tap(page, "#l-push")
    results = page.locator("#l-results li").all_inner_texts()
    assert "Side pot 1 300 to bob (Three of a Kind, Aces)" in results
    assert "Main pot 455 to bob (Three of a Kind, Aces)" in results
    assert "bob: 755 chips to push" in results
    stacks = [int(t) for t in page.locator(".l-stack").all_inner_texts()]
    assert stacks == [995, 755, 700, 0]
    # The hand's records: PHH (the cards the dealer named) and the event log.
    phh = download(server, dealer.token, f"/api/live/{number}/hands/1/phh")
    assert 'players = ["ann", "bob", "cy", "di"]' in phh
    assert "finishing_stacks = [995, 755, 700, 0]" in phh
    assert '"p2 sm AsAc"' in phh
    log = json.loads(download(server, dealer.token, f"/api/live/{number}/hands/1/log"))
    assert log["book"] == "rws" and log["stacks"] == [995, 755, 700, 0]
    assert [e["input"] for e in log["inputs"]][:2] == ["deal", "p3 raise 40"]
    # The next hand: the button moves on to ann (rws 1, 3.7), di (no chips) is not dealt in.
    page.keyboard.press("n")
    wait_for(lambda: page.get_attribute("#live", "data-hand") == "2")
    assert page.locator(".l-name").all_inner_texts() == ["bob", "cy", "ann"]
    assert page.text_content("#l-button-seat") == "button: seat 2 (ann)"
    assert page.locator("#l-hands li").count() == 1


def download(server: Server, token: str, path: str) -> str:
    headers = {"authorization": f"Bearer {token}"}
    request = urllib.request.Request(server.url + path, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return str(answer.read().decode())


def play_out(page: Any, boards: list[str], shows: dict[str, str]) -> None:
    """Everyone checks or calls; the dealer deals, turns the board, shows, pushes."""
    boards = list(boards)
    for _ in range(80):
        if page.get_attribute("#live", "data-over") == "1":
            return
        if page.locator("[data-act='check']").count():
            tap(page, "[data-act='check']")
        elif page.locator("[data-act='call']").count():
            tap(page, "[data-act='call']")
        elif page.locator("#l-deal").count():
            tap(page, "#l-deal")
        elif page.locator("#l-board").count():
            fill_and_tap(page, "#l-board-cards", boards.pop(0), "#l-board")
        elif page.locator("#l-show").count():
            name = page.locator(".l-seat.to-show .l-name").inner_text()
            fill_and_tap(page, "#l-show-cards", shows[name], "#l-show")
        elif page.locator("#l-push").count():
            tap(page, "#l-push")
        else:
            raise AssertionError(f"nothing to tap: {prompt(page)}")
    raise AssertionError("the hand did not end")


def test_a_live_holdem_hand_under_qld_from_the_first_blind_to_the_payouts(
    dealer: Player,
) -> None:
    page = dealer.page
    open_live(dealer, "qld", "holdem", "ann 500\nbob 500\ncy 500", "5/10")
    assert page.inner_text(".l-seat[data-p='1'] .l-bet") == "bet 10"
    tap(page, "#l-deal")
    assert page.inner_text("#l-to-call") == "cy: 10 to call"
    play_out(page, ["Qs Jd 4c", "8h", "3s"], {"ann": "Ac Kc", "bob": "Td 9d", "cy": "5h 5s"})
    results = page.locator("#l-results li").all_inner_texts()
    assert any(r.startswith("Main pot 30 to bob (Straight") for r in results), results
    assert sum(int(t) for t in page.locator(".l-stack").all_inner_texts()) == 1500


def test_a_pot_awarded_without_cards_by_mucking_the_losing_hands(dealer: Player) -> None:
    page = dealer.page
    open_live(dealer, "cardroom", "holdem", "ann 500\nbob 500", "5/10", "no-limit")
    tap(page, "#l-deal")
    play_out_until_show = ["Qs Jd 4c", "8h", "3s"]
    for _ in range(40):
        if page.locator("#l-show").count():
            break
        if page.locator("[data-act='check']").count():
            tap(page, "[data-act='check']")
        elif page.locator("[data-act='call']").count():
            tap(page, "[data-act='call']")
        elif page.locator("#l-deal").count():
            tap(page, "#l-deal")
        else:
            fill_and_tap(page, "#l-board-cards", play_out_until_show.pop(0), "#l-board")
    first = page.locator(".l-seat.to-show .l-name").inner_text()
    loser = "bob" if first == "ann" else "ann"
    tap(page, f"button:text('Muck {loser}')")
    tap(page, "#l-push")
    assert page.locator("#l-results li").all_inner_texts()[0] == f"Main pot 20 to {first}"


def test_a_live_stud_hand_opened_by_the_lowest_up_card(dealer: Player) -> None:
    page = dealer.page
    open_live(dealer, "au-casino", "stud7", "ann 100\nbob 100\ncy 100", "2", "fixed", "ante=1")
    assert [int(t) for t in page.locator(".l-stack").all_inner_texts()] == [99, 99, 99]  # antes
    for up in ("9c", "2d", "Kh"):
        assert page.locator("#l-up-cards").count() == 1, prompt(page)
        fill_and_tap(page, "#l-up-cards", up, "#l-up")
    # au 12.2(a): the lowest up card, bob's 2d, must open, for a full bet: no fold, no check.
    assert prompt(page) == "p2 to act: bet 2"
    assert page.inner_text("#l-to-call") == "bob: nothing to call"
    assert page.locator("[data-act='fold'], [data-act='check']").count() == 0
    tap(page, "[data-act='bet']")
    assert page.inner_text(".l-seat[data-p='1'] .l-bet") == "bet 2"
    assert prompt(page).startswith("p3 to act: call 2")
    up_cards = page.locator(".l-seat[data-p='1'] .card.up").first.get_attribute("data-card")
    assert up_cards == "2d"


def test_a_live_draw_hand_counts_the_discards_and_the_replacements(dealer: Player) -> None:
    page = dealer.page
    open_live(dealer, "cardroom", "draw", "ann 500\nbob 500\ncy 500", "5/10", "fixed")
    # cardroom ties 2: a card drawn for the button, shown with the clause.
    assert page.inner_text("#l-button-clause") == "cardroom ties 2"
    drawn = page.inner_text("#l-draw")
    assert "drawn for the button: ann " in drawn and "bob " in drawn and "cy " in drawn
    first, second = page.locator(".l-name").all_inner_texts()[:2]
    assert page.inner_text("#l-posts") == f"Posted: {first}: blind 5 · {second}: blind 10"
    tap(page, "#l-deal")
    for _ in range(3):
        tap(page, "[data-act='check']" if page.locator("[data-act='check']").count()
            else "[data-act='call']")  # fmt: skip
    assert prompt(page) == "p1 to draw"
    tap(page, "[data-draw='2']")
    assert prompt(page) == "the dealer to replace p1 2 cards"
    assert page.inner_text("#l-deal") == f"Dealt: 2 to {first} (d)"
    tap(page, "#l-deal")
    assert prompt(page) == "p2 to draw"
    tap(page, "[data-draw='0']")
    assert "p2 (bob) draws 0" in page.inner_text("#l-record")


def report(page: Any, verb: str, answers: dict[str, str]) -> None:
    page.keyboard.press("i")
    page.wait_for_selector("#l-dialog")
    page.click(f"[data-report='{verb}']")
    page.wait_for_selector("#l-ask")
    for name, value in answers.items():
        field = page.locator(f"#l-ask [data-field='{name}']")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    tap(page, "#l-report-send")


def test_a_misdeal_an_exposed_card_and_an_undo_through_the_page(dealer: Player) -> None:
    page = dealer.page
    # au-casino: one player has acted; the misdeal is the supervisor's to confirm (au 19.1).
    open_live(dealer, "au-casino", "holdem", "ann 1000\nbob 1000\ncy 1000\ndi 1000", "5/10")
    tap(page, "#l-deal")
    tap(page, "[data-act='fold']")  # cy
    report(page, "misdeal", {})
    page.wait_for_selector("#l-ruling")
    assert page.inner_text("#l-ruling .l-clause") == "au 19.1"
    assert "misdeal: every chip goes back" in page.inner_text("#l-ruling .l-outcome")
    dealer.screenshot("live-ruling.png")
    tap(page, "#l-ruling [data-choose='confirm']")
    assert page.inner_text("#l-ruling .l-clause") == "au 19.1"
    page.click("#l-ruling-close")
    page.wait_for_selector("#l-void")
    assert [int(t) for t in page.locator(".l-stack").all_inner_texts()] == [1000] * 4
    tap(page, "#l-next")
    # A void hand deals again with the same button.
    assert page.locator(".l-name").all_inner_texts() == ["ann", "bob", "cy", "di"]
    assert page.get_attribute("#live", "data-hand") == "2"

    # league: the button's first card exposed in the deal is burned and replaced (league 10).
    open_live(dealer, "league", "holdem", "ann 1000\nbob 1000\ncy 1000\ndi 1000", "5/10")
    tap(page, "#l-deal")
    report(page, "exposed", {"player": "3", "card": "Jc"})
    page.wait_for_selector("#l-ruling")
    clause = page.inner_text("#l-ruling .l-clause")
    assert clause == "league 10" and CLAUSE.fullmatch(clause)
    assert "Jc is shown and burned" in page.inner_text("#l-ruling .l-outcome")
    assert page.inner_text("#l-ruling-now") == "Now: p3 to act: call 10 · raise 20..1000 · fold"
    page.click("#l-ruling-close")
    assert "league 10" in page.inner_text("#l-record")
    # The hand goes on; a mistaken call is undone, and the record says so.
    tap(page, "[data-act='call']")
    assert prompt(page).startswith("p4 to act")
    page.keyboard.press("u")
    wait_for(lambda: prompt(page).startswith("p3 to act"))
    undone = page.locator("#l-record li.undone").all_inner_texts()
    third = page.inner_text(".l-seat[data-p='2'] .l-name")  # league 2: the button drawn for
    assert len(undone) == 1 and undone[0].startswith(f"p3 ({third}) call")
    assert f"undone: p3 ({third}) call" in page.inner_text("#l-record")
    tap(page, "[data-act='fold']")
    assert prompt(page).startswith("p4 to act")
    # A refusal names the rule and changes nothing.
    page.fill("#l-amount", "15")
    tap(page, "[data-act='bet']")
    said = page.inner_text("#notice")
    assert "league" in said and "legal:" in said, said
    assert prompt(page).startswith("p4 to act")


def fold_out(page: Any, then_next: bool = True) -> None:
    """Deal, everyone folds to the big blind, the pot pushed; the next hand."""
    for _ in range(20):
        if page.get_attribute("#live", "data-over") == "1":
            break
        if page.locator("#l-deal").count():
            tap(page, "#l-deal")
        else:
            tap(
                page,
                "[data-act='fold']" if page.locator("[data-act='fold']").count() else "#l-push",
            )
    if then_next:
        tap(page, "#l-next")


def seats_dialog(page: Any, selector: str) -> None:
    """A seat's change from the Seats dialog."""
    page.keyboard.press("s")
    page.wait_for_selector("#l-seats-dialog")
    tap(page, selector)
    page.click("#l-seats-close")


@pytest.mark.parametrize("book", ["au-casino", "rws"])
def test_missed_blinds_and_the_dead_button_by_the_book_through_the_page(
    dealer: Player, book: str
) -> None:
    """cy sits out while the blinds pass and comes back; ann, on the button's left, leaves. au:
    cy posts the big blind live and the small one dead (the house's rule: no book rules
    missed blinds), and with ann gone the big blind moves one seat and the button is dead on
    her empty seat (au 1.1 'Dead Button'). rws: the big blind reaches cy at once, and the
    button moves to the next player, never dead (rws 1, 3.7)."""
    page = dealer.page
    seats = "ann 1000\nbob 1000\ncy 1000\ndi 1000\ned 1000"
    open_live(dealer, book, "holdem", seats, "5/10")
    first = {
        "au-casino": ("button: seat 5 (ed)", "au 11.1(b)"),
        "rws": ("button: seat 1 (ann)", "rws 3.1"),
    }
    assert (page.text_content("#l-button-seat"), page.inner_text("#l-button-clause")) == first[book]
    fold_out(page, then_next=False)
    seats_dialog(page, "[data-away='3']")
    assert "cy sits out (seat 3)" in page.inner_text("#l-record")
    for _ in range(3):
        tap(page, "#l-next")
        assert "cy" not in page.locator(".l-name").all_inner_texts()
        fold_out(page, then_next=False)
    owes = {"au-casino": "owes small and big blind", "rws": "owes small blind"}[book]
    assert f"s3 cy (sits out, {owes})" in page.inner_text("#l-out")
    seats_dialog(page, "[data-back='3']")
    tap(page, "#l-next")
    posts = page.inner_text("#l-posts")
    if book == "au-casino":
        assert "cy: blind 10 (missed big blind, posted live)" in posts
        assert "cy: dead blind 5 (missed small blind, posted dead)" in posts
        dealer.screenshot("live-missed-blinds.png")
    else:
        assert "cy: blind 10" in posts and "missed" not in posts
    assert "cy" in page.locator(".l-name").all_inner_texts()
    button = int(page.text_content("#l-button-seat").split("seat ")[1].split()[0])
    left = button % 5 + 1  # the player on the button's left (this hand's small blind)
    name = ["ann", "bob", "cy", "di", "ed"][left - 1]
    tap(page, "#l-deal")  # chips may not leave during the hand: refused with the rule
    page.keyboard.press("s")
    page.wait_for_selector("#l-seats-dialog")
    tap(page, f"[data-leave='{left}']")
    rule = {"au-casino": "au 7.5", "rws": "rws 3.4"}[book]
    assert rule in page.inner_text("#notice")
    page.click("#l-seats-close")
    fold_out(page, then_next=False)  # once the hand is over, the seat may leave
    if book == "au-casino":
        page.keyboard.press("s")
        page.wait_for_selector("#l-seats-dialog")
        dealer.screenshot("live-seats.png")
        page.click("#l-seats-close")
    seats_dialog(page, f"[data-leave='{left}']")
    assert f"{name} leaves seat {left}" in page.inner_text("#l-record")
    tap(page, "#l-next")
    placed = page.text_content("#l-button-seat")
    if book == "au-casino":
        assert placed == f"dead button: seat {left} (empty)"
        assert page.inner_text("#l-button-clause") == "au 1.1 dead-button"
        dealer.screenshot("live-dead-button.png")
    else:
        assert (
            placed == f"button: seat {left % 5 + 1} ({['ann', 'bob', 'cy', 'di', 'ed'][left % 5]})"
        )
        assert page.inner_text("#l-button-clause") == "rws 1 dealer-button, 3.7"
    assert name not in page.locator(".l-name").all_inner_texts()
    # A newcomer sits down in the empty seat with chips, between hands, and waits for the big
    # blind (the house's rule).
    fold_out(page, then_next=False)
    page.keyboard.press("s")
    page.wait_for_selector("#l-seats-dialog")
    page.fill(f".l-sit-name[data-seat='{left}']", "fay")
    page.fill(f".l-sit-chips[data-seat='{left}']", "800")
    tap(page, f"[data-sit='{left}']")
    page.click("#l-seats-close")
    assert "fay sits in seat" in page.inner_text("#l-record")
    tap(page, "#l-next")
    dealt = "fay" in page.locator(".l-name").all_inner_texts()
    assert dealt or f"s{left} fay (waits)" in page.inner_text("#l-out")


def test_a_live_table_survives_a_server_restart(tmp_path: Any, browser: Any) -> None:
    """Every step is stored before it is answered: after a restart the table is made again
    from its journal, the page shows it as it was, and the hand goes on."""
    import subprocess
    import sys

    first = Server(tmp_path / "room")
    made = first.http("POST", "/api/register", "", {"name": "rdealer", "password": "pw-dealer-1"})
    with sqlite3.connect(first.db) as db:
        db.execute("UPDATE accounts SET role = 'dealer' WHERE name = 'rdealer'")
    token = str(made["token"])
    seats = [{"name": n, "chips": 1000} for n in ("ann", "bob", "cy")]
    opening = {"book": "qld", "game": "holdem", "stakes": "5/10", "seats": seats}
    view = first.http("POST", "/api/live", token, opening)
    number = int(view["live"])
    for body in ({"kind": "deal"}, {"kind": "action", "player": 2, "action": "call"}):
        first.http("POST", f"/api/live/{number}/step", token, body)
    before = first.http("GET", f"/api/live/{number}", token)
    first.process.terminate()
    first.process.wait(timeout=20)
    command = [
        sys.executable, "-c", "from croupier.cli import app; app()", "serve",
        "--db", str(first.db), "--port", str(first.port), "--no-demo",
    ]  # fmt: skip
    log = (tmp_path / "second.log").open("wb")
    second = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: _answers(first.url), 60)
        after = first.http("GET", f"/api/live/{number}", token)
        for view in (before, after):
            for entry in view["record"]:
                entry.pop("at")
        assert after == before
        assert after["prompt"].startswith("p1 to act")
        listed = first.http("GET", "/api/live", token)["live"]
        assert [row["live"] for row in listed] == [number]
        done = first.http("POST", f"/api/live/{number}/step", token,
                          {"kind": "action", "player": 0, "action": "call"})  # fmt: skip
        assert done["done"]["input"] == "p1 call"
        assert done["table"]["prompt"] != after["prompt"]  # the hand goes on
    finally:
        second.terminate()
        second.wait(timeout=20)
        log.close()
        first.log.close()


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/api/health", timeout=1):
            return True
    except OSError:
        return False
