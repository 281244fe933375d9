"""The database: connection, migrations at start, the one writer, and the chip ledger.

Every change goes through :class:`Writer`, which runs the jobs it is given in batches, one
transaction per batch (group commit), and answers each job's future only after the commit:
the server broadcasts nothing it has not stored. A job that fails is retried alone, so one bad
job does not sink the others. Jobs about a table first renew that table's lease, in the same
transaction: a process that has lost a table (another process took it over) can write nothing
more about it.

SQLite (a file, the default) runs in WAL mode with ``synchronous=NORMAL``: a commit survives
the process being killed, not the machine losing power. PostgreSQL commits durably, on the
writer's own threads, while the event loop goes on. The WAL is checkpointed into the database by
a thread of its own (:class:`Checkpointer`), not by the commit that happens to fill it: a
checkpoint syncs the files to disk, which took up to 100 ms on this machine, and the writer
commits SQLite on the event loop's thread, where that would stall every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from typing import Any, Generic, TypeVar

import psycopg
from alembic import command
from alembic.config import Config
from psycopg.adapt import Transformer
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
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.sql.expression import Executable, Insert

from croupier.server import schema as s

__all__ = [
    "LEASE_SECONDS",
    "LeaseLost",
    "Store",
    "StoreError",
    "Writer",
    "check_ledger",
    "database_url",
    "post_ledger",
]

# A table whose process stops renewing its lease may be taken over after this many seconds.
LEASE_SECONDS = float(os.environ.get("CROUPIER_LEASE_SECONDS", "10"))
HOUSE, CAGE = "house", "cage"  # the accounts that take commission and pay cash-ins

T = TypeVar("T")
# Statements a job runs, with their parameters: the writer runs each statement once for all the
# rows of its batch.
Rows = Sequence[tuple[Executable, dict[str, Any]]]
_Outcome = tuple[Any, BaseException | None]  # what a job returned, or raised


class StoreError(RuntimeError):
    """The database refused or failed a change."""


class LeaseLost(StoreError):  # noqa: N818 (reads as what happened)
    """This process no longer owns the table: another one took it over."""


def database_url(db: str) -> str:
    """``postgresql://...`` (run through psycopg 3), ``sqlite:///file``, or a plain file path."""
    if db.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    if "://" in db:
        return db
    return f"sqlite:///{db}"


_BEGIN_SQLITE = "BEGIN IMMEDIATE"  # a writer takes the write lock at once


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
        connection.exec_driver_sql(_BEGIN_SQLITE)


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
        folder = resources.files("croupier.server") / "migrations"
        config.set_main_option("script_location", str(folder))
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

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


@dataclass
class _Job(Generic[T]):
    fn: Callable[[Connection], T] | None
    table_id: int | None
    future: asyncio.Future[T]
    rows: Rows = ()
    returning: tuple[Executable, dict[str, Any]] | None = None  # its id is the job's result


