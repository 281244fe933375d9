"""The one writer (:class:`Writer`): every change to the database goes through it, in batches
of jobs, one transaction a batch (group commit), each job answered only after the commit. A
batch about tables first checks, in its own transaction, that this process still holds their
leases (the fence): a process that lost a table to another can write nothing more about it.
Kept apart from :mod:`croupier.server.store.database` (the database and the ledger), which
uses it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import psycopg
from psycopg.adapt import Transformer
from psycopg.pq import ExecStatus
from psycopg.pq.abc import PGresult
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.sql.expression import Executable, Insert

__all__ = ["LEASE_SECONDS", "SQLITE_BEGIN", "Database", "LeaseLost", "Rows", "StoreError", "Writer"]

log = logging.getLogger("croupier.server")

# A table whose process stops renewing its lease may be taken over after this many seconds.
LEASE_SECONDS = float(os.environ.get("CROUPIER_LEASE_SECONDS", "10"))

T = TypeVar("T")
# Statements a job runs, with their parameters: the writer runs each statement once for all the
# rows of its batch.
Rows = Sequence[tuple[Executable, dict[str, Any]]]
_Outcome = tuple[Any, BaseException | None]  # what a job returned, or raised


class StoreError(RuntimeError):
    """The database refused or failed a change."""


class LeaseLost(StoreError):  # noqa: N818 (reads as what happened)
    """This process no longer owns the table: another one took it over."""


SQLITE_BEGIN = "BEGIN IMMEDIATE"  # a writer takes the write lock at once


class Database(Protocol):
    """What the writer needs of the database it writes to (store.database.Store)."""

    engine: Engine
    sqlite: bool  # else PostgreSQL
    owner: str  # this process, as the leases name it


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
    the commit. On PostgreSQL (``threaded``) the loop goes on while a batch waits for the
    database: a batch of rows alone (most are: moves, finished hands) is sent by the loop itself
    through an asynchronous connection (:meth:`_commit_rows`); a batch with a job's function,
    which runs SQLAlchemy statements, runs on a thread of its own. A thread's every wait on
    the network ends with a wait for the interpreter lock, which the busy loop holds: sending
    rows from the loop cost the server less CPU an action and the batch less time
    (docs/scaling.md). Two batches may be in flight, each on its own connection: the next one
    starts as soon as the one before has run its statements, while that one's COMMIT waits
    for the disk. Deadlock-free: a batch that is only committing holds its locks and waits for
    none, and at most one batch runs statements. A connection is opened again after a
    failure."""

    def __init__(self, store: Database, batch: int = 400, *, threaded: bool = False) -> None:
        self.store = store
        self.batch = batch
        self.threaded = threaded
        self._jobs: list[_Job[Any]] = []
        self._scheduled = False
        self._idle: list[Connection] = []  # connections between batches
        self._idle_lock = threading.Lock()
        self._inflight: list[list[_Job[Any]]] = []  # the batches in flight (threaded)
        self._executing: list[_Job[Any]] | None = None  # of which the one running statements
        self._thread: ThreadPoolExecutor | None = None
        if threaded:
            self._thread = ThreadPoolExecutor(2, thread_name_prefix="croupier-writer")
        self._compiled: dict[tuple[Executable, tuple[str, ...]], _DriverStatement] = {}
        self._owner_literal: str | None = None  # PostgreSQL: this process's lease name, quoted
        # PostgreSQL: the loop's asynchronous connections between batches, and their loop
        self._async_idle: list[psycopg.AsyncConnection[Any]] = []
        self._async_loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[None]] = set()  # the batches the loop is sending
        self.commits = 0
        self.overlapped = 0  # batches started while the one before was committing
        self.failed = 0  # transactions that failed (a batch's jobs are then tried each alone)
        self.busy = 0.0  # seconds spent running batches
        self.committing = 0.0  # of which in COMMIT
        self.cpu = 0.0  # the CPU time of the thread that ran them, meanwhile (the loop: its
        # time writing the batches' text)

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
        """Threaded: start the next batch (on the loop, or on a thread) once the batch before has
        run its statements (it may still be committing); the jobs that came meanwhile go
        together."""
        if self._executing is not None or len(self._inflight) > 1 or not self._jobs:
            return
        assert self._thread is not None
        jobs, self._jobs = self._jobs[: self.batch], self._jobs[self.batch :]
        self.overlapped += bool(self._inflight)
        self._inflight.append(jobs)
        self._executing = jobs
        loop = asyncio.get_running_loop()
        if not self.store.sqlite and all(job.fn is None for job in jobs):
            task = loop.create_task(self._commit_rows(jobs))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return

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
        error = done.exception() if not done.cancelled() else asyncio.CancelledError()
        self._answer(jobs, [(None, error)] * len(jobs) if error is not None else done.result())

    def _answer(self, jobs: list[_Job[Any]], outcomes: list[_Outcome]) -> None:
        """A batch in flight is done: its jobs are answered, and the next batch may start."""
        self._inflight = [batch for batch in self._inflight if batch is not jobs]
        if self._executing is jobs:
            self._executing = None
        self._settle(jobs, outcomes)
        self._hand_over()

    async def _commit_rows(self, jobs: list[_Job[Any]]) -> None:
        """PostgreSQL, a batch of rows alone: its statements (:meth:`_postgres_statements`) and
        its COMMIT sent by the event loop at once, in libpq's pipeline mode (:class:`_Pipeline`).
        The next batch may start when this one's statements have run, while its COMMIT waits
        for the disk. If it fails, each job is tried alone on a thread, as :meth:`_commit`
        does."""
        began = time.perf_counter()
        conn: psycopg.AsyncConnection[Any] | None = None
        try:
            conn = await self._async_connection()
            writing = time.perf_counter()
            binder = psycopg.AsyncClientCursor(conn)
            statements, returning = self._postgres_statements(binder, jobs)
            self.cpu += time.perf_counter() - writing
            pipeline = _Pipeline(conn)
            results = await pipeline.run(statements)
            inserted = {i: _new_id(results[place], place) for i, place in returning.items()}
            self._executed(jobs)
            ran = time.perf_counter()
            await pipeline.commit()
            self.commits += 1
            self.committing += time.perf_counter() - ran
            self._async_idle.append(conn)
            outcomes: list[_Outcome] = [(inserted.get(i), None) for i in range(len(jobs))]
        except BaseException as error:
            if conn is not None:
                conn.pgconn.finish()  # rolls back; closing needs no round trip
            if not isinstance(error, Exception):  # cancelled: the loop is closing
                self._answer(jobs, [(None, error)] * len(jobs))
                raise
            self._failed(jobs, error)
            loop = asyncio.get_running_loop()
            outcomes = await loop.run_in_executor(self._thread, self._commit_each, jobs)
        finally:
            self.busy += time.perf_counter() - began
        self._answer(jobs, outcomes)

    async def _async_connection(self) -> psycopg.AsyncConnection[Any]:
        """An idle asynchronous connection of this event loop, or a new one (autocommit: each
        batch's text opens its transaction)."""
        loop = asyncio.get_running_loop()
        if self._async_loop is not loop:  # connections serve the loop that opened them
            self._close_async()
            self._async_loop = loop
        while self._async_idle:
            conn = self._async_idle.pop()
            if not conn.closed:
                return conn
        engine = self.store.engine
        args, options = engine.dialect.create_connect_args(engine.url)
        return await psycopg.AsyncConnection.connect(*args, **options, autocommit=True)

    def _close_async(self) -> None:
        idle, self._async_idle = self._async_idle, []
        for conn in idle:
            conn.pgconn.finish()  # AsyncConnection.close() is the same, for a loop that may be gone

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
        self._close_async()
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
        except BaseException as error:
            self._failed(jobs, error)
            if conn is not None:
                _close(conn)
            # Find the failing job: each alone.
            outcomes: list[_Outcome] = (
                self._commit_each(jobs) if len(jobs) > 1 else [(None, _error())]
            )
            executed()
            return outcomes
        finally:
            busy = time.perf_counter() - began
            self.busy += busy
            self.cpu += time.thread_time() - cpu if self.threaded else busy
        return [(result, None) for result in results]

    def _failed(self, jobs: list[_Job[Any]], error: BaseException) -> None:
        """A transaction failed; a batch of several is then tried job by job (logged, so that a
        failure in the load bench says why)."""
        self.failed += 1
        if len(jobs) > 1:
            log.warning("a batch of %s jobs failed (%r); each is tried alone", len(jobs), error)

    def _commit_each(self, jobs: list[_Job[Any]]) -> list[_Outcome]:
        """Each job in a transaction of its own, one after another."""
        return [outcome for job in jobs for outcome in self._commit([job])]

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
        driver.execute(SQLITE_BEGIN)
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
            raw = self._driver_statement(conn.dialect, statement, keys)
            cursor.executemany(raw.sql, raw.parameters(many))
        inserted: dict[int, int] = {}
        for index, job in enumerate(jobs):
            if job.returning is not None:
                statement, values = job.returning
                raw = self._driver_statement(conn.dialect, statement, tuple(values))
                cursor.execute(raw.sql, raw.parameters([values])[0])
                inserted[index] = int(cursor.fetchone()[0])
        return inserted

    def _run_postgres(self, conn: Connection, jobs: list[_Job[Any]]) -> dict[int, int]:
        """PostgreSQL, on a thread: the batch's text (:meth:`_postgres_text`) in one round trip.
        Returns the new ids by the job's index."""
        driver: Any = conn.connection.dbapi_connection
        text, returning = self._postgres_text(psycopg.ClientCursor(driver), jobs)
        cursor = driver.cursor()
        cursor.execute(text)  # no parameters: the simple protocol, many statements
        return _new_ids(cursor, returning)

    def _postgres_text(
        self, binder: psycopg.ClientCursor[Any], jobs: list[_Job[Any]]
    ) -> tuple[str, dict[int, int]]:
        """A PostgreSQL batch as one text, to send in one round trip; and for each job whose
        result is a new id (by its index) its statement's place in the text."""
        statements, returning = self._postgres_statements(binder, jobs)
        return ";\n".join(statements), returning

    def _postgres_statements(
        self,
        binder: psycopg.ClientCursor[Any] | psycopg.AsyncClientCursor[Any],
        jobs: list[_Job[Any]],
    ) -> tuple[list[str], dict[int, int]]:
        """A PostgreSQL batch's statements: BEGIN, the lease fence, the jobs' rows (the rows of
        one INSERT as one statement of many rows), then the rows whose new ids are the jobs'
        results. The values are written in as psycopg quotes them (:func:`literal_writer`, or
        ``binder.mogrify``). Returns the statements, and for each job whose result is a new id
        (by its index) its statement's place among them."""
        dialect = self.store.engine.dialect
        texts = ["BEGIN"]  # the writer's connections run in autocommit: the batch opens its own
        tables = _tables(jobs)
        if tables:  # PostgreSQL checks the count, failing the batch with a division by zero
            texts.append(self._fence_text(binder, tables))
        for (statement, keys), many in _grouped(jobs).items():
            texts += self._driver_statement(dialect, statement, keys).bound(binder, many)
        returning: dict[int, int] = {}
        for index, job in enumerate(jobs):
            if job.returning is not None:
                statement, values = job.returning
                returning[index] = len(texts)
                texts += self._driver_statement(dialect, statement, tuple(values)).bound(
                    binder, [values]
                )
        return texts, returning

    def _fence_text(
        self, binder: psycopg.ClientCursor[Any] | psycopg.AsyncClientCursor[Any], tables: list[int]
    ) -> str:
        """PostgreSQL's lease fence, its values written by :func:`literal_writer` (``mogrify``
        of the whole statement cost more than a batch's rows); the owner's name once."""
        literal = literal_writer(binder)
        if self._owner_literal is None:
            self._owner_literal = literal(self.store.owner).decode()
        return _RENEW_TEXT.format(
            until=literal(_lease_until()).decode(),
            tables=b", ".join([literal(table) for table in tables]).decode(),
            owner=self._owner_literal,
            count=len(tables),
        )

    def _driver_statement(
        self, dialect: Any, statement: Executable, keys: tuple[str, ...]
    ) -> _DriverStatement:
        found = self._compiled.get((statement, keys))
        if found is None:
            found = self._compiled[(statement, keys)] = _DriverStatement(statement, dialect, keys)
        return found


