"""Hand histories downloaded from the card room: hands played through the server, each PHH file
read back by croupier's own reader and replayed (``croupier replay``) to the stacks the server
paid, and each PokerStars text read by an independent reader of the format."""

from __future__ import annotations

import asyncio
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.client import ClientError
from croupier.history import HandHistory, load_phh, replay
from pokerstars_format import parse
from server_harness import player, running
from test_server_play import play_hands

runner = CliRunner()


def _finished(server: Any) -> list[dict[str, Any]]:
    """Every finished hand: its id, its seats in deal order and the chips each had after it."""
    rows = server.room.store.read(
        lambda c: c.exec_driver_sql(
            "SELECT id, seats, result, forced FROM hands WHERE status = 'finished' ORDER BY id"
        ).all()
    )
    return [
        {
            "id": row[0],
            "order": [seat[0] for seat in json.loads(row[1])],
            "after": {int(seat): chips for seat, chips in json.loads(row[2]).items()},
            "forced": row[3],
        }
        for row in rows
    ]


def _replays_to_the_servers_stacks(text: str, hand: dict[str, Any], tmp_path: Path) -> HandHistory:
    """The PHH read by croupier's reader replays to the stacks the server paid, and
    ``croupier replay FILE`` accepts it."""
    history = load_phh(text)
    result = replay(history)
    assert result.ok, result.error
    paid = [hand["after"][seat] for seat in hand["order"]]
    assert list(result.finishing_stacks or ()) == paid
    assert list(history.finishing_stacks or ()) == paid
    file = tmp_path / f"hand-{hand['id']}.phh"
    file.write_text(text)
    cli = runner.invoke(app, ["replay", str(file)])
    assert cli.exit_code == 0, cli.output
    return history


def _stars_to_the_servers_stacks(text: str, hand: dict[str, Any]) -> None:
    """The PokerStars text, read by an independent reader, pays what the server paid."""
    parsed = parse(text)
    assert sorted(parsed.seats.values()) == sorted(hand["order"])
    assert parsed.finishing() == {
        name: Decimal(hand["after"][seat]) for name, seat in parsed.seats.items()
    }


@pytest.mark.parametrize(
    "spec",
    [
        {"game": "stud7", "rulebook": "au-casino", "structure": "fixed", "stakes": "1/2"},
        {"game": "draw", "rulebook": "cardroom", "structure": "fixed", "stakes": "1/2"},
        {"game": "holdem", "rulebook": "qld", "structure": "fixed", "stakes": "1/2"},
        {"game": "omaha", "rulebook": "au-casino", "structure": "spread", "stakes": "1/2"}
        | {"rake": "5%", "rake_cap": 3},
    ],
    ids=lambda spec: f"{spec['rulebook']}-{spec['game']}-{spec['structure']}",
)
def test_a_limit_book_tables_hand_downloads_as_phh_with_the_books_house_options_and_replays(
    tmp_path: Path, spec: dict[str, Any]
) -> None:
    """Fixed and spread limit under a book that leaves the table maximum to the house: the
    table is dealt with the maximum book_rules chose (2 B, 4 B) and any commission, and the
    PHH names them as the book's options, so that the replay deals the same hand."""

    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            table = await alice.create_table({**spec, "seats": 2})
            await alice.sit(table, 1, 200)
            await bob.sit(table, 2, 200)
            await play_hands([alice, bob], table, 1)
            hand = _finished(server)[0]
            text = await alice.history(hand["id"])
            history = _replays_to_the_servers_stacks(text, hand, tmp_path)
            assert history.user_fields["_croupier_rulebook"] == spec["rulebook"]
            options = history.user_fields.get("_croupier_options", {})
            if spec["rulebook"] != "cardroom" or spec["structure"] != "fixed":
                assert options.get("max_wager") in (4, 8)  # 2 B fixed, 4 B spread (B = 2)
            if "rake" in spec:
                assert options["commission_rate"] == "5%"
                assert options["commission_cap"] == 3
            if spec["structure"] == "spread":  # no PokerStars game: refused, with why
                with pytest.raises(ClientError, match="PHH covers every game"):
                    await alice.history(hand["id"], "pokerstars")
            else:
                _stars_to_the_servers_stacks(await alice.history(hand["id"], "pokerstars"), hand)

    asyncio.run(main())


