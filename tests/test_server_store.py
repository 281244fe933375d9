"""The database: the migrations build exactly the schema the code uses, on SQLite and
PostgreSQL; the ledger check finds every kind of imbalance; the writer commits before it
answers and isolates a failing job."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.server.store import accounts as auth
from croupier.server.store.database import (
    CAGE,
    InsufficientChipsError,
    Store,
    StoreError,
    check_ledger,
    post_ledger,
)
from croupier.server.store.schema import metadata
from server_harness import fresh_postgres_db


def _differences(store: Store) -> list[object]:
    with store.engine.connect() as conn:
        return list(compare_metadata(MigrationContext.configure(conn), metadata))


def test_the_migrations_build_the_schema_of_the_code_on_sqlite(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "room.db"))
    try:
        assert _differences(store) == []
    finally:
        store.close()


def test_the_migrations_build_the_schema_of_the_code_on_postgresql(postgres_dsn: str) -> None:
    store = Store(fresh_postgres_db(postgres_dsn))
    try:
        assert _differences(store) == []
        Store(store.url.replace("+psycopg", "")).close()  # a second start migrates nothing
    finally:
        store.close()


def _accounts(store: Store) -> tuple[int, int]:
    def job(conn: object) -> tuple[int, int]:
        alice = auth.register(conn, "alice", "!", "player", 1000)  # type: ignore[arg-type]
        cage = store.account_id(conn, CAGE)  # type: ignore[arg-type]
        return alice, cage

    return store.write_now(job)


def test_cash_in_buy_in_and_cash_out_balance_and_the_check_finds_tampering(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "room.db"))
    try:
        alice, _ = _accounts(store)
        assert store.read(check_ledger) == []
        with pytest.raises(InsufficientChipsError):
            store.write_now(
                lambda c: post_ledger(
                    c, [("buy_in", alice, None, -5000), ("buy_in", alice, 1, 5000)]
                )
            )
        with pytest.raises(StoreError, match="add up to zero"):
            store.write_now(lambda c: post_ledger(c, [("cash_in", alice, None, 10)]))
        assert store.read(check_ledger) == []
        # a balance changed behind the ledger's back
        store.write_now(
            lambda c: c.exec_driver_sql(
                f"UPDATE accounts SET balance = balance + 1 WHERE id = {alice}"
            )
        )
        problems = store.read(check_ledger)
        assert any("alice: balance 1001 but its ledger rows add up to 1000" in p for p in problems)
        # chips at a table with no seat to hold them
        store.write_now(
            lambda c: c.exec_driver_sql(
                f"UPDATE accounts SET balance = balance - 1 WHERE id = {alice}"
            )
        )
        store.write_now(
            lambda c: c.exec_driver_sql(
                "INSERT INTO tables (id, name, owner_id, spec, status, created, hands, clock, "
                "bank, sit_out_after, pause, lease_until) VALUES "
                f"(1, 't', {alice}, '{{}}', 'open', 0, 0, 1, 1, 1, 0, 0)"
            )
        )
        store.write_now(
            lambda c: post_ledger(c, [("buy_in", alice, None, -100), ("buy_in", alice, 1, 100)])
        )
        assert any(
            "0 chips at the table but the ledger says 100" in p for p in store.read(check_ledger)
        )
    finally:
        store.close()


def test_the_writer_answers_after_the_commit_and_a_failing_job_fails_alone(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "room.db"))
    alice, cage = _accounts(store)

    async def main() -> None:
        def good(amount: int) -> object:
            return lambda c: post_ledger(
                c, [("cash_in", cage, None, -amount), ("cash_in", alice, None, amount)]
            )

        def bad(c: object) -> None:
            post_ledger(c, [("buy_in", alice, None, -(10**9)), ("buy_in", alice, 1, 10**9)])  # type: ignore[arg-type]

        jobs = [store.write(good(1)), store.write(bad), store.write(good(2))]  # type: ignore[arg-type]
        results = await asyncio.gather(*jobs, return_exceptions=True)
        assert isinstance(results[1], InsufficientChipsError)
        assert results[0] is None and results[2] is None
        # committed: a reader on another connection sees both good jobs
        balance = store.read(
            lambda c: c.exec_driver_sql(f"SELECT balance FROM accounts WHERE id = {alice}").scalar()
        )
        assert balance == 1003

    try:
        asyncio.run(main())
        assert store.read(check_ledger) == []
    finally:
        store.close()


def _a_batch_of_rows_with_a_failing_job_stores_the_others(store: Store) -> None:
    """Jobs of rows alone (on PostgreSQL the event loop sends these) in one batch, one of them
    breaking a unique key: that job fails with a StoreError and the batch's others are
    stored, each once."""
    from sqlalchemy import insert

    from croupier.server.store import schema as s

    statement = insert(s.servers)
    store.write_now(lambda c: c.execute(statement, {"id": "taken", "url": "u", "heartbeat": 0}))

    async def main() -> list[Any]:
        jobs = [
            store.write(None, rows=[(statement, {"id": name, "url": "u", "heartbeat": 1.5})])
            for name in ("one", "taken", "two")
        ]
        return list(await asyncio.gather(*jobs, return_exceptions=True))

    one, taken, two = asyncio.run(main())
    assert one is None and two is None
    assert isinstance(taken, StoreError) and "unique" in str(taken).lower()
    stored = store.read(lambda c: list(c.exec_driver_sql("SELECT id, heartbeat FROM servers")))
    assert sorted(stored) == [("one", 1.5), ("taken", 0.0), ("two", 1.5)]
    assert store.writer.failed >= 1  # the batch failed, then its jobs were tried alone


def test_a_batch_of_rows_with_a_failing_job_stores_the_others_on_sqlite(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "room.db"))
    try:
        _a_batch_of_rows_with_a_failing_job_stores_the_others(store)
    finally:
        store.close()


def test_a_batch_of_rows_with_a_failing_job_stores_the_others_on_postgresql(
    postgres_dsn: str,
) -> None:
    store = Store(fresh_postgres_db(postgres_dsn))
    try:
        _a_batch_of_rows_with_a_failing_job_stores_the_others(store)
    finally:
        store.close()


def test_sqlites_log_is_copied_into_the_database_by_the_checkpoint_thread(tmp_path: Path) -> None:
    """Commits leave the WAL alone (no commit stalls on a disk sync); the checkpointer's thread
    copies it into the database file: a copy of that file without its log has the rows."""
    store = Store(str(tmp_path / "room.db"))
    try:
        off = store.read(lambda c: c.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar())
        with store.engine.connect() as conn:
            writer = conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
        assert writer == 0 and off == 1000  # the writer's connections only
        alice, _ = _accounts(store)
        insert = "INSERT INTO audit (at, kind, outcome, detail) VALUES (0, 'x', 'ruling', 'y')"
        for _ in range(30):
            store.write_now(lambda c: c.exec_driver_sql(insert))
        assert store.checkpointer is not None
        seen = store.checkpointer.checkpoints
        deadline = time.monotonic() + 10
        while store.checkpointer.checkpoints < seen + 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        copy = tmp_path / "copy.db"
        copy.write_bytes((tmp_path / "room.db").read_bytes())  # the file alone, not its log
        with sqlite3.connect(copy) as db:
            assert db.execute("SELECT count(*) FROM audit WHERE kind = 'x'").fetchone() == (30,)
            assert db.execute("SELECT name FROM accounts WHERE id = ?", (alice,)).fetchone()
    finally:
        store.close()


# Text a batch's values must survive as they are: PostgreSQL's batches are written as one text
# with the values bound in it (psycopg quotes them), SQLite's through the driver's parameters.
_AWKWARD = ["it's", "100%", "%(name)s", "%s", "$1", "back\\slash", "';DROP TABLE accounts;--",
            'say "hi"', "line\nbreak", "tab\there", "日本語 ♠♥", "E'x'", "", " "]  # fmt: skip
_TEXTS = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=30)


def _stores_a_batch_exactly(store: Store, texts: list[str]) -> None:
    """Jobs submitted at once (so the writer batches them): each inserts an account and reads
    back its new id, posts a ledger change (two rows, one of them a credit to the house's
    balance) and a table event, all carrying one of ``texts``. Every value is stored as given
    and each job gets its own account's id."""
    from sqlalchemy import func, insert, select

    from croupier.server.store import schema as s
    from croupier.server.store.database import HOUSE, post_ledger_rows
    from croupier.server.store.rooms import INSERT_EVENT

    def setup(conn: Any) -> tuple[int, int]:
        house = store.account_id(conn, HOUSE)
        table = conn.execute(
            insert(s.tables).returning(s.tables.c.id),
            {"name": "t", "owner_id": house, "spec": "{}", "status": "open", "created": 0.0,
             "clock": 30.0, "bank": 30.0, "sit_out_after": 2, "pause": 0.0,
             "lease_owner": store.owner, "lease_until": time.time() + 600},
        ).scalar_one()  # fmt: skip
        return house, int(table)

    house, table = store.write_now(setup)
    balance_before = store.read(lambda c: _balance(c, house))
    ledger_before = store.read(lambda c: c.execute(select(func.max(s.ledger.c.id))).scalar())
    new_account = insert(s.accounts).returning(s.accounts.c.id)
    names = [f"{table}.{index}:{text}"[:40] for index, text in enumerate(texts)]

    async def main() -> list[int]:
        jobs = []
        for index, (name, text) in enumerate(zip(names, texts, strict=True)):
            change = [
                ("result", house, table, -(index + 1)),
                ("commission", house, None, index + 1),
            ]
            rows = [
                *post_ledger_rows(change, memo=text, at=0.5 + index),
                (INSERT_EVENT, {"table_id": table, "seq": index, "event": text, "at": 1.25}),
            ]
            account = {"name": name, "password_hash": text, "role": "player", "created": 0.0}
            jobs.append(store.insert(new_account, account, table, rows))
        return list(await asyncio.gather(*jobs))

    ids = asyncio.run(main())

    def stored(conn: Any) -> tuple[object, ...]:
        accounts = {r.id: (r.name, r.password_hash) for r in conn.execute(s.accounts.select())}
        ledger = sorted(
            (r.memo, r.kind, r.amount, r.at)
            for r in conn.execute(s.ledger.select().where(s.ledger.c.id > (ledger_before or 0)))
        )
        events = [
            (r.seq, r.event, r.at)
            for r in conn.execute(s.table_events.select().where(s.table_events.c.table_id == table))
        ]
        return accounts, ledger, sorted(events), _balance(conn, house)

    accounts, ledger, events, balance = store.read(stored)
    assert [accounts[i] for i in ids] == list(zip(names, texts, strict=True))
    assert ledger == sorted(
        row
        for index, text in enumerate(texts)
        for row in (
            (text, "result", -(index + 1), 0.5 + index),
            (text, "commission", index + 1, 0.5 + index),
        )
    )
    assert events == [(index, text, 1.25) for index, text in enumerate(texts)]
    assert balance == balance_before + sum(range(1, len(texts) + 1))


