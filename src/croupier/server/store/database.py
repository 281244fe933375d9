"""The database: connection, migrations at start, and the chip ledger.

Every change goes through the one writer (:mod:`croupier.server.store.writer`), which runs the jobs
it is given in batches, one transaction per batch (group commit), and answers each job's
future only after the commit: the server broadcasts nothing it has not stored. A job that
fails is retried alone, so one bad job does not sink the others. Jobs about a table first
renew that table's lease, in the same transaction: a process that has lost a table (another
process took it over) can write nothing more about it.

SQLite (a file, the default) runs in WAL mode with ``synchronous=NORMAL``: a commit survives
the process being killed, not the machine losing power. PostgreSQL commits durably, while the
event loop goes on. The WAL is checkpointed into the database by a thread of its own
(:class:`Checkpointer`), not by the commit that happens to fill it: a checkpoint syncs the
files to disk, which took up to 100 ms on this machine, and the writer commits SQLite on the
event loop's thread, where that would stall every table.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from importlib import resources
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Connection,
    Engine,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.sql.expression import Executable

from croupier.server.store import schema as s
from croupier.server.store.writer import (
    LEASE_SECONDS,
    SQLITE_BEGIN,
    LeaseLost,
    Rows,
    StoreError,
    Writer,
)

__all__ = [
    "CAGE",
    "HOUSE",
    "LEASE_SECONDS",
    "InsufficientChipsError",
    "LeaseLost",
    "Store",
    "StoreError",
    "Writer",
    "check_ledger",
    "database_url",
    "post_ledger",
    "post_ledger_rows",
]

HOUSE, CAGE = "house", "cage"  # the accounts that take commission and pay cash-ins

T = TypeVar("T")


def database_url(db: str) -> str:
    """``postgresql://...`` (run through psycopg 3), ``sqlite:///file``, or a plain file path."""
    if db.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    if "://" in db:
        return db
    return f"sqlite:///{db}"