class Writer:
    """The one place that writes. Jobs submitted while the event loop is busy are run together
    in one transaction when it next gets to them (group commit), and each job's future is
    answered after the commit. A job's ``rows`` (statement and parameters) are run before the
    jobs' functions: on SQLite one statement for all the batch's rows of a kind (executemany),
    on PostgreSQL the whole batch as one text in one round trip.

    On SQLite the batch runs on the event loop's own thread: a writer thread would wait for the
    interpreter lock at every database call while the loop is busy, which cost far more than
    the commit. On PostgreSQL it runs on threads of its own (``threaded``): the durable commit
    is a wait on the network, with the interpreter lock released, and the loop goes on (and
    gathers the next batch) meanwhile; each such wait costs the thread a wait for the lock
    afterwards, so a batch makes as few as it can (:meth:`_run_postgres`). Two batches may be
    in flight, each on its own thread and connection: the next one starts as soon as the one
    before has run its statements, while that one's COMMIT waits for the disk
    (docs/scaling.md). Deadlock-free: a batch that is only committing holds its locks and
    waits for none, and at most one batch runs statements. A connection is opened again after
    a failure."""

    def __init__(self, store: Store, batch: int = 400, *, threaded: bool = False) -> None:
        self.store = store
        self.batch = batch
        self.threaded = threaded
        self._jobs: list[_Job[Any]] = []
        self._scheduled = False
        self._idle: list[Connection] = []  # connections between batches
        self._idle_lock = threading.Lock()
        self._inflight: list[list[_Job[Any]]] = []  # the batches on the threads (threaded)
        self._executing: list[_Job[Any]] | None = None  # of which the one running statements
        self._thread: ThreadPoolExecutor | None = None
        if threaded:
            self._thread = ThreadPoolExecutor(2, thread_name_prefix="croupier-writer")
        self._compiled: dict[tuple[Executable, tuple[str, ...]], _DriverStatement] = {}
        self.commits = 0
        self.overlapped = 0  # batches started while the one before was committing
        self.failed = 0  # transactions that failed (a batch's jobs are then tried each alone)
        self.busy = 0.0  # seconds spent running batches
        self.committing = 0.0  # of which in COMMIT
        self.cpu = 0.0  # the CPU time of the thread that ran them, meanwhile

    def submit(
        self,
        fn: Callable[[Connection], T] | None,
        table_id: int | None = None,
        rows: Rows = (),
        returning: tuple[Executable, dict[str, Any]] | None = None,
    ) -> asyncio.Future[T]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.append(_Job(fn, table_id, future, rows, returning))
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._flush)
        return future

    async def drain(self) -> None:
        """Wait until every job submitted so far is stored (or has failed)."""
        pending = [job.future for batch in [*self._inflight, self._jobs] for job in batch]
        if self._jobs and not self.threaded:
            self._flush()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)

    def _flush(self) -> None:
        self._scheduled = False
        if self.threaded:
            self._hand_over()
            return
        while self._jobs:
            jobs, self._jobs = self._jobs[: self.batch], self._jobs[self.batch :]
            self._settle(jobs, self._commit(jobs))

    def _hand_over(self) -> None:
        """Threaded: give a thread the next batch once the batch before has run its statements
        (it may still be committing); the jobs that came meanwhile go together."""
        if self._executing is not None or len(self._inflight) > 1 or not self._jobs:
            return
        assert self._thread is not None
        jobs, self._jobs = self._jobs[: self.batch], self._jobs[self.batch :]
        self.overlapped += bool(self._inflight)
        self._inflight.append(jobs)
        self._executing = jobs
        loop = asyncio.get_running_loop()

        def executed() -> None:  # on the writer's thread, before the COMMIT
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(self._executed, jobs)

        done = loop.run_in_executor(self._thread, self._commit, jobs, executed)
        done.add_done_callback(lambda f: self._stored(jobs, f))

    def _executed(self, jobs: list[_Job[Any]]) -> None:
        if self._executing is jobs:
            self._executing = None
            self._hand_over()

    def _stored(self, jobs: list[_Job[Any]], done: asyncio.Future[list[_Outcome]]) -> None:
        self._inflight = [batch for batch in self._inflight if batch is not jobs]
        if self._executing is jobs:
            self._executing = None
        error = done.exception() if not done.cancelled() else asyncio.CancelledError()
        if error is not None:
            outcomes: list[_Outcome] = [(None, error)] * len(jobs)
        else:
            outcomes = done.result()
        self._settle(jobs, outcomes)
        self._hand_over()

    @staticmethod
    def _settle(jobs: list[_Job[Any]], outcomes: list[_Outcome]) -> None:
        for job, (result, error) in zip(jobs, outcomes, strict=True):
            _settle(job.future, result=result, error=error)

    def _connection(self) -> Connection:
        """A connection for one batch: an idle one, or a new one."""
        with self._idle_lock:
            while self._idle:
                conn = self._idle.pop()
                if not (conn.closed or conn.invalidated):
                    return conn
        conn = self.store.engine.connect()
        if not self.store.sqlite:  # each batch's text opens its transaction (_run_postgres)
            conn = conn.execution_options(isolation_level="AUTOCOMMIT")
        return conn

    def _give_back(self, conn: Connection) -> None:
        with self._idle_lock:
            self._idle.append(conn)

    def close(self) -> None:
        if self._thread is not None:
            self._thread.shutdown()  # after the batches in flight
        with self._idle_lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            _close(conn)

    def _commit(
        self, jobs: list[_Job[Any]], executed: Callable[[], None] = lambda: None
    ) -> list[_Outcome]:
        """Run the jobs in one transaction; what each job returned or raised. ``executed`` is
        called when the statements have run, before the COMMIT (or after a failure's retries)."""
        # A thread's CPU time is a system call: read only for the writer's threads (on the
        # loop's thread, the writer's time is its CPU time).
        began, cpu = time.perf_counter(), time.thread_time() if self.threaded else 0.0
        conn: Connection | None = None
        try:
            conn = self._connection()
            with self._transaction(conn, jobs):
                run = self._run_sqlite if self.store.sqlite else self._run_postgres
                inserted = run(conn, jobs)
                # Then the jobs' functions, which may read what the rows wrote.
                results: list[Any] = []
                for index, job in enumerate(jobs):
                    if index in inserted:
                        results.append(inserted[index])
                    else:
                        results.append(None if job.fn is None else job.fn(conn))
                executed()
                ran = time.perf_counter()
            self.commits += 1
            self.committing += time.perf_counter() - ran
            self._give_back(conn)
        except BaseException:
            self.failed += 1
            if conn is not None:
                _close(conn)
            if len(jobs) > 1:  # find the failing job: each alone
                outcomes = [outcome for job in jobs for outcome in self._commit([job])]
            else:
                outcomes = [(None, _error())]
            executed()
            return outcomes
        finally:
            busy = time.perf_counter() - began
            self.busy += busy
            self.cpu += time.thread_time() - cpu if self.threaded else busy
        return [(result, None) for result in results]

    @contextlib.contextmanager
    def _transaction(self, conn: Connection, jobs: list[_Job[Any]]) -> Iterator[None]:
        """The batch's transaction: SQLAlchemy's, or for a SQLite batch of rows alone (most
        are: no job has a function running SQLAlchemy statements) the driver's own BEGIN
        IMMEDIATE and COMMIT, which cost the writer less than SQLAlchemy's begin and its
        event. A failed COMMIT leaves the transaction open: the caller closes the
        connection, which rolls it back."""
        if not self.store.sqlite or any(job.fn is not None for job in jobs):
            with conn.begin():
                yield
            return
        driver: Any = conn.connection.dbapi_connection
        driver.execute(_BEGIN_SQLITE)
        try:
            yield
        except BaseException:
            driver.rollback()
            raise
        driver.commit()

    def _run_sqlite(self, conn: Connection, jobs: list[_Job[Any]]) -> dict[int, int]:
        """SQLite: the lease fence, then each statement of the jobs' rows once for all its rows
        (executemany), then the rows whose new ids are the jobs' results (by the job's index)."""
        driver: Any = conn.connection.dbapi_connection
        cursor = driver.cursor()
        tables = _tables(jobs)
        if tables:
            fence = _RENEW_SQLITE.format(", ".join("?" * len(tables)))
            cursor.execute(fence, (_lease_until(), self.store.owner, *tables))
            _fenced(cursor.rowcount, tables)
        for (statement, keys), many in _grouped(jobs).items():
            raw = self._driver_statement(conn, statement, keys)
            cursor.executemany(raw.sql, raw.parameters(many))
        inserted: dict[int, int] = {}
        for index, job in enumerate(jobs):
            if job.returning is not None:
                statement, values = job.returning
                raw = self._driver_statement(conn, statement, tuple(values))
                cursor.execute(raw.sql, raw.parameters([values])[0])
                inserted[index] = int(cursor.fetchone()[0])
        return inserted

    def _run_postgres(self, conn: Connection, jobs: list[_Job[Any]]) -> dict[int, int]:
        """PostgreSQL: the whole batch as one text, sent in one round trip: BEGIN, the lease
        fence, the jobs' rows (the rows of one INSERT as one statement of many rows), then the
        rows whose new ids are the jobs' results. Every wait on the network frees the
        interpreter lock, and getting it back waits for the event loop's thread, up to the
        switch interval: one wait a batch instead of one or two a row (docs/scaling.md). The
        values are bound by psycopg (``ClientCursor.mogrify``), which quotes them. Returns the
        new ids by the job's index."""
        driver: Any = conn.connection.dbapi_connection
        binder = psycopg.ClientCursor(driver)
        texts = ["BEGIN"]  # the writer's connections run in autocommit: the batch opens its own
        tables = _tables(jobs)
        if tables:  # PostgreSQL checks the count, failing the batch with a division by zero
            lease = {"tables": tables, "owner": self.store.owner, "until": _lease_until()}
            texts.append(binder.mogrify(_RENEW_CHECKED, {**lease, "count": len(tables)}))
        for (statement, keys), many in _grouped(jobs).items():
            texts += self._driver_statement(conn, statement, keys).bound(binder, many)
        returning: dict[int, int] = {}  # the job's index: its statement's place in the text
        for index, job in enumerate(jobs):
            if job.returning is not None:
                statement, values = job.returning
                returning[index] = len(texts)
                texts += self._driver_statement(conn, statement, tuple(values)).bound(
                    binder, [values]
                )
        cursor = driver.cursor()
        cursor.execute(";\n".join(texts))  # no parameters: the simple protocol, many statements
        inserted: dict[int, int] = {}
        place = 0  # the cursor's result: one for each statement of the text
        for index, wanted in returning.items():
            while place < wanted:
                cursor.nextset()
                place += 1
            inserted[index] = int(cursor.fetchone()[0])
        return inserted

    def _driver_statement(
        self, conn: Connection, statement: Executable, keys: tuple[str, ...]
    ) -> _DriverStatement:
        found = self._compiled.get((statement, keys))
        if found is None:
            found = self._compiled[(statement, keys)] = _DriverStatement(
                statement, conn.dialect, keys
            )
        return found


