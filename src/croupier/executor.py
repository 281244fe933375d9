"""Run chunked, seeded work on one core, on threads, on local processes or on a Ray cluster.

Work is a picklable function ``work(index, seed) -> result`` of a chunk's index and its own
``numpy.random.SeedSequence``: chunk ``i`` always gets child ``i`` of the run's seed (what
``SeedSequence(seed).spawn`` hands out), and results are merged in chunk order. So the same
seed gives the same merged result on every backend and any number of workers; only the time
differs. A run may stop early on a condition of the merged prefix (a precision reached): that
too is decided in chunk order, so it stops at the same chunk everywhere.

>>> def count(index, seed):
...     return int(np.random.default_rng(seed).integers(10))
>>> merged, chunks = run_chunks(count, 4, seed=7)
>>> merged == run_chunks(count, 4, seed=7, executor=ThreadExecutor(2))[0], chunks
(True, 4)

Backends: :class:`SerialExecutor` (here, one chunk after another), :class:`ThreadExecutor`
(threads of this process: right for numba kernels, which release the GIL),
:class:`ProcessExecutor` (a local process pool) and :class:`RayExecutor` (a Ray cluster,
``pip install croupier[ray]``). :func:`make_executor` builds one by name. See
docs/scaling.md for clusters and chunk sizes.
"""

from __future__ import annotations

import abc
import collections
import multiprocessing
import operator
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor as _FuturesExecutor
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

import numpy as np

__all__ = [
    "BACKENDS",
    "Executor",
    "ExecutorError",
    "ProcessExecutor",
    "RayExecutor",
    "SerialExecutor",
    "ThreadExecutor",
    "chunk_seeds",
    "cores",
    "make_executor",
    "run_chunks",
]

R = TypeVar("R")
Work = Callable[[int, np.random.SeedSequence], R]
BACKENDS = ("serial", "threads", "process", "ray")


class ExecutorError(ValueError):
    """A backend that does not exist, a bad worker count, or Ray missing or unreachable."""


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def chunk_seeds(
    seed: int | np.random.SeedSequence | None, start: int, stop: int
) -> list[np.random.SeedSequence]:
    """Children ``start..stop-1`` of ``seed``, exactly those ``SeedSequence(seed).spawn(stop)``
    returns at those places, made without making the ones before."""
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return [
        np.random.SeedSequence(
            root.entropy, spawn_key=(*root.spawn_key, index), pool_size=root.pool_size
        )
        for index in range(start, stop)
    ]