def _sqlite_setup(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy's BEGIN below, not pysqlite's
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA wal_autocheckpoint=0")  # the Checkpointer's thread does it
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def begin(connection: Connection) -> None:
        connection.exec_driver_sql(SQLITE_BEGIN)


class Store:
    """One database. Reads run anywhere (:meth:`read`); writes go through :attr:`writer`."""

    def __init__(self, db: str, *, owner: str = "") -> None:
        self.url = database_url(db)
        self.sqlite = self.url.startswith("sqlite")
        self.owner = owner  # this process's lease name
        if self.sqlite:
            # The writer keeps one connection; the other is for write_now (tools, tests).
            self.engine = create_engine(self.url, pool_size=2, max_overflow=0)
            _sqlite_setup(self.engine)
            self.reader = create_engine(self.url)
            _sqlite_reader(self.reader)
        else:
            self.engine = create_engine(self.url, pool_size=2, max_overflow=2, pool_pre_ping=True)
            self.reader = create_engine(self.url, pool_size=4, max_overflow=8, pool_pre_ping=True)
        self.migrate()
        self._ensure_house()
        threaded = os.environ.get("CROUPIER_WRITER_THREAD", "" if self.sqlite else "1") == "1"
        self.writer = Writer(self, threaded=threaded)
        self.checkpointer: Checkpointer | None = None
        if self.sqlite and self.engine.url.database not in (None, "", ":memory:"):
            self.checkpointer = Checkpointer(str(self.engine.url.database))

    def migrate(self) -> None:
        """Bring the schema to the newest migration shipped in the package."""
        config = Config()
        folder = resources.files("croupier.server.store") / "migrations"
        config.set_main_option("script_location", str(folder))
        with self.engine.connect() as connection:
            # SQLite checks foreign keys as each statement runs: a migration that makes a
            # table again (Alembic's batch: copy, drop, rename) runs without, and the keys are
            # checked whole before its commit (sqlite.org/lang_altertable.html, section 7).
            driver = connection.connection.driver_connection if self.sqlite else None
            if driver is not None:
                driver.execute("PRAGMA foreign_keys=OFF")  # outside a transaction, or ignored
            try:
                with connection.begin():
                    config.attributes["connection"] = connection
                    command.upgrade(config, "head")
                    if driver is not None:
                        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                        if broken:
                            raise StoreError(f"the migrations broke foreign keys: {broken[:5]}")
            finally:
                if driver is not None:
                    driver.execute("PRAGMA foreign_keys=ON")

    def _ensure_house(self) -> None:
        with self.engine.begin() as conn:
            for name in (HOUSE, CAGE):
                if conn.scalar(select(s.accounts.c.id).where(s.accounts.c.name == name)) is None:
                    conn.execute(
                        insert(s.accounts).values(
                            name=name,
                            password_hash="!",
                            role=name,
                            balance=0,
                            created=time.time(),
                        )
                    )

    def account_id(self, conn: Connection, name: str) -> int:
        found = conn.scalar(select(s.accounts.c.id).where(s.accounts.c.name == name))
        if found is None:
            raise StoreError(f"no account {name!r}")
        return int(found)

    def read(self, fn: Callable[[Connection], T]) -> T:
        with self.reader.connect() as conn:
            return fn(conn)

    async def aread(self, fn: Callable[[Connection], T]) -> T:
        return await asyncio.to_thread(self.read, fn)

    def write_now(self, fn: Callable[[Connection], T]) -> T:
        """Run one job in its own transaction, here (start-up and tools)."""
        with self.engine.begin() as conn:
            return fn(conn)

    async def aclose(self) -> None:
        """Store what is pending, then close every connection."""
        await self.writer.drain()
        await asyncio.to_thread(self.close)

    async def write(
        self, fn: Callable[[Connection], T] | None, table_id: int | None = None, rows: Rows = ()
    ) -> T:
        """Run ``rows`` and ``fn`` in the writer's next transaction; returns once it is
        committed."""
        return await self.writer.submit(fn, table_id, rows)

    async def insert(
        self, statement: Executable, values: dict[str, Any], table_id: int, rows: Rows = ()
    ) -> int:
        """Insert one row (``statement``: an INSERT ... RETURNING its id) with ``rows``, in the
        writer's next transaction; its id once it is committed."""
        return int(await self.writer.submit(None, table_id, rows, (statement, values)))

    def close(self) -> None:
        if self.checkpointer is not None:
            self.checkpointer.stop()
        self.writer.close()
        self.engine.dispose()
        self.reader.dispose()


class Checkpointer:
    """Copies SQLite's write-ahead log into the database every ``interval`` seconds, on a thread
    and a connection of its own. A PASSIVE checkpoint never blocks the writer or the readers; it
    copies what no reader still needs, and the log starts over once all of it is copied.
    Durability is SQLite's WAL with ``synchronous=NORMAL`` either way: a committed change is in
    the log, which a restart replays; the checkpoint only moves it into the main file."""

    def __init__(self, path: str, interval: float = 0.5) -> None:
        self.path = path
        self.interval = interval
        self.checkpoints = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            connection = sqlite3.connect(self.path, check_same_thread=False)
        except sqlite3.Error:
            return
        try:
            connection.execute("PRAGMA busy_timeout=1000")
            while not self._stop.wait(self.interval):
                self.checkpoint(connection)
            self.checkpoint(connection)
        finally:
            connection.close()

    def checkpoint(self, connection: sqlite3.Connection) -> None:
        try:
            connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            self.checkpoints += 1
        except sqlite3.Error:
            pass  # busy or closing: the next round copies it

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)


