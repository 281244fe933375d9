"""Self-play at scale: the same seed gives the same result for any number of workers."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.play import book_rules, house_rules
from croupier.sim import SimError, simulate


def test_same_seed_same_summary_with_one_and_two_workers() -> None:
    rules = house_rules("holdem", "no-limit", "1/2")
    one = simulate(rules, ["random", "calling", "random"], 600, stack=200, seed=11, workers=1)
    two = simulate(rules, ["random", "calling", "random"], 600, stack=200, seed=11, workers=2)
    assert one == two
    other = simulate(rules, ["random", "calling", "random"], 600, stack=200, seed=12)
    assert other != one


def test_chips_are_conserved_net_of_commission() -> None:
    rules = book_rules("rws", "holdem", None, "1/2", rake="5%")
    result = simulate(rules, ["random"] * 6, 500, stack=200, seed=3)
    assert sum(seat.net for seat in result.seats) + result.commission == 0
    assert result.commission > 0 and 0 < result.showdowns <= 500


def test_every_game_simulates() -> None:
    for game in ("holdem", "omaha", "draw", "stud5", "stud7"):
        rules = house_rules(game, "pot", "1/2")
        result = simulate(rules, ["random", "calling"], 100, stack=100, seed=1)
        assert result.hands == 100
        assert sum(seat.net for seat in result.seats) + result.commission == 0


def test_save_streams_one_line_per_hand_in_order() -> None:
    rules = house_rules("holdem", "no-limit", "1/2")
    out = io.StringIO()
    simulate(rules, ["random"] * 4, 300, stack=100, seed=5, save=out, workers=2)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["hand"] for line in lines] == list(range(300))
    assert lines[0]["events"][-1]["event"] == "HandOver"


def test_bad_requests_are_errors() -> None:
    rules = house_rules("holdem", "no-limit", "1/2")
    with pytest.raises(SimError, match="unknown bot kind 'shark'"):
        simulate(rules, ["random", "shark"], 10, stack=100)
    with pytest.raises(SimError, match="positive"):
        simulate(rules, ["random", "random"], 0, stack=100)


def test_sim_command_prints_a_summary(tmp_path: Path) -> None:
    saved = tmp_path / "hands.jsonl"
    result = CliRunner().invoke(
        app, ["sim", "--hands", "300", "--seats", "3", "--seed", "2", "--save", str(saved)]
    )
    assert result.exit_code == 0, result.output
    assert "300 hands" in result.output and "95% interval" in result.output
    assert len(saved.read_text().splitlines()) == 300