def _tables(jobs: list[_Job[Any]]) -> list[int]:
    """The tables a batch writes about: the leases it renews."""
    return sorted({job.table_id for job in jobs if job.table_id is not None})


def _lease_until() -> float:
    return time.time() + LEASE_SECONDS


def _grouped(
    jobs: list[_Job[Any]],
) -> dict[tuple[Executable, tuple[str, ...]], list[dict[str, Any]]]:
    """The jobs' rows by statement and keys, in the order each first comes."""
    grouped: dict[tuple[Executable, tuple[str, ...]], list[dict[str, Any]]] = {}
    for job in jobs:
        for statement, parameters in job.rows:
            grouped.setdefault((statement, tuple(parameters)), []).append(parameters)
    return grouped


class _DriverStatement:
    """A statement of the batches' rows compiled once for the database's driver, without
    SQLAlchemy's work per execution (that cost the writer more than the database did). On
    SQLite the driver runs it for all the rows of a batch (``executemany``); on PostgreSQL
    :meth:`bound` writes it with each row's values, the rows of a plain INSERT as one
    statement."""

    def __init__(self, statement: Executable, dialect: Any, keys: tuple[str, ...]) -> None:
        compiled = statement.compile(dialect=dialect, column_keys=list(keys))  # type: ignore[attr-defined]
        if compiled.escaped_bind_names:
            raise StoreError(f"a batch statement's names need escaping: {statement}")
        self.sql = str(compiled)
        self.defaults: dict[str, Any] = compiled.construct_params(_check=False)  # the literals
        self.positions: tuple[str, ...] | None = (
            tuple(compiled.positiontup) if compiled.positiontup else None  # qmark: SQLite
        )
        # The type conversions SQLAlchemy would make (SQLite: a Float column's to_float).
        self.convert: dict[str, Callable[[Any], Any]] = dict(compiled._bind_processors)
        # By position (qmark): each name and its default, and the positions to convert.
        order, convert = self.positions or (), self.convert
        self.fetch = [(key, self.defaults.get(key)) for key in order]
        self.converted = [(i, convert[key]) for i, key in enumerate(order) if key in convert]
        # A plain INSERT of these keys (no RETURNING of its own): its head, the rows' values
        # following in the order of ``keys``.
        self.keys = keys
        self.insert: str | None = None
        if isinstance(statement, Insert) and not statement._returning:
            names = dialect.identifier_preparer
            table = statement.table
            columns = ", ".join(names.quote(table.c[key].name) for key in keys)
            self.insert = f"INSERT INTO {names.format_table(table)} ({columns}) VALUES "

    def parameters(self, rows: list[dict[str, Any]]) -> list[Any]:
        """Each row's values as the driver takes them: a list in the statement's order (qmark:
        SQLite), or a dict of every name (psycopg)."""
        if self.positions is not None:
            bound: list[Any] = []
            for row in rows:
                values = [row.get(key, default) for key, default in self.fetch]
                for i, to_driver in self.converted:
                    if values[i] is not None:
                        values[i] = to_driver(values[i])
                bound.append(values)
            return bound
        defaults, convert = self.defaults, self.convert
        if convert:
            rows = [
                {k: (convert[k](v) if k in convert and v is not None else v) for k, v in r.items()}
                for r in rows
            ]
        return [{**defaults, **row} for row in rows]

    def bound(self, binder: psycopg.ClientCursor[Any], rows: list[dict[str, Any]]) -> list[str]:
        """The statements that write ``rows``, their values in the text (PostgreSQL). An
        INSERT's values are each quoted by psycopg's adapter (what ``mogrify`` does for each,
        without its work per call: about half the time, measured on 12 move rows)."""
        bound = self.parameters(rows)
        if self.insert is not None:
            literal, keys = Transformer.from_context(binder).as_literal, self.keys
            values = b", ".join(
                b"(" + b", ".join([literal(row[k]) for k in keys]) + b")" for row in bound
            )
            return [self.insert + values.decode(binder.connection.info.encoding)]
        return [binder.mogrify(self.sql, row) for row in bound]