def _sqlite_reader(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()


# --- the ledger ----------------------------------------------------------------------------


class InsufficientChipsError(StoreError):
    """An account cannot pay: its balance is too small."""


def post_ledger(
    conn: Connection,
    rows: Iterable[tuple[str, int, int | None, int]],
    *,
    hand_id: int | None = None,
    memo: str = "",
) -> None:
    """Write one ledger change: ``(kind, account, table or None, amount)`` rows that add up to
    zero. Rows on an account's balance (table None) update it; a balance may not go below zero
    (the cage's excepted: it pays the cash-ins)."""
    now = time.time()
    rows = list(rows)
    if sum(amount for _, _, _, amount in rows) != 0:
        raise StoreError(f"a ledger change must add up to zero: {rows}")
    for _, account, table, amount in rows:
        if table is None and amount:
            change = update(s.accounts).where(s.accounts.c.id == account)
            if amount < 0:
                change = change.where(
                    (s.accounts.c.balance >= -amount) | (s.accounts.c.role == CAGE)
                )
            if conn.execute(change.values(balance=s.accounts.c.balance + amount)).rowcount != 1:
                raise InsufficientChipsError(f"the account has fewer than {-amount} chips to spend")
    conn.execute(
        insert(s.ledger),
        [
            {
                "at": now,
                "kind": kind,
                "account_id": account,
                "table_id": table,
                "hand_id": hand_id,
                "amount": amount,
                "memo": memo,
            }
            for kind, account, table, amount in rows
        ],
    )


def post_ledger_rows(
    rows: Iterable[tuple[str, int, int | None, int]],
    *,
    hand_id: int | None = None,
    memo: str = "",
    at: float | None = None,
) -> list[tuple[Executable, dict[str, Any]]]:
    """:func:`post_ledger` as statements for the writer's batch (``rows`` of a job), for a
    change that only credits balances (a debit must check the balance: :func:`post_ledger`)."""
    now = time.time() if at is None else at
    rows = list(rows)
    if sum(amount for _, _, _, amount in rows) != 0:
        raise StoreError(f"a ledger change must add up to zero: {rows}")
    out: list[tuple[Executable, dict[str, Any]]] = []
    for _, account, table, amount in rows:
        if table is None and amount:
            if amount < 0:
                raise StoreError("a debit checks the balance: post it with post_ledger")
            out.append((_CREDIT, {"l_account": account, "l_amount": amount}))
    out += [
        (_INSERT_LEDGER, {"at": now, "kind": kind, "account_id": account, "table_id": table,
                          "hand_id": hand_id, "amount": amount, "memo": memo})
        for kind, account, table, amount in rows
    ]  # fmt: skip
    return out


_CREDIT = (
    update(s.accounts)
    .where(s.accounts.c.id == bindparam("l_account"))
    .values(balance=s.accounts.c.balance + bindparam("l_amount"))
)
_INSERT_LEDGER = insert(s.ledger)


def check_ledger(conn: Connection) -> list[str]:
    """Every way the ledger could fail to balance, as messages (empty: it balances).

    The rows add up to zero; each account's balance is the sum of its balance rows and is not
    negative (the cage aside); the chips each account has at each table are the sum of its rows
    for that table, which are the seat's chips while it sits there and zero once it has left.
    """
    _snapshot(conn)
    problems: list[str] = []
    total = conn.scalar(select(func.coalesce(func.sum(s.ledger.c.amount), 0)))
    if total != 0:
        problems.append(f"the ledger adds up to {total}, not 0")
    sums = {
        (row.account_id, row.table_id): int(row.total)
        for row in conn.execute(
            select(
                s.ledger.c.account_id,
                s.ledger.c.table_id,
                func.sum(s.ledger.c.amount).label("total"),
            ).group_by(s.ledger.c.account_id, s.ledger.c.table_id)
        )
    }
    for account in conn.execute(
        select(s.accounts.c.id, s.accounts.c.name, s.accounts.c.role, s.accounts.c.balance)
    ):
        booked = sums.get((account.id, None), 0)
        if booked != account.balance:
            problems.append(
                f"{account.name}: balance {account.balance} but its ledger rows add up to {booked}"
            )
        if account.balance < 0 and account.role != CAGE:
            problems.append(f"{account.name}: negative balance {account.balance}")
    seated = {
        (row.account_id, row.table_id): int(row.chips)
        for row in conn.execute(select(s.seats.c.account_id, s.seats.c.table_id, s.seats.c.chips))
    }
    for key in set(seated) | {k for k in sums if k[1] is not None}:
        booked, chips = sums.get(key, 0), seated.get(key, 0)
        if booked != chips:
            problems.append(
                f"account {key[0]} at table {key[1]}: {chips} chips at the table but the ledger "
                f"says {booked}"
            )
        if chips < 0:
            problems.append(f"account {key[0]} at table {key[1]}: negative chips {chips}")
    return problems


def _snapshot(conn: Connection) -> None:
    """Make every query on ``conn`` see one moment of the database: a check made while the
    server writes must not see a hand's ledger rows without its seats (or the reverse)."""
    if conn.dialect.name == "postgresql":
        conn.execution_options(isolation_level="REPEATABLE READ")
    elif conn.dialect.name == "sqlite":
        conn.exec_driver_sql("BEGIN")  # a read transaction: WAL keeps its snapshot
