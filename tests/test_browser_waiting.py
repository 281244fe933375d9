"""The waiting list on the browser table, in Debian's Chromium: a full heads-up table's next
seat goes by the list (au 11.1(a), qld s16). A third player joins the list from the page, a
seat comes free when a player leaves after the hand, it is held for her (everyone sees whose
it is) and she takes it with her buy-in; a seated player asks for a seat change and then
leaves the list. The list is public: the players and whoever watches see it alike."""

from __future__ import annotations

from typing import Any

from browser_harness import Player, Server, create_table, play, wait_for


def entries(player: Player) -> list[str]:
    """The waiting list as the page shows it, one line an entry."""
    # One read of every line at once: a redraw between a count and a line would lose it.
    return list(player.page.locator("#waiting-list li").all_inner_texts())


def test_a_full_tables_waiting_list_holds_the_next_seat_and_takes_a_seat_change(
    server: Server, browser: Any
) -> None:
    alice, bob, carol = (Player(browser, server, name) for name in ("alice", "bob", "carol"))
    spec = {"rulebook": "rws", "game": "holdem", "stakes": "1/2", "seats": 2}
    table = create_table(server, alice.token, spec, "Heads-up with a list")
    alice.open_table(table)
    alice.sit(1, 200)
    bob.open_table(table)
    bob.sit(2, 200)
    # Both seats taken: carol is offered no seat, only the list (nobody is on it yet).
    carol.open_table(table)
    wait_for(lambda: carol.page.locator(".seat:not(.empty)").count() == 2)
    assert carol.page.locator("button.sit").count() == 0
    assert carol.page.locator("#waiting .nobody").inner_text() == "Nobody waits."
    join = carol.page.locator("#waiting button#wait")
    assert join.inner_text() == "Join the waiting list"
    join.click()
    wait_for(lambda: len(entries(carol)) == 1)
    mine = entries(carol)[0]
    assert mine.startswith("carol you (waiting to join, since "), mine
    # Under its priority group (rws is silent: au 11.1(a)'s order, seated players first).
    group = carol.page.locator("#waiting-list .wait-group")
    assert group.locator("h3").inner_text() == "People joining (au 11.1(a))"
    assert carol.page.locator("#waiting button#unwait").inner_text() == "Leave the waiting list"
    assert carol.page.locator("#waiting button#wait").count() == 0
    # Public, as a card room's board: the seated players see her, unmarked.
    seen = mine.replace(" you", "", 1)
    for person in (alice, bob):
        wait_for(lambda p=person: entries(p) == [seen])  # type: ignore[misc]
    carol.screenshot("waiting-list.png")
    # Carol goes to the lobby: it says how many wait, and that she is one of them.
    carol.page.goto(f"{server.url}/#/lobby")
    carol.page.wait_for_selector("#tables[data-loaded]")
    row = carol.page.locator(f"#tables tr[data-table='{table}']")
    assert row.locator(".seats").inner_text() == "2/2 · 1 waiting"
    assert row.locator(".tag.waits").inner_text() == "on the waiting list"

    # Bob leaves when the hand ends: his seat is held for carol, and for nobody else to take.
    # She is told in the lobby, where she no longer watches the table.
    bob.page.click("#leave")
    play([alice, bob], lambda: bob.page.locator(".seat.you").count() == 0)
    row.locator(".tag.held").wait_for()
    assert row.locator(".tag.held").inner_text() == "seat 2 held for you"
    wait_for(
        lambda: "Seat 2 at Heads-up with a list is held for you" in carol.page.inner_text("#notice")
    )
    carol.screenshot("waiting-lobby-offer.png")
    carol.open_table(table)
    held = carol.page.locator(".seat.held.mine[data-seat='2']")
    held.wait_for()
    assert "held for you until" in held.inner_text()
    wait_for(lambda: "Seat 2 is held for you until" in carol.page.inner_text("#actions"))
    assert "sit down to take it" in carol.page.inner_text("#actions")
    [line] = entries(carol)
    assert line.startswith("carol you: seat 2 held until "), line
    for person in (alice, bob):
        theirs = person.page.locator(".seat.held.theirs[data-seat='2']")
        theirs.wait_for()
        assert "held for carol" in theirs.inner_text()
    assert bob.page.locator("button.sit").count() == 0  # not his to take
    carol.screenshot("waiting-held.png")
    carol.sit(2, 200)  # the held seat's button, with the buy-in above: the page's sit
    for person in (alice, bob, carol):
        wait_for(lambda p=person: entries(p) == [])  # type: ignore[misc]
    assert carol.page.locator(".seat.held").count() == 0
    # Full again: bob, watching, may join the list; carol, seated, may ask to change seats.
    assert bob.page.locator("#waiting button#wait").inner_text() == "Join the waiting list"
    assert "Nobody waits." in carol.page.inner_text("#waiting")

    # A seated player asks for a seat change: the list says from which seat; then she leaves it.
    ask = alice.page.locator("#waiting button#wait")
    assert ask.inner_text() == "Ask for a seat change"
    ask.click()
    asked = "alice (seat 1, asks to change seats)"
    wait_for(lambda: entries(alice) == [asked.replace("alice", "alice you")])
    heading = alice.page.locator("#waiting-list .wait-group h3").inner_text()
    assert heading == "Seated players (au 11.1(a))"
    for person in (bob, carol):
        wait_for(lambda p=person: entries(p) == [asked])  # type: ignore[misc]
    alice.screenshot("waiting-seat-change.png")
    alice.page.click("#waiting button#unwait")
    for person in (alice, bob, carol):
        wait_for(lambda p=person: entries(p) == [])  # type: ignore[misc]
    assert alice.page.locator("#waiting button#wait").inner_text() == "Ask for a seat change"
    for person in (alice, bob, carol):
        assert person.errors == []
        person.close()


