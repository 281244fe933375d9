"""croupier.executor: chunks seeded by their index give one merged result on every backend and
any number of workers; early stops happen at the same chunk everywhere."""

from __future__ import annotations

import numpy as np
import pytest

from croupier.executor import (
    ExecutorError,
    ProcessExecutor,
    SerialExecutor,
    ThreadExecutor,
    chunk_seeds,
    make_executor,
    run_chunks,
)


def draws(index: int, seed: np.random.SeedSequence) -> list[tuple[int, int]]:
    """A chunk's result: its index and a number drawn from its own seed."""
    return [(index, int(np.random.default_rng(seed).integers(1 << 62)))]


def test_chunk_seeds_are_the_children_spawn_hands_out() -> None:
    for seed in (0, 12345, np.random.SeedSequence(99)):
        root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
        spawned = root.spawn(10)
        made = chunk_seeds(seed, 3, 10)
        assert [s.generate_state(4).tolist() for s in made] == [
            s.generate_state(4).tolist() for s in spawned[3:]
        ]


@pytest.mark.parametrize(
    "executor",
    [SerialExecutor(), ThreadExecutor(1), ThreadExecutor(3), ProcessExecutor(2)],
    ids=["serial", "threads-1", "threads-3", "process-2"],
)
def test_same_seed_same_merged_result_on_every_backend_and_worker_count(executor) -> None:
    expected, done = run_chunks(draws, 12, seed=2024)
    with executor:
        merged, chunks = run_chunks(draws, 12, seed=2024, executor=executor)
    assert (merged, chunks) == (expected, done) == (expected, 12)
    assert [index for index, _ in merged] == list(range(12))  # merged in chunk order
    assert run_chunks(draws, 12, seed=2025)[0] != expected


def test_an_early_stop_falls_on_the_same_chunk_with_any_workers() -> None:
    def enough(merged: list[tuple[int, int]], done: int) -> bool:
        return sum(value for _, value in merged) > 3 * (1 << 62)

    serial = run_chunks(draws, 50, seed=7, stop=enough)
    with ThreadExecutor(4) as threads:
        threaded = run_chunks(draws, 50, seed=7, executor=threads, stop=enough)
    assert serial == threaded
    assert 1 < serial[1] < 50 and len(serial[0]) == serial[1]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: make_executor("gpu"), "unknown backend 'gpu': expected one of serial, threads"),
        (lambda: make_executor("threads", workers=0), "workers must be a positive"),
        (lambda: make_executor("process", address="auto"), "address is for the ray backend"),
        (lambda: SerialExecutor(2), "the serial backend has one worker"),
        (lambda: run_chunks(draws, 0), "at least one chunk"),
    ],
)
def test_bad_executor_settings_are_errors(call, message) -> None:
    with pytest.raises(ExecutorError, match=message) as raised:
        call()
    assert isinstance(raised.value, ValueError)
