"""The table as a poker player expects it (issue 44), in Debian's Chromium: choices made in
advance while others act (and cleared when the bet changes), no red Fold when checking is free,
the last round's BET/CALL gone at a new round, the log's first line and the dealer button in
view, a leaver's name kept on the hand they played, out of chips said with Top up and Leave,
"no qualifying low" in hi-lo, Watch and Join doing different things, and a phone's bets off
the pot."""

from __future__ import annotations

import json
import time
from typing import Any

from browser_harness import Player, Server, create_table, play, simple, wait_for


def acts_sent(player: Player) -> list[str]:
    """The actions the page sent, in order."""
    found = []
    for frame in player.sent:
        message = json.loads(frame)
        if message.get("type") == "act":
            found.append(str(message["action"]))
    return found


def to_act(players: list[Player]) -> Player:
    wait_for(lambda: any(p.my_turn() for p in players), 20)
    return next(p for p in players if p.my_turn())


def seat_table(server: Server, players: list[Player], spec: dict[str, object], name: str) -> int:
    table = create_table(server, players[0].token, spec, name)
    for seat, player in enumerate(players, start=1):
        player.open_table(table)
        player.sit(seat, 200)
    return table


def test_choices_in_advance_the_free_check_the_rounds_labels_and_what_stays_in_view(
    server: Server, browser: Any
) -> None:
    players = [Player(browser, server, name) for name in ("ann", "ben", "cat")]
    seat_table(
        server,
        players,
        {"rulebook": "rws", "game": "holdem", "stakes": "1/2", "seats": 3},
        "In advance",
    )

    # Three-handed, the button acts first preflop; the small blind faces 1 more, the big blind
    # nothing: each is offered its own choices while it waits.
    # The first hand may be dealt before the third sits down: played out, then all three.
    def all_dealt() -> bool:
        return all(p.page.locator(".seat.you .hole .card").count() == 2 for p in players)

    def preflop_three_handed() -> tuple[Player, Player, Player] | None:
        """The opener, the small blind (a chip to call) and the big blind (free to check),
        when the hand on screen is that; else None."""
        opener = to_act(players)
        waiting = [p for p in players if p is not opener]
        for p in waiting:
            p.page.wait_for_selector("#pre-actions", timeout=5000)
        owe = [p for p in waiting if p.page.locator("#pre-actions [data-pre=call]").count()]
        free = [p for p in waiting if p.page.locator("#pre-actions [data-pre=check]").count()]
        if len(owe) == 1 and len(free) == 1 and "Call 1" in owe[0].page.inner_text("#pre-actions"):
            return opener, owe[0], free[0]
        return None

    deadline = time.time() + 90
    while True:  # a newcomer waits for the big blind: hands go by until all three are dealt
        play(players, all_dealt)
        found = preflop_three_handed()
        if found is not None:
            break
        assert time.time() < deadline, "no three-handed hand began in time"
        to_act(players).act(simple)
    opener, small, big = found
    assert "Call 1" in small.page.inner_text("#pre-actions")
    assert "Check/Fold" in big.page.inner_text("#pre-actions")
    assert not opener.page.locator("#pre-actions").count()  # the one to act has the buttons

    # The small blind ticks "Call 1"; the opener raises: the bet changed, so the choice is
    # cleared, and the small blind's turn waits for a decision of its own.
    small.page.check("#pre-actions [data-pre=call]")
    sent_before = len(acts_sent(small))
    opener.act(lambda p: p.click("bet_or_raise"))  # the box holds the least raise
    wait_for(small.my_turn)
    assert not small.page.locator("#pre-played").count()
    assert len(acts_sent(small)) == sent_before

    # The big blind ticks "Call any": when the small blind has called, it is played at once,
    # without a click.
    big.page.wait_for_selector("#pre-actions [data-pre=call_any]")
    big.page.check("#pre-actions [data-pre=call_any]")
    # The table talks meanwhile: the screenshot shows the choice ticked and the chat.
    opener.page.fill("#chat-text", "nice raise")
    opener.page.press("#chat-text", "Enter")
    big.page.locator("#chat-log li", has_text="nice raise").wait_for()
    big.screenshot("preaction.png")
    calls = acts_sent(big).count("check_or_call")  # the first hand's, if any
    small.act(lambda p: p.click("check_or_call"))
    wait_for(lambda: acts_sent(big).count("check_or_call") == calls + 1)

    # The flop: last round's CALL and BLIND are gone from the seats; the first to act may
    # check, so its Fold is not the red one, and a click on it only asks.
    first = to_act(players)
    wait_for(lambda: first.page.locator("#board .card").count() == 3)
    labels = first.page.locator("#felt .seat .last").all_inner_texts()
    assert all(label.lower() in ("", "fold", "all-in") for label in labels), labels
    fold = first.page.locator("#actions button[data-action=fold]")
    assert "fold-free" in (fold.get_attribute("class") or "")
    fold.click()
    assert fold.inner_text() == "Fold? Checking is free"
    assert first.my_turn() and "fold" not in acts_sent(first)

    # The log's first line (the hand and its button) and the dealer button stay in view.
    head = first.page.inner_text("#log-head")
    assert head.startswith("Hand #") and "button: " in head, head
    box = first.page.locator("#button").bounding_box()
    assert box
    on_top = first.page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.id",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert on_top == "button"
    first.act(lambda p: p.click("check_or_call"))
    play(players, lambda: all(p.results() >= 1 for p in players))
    assert not any(p.errors for p in players)


