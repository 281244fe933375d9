"""The HTTP API against hostile and careless requests: each gets a clear JSON error, changes
nothing, and creates or moves no chip (an in-process server on SQLite)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from croupier.client import Client, ClientError
from croupier.server.rooms.table_spec import MOST_BUY_IN
from croupier.server.store import accounts as auth
from croupier.server.store import schema as s
from croupier.server.store.database import check_ledger
from croupier.server.web import http
from croupier.server.web.http import LEDGER_ROWS, MAX_BODY, MAX_PASSWORD_WAITING, Throttle
from server_harness import FAST, player, running, until


async def request(
    url: str,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    chunks: list[bytes] | None = None,
) -> tuple[int, Any]:
    """One raw HTTP/1.1 request (the status, and the body as JSON when it is JSON): any body,
    any headers, a chunked body, and as many at once as the test likes."""
    host, port = url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    head = [f"{method} {path} HTTP/1.1", f"host: {host}", "connection: close"]
    head += [f"{k}: {v}" for k, v in (headers or {}).items()]
    if chunks is not None:
        head.append("transfer-encoding: chunked")
    elif body is not None:
        head.append(f"content-length: {len(body)}")
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + (body or b""))
    for chunk in chunks or ():
        writer.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        await writer.drain()
    if chunks is not None:
        writer.write(b"0\r\n\r\n")
    try:
        answer = await reader.read()
    finally:
        writer.close()
    status = int(answer.split(b" ", 2)[1])
    payload = answer.split(b"\r\n\r\n", 1)[1]
    try:
        return status, json.loads(payload)
    except ValueError:
        return status, payload


def ledger_and_accounts(server: Any) -> tuple[list[str], list[tuple[str, str, int]]]:
    problems = server.room.store.read(check_ledger)
    accounts = server.room.store.read(
        lambda c: [
            (r.name, r.role, r.balance)
            for r in c.execute(s.accounts.select().order_by(s.accounts.c.id))
        ]
    )
    return problems, accounts


def test_a_player_cannot_take_a_bots_name_nor_play_with_a_bots_stake(tmp_path: Path) -> None:
    """A bot is staked from the cage; were a player's account its account, leaving the table
    would cash the house's chips out to the player. Registration refuses the names the house
    gives its bots, and a bot is never seated on an account that is not a bot's."""

    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            for name in ("Ada-bot-1-1", "t1-bot1", "alice\n", "al ice"):
                with pytest.raises(ClientError) as refused:
                    await Client.register(server.url, name, "password-1")
                assert refused.value.code == "http 400", name
            alice = await player(server.url, "alice")
            with pytest.raises(ClientError) as refused:  # "ALICE" could pass for her
                await Client.register(server.url, "ALICE", "password-1")
            assert refused.value.code == "http 409" and "'alice'" in refused.value.message
            table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 6})
            # An account made before the rule (or by hand) that holds a bot's name:
            server.room.store.write_now(
                lambda c: c.execute(
                    s.accounts.insert().values(
                        name="Ada-bot-1-1", password_hash="x", role="player", created=0.0
                    )
                )
            )
            before = ledger_and_accounts(server)
            with pytest.raises(ClientError) as refused:
                await alice.add_bot(table, 1)
            assert refused.value.code == "refused" and "Ada-bot-1-1" in refused.value.message
            assert ledger_and_accounts(server) == before
            await alice.add_bot(table, 2)  # Bea-bot-1-2: a bot's own account, staked
            problems, accounts = ledger_and_accounts(server)
            assert problems == [] and ("Bea-bot-1-2", "bot", 0) in accounts

    asyncio.run(main())


