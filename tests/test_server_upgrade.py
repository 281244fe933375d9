"""An existing card room's database upgrades with nothing lost: a table stored without a
betting structure deals, after the upgrade, the structure it was dealt before (migration 0006),
and a new table stores its structure written out, so that a later change of default cannot
change a table in play; a card room of main before revision 0007 (a tournament's hands and
moves in tables of their own), stopped with a cash hand and a tournament hand in play, goes on
after the upgrade with both hands and every chip (issue 38)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text
from sqlalchemy import inspect as sa_inspect

from croupier.betting import Structure
from croupier.client import Client, ClientError
from croupier.games import GAMES
from croupier.rulebooks import rulebook_names
from croupier.server.rooms.table_spec import SpecError, TableSpec, rules_for
from croupier.server.store.database import Store, check_ledger, database_url
from server_clients import free_port
from server_harness import fresh_postgres_db, player, simple_move, start_serve

# What a book's table without a structure was dealt before revision 0006, read from the code
# of that time (rules_for of a spec with no structure): the books' own defaults then.
BEFORE = {
    "au-casino": Structure.NO_LIMIT,
    "cardroom": Structure.FIXED,
    "league": Structure.NO_LIMIT,
    "qld": Structure.POT,
    "rws": Structure.NO_LIMIT,
}


TABLE_ROW = text(
    "INSERT INTO tables (id, name, owner_id, spec, status, created, hands, clock, bank, "
    "sit_out_after, pause) VALUES (:id, 't', 50, :spec, 'open', :now, 1, 30, 60, 2, 3)"
)
HAND_ROW = text(
    "INSERT INTO hands (id, table_id, number, status, spec, deck, seed, button, seats, events, "
    "started) VALUES (:id, :id, 1, 'finished', :spec, '[]', 1, 1, '[]', '[]', :now)"
)


def _dealt_specs() -> list[TableSpec]:
    specs = []
    for book in rulebook_names():
        for game in GAMES:
            spec = TableSpec(game=game, rulebook=book, stakes="2/4", seats=6)
            try:
                rules_for(spec)
            except SpecError:
                continue  # a game the book does not deal
            specs.append(spec)
    return specs


@pytest.mark.parametrize("spec", _dealt_specs(), ids=lambda s: f"{s.rulebook}-{s.game}")
def test_a_spec_written_out_deals_exactly_what_the_blank_one_does(spec: TableSpec) -> None:
    written = spec.written_out()
    assert written.structure is not None
    assert rules_for(written) == rules_for(spec)


def _migrations(db: str) -> Config:
    from importlib import resources

    config = Config()
    folder = resources.files("croupier.server.store") / "migrations"
    config.set_main_option("script_location", str(folder))
    config.set_main_option("sqlalchemy.url", db)
    return config


def test_migration_0006_keeps_the_structure_each_stored_table_was_dealt_sqlite(
    tmp_path: Path,
) -> None:
    _upgrade_keeps_the_structures(f"sqlite:///{tmp_path / 'old.db'}")


def test_migration_0006_keeps_the_structure_each_stored_table_was_dealt_postgres(
    postgres_dsn: str,
) -> None:
    _upgrade_keeps_the_structures(fresh_postgres_db(postgres_dsn))


def _upgrade_keeps_the_structures(db: str) -> None:
    """A database at revision 0005 holding book tables and hands with no structure, then a
    card room started on it: each deals the structure it was dealt before."""
    url = database_url(db)
    engine = create_engine(url)
    config = _migrations(url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0005")
    specs = [TableSpec(game=g, rulebook=b, stakes="2/4") for b in BEFORE for g in ("holdem",)]
    specs += [TableSpec(game="stud7", rulebook="au-casino", stakes="1/2"),
              TableSpec(game="omaha", rulebook="cardroom", stakes="2/4")]  # fmt: skip
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO accounts (id, name, password_hash, role, balance, created) "
                "VALUES (50, 'owner', '!', 'player', 0, 0)"
            )
        )
        for number, spec in enumerate(specs, start=1):
            stored = json.dumps({**spec.to_json(), "structure": None})
            values = {"id": number, "spec": stored, "now": time.time()}
            connection.execute(TABLE_ROW, values)
            connection.execute(HAND_ROW, values)
    engine.dispose()
    Store(db).close()  # a card room starting on the old database upgrades it
    engine = create_engine(url)
    with engine.connect() as connection:
        for name in ("tables", "hands"):
            rows = connection.execute(text(f"SELECT id, spec FROM {name} ORDER BY id")).all()
            for row, spec in zip(rows, specs, strict=True):
                stored = TableSpec.from_json(json.loads(row.spec))
                dealt = rules_for(stored)[0].betting.structures
                assert dealt == (BEFORE[spec.rulebook or ""],), (name, spec)
    engine.dispose()


# --- a card room started on main before revision 0007, upgraded with nothing lost -------------

BEFORE_0007 = "77064bc"
"""main before one set of hand and move tables (revision 0007): its code stores a tournament's
hands and moves in tables of their own."""


def _old_code(tmp_path: Path) -> Path:
    """The card room's code as main had it before revision 0007, unpacked from git."""
    import subprocess
    import tarfile

    root = Path(__file__).resolve().parent.parent
    archive = tmp_path / "old.tar"
    done = subprocess.run(
        ["git", "-C", str(root), "archive", "-o", str(archive), BEFORE_0007, "src"],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        why = f"the code of {BEFORE_0007} is not in this checkout's git: {done.stderr!r}"
        if os.environ.get("CI"):  # CI runs in a clone, which has it: never skipped there
            pytest.fail(why)
        pytest.skip(why)
    with tarfile.open(archive) as tar:
        # Only this repository's files; Python before 3.11.4 has no extraction filters.
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        tar.extractall(tmp_path / "old", **safe)
    return tmp_path / "old" / "src"


async def _turn(clients: list[Any], table: int) -> None:
    """The client whose turn it is at ``table`` checks or calls (or folds), else a moment."""
    for client in clients:
        view = client.views.get(table)
        if view is not None and view.my_turn:
            kind, fields = simple_move(view.legal or {})
            with contextlib.suppress(ClientError):  # the clock or a bot was first
                await client.act(table, kind, **fields)
            return
    await asyncio.sleep(0.05)


def _money(db: str) -> dict[str, int]:
    """Every account's balance and every seat's chips, by name."""
    engine = create_engine(database_url(db))
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT a.name, a.balance + COALESCE((SELECT SUM(chips) FROM seats "
                "WHERE account_id = a.id), 0) FROM accounts a"
            )
        ).all()
    engine.dispose()
    return {str(name): int(chips) for name, chips in rows}


def test_a_card_room_of_before_0007_upgrades_and_plays_on_sqlite(tmp_path: Path) -> None:
    _a_card_room_upgrades(tmp_path, str(tmp_path / "room.db"))


def test_a_card_room_of_before_0007_upgrades_and_plays_on_postgres(
    tmp_path: Path, postgres_dsn: str
) -> None:
    _a_card_room_upgrades(tmp_path, fresh_postgres_db(postgres_dsn))


def _a_card_room_upgrades(tmp_path: Path, db: str) -> None:
    """A real ``croupier serve`` of main before revision 0007 with players, a cash table with a
    hand in progress (a client acted in it) and a tournament with a hand in play waiting for
    ann, killed; then the new code's ``croupier serve`` on the same database: it upgrades, the
    cash hand goes on from where it was and finishes, the tournament's hand is dealt again
    from its stored setup and moves (ann sees what she saw) and finishes, and no chip is lost
    or made (every balance and stack as before the upgrade; the ledger balances)."""
    old = _old_code(tmp_path)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": f"{old}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    process = start_serve(db, port, "--no-demo", "--clock", "600", env=env)

    async def before() -> tuple[int, int, list[Any], int, tuple[Any, ...]]:
        alice, bob = await player(url, "alice"), await player(url, "bob")
        table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 3})
        await alice.add_bot(table, 2)
        await alice.sit(table, 1, 200)
        await bob.sit(table, 3, 200)
        view = alice.views[table]
        while not (view.hand and any(e["event"] in ("Call", "Check", "Fold") for e in view.events)):
            await _turn([alice, bob], table)
        td = await player(url, "td")
        engine = create_engine(database_url(db))
        with engine.begin() as connection:
            connection.execute(text("UPDATE accounts SET role = 'admin' WHERE name = 'td'"))
        engine.dispose()
        await td.close()
        td = await Client.login(url, "td", "password-1")
        await td.connect()
        ann = await player(url, "ann")
        tournament_settings = {
            "name": "Thursday", "table_size": 6, "denominations": [5, 25, 100],
            "buy_in": {"price": 1000, "fee": 100, "chips": 1500},
            "levels": [{"small_blind": 5, "big_blind": 10, "minutes": 30}],
        }  # fmt: skip
        number = await td.create_tournament(tournament_settings, seed=9, clock=600)
        await ann.register_tournament(number)
        await td.http("POST", f"/api/tournaments/{number}/bots", {"count": 5})
        await ann.follow_tournament(number)
        await td.direct(number, "start")
        turn = await ann.tournament_turn(number, timeout=60)
        await td.direct(number, "pause")
        seen = (turn.table, turn.you, turn.hand, list(turn.events), turn.legal)
        for client in (alice, bob, td, ann):
            await client.close()
        return table, int(view.hand or 0), list(view.events), number, seen

    try:
        table, hand, events, number, seen = asyncio.run(asyncio.wait_for(before(), 180))
    finally:
        process.send_signal(signal.SIGKILL)  # stopped as a crash would stop it
        process.wait(timeout=30)
    money = _money(db)
    engine = create_engine(database_url(db))
    with engine.connect() as connection:
        old_moves = connection.execute(
            text(
                "SELECT count(*) FROM tournament_moves m JOIN tournament_hands h "
                "ON h.id = m.hand_id WHERE h.tournament_id = :t"
            ),
            {"t": number},
        ).scalar_one()
    engine.dispose()

    process = start_serve(db, port, "--no-demo", "--clock", "600")  # the new code
    try:
        engine = create_engine(database_url(db))
        with engine.connect() as connection:
            tables = sa_inspect(connection).get_table_names()
            assert "tournament_hands" not in tables and "tournament_moves" not in tables
            playing = connection.execute(
                text(
                    "SELECT h.id, h.table_no, h.number FROM hands h WHERE h.tournament_id = :t "
                    "AND h.status = 'playing'"
                ),
                {"t": number},
            ).one()
            moved = connection.execute(
                text("SELECT count(*) FROM moves WHERE hand_id = :h"), {"h": playing.id}
            ).scalar_one()
        engine.dispose()
        assert (playing.table_no, playing.number) == (seen[0], seen[2])
        assert moved == old_moves
        assert _money(db) == money  # the upgrade moved no chip

        async def after() -> None:
            alice = await Client.login(url, "alice", "password-1")
            bob = await Client.login(url, "bob", "password-1")
            for client in (alice, bob):
                await client.connect()
            for _ in range(200):  # each told the table it sits at on hello
                if all(table in c.views and c.views[table].hand for c in (alice, bob)):
                    break
                await asyncio.sleep(0.05)
            view = alice.views[table]
            assert view.hand == hand  # the same hand, resumed
            assert view.events[: len(events)] == events
            while not any(r["hand"] == hand for r in view.results):
                await _turn([alice, bob], table)
            assert next(r for r in view.results if r["hand"] == hand)["void"] is False

            ann = await Client.login(url, "ann", "password-1")
            await ann.connect()
            turn = await ann.follow_tournament(number)
            await ann.tournament_turn(number, timeout=30)
            assert (turn.table, turn.you, turn.hand, turn.events, turn.legal) == seen
            td = await Client.login(url, "td", "password-1")
            await td.connect()
            await td.direct(number, "resume")
            await ann.tournament_act(number, "fold")
            for _ in range(600):
                if any(r["hand"] == seen[2] for r in turn.results):
                    break
                await asyncio.sleep(0.05)
            over = next(r for r in turn.results if r["hand"] == seen[2])
            assert over["void"] is False
            for client in (alice, bob, ann, td):
                await client.close()

        asyncio.run(asyncio.wait_for(after(), 180))
        store = Store(db)
        try:
            assert store.read(check_ledger) == []
        finally:
            store.close()
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.communicate(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()


# --- migration 0008: the live tables' journals and the clock screens out of the audit log -----

AUDIT_ROW = text(
    "INSERT INTO audit (id, at, account_id, kind, outcome, detail) "
    "VALUES (:id, :at, 50, :kind, 'applied', :detail)"
)
TOURNAMENT_ROW = text(
    "INSERT INTO tournaments (id, name, owner_id, settings, seed, status, pool_id, clock, "
    "pause, bot, created) VALUES (7, 'cup', 50, '{}', 99, 'running', 50, 30, 3, 'strength', 0)"
)


def test_migration_0008_carries_the_audited_journals_over_sqlite(tmp_path: Path) -> None:
    _carries_the_journals_over(f"sqlite:///{tmp_path / 'old.db'}")


def test_migration_0008_carries_the_audited_journals_over_postgres(postgres_dsn: str) -> None:
    _carries_the_journals_over(fresh_postgres_db(postgres_dsn))


def _carries_the_journals_over(db: str) -> None:
    """A database at revision 0006 whose live tables' journals and clock-screen settings are
    audit rows (as the code before 0008 wrote them), then a card room started on it: every
    journal reads as it did, the table made again from it deals on, a new table gets a new
    number, the last clock-screen choice stands, and the audit rows stay."""
    from croupier.server.live.table import LiveTables
    from croupier.server.store import live as live_rows
    from croupier.server.store import screens as screen_rows

    url = database_url(db)
    engine = create_engine(url)
    config = _migrations(url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0006")
    seats = [{"name": n, "chips": 1000} for n in ("ann", "bob", "cy")]
    setup = {"book": "qld", "game": "holdem", "stakes": "5/10", "seats": seats}
    rows = [
        (3, "live_open", json.dumps(setup)),
        (4, "live_open", json.dumps({**setup, "book": "rws"})),
        (5, "live_step", json.dumps({"live": 3, "line": "deal"})),
        (6, "clock_screen", json.dumps({"tournament": 7, "private": True, "leader": False})),
        (7, "live_step", json.dumps({"live": 4, "line": "deal"})),
        (8, "live_step", json.dumps({"live": 3, "line": "p3 call"})),
        (9, "clock_screen", json.dumps({"tournament": 7, "private": True, "leader": True})),
        (10, "live_step", json.dumps({"live": 3, "line": "p1 call"})),
    ]
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO accounts (id, name, password_hash, role, balance, created) "
                "VALUES (50, 'owner', '!', 'dealer', 0, 0)"
            )
        )
        connection.execute(TOURNAMENT_ROW)
        for number, kind, detail in rows:
            connection.execute(AUDIT_ROW, {"id": number, "at": 1000.0 + number, "kind": kind,
                                           "detail": detail})  # fmt: skip
        if connection.dialect.name == "postgresql":  # the rows were written with their ids
            connection.execute(text("SELECT setval(pg_get_serial_sequence('audit', 'id'), 10)"))
    engine.dispose()
    store = Store(db)  # a card room starting on the old database upgrades it
    try:
        found = store.read(lambda c: live_rows.journal(c, 3))
        assert found is not None and found.owner == 50 and found.setup == setup
        assert found.lines == ["deal", "p3 call", "p1 call"]
        other = store.read(lambda c: live_rows.journal(c, 4))
        assert other is not None and other.lines == ["deal"] and other.setup["book"] == "rws"
        assert store.read(lambda c: live_rows.lines_kept(c, 3)) == 3
        listed = store.read(lambda c: live_rows.tables_of(c, 50))
        assert [j.number for j in listed] == [4, 3]
        table = LiveTables().rebuilt(3, found.owner, found.setup, found.lines)
        assert table.view()["prompt"] == "the dealer to burn 1 card"  # the flop is next
        screen = store.read(lambda c: screen_rows.clock_screen(c, 7))
        assert screen is not None and screen.private and screen.leader
        # New lines and tables go on from the ones carried over.
        store.write_now(lambda c: live_rows.add_line(c, 50, 3, "deal"))
        found = store.read(lambda c: live_rows.journal(c, 3))
        assert found is not None and found.lines == ["deal", "p3 call", "p1 call", "deal"]
        number = store.write_now(lambda c: live_rows.open_table(c, 50, setup))
        assert number > 4
        store.write_now(lambda c: screen_rows.set_clock_screen(c, 50, 7, False, True))
        screen = store.read(lambda c: screen_rows.clock_screen(c, 7))
        assert screen is not None and not screen.private and screen.leader
    finally:
        store.close()
    engine = create_engine(url)
    with engine.connect() as connection:  # the audit log keeps every row, and the new ones
        kinds = [r.kind for r in connection.execute(text("SELECT kind FROM audit ORDER BY id"))]
        assert kinds == [kind for _, kind, _ in rows] + ["live_step", "live_open", "clock_screen"]
    engine.dispose()