def test_a_leavers_name_stays_and_out_of_chips_offers_top_up_or_leave(
    server: Server, browser: Any
) -> None:
    dan, eve = Player(browser, server, "dan"), Player(browser, server, "eve")
    seat_table(
        server,
        [dan, eve],
        {"rulebook": "rws", "game": "holdem", "stakes": "1/2", "seats": 2},
        "Heads up",
    )

    # Every hand all in, until one of them has no chips left.
    def shove(player: Player) -> None:
        if player.can("bet_or_raise") and player.page.locator("#amount").count():
            most = player.page.get_attribute("#amount", "max")
            player.page.fill("#amount", str(most))
            player.click("bet_or_raise")
        else:
            simple(player)

    def someone_busted() -> bool:
        return any(p.page.locator("#busted").count() for p in (dan, eve))

    play([dan, eve], someone_busted, shove, timeout=90)
    broke = dan if dan.page.locator("#busted").count() else eve
    said = broke.page.inner_text("#actions")
    assert "out of chips" in said
    assert broke.page.is_visible("#busted-top-up") and broke.page.is_visible("#busted-leave")
    busted_in = dan.page.inner_text("#log-head")  # the hand that broke them
    broke.page.click("#busted-top-up")  # the table's minimum buy-in
    wait_for(lambda: not broke.page.locator("#busted").count())
    assert int(broke.page.locator(".seat.you .stack").inner_text()) > 0

    # In the next hand dan leaves during it: his turns are played at once, and when it ends
    # (eve alone: no hand follows) the hand on eve's screen still names him.

    def next_hand_dealt() -> bool:
        head = dan.page.inner_text("#log-head")
        return head != busted_in and dan.page.locator(".seat.you .hole .card").count() == 2

    wait_for(next_hand_dealt, 20)
    dan.page.click("#leave")

    def dan_gone() -> bool:
        seats = [m for m in eve.messages() if m["type"] == "seats"]
        return bool(seats) and all(s["name"] != "dan" for s in seats[-1]["seats"])

    play([eve], dan_gone)
    wait_for(lambda: eve.results() >= 1 and eve.page.locator("#felt .bet").count() == 0)
    log = eve.page.inner_text("#log")
    assert "dan" in log and "seat 1" not in log, log
    eve.screenshot("leaver.png")
    assert eve.page.locator("#felt .seat[data-seat='1'] .name").inner_text() == "dan"


def test_hi_lo_says_no_qualifying_low(server: Server, browser: Any) -> None:
    fay = Player(browser, server, "fay")
    said = fay.page.evaluate(
        """async () => {
          const view = await import("/static/view.js");
          const table = await import("/static/table.js");
          const high = {event: "Announce", pot: 0, amount: 40, commission: 0, paid: 40,
                        winners: [0], hands: ["Two Pair, Kings and Fives"]};
          const both = {...high, hands: ["Two Pair, Kings and Fives; low 8-7-5-3-2"]};
          const name = () => "fay";
          const entry = table.resultEntry(3, {players: [], pots: [{pot: 0, amount: 40,
            commission: 0, winners: [1], named: high.hands}]}, name, "omaha8");
          return {
            omaha8: view.describeAll([high], name, "omaha8")[0],
            split: view.describeAll([both], name, "omaha8")[0],
            holdem: view.describeAll([high], name, "holdem")[0],
            entry: entry.textContent,
          };
        }"""
    )
    assert said["omaha8"].endswith("(no qualifying low)")
    assert "no qualifying low" not in said["split"] and "no qualifying low" not in said["holdem"]
    assert "no qualifying low" in said["entry"]


def test_watch_and_join_differ(server: Server, browser: Any) -> None:
    gil = Player(browser, server, "gil")
    table = create_table(
        server, gil.token, {"rulebook": "rws", "game": "holdem", "stakes": "1/2", "seats": 6}, "W"
    )
    gil.page.goto(f"{server.url}/#/lobby")
    gil.page.click(f"#tables tr[data-table='{table}'] a.watch")
    gil.page.wait_for_selector("#felt")
    gil.page.wait_for_selector("#take-seat")
    assert gil.page.locator("#felt button.sit").count() == 0
    assert gil.page.is_hidden("#buy-in-box")
    gil.page.click("#take-seat")  # as Join: the seats and the buy-in
    wait_for(lambda: gil.page.locator("#felt button.sit").count() == 6)
    assert gil.page.is_visible("#buy-in-box") and gil.page.is_hidden("#watching")
    gil.page.goto(f"{server.url}/#/lobby")
    gil.page.click(f"#tables tr[data-table='{table}'] a.join")
    wait_for(lambda: gil.page.locator("#felt button.sit").count() == 6)
    wait_for(lambda: gil.page.evaluate("document.activeElement.id") == "buy-in")