class _Pipeline:
    """A batch of statements and its COMMIT on an asynchronous connection's libpq, in pipeline
    mode: ``BEGIN``, the statements and a sync point, then ``COMMIT`` and another, all sent
    at once. :meth:`run` answers when the statements have run, :meth:`commit` when the COMMIT
    has. One round trip a batch where psycopg's cursor took two (it sent the COMMIT once the
    statements' answer was back): in the load bench a batch took 7.0-8.1 ms instead of
    8.5-10.4, with the same CPU an action (docs/scaling.md)."""

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.pg = conn.pgconn
        self.encoding = conn.info.encoding
        self.loop = asyncio.get_running_loop()

    async def run(self, statements: list[str]) -> list[PGresult]:
        """Send the batch and its COMMIT; each statement's result once all have run. Raises
        :class:`StoreError` if one failed (the COMMIT then rolls back)."""
        pg = self.pg
        pg.enter_pipeline_mode()
        for statement in statements:
            pg.send_query_params(statement.encode(self.encoding), None)
        pg.pipeline_sync()
        pg.send_query_params(b"COMMIT", None)
        pg.pipeline_sync()
        # 1: more to send once the socket can take it. Nothing is read meanwhile: a statement's
        # answer is a few bytes, so PostgreSQL never waits on this side to read before it reads.
        while pg.flush():
            await self._ready(write=True)
        results = [await self._one(statement) for statement in statements]
        await self._synced()
        return results

    async def commit(self) -> None:
        """Wait for the COMMIT; raises :class:`StoreError` if it did not commit."""
        result = await self._one("COMMIT")
        if result.command_status != b"COMMIT":  # ROLLBACK: the transaction had failed
            raise StoreError(f"the batch's COMMIT did {result.command_status!r}")
        await self._synced()
        self.pg.exit_pipeline_mode()

    async def _one(self, statement: str) -> PGresult:
        """A statement's result, and the end of its results."""
        result = await self._next()
        if result is None or result.status not in (ExecStatus.COMMAND_OK, ExecStatus.TUPLES_OK):
            error = result.error_message.decode(self.encoding, "replace") if result else ""
            raise StoreError(f"a batch's statement failed: {error or statement[:80]}")
        if await self._next() is not None:
            raise StoreError(f"a batch's statement gave more than one result: {statement[:80]}")
        return result

    async def _synced(self) -> None:
        result = await self._next()
        if result is None or result.status != ExecStatus.PIPELINE_SYNC:
            raise StoreError("a batch's results did not end at its sync point")

    async def _next(self) -> PGresult | None:
        pg = self.pg
        pg.consume_input()
        while pg.is_busy():
            await self._ready(write=False)
            pg.consume_input()
        return pg.get_result()

    async def _ready(self, *, write: bool) -> None:
        """Wait until the connection's socket can be written (or read)."""
        ready = self.loop.create_future()
        socket = self.pg.socket

        def wake() -> None:
            if not ready.done():
                ready.set_result(None)

        watch, unwatch = (
            (self.loop.add_writer, self.loop.remove_writer)
            if write
            else (self.loop.add_reader, self.loop.remove_reader)
        )
        watch(socket, wake)
        try:
            await ready
        finally:
            unwatch(socket)