def test_a_seat_change_won_on_the_list_moves_the_player_on_the_page(
    server: Server, browser: Any
) -> None:
    """A seat comes free at a full table: the player who asked to change seats is moved there
    between hands (au 11.1(a): the seated players first), and her page follows her to it."""
    dora, eli, fay = (Player(browser, server, name) for name in ("dora", "eli", "fay"))
    spec = {"rulebook": "au-casino", "game": "holdem", "stakes": "1/2", "seats": 3}
    table = create_table(server, dora.token, spec, "Three, then a move")
    buy_in = server.http("GET", f"/api/tables/{table}/rules", dora.token)["minimum_buy_in"]
    for seat, person in enumerate((dora, eli, fay), start=1):
        person.open_table(table)
        person.sit(seat, buy_in)
    dora.page.click("#waiting button#wait")
    wait_for(lambda: entries(eli) == ["dora (seat 1, asks to change seats)"])
    fay.page.click("#leave")
    players = [dora, eli, fay]
    play(players, lambda: dora.page.locator(".seat.you[data-seat='3']").count() == 1)
    wait_for(lambda: entries(dora) == [] and entries(eli) == [])
    eli.page.locator(".seat[data-seat='3'] .name", has_text="dora").wait_for()
    # Still seated on her page: her seat's buttons, no buy-in, a seat change to ask again.
    assert dora.page.locator("#leave").is_visible()
    assert dora.page.locator("#buy-in-box").is_hidden()
    assert dora.page.inner_text("#waiting button#wait") == "Ask for a seat change"
    dora.screenshot("waiting-moved.png")
    # A free seat is a seat change away: "Move here" (when the hand ends, or at once).
    assert eli.page.locator(".seat[data-seat='1'] button.move").count() == 1
    dora.page.click(".seat[data-seat='1'] button.move")
    play(players[:2], lambda: dora.page.locator(".seat.you[data-seat='1']").count() == 1)
    wait_for(lambda: entries(eli) == [])
    # The lobby still knows where she sits.
    dora.page.goto(f"{server.url}/#/lobby")
    dora.page.wait_for_selector("#tables[data-loaded]")
    assert dora.page.locator(f"#tables tr[data-table='{table}'] .tag.mine").count() == 1
    for person in players:
        assert person.errors == []
        person.close()


def test_the_owner_seats_and_removes_a_bot_from_the_page(server: Server, browser: Any) -> None:
    """The owner's "+ bot" seats a bot; its remove button takes it off, with its chips."""
    ivy = Player(browser, server, "ivy")
    spec = {"rulebook": "rws", "game": "holdem", "stakes": "1/2", "seats": 3}
    table = create_table(server, ivy.token, spec, "Bots come and go")
    ivy.open_table(table)
    ivy.page.click(".seat[data-seat='2'] button.add-bot")  # alone, it is dealt nothing
    ivy.page.locator(".seat[data-seat='2'] .tag", has_text="bot").wait_for()
    ivy.page.click(".seat[data-seat='2'] button.remove-bot")
    ivy.page.locator(".seat.empty[data-seat='2']").wait_for()
    seats = server.http("GET", f"/api/tables/{table}", ivy.token)["seats"]
    assert seats == []
    assert ivy.errors == []
    ivy.close()