def test_a_phones_bets_stand_off_the_pot(server: Server, browser: Any) -> None:
    ida = Player(browser, server, "ida")
    table = create_table(server, ida.token, {"rulebook": "rws", "seats": 6}, "Lobby row")
    assert table  # a lobby with a row: a phone's empty list has no height to wait for
    hal = Player(browser, server, "hal", phone=True)
    jo = Player(browser, server, "jo")
    seat_table(
        server,
        [hal, ida, jo],
        {"rulebook": "rws", "game": "holdem", "stakes": "1/2", "seats": 6},
        "Phone",
    )
    wait_for(lambda: hal.page.locator("#felt .bet").count() >= 2, 20)
    middle = hal.page.locator("#felt .middle").bounding_box()
    assert middle
    for i in range(hal.page.locator("#felt .bet").count()):
        bet = hal.page.locator("#felt .bet").nth(i).bounding_box()
        assert bet
        apart = (
            bet["x"] + bet["width"] <= middle["x"]
            or middle["x"] + middle["width"] <= bet["x"]
            or bet["y"] + bet["height"] <= middle["y"]
            or middle["y"] + middle["height"] <= bet["y"]
        )
        assert apart, (bet, middle)


def test_table_chat_in_the_page(server: Server, browser: Any) -> None:
    kim, lou = Player(browser, server, "kim"), Player(browser, server, "lou")
    table = seat_table(
        server,
        [kim, lou],
        {"rulebook": "rws", "game": "holdem", "stakes": "1/2", "seats": 4},
        "Chatty",
    )
    max_ = Player(browser, server, "max")  # watches
    max_.open_table(table, watch=True)
    assert max_.page.is_hidden("#chat-form")  # a watcher reads

    kim.page.fill("#chat-text", "gl <b>all</b>")
    kim.page.press("#chat-text", "Enter")  # Enter sends; no key reaches the table's buttons
    for viewer in (lou, max_):
        viewer.page.locator("#chat-log li", has_text="gl <b>all</b>").wait_for()
        assert viewer.page.locator("#chat-log b", has_text="all").count() == 0  # text, not markup
    wait_for(lambda: kim.page.input_value("#chat-text") == "")

    lou.page.click("#chat-log li[data-name='kim'] button.chat-mute")
    wait_for(lambda: lou.page.locator("#chat-log li[data-name='kim']").count() == 0)
    kim.page.fill("#chat-text", "still here")
    kim.page.press("#chat-text", "Enter")
    max_.page.locator("#chat-log li", has_text="still here").wait_for()
    assert lou.page.locator("#chat-log li", has_text="still here").count() == 0
    lou.page.click("#chat-log .chat-unmute")
    lou.page.locator("#chat-log li", has_text="still here").wait_for()
    assert not any(p.errors for p in (kim, lou, max_))


def test_the_new_table_form_says_the_books_defaults_and_unusual_rules(
    server: Server, browser: Any
) -> None:
    nat = Player(browser, server, "nat")
    page = nat.page
    assert page.input_value("#new-game") == "holdem"
    page.select_option("#new-rulebook", "qld")
    assert page.input_value("#new-game") == "holdem"  # kept: qld deals it
    first = page.locator("#new-structure option").first.inner_text()
    assert first == "the book's default (pot)"
    notes = page.inner_text("#new-notes")
    assert "the first round's opening raise equals the second blind (qld s24(4))" in notes
    page.select_option("#new-rulebook", "rws")
    assert page.locator("#new-structure option").first.inner_text() == (
        "the book's default (no-limit)"
    )
    assert page.is_hidden("#new-notes")  # nothing unusual in rws hold'em
    page.select_option("#new-rulebook", "")  # house rules
    assert "(house rules: no book deals it)" in page.inner_text("#new-game option[value=razz]")
    page.select_option("#new-game", "razz")
    assert page.locator("#new-structure option").first.inner_text() == ("the game's usual (fixed)")
    assert "cardroom book's general rules apply" in page.inner_text("#new-notes")


def test_a_newcomer_is_told_they_wait_for_the_big_blind(server: Server, browser: Any) -> None:
    oli, pat = Player(browser, server, "oli"), Player(browser, server, "pat")
    table = seat_table(
        server,
        [oli, pat],
        {"rulebook": "rws", "game": "holdem", "stakes": "1/2", "seats": 4},
        "Newcomer",
    )
    wait_for(lambda: any(p.my_turn() for p in (oli, pat)), 20)  # a hand in play
    quin = Player(browser, server, "quin")
    quin.open_table(table)
    quin.sit(3, 200)  # during the hand: dealt in later, when the big blind reaches seat 3
    quin.page.locator("#actions", has_text="when the big blind reaches your seat").wait_for()