class Executor(abc.ABC):
    """Runs ``work(index, seed)`` for a stream of chunks; results come back in chunk order."""

    name: str = ""
    in_process = False  # chunks run in this process, so one chunk may run on the caller

    def __init__(self, workers: int | None = None) -> None:
        if workers is not None and (
            not isinstance(workers, int) or isinstance(workers, bool) or workers < 1
        ):
            raise ExecutorError(f"workers must be a positive whole number, got {workers!r}")
        self.workers = workers or cores()

    def imap(
        self, work: Work[R], chunks: Iterable[tuple[int, np.random.SeedSequence]]
    ) -> Iterator[R]:
        """``work(index, seed)`` for each chunk, in order, keeping a few chunks per worker in
        flight; closing the iterator early cancels what has not started."""
        pending: collections.deque[Any] = collections.deque()
        source = iter(chunks)
        ahead = 2 * self.workers
        try:
            for chunk in source:
                pending.append(self._submit(work, *chunk))
                if len(pending) >= ahead:
                    yield self._result(pending.popleft())
            while pending:
                yield self._result(pending.popleft())
        finally:
            for handle in pending:
                self._cancel(handle)

    @abc.abstractmethod
    def _submit(self, work: Work[R], index: int, seed: np.random.SeedSequence) -> Any: ...

    @abc.abstractmethod
    def _result(self, handle: Any) -> Any: ...

    def _cancel(self, handle: Any) -> None:  # noqa: B027 - optional for a backend
        """Stop a chunk whose result is no longer wanted, where the backend can."""

    def close(self) -> None:  # noqa: B027 - nothing to release by default
        """Release the workers (pools are made on first use and kept until then)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(workers={self.workers})"


class SerialExecutor(Executor):
    """Every chunk here, in order, on the calling thread."""

    name = "serial"
    in_process = True

    def __init__(self, workers: int | None = None) -> None:
        super().__init__(1 if workers is None else workers)
        if self.workers != 1:
            raise ExecutorError(f"the serial backend has one worker, not {workers}")

    def imap(
        self, work: Work[R], chunks: Iterable[tuple[int, np.random.SeedSequence]]
    ) -> Iterator[R]:
        for index, seed in chunks:
            yield work(index, seed)

    def _submit(self, work: Work[R], index: int, seed: np.random.SeedSequence) -> Any:
        return work(index, seed)

    def _result(self, handle: Any) -> Any:
        return handle


class _PoolExecutor(Executor):
    """A concurrent.futures pool, made on first use."""

    def __init__(self, workers: int | None = None) -> None:
        super().__init__(workers)
        self._pool: _FuturesExecutor | None = None

    @abc.abstractmethod
    def _make_pool(self) -> _FuturesExecutor: ...

    def _submit(self, work: Work[R], index: int, seed: np.random.SeedSequence) -> Future[R]:
        if self._pool is None:
            self._pool = self._make_pool()
        return self._pool.submit(work, index, seed)

    def _result(self, handle: Future[R]) -> R:
        return handle.result()

    def _cancel(self, handle: Future[R]) -> None:
        handle.cancel()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class ThreadExecutor(_PoolExecutor):
    """Threads of this process: for work that releases the GIL (numba kernels)."""

    name = "threads"
    in_process = True

    def imap(
        self, work: Work[R], chunks: Iterable[tuple[int, np.random.SeedSequence]]
    ) -> Iterator[R]:
        if self.workers == 1:  # a thread of one would only wait for it: run here
            return SerialExecutor().imap(work, chunks)
        return super().imap(work, chunks)

    def _make_pool(self) -> _FuturesExecutor:
        return ThreadPoolExecutor(self.workers)


class ProcessExecutor(_PoolExecutor):
    """A pool of local processes: for work in Python; work must be picklable. On Linux the
    workers are forked from this process, which has imported everything the work needs
    already (a worker started afresh imports croupier, numpy and numba first: about a second,
    as long as 20,000 simulated hands take), unless numba's worker threads run here, which a
    fork does not carry over: then, and on other systems, they start from a forkserver
    (Linux) or are spawned."""

    name = "process"

    def __enter__(self) -> Executor:
        """The workers start now, before any thread the caller starts in its ``with`` block (a
        progress bar's refresh): a fork copies the forking thread alone, and a lock another
        thread held at that moment would stay held in every worker."""
        if self._pool is None:
            self._pool = self._make_pool()
            self._pool.submit(int).result()  # under fork, every worker is made at once
        return self

    def _make_pool(self) -> _FuturesExecutor:
        if sys.platform.startswith("linux"):
            method = "forkserver" if _numba_threads() else "fork"
        else:
            method = "spawn"
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context(method))


def _numba_threads() -> bool:
    """Whether numba's threading layer has started its threads in this process."""
    parallel = sys.modules.get("numba.np.ufunc.parallel")
    if parallel is None:
        return False
    return bool(getattr(parallel, "_is_initialized", True))  # unknown: as if they had


class RayExecutor(Executor):
    """Chunks as Ray tasks: on this machine (``address=None`` starts a local Ray, or joins
    one ``ray.init`` already started) or on a cluster (``address="auto"`` on one of its
    machines, or ``"ray://head:10001"``). ``workers`` caps chunks in flight (default: the
    cluster's CPUs)."""

    name = "ray"

    def __init__(self, workers: int | None = None, address: str | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise ExecutorError("the ray backend needs Ray: pip install 'croupier[ray]'") from None
        super().__init__(workers or 1)
        self._ray = ray
        if not ray.is_initialized():
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as error:
                raise ExecutorError(f"cannot reach Ray at {address!r}: {error}") from None
        if workers is None:
            resources = ray.cluster_resources()  # type: ignore[no-untyped-call]
            self.workers = max(1, int(resources.get("CPU", 1)))
        self._remote: Any = ray.remote(_call)

    def _submit(self, work: Work[R], index: int, seed: np.random.SeedSequence) -> Any:
        return self._remote.remote(work, index, seed)

    def _result(self, handle: Any) -> Any:
        return self._ray.get(handle)

    def _cancel(self, handle: Any) -> None:
        self._ray.cancel(handle)


def _call(work: Work[R], index: int, seed: np.random.SeedSequence) -> R:
    return work(index, seed)


def make_executor(
    backend: str = "serial", workers: int | None = None, address: str | None = None
) -> Executor:
    """An executor by name: serial, threads, process or ray (``address`` is Ray's)."""
    if address is not None and backend != "ray":
        raise ExecutorError(f"an address is for the ray backend, not {backend!r}")
    if backend == "serial":
        return SerialExecutor(workers)
    if backend == "threads":
        return ThreadExecutor(workers)
    if backend == "process":
        return ProcessExecutor(workers)
    if backend == "ray":
        return RayExecutor(workers, address)
    raise ExecutorError(f"unknown backend {backend!r}: expected one of {', '.join(BACKENDS)}")


def run_chunks(
    work: Work[R],
    chunks: int,
    seed: int | np.random.SeedSequence | None = None,
    executor: Executor | None = None,
    *,
    merge: Callable[[R, R], R] = operator.add,
    stop: Callable[[R, int], bool] | None = None,
) -> tuple[R, int]:
    """Run chunks ``0..chunks-1`` of ``work`` and merge their results in chunk order.

    ``stop(merged, done)``, asked after each chunk in order, ends the run early when true.
    Returns the merged result and how many chunks it holds. ``executor`` defaults to serial.
    """
    if chunks < 1:
        raise ExecutorError(f"a run needs at least one chunk, got {chunks}")
    if executor is None or (chunks == 1 and executor.in_process):
        executor = SerialExecutor()  # one chunk here costs no thread
    seeds = chunk_seeds(seed, 0, chunks)
    results = executor.imap(work, enumerate(seeds))
    merged: R | None = None
    done = 0
    try:
        for result in results:
            merged = result if merged is None else merge(merged, result)
            done += 1
            if stop is not None and stop(merged, done):
                break
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    assert merged is not None
    return merged, done