def _close(conn: Connection) -> None:
    with contextlib.suppress(Exception):
        conn.close()


def _fenced(count: int, tables: list[int]) -> None:
    if count != len(tables):
        lost = ", ".join(map(str, tables))
        raise LeaseLost(f"table {lost} is no longer run by this process")


# A batch's lease fence: it renews the leases of the tables it writes about, and stores nothing
# unless this process still holds every one (written for each driver: SQLAlchemy's work per
# execution cost more than the statement).
_RENEW_SQLITE = "UPDATE tables SET lease_until = ? WHERE lease_owner = ? AND id IN ({})"
_RENEW_CHECKED = (  # PostgreSQL: the tables as one array, their count checked by the server
    "WITH renewed AS (UPDATE tables SET lease_until = %(until)s "
    "WHERE id = ANY(%(tables)s) AND lease_owner = %(owner)s RETURNING id) "
    "SELECT 1 / (CASE WHEN count(*) = %(count)s THEN 1 ELSE 0 END) FROM renewed"
)


def _error() -> BaseException:
    error = sys.exc_info()[1]
    assert error is not None
    if isinstance(error, psycopg.errors.DivisionByZero):  # _RENEW_CHECKED's verdict
        return LeaseLost(f"a table is no longer run by this process ({error})")
    # The batches' rows run through the driver itself: its errors are the database's too.
    if isinstance(error, (SQLAlchemyError, sqlite3.Error, psycopg.Error)):
        return StoreError(f"the database refused the change: {type(error).__name__}: {error}")
    return error


def _settle(future: asyncio.Future[Any], *, result: Any = None, error: Any = None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


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
