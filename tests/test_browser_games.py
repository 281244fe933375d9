"""Every kind of game through the browser table, in Debian's Chromium: seven card stud's down
and up cards and its forced opener, a draw with the discards picked on the page, Manila's card face
up before the first round with its short-deck hands named by the engine, and hi-lo's halves."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browser_harness import (
    CARD,
    Player,
    Server,
    create_table,
    events_sent,
    hole_cards_sent,
    play,
    simple,
    wait_for,
)


@pytest.fixture(scope="module")
def pair(browser: Any, server: Server) -> Iterator[tuple[Player, Player]]:
    erin, finn = Player(browser, server, "erin"), Player(browser, server, "finn")
    yield erin, finn
    erin.close()
    finn.close()


def seat_both(pair: tuple[Player, Player], server: Server, spec: dict[str, object]) -> int:
    erin, _finn = pair
    table = create_table(server, erin.token, spec, f"{spec['game']} table")
    buy_in = server.http("GET", f"/api/tables/{table}/rules", erin.token)["minimum_buy_in"]
    for seat, person in enumerate(pair, start=1):
        person.open_table(table)
        person.sit(seat, buy_in * 2)
    return table


def test_stud_shows_down_and_up_cards_and_the_forced_opener(
    pair: tuple[Player, Player], server: Server
) -> None:
    """No book gives a bring-in size (cardroom's gap; au 12.2(a)): the lowest up card must open
    for the minimum, so its first turn offers a bet and neither a fold nor a check."""
    erin, finn = pair
    table = seat_both(pair, server, {"rulebook": "au-casino", "game": "stud7", "structure": "fixed",
                                     "stakes": "1/2", "seats": 4})  # fmt: skip
    seen: dict[str, Any] = {}
    ranks = "23456789TJQKA"

    def move(player: Player) -> None:
        page = player.page
        mine, other = ".seat.you .hole", ".seat:not(.you):not(.empty) .hole"
        if "opener" not in seen:
            buttons = page.locator("#actions button[data-action]")
            mine_up = page.locator(f"{mine} .card.up").first.get_attribute("data-card") or ""
            theirs = page.locator(f"{other} .card.up").first.get_attribute("data-card") or ""
            seen["opener"] = (
                sorted(
                    buttons.nth(i).get_attribute("data-action") or ""
                    for i in range(buttons.count())
                ),
                ranks.index(mine_up[0]),
                ranks.index(theirs[0]),
            )
        assert page.locator("#felt .dealer-button").count() == 0  # stud has no button
        downs = page.locator(f"{mine} .card.down").count()
        ups = page.locator(f"{mine} .card.up").count()
        hidden = page.locator(f"{other} .card.back").count()
        open_ups = page.locator(f"{other} .card.up:not(.back)").count()
        if ups >= 2 and "layout" not in seen:  # fourth street: two down, two up each
            seen["layout"] = (downs, ups, hidden, open_ups)
            player.screenshot("stud.png")
        simple(player)

    play([erin, finn], lambda: erin.results() >= 1, move)
    actions, my_rank, their_rank = seen["opener"]
    assert actions == ["bet_or_raise"]  # forced to open: no fold, no check
    assert my_rank <= their_rank  # the opener shows the low card (suits break a tie)
    assert seen["layout"] == (2, 2, 2, 2)
    # Each player was sent the opponent's down cards only as ??.
    for person, other in ((erin, finn), (finn, erin)):
        theirs = {c for c in hole_cards_sent(other, table) if c != "??"}
        assert theirs and not theirs & set(hole_cards_sent(person, table))
    assert "Main pot" in erin.page.locator("#results li.result").first.inner_text()


def test_draw_discards_the_cards_picked_on_the_page(
    pair: tuple[Player, Player], server: Server
) -> None:
    erin, finn = pair
    table = seat_both(pair, server, {"rulebook": "au-casino", "game": "draw", "structure": "fixed",
                             "stakes": "1/2", "seats": 4})  # fmt: skip
    drawn: dict[str, list[str]] = {}

    def move(player: Player) -> None:
        if player.can("draw") and player is erin and "before" not in drawn:
            before = erin.my_cards()
            cards = erin.page.locator(".seat.you .hole .card.pickable")
            cards.nth(0).click()
            cards.nth(3).click()
            button = erin.page.locator("#actions button[data-action='draw']")
            assert button.inner_text() == "Draw 2"
            erin.screenshot("draw.png")
            drawn["before"], drawn["thrown"] = before, [before[0], before[3]]
            button.click()
            # The log says it in words, as the other players' discards too.
            erin.page.locator("#log li", has_text="erin discards 2").wait_for()
            return
        simple(player)

    results = erin.results()
    play([erin, finn], lambda: erin.results() > results and "before" in drawn, move)
    after = [
        e for e in events_sent(erin, table)
        if e["event"] == "Draw" and e["discarded"] == drawn["thrown"]
    ]  # fmt: skip
    assert len(after) == 1 and len(after[0]["drawn"]) == 2
    assert all(CARD.match(c) for c in after[0]["drawn"])


def test_manila_deals_a_card_face_up_before_the_first_round_and_names_its_hands(
    pair: tuple[Player, Player], server: Server
) -> None:
    erin, finn = pair
    table = seat_both(pair, server, {"rulebook": "au-casino", "game": "manila2", "stakes": "1/2",
                             "seats": 4})  # fmt: skip
    boards: list[int] = []

    def move(player: Player) -> None:
        if not boards:
            boards.append(player.page.locator("#board .card").count())
        simple(player)

    results = erin.results()
    play([erin, finn], lambda: erin.results() > results, move)
    assert boards == [1]
    shown = [e["description"] for e in events_sent(erin, table) if e["event"] == "Show"]
    text = erin.page.locator("#results li.result").first.inner_text()
    announced = [
        h for e in events_sent(erin, table) if e["event"] == "Announce" for h in e["hands"]
    ]
    assert shown  # a check-down reaches the showdown
    for name in announced:  # the page names the winners' hands as the engine does
        assert name in text


def test_hi_lo_results_show_both_halves(pair: tuple[Player, Player], server: Server) -> None:
    erin, finn = pair
    table = seat_both(
        pair, server, {"rulebook": None, "game": "omaha8", "stakes": "1/2", "seats": 4}
    )

    def low_shown() -> bool:
        return bool(erin.page.locator("#results .hand-named.half").count())

    # Both players check and call to every showdown; a qualifying low comes in a good part
    # of them, so thirty hands without one would be a broken page or engine.
    results = erin.results()
    play([erin, finn], lambda: low_shown() or erin.results() > results + 30, timeout=150)
    assert low_shown(), "no hand of thirty had a qualifying low"
    halves = erin.page.locator("#results .hand-named.half")
    texts = [halves.nth(i).inner_text() for i in range(halves.count())]
    assert any(t.startswith("High: ") for t in texts) and any(t.startswith("Low: ") for t in texts)
    announced = [
        h for e in events_sent(erin, table) if e["event"] == "Announce"
        for h in e["hands"] if "; low " in h
    ]  # fmt: skip
    high, low = announced[-1].split("; low ")
    assert f"High: {high}" in texts and f"Low: {low}" in texts
    # A reload keeps the last hands: the page reads them from the server, as dealt.
    first = erin.page.locator("#results li.result").first
    number, before = first.get_attribute("data-hand"), first.inner_text()
    erin.page.reload()
    again = erin.page.locator(f"#results li.result[data-hand='{number}']")
    again.wait_for()
    assert again.inner_text() == before


def test_sitting_out_and_topping_up_between_hands(
    pair: tuple[Player, Player], server: Server
) -> None:
    erin, finn = pair
    table = seat_both(pair, server, {"rulebook": "rws", "game": "holdem", "seats": 4})
    page = erin.page
    page.click("#sit-out")
    page.locator(".seat.you .tag", has_text="out").wait_for()
    assert page.locator("#sit-out").inner_text() == "Sit in"
    # The hand she was dealt into ends; with her out, no other is dealt.
    play([erin, finn], lambda: erin.results() >= 1)
    seats = server.http("GET", f"/api/tables/{table}", erin.token)["seats"]
    before = next(s["chips"] for s in seats if s["seat"] == 1)
    # Top up has its own box, by default what brings the stack back to the minimum buy-in.
    minimum = server.http("GET", f"/api/tables/{table}/rules", erin.token)["minimum_buy_in"]
    short = minimum - before
    assert page.input_value("#top-up-chips") == (str(short) if short > 0 else "")
    assert not page.is_visible("#buy-in")  # the buy-in box is for sitting down
    page.fill("#top-up-chips", "50")
    assert page.inner_text("#top-up") == "Top up 50"
    balance = shown_balance(erin)
    page.click("#top-up")
    wait_for(lambda: erin.stacks()[1] == before + 50)
    wait_for(lambda: shown_balance(erin) == balance - 50)
    page.click("#sit-out")  # now "Sit in"
    page.locator("#actions.mine, .seat.to-act").first.wait_for()  # a hand is dealt again
    assert page.locator(".seat.you .tag", has_text="out").count() == 0
    # Leave: the chips go back to the balance when the hand ends, and the bar says so.
    balance = shown_balance(erin)
    page.click("#leave")
    play([erin, finn], lambda: page.locator(".seat.you").count() == 0)
    wait_for(lambda: shown_balance(erin) == server.http("GET", "/api/me", erin.token)["balance"])
    assert shown_balance(erin) > balance


def shown_balance(player: Player) -> int:
    """The balance in the page's top bar: "name · 9800 chips"."""
    return int(player.page.inner_text("#me").split(" · ")[1].split()[0])


def test_the_log_names_bets_raises_completions_and_discards(
    pair: tuple[Player, Player], server: Server
) -> None:
    """view.js in the page: a bet where the round has one (the blinds count) is a raise."""
    erin, _finn = pair
    lines = erin.page.evaluate("""async () => {
        const { describeAll } = await import("/static/view.js");
        const names = ["ann", "bo"];
        const blinds = [{ event: "PostBlind", player: 0, amount: 1, all_in: false },
            { event: "PostBlind", player: 1, amount: 2, all_in: false },
            { event: "StreetStart", index: 0 },
            { event: "Bet", player: 0, amount: 8, to: 9, all_in: false },
            { event: "Call", player: 1, amount: 7, all_in: false },
            { event: "RoundEnd" }, { event: "StreetStart", index: 1 },
            { event: "Bet", player: 1, amount: 4, to: 4, all_in: false },
            { event: "Bet", player: 0, amount: 12, to: 12, all_in: false }];
        const stud = [{ event: "BringIn", player: 0, amount: 1, all_in: false },
            { event: "Bet", player: 1, amount: 2, to: 2, all_in: false }];
        const draw = [{ event: "Discards", player: 1, cards: ["??", "??"] },
            { event: "Draw", player: 1, discarded: ["??", "??"], drawn: ["??", "??"] },
            { event: "Draw", player: 0, discarded: [], drawn: [] }];
        return [blinds, stud, draw].map((events) => describeAll(events, (p) => names[p]));
    }""")
    holdem, stud, draw = lines
    assert holdem[3] == "ann raises to 9" and holdem[7] == "bo bets 4"
    assert holdem[8] == "ann raises to 12"
    assert stud[1] == "bo completes to 2"
    assert draw == ["bo discards 2", "bo draws 2", "ann stands pat"]