def _new_id(result: PGresult | None, place: int) -> int:
    """The id an ``INSERT ... RETURNING`` (the batch's statement ``place``) returned."""
    value = result.get_value(0, 0) if result is not None and result.ntuples else None
    if value is None:
        raise StoreError(f"a batch's INSERT ... RETURNING returned no id (statement {place})")
    return int(value)


def _new_ids(cursor: psycopg.Cursor[Any], returning: dict[int, int]) -> dict[int, int]:
    """The new ids a batch's text returned, by the job's index (``returning``: each such job's
    statement's place in the text). The cursor holds a result for each statement of the text,
    all already received."""
    inserted: dict[int, int] = {}
    place = 0
    for index, wanted in returning.items():
        while place < wanted:
            cursor.nextset()
            place += 1
        inserted[index] = _new_id(cursor.pgresult, wanted)
    return inserted


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

    def bound(
        self,
        binder: psycopg.ClientCursor[Any] | psycopg.AsyncClientCursor[Any],
        rows: list[dict[str, Any]],
    ) -> list[str]:
        """The statements that write ``rows``, their values in the text (PostgreSQL). An
        INSERT's values are written by :func:`literal_writer` (what ``mogrify`` does for each,
        without its work per call: about half the time, measured on 12 move rows)."""
        bound = self.parameters(rows)
        if self.insert is not None:
            literal, keys = literal_writer(binder), self.keys
            values = b", ".join(
                b"(" + b", ".join([literal(row[k]) for k in keys]) + b")" for row in bound
            )
            return [self.insert + values.decode(binder.connection.info.encoding)]
        return [binder.mogrify(self.sql, row) for row in bound]


