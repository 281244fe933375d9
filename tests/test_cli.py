"""The command line as a person types it."""

from __future__ import annotations

from typer.testing import CliRunner

from croupier.cli import app

runner = CliRunner()


def test_evaluate_names_the_hand_and_the_hole_cards_used() -> None:
    result = runner.invoke(app, ["evaluate", "Ah Kh", "--board", "Qh Jh Th 2c 3d"])
    assert result.exit_code == 0, result.output
    assert "Royal Flush" in result.output
    assert "hole cards used: Ah Kh" in result.output


def test_evaluate_omaha_uses_exactly_two_hole_cards() -> None:
    # Four hearts in hand and one on the board is no flush at Omaha (au 17.5).
    result = runner.invoke(
        app, ["evaluate", "Ah Kh Qh 2h", "--board", "Jh Ts 9c 4d 3s", "--hole-cards-used", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "Straight, King high" in result.output
    assert "hole cards used: Kh Qh" in result.output


def test_bad_cards_are_an_error_not_a_traceback() -> None:
    result = runner.invoke(app, ["evaluate", "Ah Ah"])
    assert result.exit_code == 2
    assert "duplicate card Ah" in result.output
    assert "Traceback" not in result.output


def test_unknown_ranking_lists_the_allowed_ones() -> None:
    result = runner.invoke(app, ["evaluate", "Ah Kh Qh Jh Th", "--ranking", "bogus"])
    assert result.exit_code == 2
    assert "short36" in result.output and "badugi" in result.output