def test_a_missed_big_and_small_blind_posted_on_return_is_written_live_and_dead(
    tmp_path: Path,
) -> None:
    """rws: a player back after the blinds passed posts the big blind live, out of position,
    and the small blind dead. PHH writes the live post with the others in
    blinds_or_straddles, named by _croupier_posted (not a straddle: the action still starts
    left of the big blind), and the dead one as the player's ante (dead money); PokerStars
    text says "posts small & big blinds 3" after the table's own blinds. Both read back to the
    stacks the server paid."""

    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            cy = await player(server.url, "cy")
            table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 4})
            await alice.add_bot(table, 4, 200)
            # Deep stacks: the people only check and call, and a hand against the bot costs
            # them at most its 200; none may go bust before alice's return (no hand for two).
            for seat, client in enumerate((alice, bob, cy), start=1):
                await client.sit(table, seat, 5000)
            clients = [alice, bob, cy]
            await play_hands(clients, table, 1)
            returned = None
            for away in range(4, 8):  # where alice comes back decides what she owes: again,
                # away one hand longer each time (a fixed count can bring her back to the big
                # blind every time), if need be
                await alice.request("sit_out", table=table)
                await play_hands(clients, table, away)  # the blinds pass alice's seat meanwhile
                await alice.request("sit_in", table=table)
                for _ in range(4):  # until she is dealt in (not between the button and blinds)
                    await play_hands(clients, table, 1)
                    last = _finished(server)[-1]
                    if 1 in last["order"]:
                        break
                if '"POSTED"' in (last["forced"] or ""):
                    returned = last
                    break
            assert returned is not None, "alice never posted a missed big blind on her return"
            assert 1 in returned["order"]
            text = await alice.history(returned["id"])
            history = _replays_to_the_servers_stacks(text, returned, tmp_path)
            alice_is = returned["order"].index(1)  # alice's player index in the PHH
            assert history.user_fields["_croupier_posted"] == [alice_is + 1]
            assert (history.blinds_or_straddles or ())[alice_is] == 2  # the big blind, live
            assert (history.antes or ())[alice_is] == 1  # the small blind, dead money
            assert sorted(b for b in history.blinds_or_straddles or () if b) == [1, 2, 2]
            stars = await alice.history(returned["id"], "pokerstars")
            posts = [line for line in stars.splitlines() if ": posts " in line]
            assert len(posts) == 3 and "straddle" not in stars
            assert posts[0].endswith(": posts small blind 1")
            assert posts[1].endswith(": posts big blind 2")
            assert posts[2] == "alice: posts small & big blinds 3"
            _stars_to_the_servers_stacks(stars, returned)

    asyncio.run(main())


def _all_in(legal: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Push: the most a raise allows, else call (or stand pat at a draw)."""
    if legal.get("draw"):
        return "draw", {"cards": []}
    if legal.get("raise_range"):
        return "bet_or_raise", {"amount": legal["raise_range"][1]}
    if legal.get("bring_in") is not None and not legal["can_check"] and not legal["call"]:
        return "bring_in", {}
    return "check_or_call", {}


def test_every_download_keeps_the_hands_identity_and_pokerstars_order(tmp_path: Path) -> None:
    """Issue 41: the hand played at the 6-max table "Alice NLHE" in seats 3 and 5 downloads
    with its identity: PHH's hand, table, seat_count, seats and date fields; PokerStars'
    ``Hand #id``, the local time with Eastern time in brackets, the table's name and size and
    its real seats in seat order; an all-in preflop shows its hands (named) after the river;
    ``croupier convert`` of the downloaded PHH gives the same header. A stud hand downloads as
    PokerStars text too."""

    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            table = await alice.create_table(
                {"game": "holdem", "rulebook": "rws", "seats": 6}, name="Alice NLHE"
            )
            await alice.sit(table, 5, 200)
            await bob.sit(table, 3, 200)
            await play_hands([alice, bob], table, 1, move=_all_in)
            hand = _finished(server)[0]
            phh_text = await alice.history(hand["id"])
            history = _replays_to_the_servers_stacks(phh_text, hand, tmp_path)
            assert history.hand == hand["id"] and history.table == "Alice NLHE"
            assert history.seat_count == 6 and list(history.seats or ()) == hand["order"]
            assert history.time_zone == "UTC" and history.year is not None
            stars = await alice.history(hand["id"], "pokerstars")
            _stars_to_the_servers_stacks(stars, hand)
            lines = stars.splitlines()
            assert lines[0].startswith(f"PokerStars Hand #{hand['id']}:  Hold'em No Limit (")
            assert " UTC [" in lines[0] and lines[0].endswith(" ET]")
            assert lines[1].startswith("Table 'Alice NLHE' 6-max Seat #")
            assert [line.split(":")[0] for line in lines[2:4]] == ["Seat 3", "Seat 5"]
            river = next(i for i, line in enumerate(lines) if line.startswith("*** RIVER ***"))
            showdown = lines.index("*** SHOW DOWN ***")
            assert river < showdown
            shows = [line for line in lines if ": shows [" in line]
            assert len(shows) == 2 and all(line.endswith(")") for line in shows)
            # the downloaded PHH converts to the same identity
            file = tmp_path / "hand.phh"
            file.write_text(phh_text)
            converted = runner.invoke(app, ["convert", str(file), "--to", "pokerstars"])
            assert converted.exit_code == 0, converted.output
            assert converted.output.splitlines()[:2] == lines[:2]
            # a stud table's hand downloads as PokerStars text
            stud = await alice.create_table(
                {"game": "stud7", "rulebook": "au-casino", "structure": "fixed",
                 "stakes": "1/2", "seats": 8}, name="Stud 8",
            )  # fmt: skip
            await alice.sit(stud, 2, 200)
            await bob.sit(stud, 7, 200)
            await play_hands([alice, bob], stud, 1)
            stud_hand = _finished(server)[-1]
            text = await bob.history(stud_hand["id"], "pokerstars")
            _stars_to_the_servers_stacks(text, stud_hand)
            assert text.startswith(f"PokerStars Hand #{stud_hand['id']}:  7 Card Stud Limit (")
            assert text.splitlines()[1] == "Table 'Stud 8' 8-max"
            assert "*** 3rd STREET ***" in text

    asyncio.run(main())