def literal_writer(
    binder: psycopg.ClientCursor[Any] | psycopg.AsyncClientCursor[Any],
) -> Callable[[Any], bytes]:
    """A value as a PostgreSQL literal, the bytes psycopg's adapter writes (``as_literal``):
    a whole number, a finite float and None written here (psycopg's call for each cost a move
    row 7 of its 11 us), any other value, and every text, quoted by psycopg."""
    quote = Transformer.from_context(binder).as_literal

    def literal(value: Any) -> bytes:
        kind = type(value)
        written: bytes
        # A negative number after a space, as psycopg writes it: never "--", a comment.
        if kind is int:  # not a bool, whose literal is a word
            written = (b" %d" if value < 0 else b"%d") % value
        elif kind is float and math.isfinite(value):  # infinity and NaN are quoted words
            written = (b" %r" if math.copysign(1.0, value) < 0 else b"%r") % value
        elif value is None:
            written = b"NULL"
        else:
            written = quote(value)
        return written

    return literal


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
_RENEW_TEXT = (  # PostgreSQL: the tables' count checked by the server
    "WITH renewed AS (UPDATE tables SET lease_until = {until} "
    "WHERE id IN ({tables}) AND lease_owner = {owner} RETURNING id) "
    "SELECT 1 / (CASE WHEN count(*) = {count} THEN 1 ELSE 0 END) FROM renewed"
)


def _error() -> BaseException:
    error = sys.exc_info()[1]
    assert error is not None
    if isinstance(error, psycopg.errors.DivisionByZero):  # _RENEW_TEXT's verdict
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
