"""A short run of the reliability battery (bench/battery.py): every family holds. The full run
(minutes a family) is for the report; this one keeps the figures measured on every change."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import battery  # noqa: E402
import families  # noqa: E402 - registers the play families
import fuzz  # noqa: E402, F401 - registers the fuzzing families
import shuffles  # noqa: E402 - registers the shuffle family
from croupier.cards import DeckKind  # noqa: E402
from croupier.deck import SeededShuffler  # noqa: E402

SECONDS = 7.0  # each family's budget: six families in about a minute of CI
FEWEST = {"shuffle": 8}  # trials a short run must reach (a shuffle trial is a whole batch)


@pytest.mark.parametrize(
    "name",
    ["phh-fuzz", "rulebook-fuzz", "random-play", "illegal-actions", "hidden-cards", "shuffle"],
)
def test_battery_family_holds_in_a_short_run(name: str) -> None:
    outcome = battery.FAMILIES[name](13, SECONDS)
    failures = "\n".join(f"{e.what} in {e.name}: {e.data[:200]!r}" for e in outcome.examples)
    assert outcome.failed == 0, failures
    assert outcome.tried == outcome.held + outcome.known
    assert outcome.held >= FEWEST.get(name, 50), outcome


def test_battery_counts_a_raw_exception_and_a_hang_as_failures() -> None:
    # The sandbox itself: a check that raises, and one that runs past the limit, both fail.
    with battery.Sandbox(_hostile_check, limit=1.0) as sandbox:
        assert sandbox.run("fine") is None
        raised = sandbox.run("raise")
        assert raised is not None and raised.startswith("IndexError: list index out of range")
        assert sandbox.run("hang") == "over 1 s: no result (killed)"
        assert sandbox.run("fine") is None  # a new child took over


def _hostile_check(payload: str) -> str | None:
    if payload == "raise":
        return str([][1])
    if payload == "hang":
        while True:
            pass
    return None


def test_battery_prints_a_table_and_exits_1_on_a_failure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    @battery.family("always-fails")
    def always_fails(seed: int, seconds: float) -> battery.Outcome:
        outcome = battery.Outcome()
        outcome.hold()
        outcome.fail(battery.Failure("ValueError: boom", "x.phh", b"variant = 1"))
        return outcome

    try:
        code = battery.main(["--family", "always-fails", "--seconds", "1"])
    finally:
        del battery.FAMILIES["always-fails"]
    out = capsys.readouterr().out
    assert code == 1
    assert "always-fails          2          1        1        0" in out
    assert "- ValueError: boom" in out


def test_every_known_fault_is_held_by_a_strict_xfail_test() -> None:
    # A known fault is not counted as failed only while a test says it is still there: the
    # test's strict xfail flips when the fault is fixed, and then the entry goes too.
    import ast

    for test in battery.KNOWN.values():
        file, name = test.split("::")
        tree = ast.parse((BENCH.parent / file).read_text())
        (function,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
        marks = [ast.unparse(d) for d in function.decorator_list]
        assert any("xfail" in m and "strict=True" in m for m in marks), (test, marks)


# ---------------------------------------------------------------------------------------------
# The checks catch what they are for


def test_random_play_reaches_every_table_the_books_allow() -> None:
    from croupier.rulebooks import load_rulebook, rulebook_names
    from tables import all_tables

    expected = {
        (name, game, kind.size, structure)
        for name in rulebook_names()
        for game in load_rulebook(name).game_names
        for kind in load_rulebook(name).game(game).deck_kinds
        for structure in load_rulebook(name).structures(game)
    }
    tables = all_tables()
    assert {(t.book, t.game, t.deck, t.structure) for t in tables} >= expected
    combined = [t for t in tables if isinstance(t.structure, tuple)]  # qld s28(10)-(11)
    assert combined and all(t.book == "qld" for t in combined)


def test_the_invariants_catch_a_lost_chip_a_card_in_two_places_and_a_lost_card() -> None:
    from croupier.betting import Betting, Structure
    from croupier.games import GAMES
    from croupier.hand import Hand, Rules
    from tables import broken_invariant

    rules = Rules(
        game=GAMES["holdem"], blinds=(1, 2),
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=2),
    )  # fmt: skip
    hand = Hand(rules, [100, 100, 100])
    assert broken_invariant(hand) is None
    hand.stacks[0] -= 1
    assert (broken_invariant(hand) or "").startswith("chips not conserved: stacks [98, ")
    hand.stacks[0] += 1
    card = hand.hole[0][0]
    hand.dealt.board.append(card)
    assert broken_invariant(hand) == f"a card in two places: {card}"
    hand.dealt.board.pop()
    top = hand.deck.cards[0]
    hand.deck.take(top)
    assert broken_invariant(hand) == f"cards lost: {top} (51 held)"


def test_the_hidden_card_check_reads_cards_in_every_writer_s_form() -> None:
    text = 'p1 sm AhKd "d dh p2 ????" [Qs Jc] ["Tc", "9h"] Aces Action 2024/07/01 9:05:00'
    assert families.cards_in_text(text) == {"Ah", "Kd", "Qs", "Jc", "Tc", "9h"}


class _StdlibShuffler:
    """A Shuffler over the standard library's Mersenne Twister."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def randbelow(self, n: int) -> int:
        return self.random.randrange(n)


class _ModuloShuffler(_StdlibShuffler):
    """A random byte modulo n: for 52 cards, 0-47 come 5 times in 256, 48-51 only 4."""

    def randbelow(self, n: int) -> int:
        return self.random.randrange(256) % n


def test_the_shuffle_tests_pass_a_fair_shuffler_and_catch_biased_ones() -> None:
    stdlib, modulo = _StdlibShuffler(5), _ModuloShuffler(5)
    fair = shuffles.decks(DeckKind.STANDARD, 20_800, lambda i: stdlib)
    assert all(test(fair) > shuffles.SIGNIFICANCE for test in shuffles.TESTS.values())
    biased = shuffles.decks(DeckKind.STANDARD, 20_800, lambda i: modulo)
    assert shuffles.positions_p(biased) < shuffles.SIGNIFICANCE
    # Each deck dealt twice running (a shuffler whose state does not move on).
    twice = shuffles.decks(DeckKind.SHORT_32, 12_800, lambda i: SeededShuffler(i // 2))
    assert shuffles.successive_p(twice) < shuffles.SIGNIFICANCE


def test_the_chi_square_tail_matches_the_exact_sum_for_even_freedom() -> None:
    # For 2m degrees of freedom P(X > x) = exp(-x/2) sum_{i<m} (x/2)^i / i!, summed here in logs.
    for freedom, x in ((2500, 2500.0), (2500, 2700.0), (2500, 2800.0), (2704, 2400.0)):
        half = x / 2
        terms = [i * math.log(half) - half - math.lgamma(i + 1) for i in range(freedom // 2)]
        top = max(terms)
        exact = math.exp(top) * sum(math.exp(t - top) for t in terms)
        assert shuffles.chi_square_tail(x, freedom) == pytest.approx(exact, rel=0.03)


def test_the_fork_check_measures_the_longest_shared_run() -> None:
    assert shuffles.shared_run(bytes([1, 2, 3, 4, 9]), bytes([7, 2, 3, 4, 1])) == 3
    assert shuffles.shared_run(bytes(range(52)), bytes(range(51, -1, -1))) == 1
    assert shuffles.fork_trial("SECURE") is None