def test_the_house_accounts_are_no_ones_login_and_cash_nothing_in(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            hashed = auth.hash_password("password-1")
            with pytest.raises(auth.AuthError, match="house's"):
                server.room.store.write_now(lambda c: auth.make_admin(c, "cage", hashed))
            server.room.store.write_now(lambda c: auth.make_admin(c, "boss", hashed))
            boss = await Client.login(server.url, "boss", "password-1")
            before = ledger_and_accounts(server)
            for name in ("cage", "house"):
                with pytest.raises(ClientError) as refused:
                    await boss.http("POST", "/api/cashier", {"name": name, "amount": 5})
                assert refused.value.code == "http 404"
                with pytest.raises(ClientError) as refused:
                    await Client.login(server.url, name, "password-1")
                assert refused.value.code == "http 401"
            assert ledger_and_accounts(server) == before

    asyncio.run(main())


def test_a_table_beyond_the_card_rooms_limits_or_with_unknown_fields_is_refused(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            refusals: list[tuple[dict[str, Any], str]] = [
                ({"spec": {"buy_in": 4 * 10**18}}, f"at most {MOST_BUY_IN}"),
                ({"spec": {"stakes": f"{10**7}/{2 * 10**7}"}}, f"at most {MOST_BUY_IN}"),  # 100 BBs
                ({"spec": "holdem"}, "a table's spec is an object"),
                ({"spec": [1]}, "a table's spec is an object"),
                ({"spec": {"game": "holdem", "colour": "red"}}, "has no colour"),
                ({"spec": {}, "owner": "bob"}, "a new table has no owner"),
                ({"name": "a\x00b"}, "printable"),
                ({"name": "\u202eevil"}, "printable"),
                ({"name": "x" * 61}, "at most 60"),
                ({"name": {"a": 1}}, "printable"),
                ({"sit_out_after": 0.5}, "sit_out_after is a whole number of hands"),
                ({"clock": 0}, "clock is a number of seconds to act, 1 to 3600"),
                ({"bank": -1}, "bank is a number of seconds of time bank, 0 to 3600"),
                ({"pause": True}, "pause is a number of seconds"),
            ]
            for body, words in refusals:
                with pytest.raises(ClientError) as refused:
                    await alice.http("POST", "/api/tables", body)
                assert refused.value.code == "http 400", body
                assert words in refused.value.message, (body, refused.value.message)
            assert await alice.tables() == []
            made = await alice.http(
                "POST", "/api/tables", {"name": "Ünïcode table", "spec": {}, "clock": 0.5 + 1}
            )
            assert made["name"] == "Ünïcode table"

    asyncio.run(main())


def test_a_dealer_cannot_stake_a_bot_or_seat_beyond_the_most_chips_a_seat_brings(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            hashed = auth.hash_password("password-1")
            server.room.store.write_now(lambda c: auth.make_admin(c, "boss", hashed))
            boss = await Client.login(server.url, "boss", "password-1")
            await boss.connect()
            table = await boss.create_table({"game": "holdem", "rulebook": "rws", "seats": 6})
            before = ledger_and_accounts(server)
            with pytest.raises(ClientError) as refused:
                await boss.add_bot(table, 1, 10**12 + 1)
            assert refused.value.code == "invalid"  # the protocol's chips: at most 10^12
            assert ledger_and_accounts(server) == before

    asyncio.run(main())


def test_ids_too_long_for_a_row_unknown_routes_and_wrong_methods_are_json_errors(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            auth_header = {"authorization": f"Bearer {alice.token}"}
            big = "9" * 20
            for path in (
                f"/api/tables/{big}",
                f"/api/tables/{big}/rules",
                f"/api/hands/{big}/phh",
                f"/api/hands/{big}/pokerstars",
                f"/api/hands/{big}/events",
                f"/api/tournaments/{big}",
                f"/api/tournaments/{big}/hands",
                "/api/no-such-thing",
            ):
                status, answer = await request(server.url, "GET", path, headers=auth_header)
                assert status == 404 and path in answer["error"], (path, answer)
            status, answer = await request(server.url, "DELETE", "/api/me", headers=auth_header)
            assert status == 405 and "/api/me" in answer["error"]
            status, answer = await request(server.url, "GET", "/api/rulebooks/rws?game=chess")
            assert status == 400 and "rws deals no 'chess'" in answer["error"]
            status, answer = await request(server.url, "GET", "/api/tables/1")
            assert status == 404 and "no table 1" in answer["error"]

    asyncio.run(main())


def test_a_body_longer_than_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            say = {"content-length": str(10**9), "content-type": "application/json"}
            status, answer = await request(server.url, "POST", "/api/register", headers=say)
            assert status == 413 and f"at most {MAX_BODY} bytes" in answer["error"]
            chunks = [b"[" + b" " * 4096] * 8  # 32 KiB sent in chunks, no length said
            status, answer = await request(server.url, "POST", "/api/register", chunks=chunks)
            assert status == 413
            body = json.dumps({"name": "alice", "password": "password-1"}).encode()
            status, answer = await request(server.url, "POST", "/api/register", chunks=[body])
            assert status == 200 and answer["name"] == "alice"

    asyncio.run(main())


def test_a_flood_of_logins_waits_on_its_own_threads_and_beyond_its_queue_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Password checks (argon2, slow on purpose) run on threads of their own: a player's
    request that needs only the database is answered while a flood of logins still waits,
    and logins beyond the queue's bound are refused (503) rather than queued without end."""
    release = threading.Event()
    check = auth.password_matches

    def held_check(*args: Any) -> bool:  # the hashing threads are busy until released
        release.wait(60)
        return check(*args)

    monkeypatch.setattr(auth, "password_matches", held_check)

    async def main() -> None:
        # Failed logins are not throttled here (test_..._are_throttled_per_address).
        options = dataclasses.replace(FAST, login_failures=0)
        async with running(str(tmp_path / "room.db"), options) as server:
            alice = await player(server.url, "alice")
            body = json.dumps({"name": "alice", "password": "wrong password"}).encode()
            flood = [
                asyncio.create_task(request(server.url, "POST", "/api/login", body))
                for _ in range(MAX_PASSWORD_WAITING + 16)
            ]
            await until(lambda: sum(task.done() for task in flood) == 16)  # refused at once
            me = await alice.http("GET", "/api/me")  # answered while the flood waits
            assert me["name"] == "alice"
            assert sum(not task.done() for task in flood) == MAX_PASSWORD_WAITING
            release.set()
            statuses = sorted(status for status, _ in await asyncio.gather(*flood))
            assert statuses == [401] * MAX_PASSWORD_WAITING + [503] * 16
            # Unknown names are checked against a hash too, so they take as long to refuse.
            status, _ = await request(
                server.url, "POST", "/api/login", json.dumps({"name": "nobody"}).encode()
            )
            assert status == 401 and auth._unknown_hash.cache_info().currsize == 1

    asyncio.run(main())


def test_a_refused_sit_leaves_the_connection_as_it_was(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 6})
            heard: list[str] = []
            bob.listeners.append(lambda m: heard.append(m["type"]) if "table" in m else None)
            with pytest.raises(ClientError) as refused:
                await bob.sit(table, 2, 1)  # below the book's buy-in
            assert refused.value.code == "refused"
            await alice.sit(table, 1, 200)
            await asyncio.sleep(0.2)
            assert heard == []  # bob neither sits nor watches: the table tells him nothing
            await bob.sit(table, 2, 200)
            assert "state" in heard

    asyncio.run(main())


def test_a_player_owns_at_most_the_houses_number_of_open_tables(tmp_path: Path) -> None:
    async def main() -> None:
        options = dataclasses.replace(FAST, tables_per_player=2)
        async with running(str(tmp_path / "room.db"), options) as server:
            alice = await player(server.url, "alice")
            for _ in range(2):
                await alice.create_table({"game": "holdem", "rulebook": "rws"})
            with pytest.raises(ClientError) as refused:
                await alice.create_table({"game": "holdem", "rulebook": "rws"})
            assert refused.value.code == "http 409" and "at most 2 open tables" in str(
                refused.value.message
            )
            hashed = auth.hash_password("password-1")
            server.room.store.write_now(lambda c: auth.make_admin(c, "boss", hashed))
            boss = await Client.login(server.url, "boss", "password-1")
            for _ in range(3):  # the house makes as many as it needs
                await boss.create_table({"game": "holdem", "rulebook": "rws"})
            assert len(await alice.tables()) == 5

    asyncio.run(main())


def test_new_accounts_and_failed_logins_are_throttled_per_address(tmp_path: Path) -> None:
    """Each new account comes with the house's welcome chips, and each login guess costs a
    password hash: an address may make only so many of each (429 past them, saying how long
    to wait), and the limits are the house's (croupier serve --registrations-per-hour,
    --login-failures)."""

    async def post(url: str, path: str, name: str, password: str) -> tuple[int, Any]:
        body = json.dumps({"name": name, "password": password}).encode()
        return await request(url, "POST", path, body)

    async def main() -> None:
        options = dataclasses.replace(FAST, registrations_per_hour=3, login_failures=2)
        async with running(str(tmp_path / "room.db"), options) as server:
            for name in ("ann", "ben", "cat"):
                status, _ = await post(server.url, "/api/register", name, "password-1")
                assert status == 200
            status, answer = await post(server.url, "/api/register", "dan", "password-1")
            assert status == 429
            assert answer["error"].startswith("too many new accounts from your address")
            assert "at most 3 in 60 minutes" in answer["error"]
            accounts = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT count(*) FROM accounts WHERE role = 'player'"
                ).scalar()
            )
            assert accounts == 3
            status, _ = await post(server.url, "/api/login", "ann", "password-1")
            assert status == 200  # a right password is not a failure
            for guess in ("guess-1", "guess-2"):
                status, _ = await post(server.url, "/api/login", "ann", guess)
                assert status == 401
            status, answer = await post(server.url, "/api/login", "ann", "password-1")
            assert status == 429 and "failed logins from your address" in answer["error"]

    asyncio.run(main())


def test_a_burst_of_login_guesses_sent_at_once_is_held_to_the_limit(tmp_path: Path) -> None:
    """Guesses sent together are each counted before any is checked: of 20 sent at once with
    a limit of 3, at most 3 reach the password check (401), the rest are refused at once
    (429); a right password sent among them is not counted as a failure."""

    async def main() -> None:
        options = dataclasses.replace(FAST, login_failures=3)
        async with running(str(tmp_path / "room.db"), options) as server:
            await player(server.url, "ann")
            right = json.dumps({"name": "ann", "password": "password-1"}).encode()
            status, _ = await request(server.url, "POST", "/api/login", right)
            assert status == 200
            wrong = json.dumps({"name": "ann", "password": "a guess"}).encode()
            burst = await asyncio.gather(
                *(request(server.url, "POST", "/api/login", wrong) for _ in range(20))
            )
            statuses = sorted(status for status, _ in burst)
            assert statuses == [401] * 3 + [429] * 17

    asyncio.run(main())


def test_guesses_at_one_name_spread_over_many_addresses_are_held_to_the_names_limit(
    tmp_path: Path,
) -> None:
    """Each address stays under its own limit, but the name's failures are counted from
    every address (croupier serve --name-login-failures): past them the name is refused
    (429, saying how long to wait), the right password too, while other names log in."""

    async def login(url: str, name: str, password: str, address: str) -> tuple[int, Any]:
        body = json.dumps({"name": name, "password": password}).encode()
        # uvicorn takes the client's address from X-Forwarded-For sent from the loopback,
        # trusted here as a proxy (croupier serve --forwarded-allow-ips 127.0.0.1).
        return await request(url, "POST", "/api/login", body, {"x-forwarded-for": address})

    async def main() -> None:
        options = dataclasses.replace(FAST, login_failures=2, name_login_failures=3)
        db = str(tmp_path / "room.db")
        async with running(db, options, forwarded_allow_ips="127.0.0.1") as server:
            await player(server.url, "ann")
            await player(server.url, "ben")
            for n in range(3):  # one guess from each of three addresses
                status, _ = await login(server.url, "ann", "a guess", f"10.0.0.{n}")
                assert status == 401
            status, answer = await login(server.url, "ann", "password-1", "10.0.0.9")
            assert status == 429
            assert answer["error"].startswith("too many failed logins for this name")
            assert "at most 3 in 10 minutes" in answer["error"]
            status, _ = await login(server.url, "ben", "password-1", "10.0.0.9")
            assert status == 200  # the address is not held: only the name

    asyncio.run(main())


def test_a_throttle_forgets_attempts_older_than_its_window_and_addresses_past_its_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [1000.0]
    monkeypatch.setattr(http, "time", SimpleNamespace(monotonic=lambda: now[0]))
    throttle = Throttle(2, 0.2, keep=3)
    throttle.note("a")
    now[0] += 0.05
    throttle.note("a")
    assert throttle.wait("a") == pytest.approx(0.15) and throttle.wait("b") == 0
    now[0] += 0.16  # the first attempt is past the window
    assert throttle.wait("a") == 0
    for address in ("b", "c", "d", "e"):
        throttle.note(address)
        throttle.note(address)
    assert throttle.wait("b") == 0  # forgotten: only the last 3 addresses are kept
    assert throttle.wait("e") > 0
    assert Throttle(0, 60).wait("a") == 0  # 0: no limit


def test_the_ledger_page_holds_an_accounts_last_rows_oldest_first(tmp_path: Path) -> None:
    """An account with more ledger rows than a page holds gets its last LEDGER_ROWS, oldest
    first, and the balance they lead to; the cage's cash-ins are each audited by name."""

    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            ann = await player(server.url, "ann")
            admin = await player(server.url, "boss")
            server.room.store.write_now(
                lambda c: c.execute(
                    s.accounts.update().where(s.accounts.c.name == "boss").values(role="admin")
                )
            )
            for amount in range(1, LEDGER_ROWS + 2):  # the welcome's row, and 501 more
                await admin.http("POST", "/api/cashier", {"name": "ann", "amount": amount})
            ledger = await ann.http("GET", "/api/ledger")
            assert [r["amount"] for r in ledger["rows"]] == list(range(2, LEDGER_ROWS + 2))
            assert ledger["balance"] == 10_000 + sum(range(1, LEDGER_ROWS + 2))
            audit = (await admin.http("GET", "/api/audit"))["rows"]
            assert audit[0]["name"] == "boss" and audit[0]["kind"] == "cash_in"
            assert audit[0]["detail"] == f"{LEDGER_ROWS + 1} chips cashed in for ann"
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())
