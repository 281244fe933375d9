"""Self-play at scale: the same seed gives the same result on every backend and worker count."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.executor import ProcessExecutor, SerialExecutor
from croupier.history.formats import open_history
from croupier.play import book_rules, house_rules
from croupier.sim import CHUNK, SimError, simulate
from croupier.table import BuyIn, Table

LINEUP = ["random", "calling", "random"]


def test_same_seed_same_summary_on_every_backend_and_worker_count() -> None:
    ray = pytest.importorskip("ray")
    from croupier.executor import RayExecutor

    rules = house_rules("holdem", "no-limit", "1/2")
    hands = 2 * CHUNK + 100  # three chunks, the last one short
    serial = simulate(rules, LINEUP, hands, stack=200, seed=11, executor=SerialExecutor())
    for workers in (1, 2):
        with ProcessExecutor(workers) as pool:
            assert simulate(rules, LINEUP, hands, stack=200, seed=11, executor=pool) == serial
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        for workers in (1, 2):
            with RayExecutor(workers) as cluster:
                assert (
                    simulate(rules, LINEUP, hands, stack=200, seed=11, executor=cluster) == serial
                )
    finally:
        if started_here:
            ray.shutdown()
    assert simulate(rules, LINEUP, hands, stack=200, seed=12) != serial
    assert serial.hands == hands and not serial.interrupted


def test_each_hand_is_dealt_by_the_table_from_its_button() -> None:
    # Hand i's button is seat i % seats + 1, and the table deals from the next seat on: the
    # small blind is the seat after the button, as Table.start_hand places it.
    rules = house_rules("holdem", "no-limit", "1/2")
    table = Table(rules, 3, buy_in=BuyIn(minimum=200), first_button=2)
    for seat in (1, 2, 3):
        table.sit(seat, f"p{seat}", 200)
    table.start_hand()
    assert table.deal_order() == (3, 1, 2)


def test_chips_are_conserved_net_of_commission() -> None:
    rules = book_rules("rws", "holdem", None, "1/2", rake="5%")
    result = simulate(rules, ["random"] * 6, 500, stack=200, seed=3)
    assert sum(seat.net for seat in result.seats) + result.commission == 0
    assert result.commission > 0 and 0 < result.showdowns <= 500


def test_every_game_simulates() -> None:
    for game in ("holdem", "omaha", "draw", "stud5", "stud7", "razz", "badugi"):
        rules = house_rules(game, "pot", "1/2")
        result = simulate(rules, ["random", "calling"], 100, stack=100, seed=1)
        assert result.hands == 100
        assert sum(seat.net for seat in result.seats) + result.commission == 0


def test_big_blinds_per_100_hands() -> None:
    rules = house_rules("holdem", "no-limit", "5/10")
    result = simulate(rules, ["random", "calling"], 300, stack=1000, seed=4)
    for seat in result.seats:
        assert seat.big_blind == 10
        assert seat.bb_per_100 == pytest.approx(100 * seat.net / 300 / 10)
        assert seat.bb_half_width == pytest.approx(100 * seat.half_width / 10)


def test_save_streams_one_line_per_hand_in_order(tmp_path: Path) -> None:
    rules = house_rules("holdem", "no-limit", "1/2")
    writer = open_history(tmp_path / "hands.jsonl", hands=300)
    with ProcessExecutor(2) as pool:
        simulate(rules, ["random"] * 4, 300, stack=100, seed=5, save=writer, executor=pool)
    writer.close()
    lines = [json.loads(line) for line in (tmp_path / "hands.jsonl").read_text().splitlines()]
    assert [line["hand"] % 10**6 for line in lines] == list(range(1, 301))
    assert len({line["hand"] // 10**6 for line in lines}) == 1  # one session's hands
    assert lines[0]["events"][-1]["event"] == "HandOver"
    hidden = [c for line in lines for e in line["events"] if e["event"] == "DealHole"
              for c in e["cards"]]  # fmt: skip
    assert "??" in hidden  # a spectator's record: the house's is asked for with house=True


def test_bad_requests_are_errors() -> None:
    rules = house_rules("holdem", "no-limit", "1/2")
    with pytest.raises(SimError, match="unknown bot kind 'shark'"):
        simulate(rules, ["random", "shark"], 10, stack=100)
    with pytest.raises(SimError, match="hands must be a whole number of at least 1"):
        simulate(rules, ["random", "random"], 0, stack=100)
    with pytest.raises(SimError, match="cannot cover the big blind 2"):
        simulate(rules, ["random", "random"], 10, stack=1)


def test_sim_command_says_what_it_simulated_and_gives_big_blinds_per_100(tmp_path: Path) -> None:
    saved = tmp_path / "hands.jsonl"
    result = CliRunner().invoke(
        app, ["sim", "--hands", "300", "--seats", "3", "--seed", "2", "--stakes", "5/10",
              "--save", str(saved)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first.startswith("holdem · no-limit · blinds 5/10 · 52-card deck · 3 seats (random)")
    assert "300 hands" in first and "seed 2" in first
    assert "bb/100" in result.output and "bb = 10" in result.output
    assert len(saved.read_text().splitlines()) == 300
    again = CliRunner().invoke(app, ["sim", "--hands", "300", "--save", str(saved)])
    assert again.exit_code == 2 and "exists: pass --overwrite" in again.output
    replayed = CliRunner().invoke(app, ["replay", str(saved)])
    assert replayed.exit_code == 0 and "300 hand(s)" in replayed.output, replayed.output


def test_sim_saves_a_phhs_that_replays_and_pokerkit_loads(tmp_path: Path) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    saved = tmp_path / "hands.phhs"
    result = CliRunner().invoke(
        app, ["sim", "--hands", "40", "--seats", "4", "--save", str(saved), "--house"]
    )
    assert result.exit_code == 0, result.output
    replayed = CliRunner().invoke(app, ["replay", str(saved)])
    assert replayed.exit_code == 0 and "40 hand(s)" in replayed.output, replayed.output
    with saved.open("rb") as file:
        assert len(list(pokerkit.HandHistory.load_all(file))) == 40


def test_ctrl_c_prints_the_partial_result(tmp_path: Path) -> None:
    saved = tmp_path / "hands.phhs"  # written as each chunk of hands is done
    command = [sys.executable, "-c", "from croupier.cli import app; app()", "sim",
               "--hands", "10000000", "--seats", "3", "--save", str(saved)]  # fmt: skip
    # Ctrl-C as at a terminal, even when these tests run in a background job, which starts
    # with SIGINT ignored (Python then installs no handler for it).
    child = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "COLUMNS": "120"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.stdout is not None
    header = child.stdout.readline()  # printed before the first hand is played
    assert "10,000,000 hands" in header
    for _ in range(300):  # until some hands are done (a loaded machine takes longer)
        if saved.exists() and saved.stat().st_size > 0:
            break
        time.sleep(0.1)
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=60)
    assert child.returncode == 130, out
    assert "interrupted:" in out and "of 10,000,000 hands played" in out
    assert "bb/100" in out and "Traceback" not in out
