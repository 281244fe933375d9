"""The account page in the browser (Debian's Chromium): a player's balance and chip ledger as
the server keeps them; for an admin, the cage (chips cashed in for an account), the ledger's
check, the roles and the audit log, each answered by the server."""

from __future__ import annotations

import sqlite3
from typing import Any

from browser_harness import Player, Server, create_table, wait_for


def ledger_rows(player: Player) -> list[tuple[str, str]]:
    """(what, the balance's change) of each row on the page, newest first."""
    rows = player.page.locator("#ledger tbody tr")
    return [
        (row.locator("td.what").inner_text(), row.locator("td.amount").first.inner_text())
        for row in rows.all()
    ]


def test_a_player_sees_the_ledger_the_server_keeps_and_an_admin_keeps_the_cage(
    server: Server, browser: Any
) -> None:
    lena = Player(browser, server, "lena")
    table = create_table(
        server, lena.token, {"rulebook": "rws", "game": "holdem", "seats": 3}, "Lena's"
    )
    lena.open_table(table)
    lena.sit(1, 200)
    lena.page.click("#me")  # her name and balance lead to her account
    lena.page.wait_for_selector("#ledger")
    ledger = server.http("GET", "/api/ledger", lena.token)
    assert ledger["balance"] == 10_000 - 200
    assert lena.page.inner_text("#account-balance") == "lena (player): 9800 chips in your balance."
    # The server's two rows of a buy-in (her balance -200, the table +200) are one transfer.
    kinds = sorted((r["kind"], r["table"] is None, r["amount"]) for r in ledger["rows"])
    assert kinds == [("buy_in", False, 200), ("buy_in", True, -200), ("cash_in", True, 10_000)]
    assert ledger_rows(lena) == [
        (f"Buy-in: 200 chips from your balance to table {table}", "-200"),
        ("Welcome chips: 10000", "+10000"),
    ]
    first = lena.page.locator("#ledger tbody tr").first
    assert first.locator("td.at-table").inner_text() == "+200"
    assert lena.page.locator("#cage").count() == 0  # the cage is the staff's
    assert "null" not in lena.page.inner_text("#main")  # nothing drawn in its place
    assert lena.page.locator("#audit").count() == 0

    max_ = Player(browser, server, "max")
    with sqlite3.connect(server.db) as db:
        db.execute("UPDATE accounts SET role = 'admin' WHERE name = 'max'")
    max_.page.goto(f"{server.url}/#/account")
    max_.page.reload()
    max_.page.wait_for_selector("#cage")
    assert "max (admin)" in max_.page.inner_text("#account-balance")
    # Chips cashed in for lena: a ledger row each side, her balance up.
    max_.page.fill("#cage-name", "lena")
    max_.page.fill("#cage-amount", "500")
    max_.page.click("#cash-in button[type=submit]")
    wait_for(lambda: "500 chips cashed in for lena" in max_.page.inner_text("#notice"))
    assert server.http("GET", "/api/me", lena.token)["balance"] == 10_000 - 200 + 500
    # A name the cage does not know: refused, in the server's words, and nothing moves.
    max_.page.fill("#cage-name", "nobody")
    max_.page.fill("#cage-amount", "7")
    max_.page.click("#cash-in button[type=submit]")
    refused = "no player, dealer or admin account 'nobody'"
    wait_for(lambda: refused in max_.page.inner_text("#notice"))
    max_.page.click("#check-ledger")
    wait_for(lambda: max_.page.inner_text("#ledger-check").startswith("Balanced"))
    assert server.http("GET", "/api/ledger/check", max_.token)["balanced"] is True
    # Roles: lena becomes a dealer.
    max_.page.fill("#role-name", "lena")
    max_.page.select_option("#role-role", "dealer")
    max_.page.click("#set-role button[type=submit]")
    wait_for(lambda: "lena is now a dealer" in max_.page.inner_text("#notice"))
    assert server.http("GET", "/api/me", lena.token)["role"] == "dealer"
    # The audit log, newest first: the role, the cash-in, her seat, each by name.
    max_.page.reload()
    max_.page.wait_for_selector("#audit")
    cells = [
        [cell.inner_text() for cell in row.locator("td").all()[1:]]
        for row in max_.page.locator("#audit tbody tr").all()
    ]
    assert cells == [
        ["max", "", "", "role", "applied", "lena is made dealer"],
        ["max", "", "", "cash_in", "applied", "500 chips cashed in for lena"],
        ["lena", str(table), "", "sit", "applied", "seat 1: lena buys in for 200"],
    ]
    max_.screenshot("account.png", full_page=True)

    lena.page.reload()  # her page again: the cash-in is a row of her ledger now
    lena.page.wait_for_selector("#ledger")
    assert ledger_rows(lena)[0] == ("Cashed in: 500 chips (by max)", "+500")
    assert lena.page.locator("#cage").count() == 1  # a dealer keeps the cage too
    assert lena.page.locator("#set-role").count() == 0  # roles are the admin's
    assert lena.errors == [] and max_.errors == []
    lena.close()
    max_.close()