def _fence_refuses_a_table_another_process_holds(store: Store) -> None:
    """The writer's lease fence, in the batch's own transaction: rows about a table another
    process took are refused (LeaseLost) and nothing about it is stored; rows about a table
    still held are stored (each job alone, once the batch failed)."""
    from croupier.server.store.database import LeaseLost
    from croupier.server.store.rooms import UPDATE_HANDS

    owner = store.read(lambda c: c.exec_driver_sql("SELECT min(id) FROM accounts").scalar())
    for name, holder in (("held", store.owner), ("taken", "another-process")):
        store.write_now(
            lambda c, name=name, holder=holder: c.exec_driver_sql(
                "INSERT INTO tables (name, owner_id, spec, status, created, hands, clock, "
                "bank, sit_out_after, pause, lease_owner, lease_until) VALUES "
                f"('{name}', {owner}, '{{}}', 'open', 0, 0, 30, 30, 2, 0, '{holder}', "
                f"{time.time() + 60})"
            )
        )
    ids = dict(store.read(lambda c: list(c.exec_driver_sql("SELECT name, id FROM tables"))))

    async def main() -> list[Any]:
        writes = [
            store.write(None, ids[name], [(UPDATE_HANDS, {"h_table": ids[name], "h_hands": 7})])
            for name in ("held", "taken")
        ]
        return list(await asyncio.gather(*writes, return_exceptions=True))

    held, taken = asyncio.run(main())
    assert held is None and isinstance(taken, LeaseLost)
    hands = dict(store.read(lambda c: list(c.exec_driver_sql("SELECT name, hands FROM tables"))))
    assert hands == {"held": 7, "taken": 0}


