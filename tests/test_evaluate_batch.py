"""The batch kernels of evaluate_many against slower paths that share none of their tricks:
integer rows read and checked inside the kernels, deuce-to-seven's rank-table shortcut, and
badugi's sorting network."""

from __future__ import annotations

import numpy as np
import pytest

import reference_eval as ref
from croupier.evaluate import EvaluationError, evaluate_many, rank_value
from croupier.evaluate.kernels import badugi_value

WIDE_TYPES = (np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64)


@pytest.mark.parametrize(
    ("dtype", "width"), [*((dtype, 7) for dtype in WIDE_TYPES), (np.int64, 5), (np.int64, 6)]
)
def test_integer_rows_of_every_type_and_width_give_the_uint8_values(dtype, width):
    rng = np.random.default_rng(width)
    hands = ref.random_hands(rng, 2_000, width)
    expected = [rank_value(row) for row in hands.tolist()]
    assert evaluate_many(hands.astype(np.uint8), "high").tolist() == expected
    assert evaluate_many(hands.astype(dtype), "high").tolist() == expected


@pytest.mark.parametrize(
    ("dtype", "bad_code"),
    [(np.int64, 256), (np.int64, 2**40), (np.int64, -1), (np.int32, -52), (np.uint16, 300),
     (np.uint64, 2**63), (np.int16, 255)],
)  # fmt: skip
def test_codes_beyond_a_byte_are_rejected_not_folded_onto_a_card(dtype, bad_code):
    # 256 would alias card 0 and 300 card 44 if the kernel only kept the low byte.
    rows = np.array([[0, 5, 10, 15, 20, 25, 30]] * 4, dtype=dtype)
    rows[2, 3] = bad_code
    with pytest.raises(EvaluationError, match=r"row 2 of 4"):
        evaluate_many(rows, "high")


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_rows_split_over_threads_give_the_same_values(threads):
    rng = np.random.default_rng(3)
    hands = ref.random_hands(rng, 200_000, 7)  # enough rows for several threads
    assert np.array_equal(
        evaluate_many(hands, "high", threads=threads), evaluate_many(hands, "high", threads=1)
    )


def _suited_rows(rng: np.random.Generator, n: int, width: int) -> np.ndarray:
    """Rows with five or more cards of one suit, the case deuce-to-seven values card by card."""
    rows = np.empty((n, width), dtype=np.int64)
    for i in range(n):
        suit = rng.integers(4)
        same = rng.choice(13, size=rng.integers(5, width + 1), replace=False) * 4 + suit
        rest = [c for c in range(52) if c % 4 != suit]
        others = rng.choice(rest, size=width - len(same), replace=False)
        rows[i] = rng.permutation(np.concatenate([same, others]))
    return rows


@pytest.mark.parametrize("width", [6, 7])
def test_deuce_to_seven_batch_equals_the_best_of_every_five(width):
    """The scalar path values every five-card subset; the kernel only the rows with five of a
    suit, and the rank table for the others."""
    rng = np.random.default_rng(27 + width)
    hands = np.concatenate([ref.random_hands(rng, 3_000, width), _suited_rows(rng, 1_000, width)])
    batch = evaluate_many(hands, "low-27")
    assert batch.tolist() == [rank_value(row, "low-27") for row in hands.tolist()]


def test_badugi_batch_equals_trying_every_subset_for_every_four_card_hand():
    hands = ref.deck_hands(0, 4)
    batch = evaluate_many(hands, "badugi")
    expected = [badugi_value(*row) for row in hands.tolist()]
    assert batch.tolist() == expected


@pytest.mark.parametrize("ranking", ref.RANKINGS)
@pytest.mark.parametrize("threads", [1, 3])
def test_values_written_into_a_given_out_array_are_those_returned_otherwise(ranking, threads):
    rng = np.random.default_rng(21)
    width = 4 if ranking == "badugi" else 7
    hands = ref.random_hands(rng, 150_000, width, ref.DECK_LOWEST[ranking])
    out = np.full(len(hands), 12345, dtype=np.int32)
    assert evaluate_many(hands, ranking, threads=threads, out=out) is out
    assert out.tolist() == evaluate_many(hands, ranking, threads=1).tolist()
    assert evaluate_many(hands.astype(np.int64), ranking, threads=threads, out=out) is out
    assert out[:300].tolist() == [rank_value(row, ranking) for row in hands[:300].tolist()]


@pytest.mark.parametrize(
    "out",
    [
        np.zeros(3, dtype=np.int32),  # one place too few
        np.zeros(5, dtype=np.int32),  # one too many
        np.zeros(4, dtype=np.int64),
        np.zeros((4, 2), dtype=np.int32)[:, 0],  # not contiguous
        np.zeros((4, 1), dtype=np.int32),
        [0, 0, 0, 0],
    ],
)
def test_an_out_array_that_cannot_hold_the_values_is_refused_untouched(out):
    rows = np.array([[0, 5, 10, 15, 20, 25, 30]] * 4, dtype=np.uint8)
    before = np.array(out, copy=True)
    with pytest.raises(EvaluationError, match=r"out must be a writable C-contiguous int32 array"):
        evaluate_many(rows, "high", out=out)
    assert np.array_equal(np.asarray(out), before)


def test_a_read_only_out_array_or_one_sharing_the_cards_memory_is_refused():
    rows = np.array([[0, 5, 10, 15, 20, 25, 30]] * 4, dtype=np.int32)
    frozen = np.zeros(4, dtype=np.int32)
    frozen.flags.writeable = False
    with pytest.raises(EvaluationError, match="read-only"):
        evaluate_many(rows, "high", out=frozen)
    with pytest.raises(EvaluationError, match="share memory"):
        evaluate_many(rows, "high", out=rows.reshape(-1)[:4])


@pytest.mark.parametrize("ranking", ["high", "low-27", "badugi"])
def test_the_kernels_count_the_invalid_rows_they_mark(ranking):
    # The count spares evaluate_many a second pass over its output; check it against rows
    # made invalid on purpose (a repeated card, a code past the deck), at known places.
    from croupier.evaluate.api import Ranking, _kernel

    rng = np.random.default_rng(8)
    width = 4 if ranking == "badugi" else 7
    rows = ref.random_hands(rng, 5_000, width).astype(np.int64)
    bad = sorted(rng.choice(len(rows), size=37, replace=False).tolist())
    for n, i in enumerate(bad):
        rows[i, 1] = rows[i, 0] if n % 2 else 52 + n
    for wide, cards in ((True, rows), (False, rows.clip(0, 255).astype(np.uint8))):
        kernel, arguments = _kernel(Ranking.parse(ranking), width, wide)
        out = np.empty(len(rows), dtype=np.int32)
        assert kernel(cards, *arguments, out) == len(bad)
        assert np.flatnonzero(out < 0).tolist() == bad
    with pytest.raises(EvaluationError, match=rf"row {bad[0]} of 5000"):
        evaluate_many(rows, ranking)