def test_a_batch_writes_nothing_about_a_table_whose_lease_another_process_holds_on_sqlite(
    tmp_path: Path,
) -> None:
    store = Store(str(tmp_path / "room.db"), owner="this-process")
    try:
        _fence_refuses_a_table_another_process_holds(store)
    finally:
        store.close()


def test_a_batch_writes_nothing_about_a_table_whose_lease_another_process_holds_on_postgresql(
    postgres_dsn: str,
) -> None:
    store = Store(fresh_postgres_db(postgres_dsn), owner="this-process")
    try:
        _fence_refuses_a_table_another_process_holds(store)
    finally:
        store.close()


def _balance(conn: Any, account: int) -> int:
    from croupier.server.store import schema as s

    return int(
        conn.execute(
            s.accounts.select().with_only_columns(s.accounts.c.balance)
            .where(s.accounts.c.id == account)
        ).scalar_one()
    )  # fmt: skip


def test_a_batch_stores_every_value_as_given_and_each_new_id_to_its_job_on_postgresql(
    postgres_dsn: str,
) -> None:
    store = Store(fresh_postgres_db(postgres_dsn), owner="this-process")
    try:
        _stores_a_batch_exactly(store, _AWKWARD)

        @settings(max_examples=25, deadline=None)
        @given(st.lists(_TEXTS, min_size=1, max_size=12))
        def any_texts(texts: list[str]) -> None:
            _stores_a_batch_exactly(store, texts)

        any_texts()
        assert store.writer.failed == 0
    finally:
        store.close()


def test_a_batch_stores_every_value_as_given_and_each_new_id_to_its_job_on_sqlite(
    tmp_path: Path,
) -> None:
    store = Store(str(tmp_path / "room.db"), owner="this-process")
    try:
        _stores_a_batch_exactly(store, _AWKWARD)
        assert store.writer.failed == 0
    finally:
        store.close()
