"""Tests for croupier.cards: notation, deck kinds (au 4.1), suit order (cardroom ties 1), shuffling.

Expectations are computed independently of the module: card names are built from literal rank and
suit alphabets, deck contents from the rulebook's rank lists, and the shuffle is checked by
enumerating every answer a random source could give.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.cards import (
    Card,
    CardError,
    DeckKind,
    Rank,
    Suit,
    format_cards,
    parse_cards,
    parse_cards_or_unknown,
)
from croupier.deck import Deck, SecureShuffler, SeededShuffler, _BitsShuffler, shuffle

RANK_LETTERS = "23456789TJQKA"  # rank 0 = deuce .. 12 = ace
SUIT_LETTERS = "cdhs"  # suit 0 = clubs .. 3 = spades
ALL_NAMES = [r + s for r in RANK_LETTERS for s in SUIT_LETTERS]

cards_st = st.integers(min_value=0, max_value=51).map(Card)
distinct_cards_st = st.lists(cards_st, unique=True, max_size=52)
maybe_cards_st = st.lists(st.one_of(st.none(), cards_st), max_size=20).filter(
    lambda cs: len({c for c in cs if c is not None}) == sum(c is not None for c in cs)
)


def _randomise_case(text: str, flips: Sequence[bool]) -> str:
    return "".join(ch.swapcase() if flip else ch for ch, flip in zip(text, flips, strict=False))


# --------------------------------------------------------------------------------------------
# Card codes, ranks, suits
# --------------------------------------------------------------------------------------------


def test_card_code_is_four_times_rank_plus_suit() -> None:
    for r, rank_letter in enumerate(RANK_LETTERS):
        for s, suit_letter in enumerate(SUIT_LETTERS):
            name = rank_letter + suit_letter
            card = Card(name)
            assert card == 4 * r + s
            assert int(card) == 4 * r + s
            assert isinstance(card, int)
            assert type(card) is Card
            assert card.rank == Rank(r)
            assert card.suit == Suit(s)
            assert isinstance(card.rank, Rank)
            assert isinstance(card.suit, Suit)
            assert str(card) == name
            assert Card(4 * r + s) == card
            assert str(Card(4 * r + s)) == name


def test_card_landmarks() -> None:
    assert Card("2c") == 0
    assert Card("2d") == 1
    assert Card("3c") == 4
    assert Card("Ah") == 50
    assert Card("As") == 51
    assert Card(50).rank is Rank.ACE
    assert Card(50).suit is Suit.HEARTS
    assert Card("Td").rank is Rank.TEN


def test_card_is_interned_and_idempotent() -> None:
    assert Card(50) is Card("Ah")
    assert Card(Card("Ah")) is Card("Ah")
    assert Card.parse("Ah") is Card(50)


def test_rank_values_and_letters() -> None:
    assert [rank.char for rank in Rank] == list(RANK_LETTERS)
    assert [int(rank) for rank in Rank] == list(range(13))
    assert Rank.TWO < Rank.TEN < Rank.JACK < Rank.ACE
    assert Rank.KING.noun == "Kings"
    assert Rank.SIX.noun == "Sixes"
    assert Rank.ACE.noun == "Aces"


def test_suit_letters() -> None:
    assert [suit.char for suit in Suit] == list(SUIT_LETTERS)
    assert [int(suit) for suit in Suit] == [0, 1, 2, 3]


def test_cardroom_ties_1_suit_order_spades_hearts_diamonds_clubs() -> None:
    # Cardroom ties, rule 1: suits rank spades highest, then hearts, diamonds, clubs lowest.
    assert Suit.SPADES > Suit.HEARTS > Suit.DIAMONDS > Suit.CLUBS
    assert sorted(Suit, reverse=True) == [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS]
    # The order carries over to cards of equal rank, since the suit is the low part of the code.
    for rank_letter in RANK_LETTERS:
        same_rank = [Card(rank_letter + s) for s in "shdc"]
        assert same_rank == sorted(same_rank, reverse=True)
        assert same_rank[0] > same_rank[1] > same_rank[2] > same_rank[3]


@given(st.lists(cards_st, unique=True))
def test_cards_sort_by_rank_then_suit(cards: list[Card]) -> None:
    by_names = sorted(cards, key=lambda c: (RANK_LETTERS.index(str(c)[0]), "cdhs".index(str(c)[1])))
    assert sorted(cards) == by_names


def test_sorting_rank_dominates_suit() -> None:
    assert Card("3c") > Card("2s")
    assert Card("Ac") > Card("Ks")
    assert sorted(parse_cards("As 2c Kh Ad 2s")) == list(parse_cards("2c 2s Kh Ad As"))


@given(cards_st)
def test_repr_is_evaluable(card: Card) -> None:
    text = repr(card)
    assert text == f"Card('{ALL_NAMES[int(card)]}')"
    again = eval(text, {"Card": Card})
    assert again == card
    assert type(again) is Card


def test_card_out_of_range_codes() -> None:
    for bad in (52, -1, 100, -52):
        with pytest.raises(CardError) as info:
            Card(bad)
        assert str(bad) in str(info.value)
    assert issubclass(CardError, ValueError)
    with pytest.raises(ValueError, match="52"):
        Card(52)


# --------------------------------------------------------------------------------------------
# Parsing and formatting
# --------------------------------------------------------------------------------------------


@given(cards_st)
def test_parse_str_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card(str(card)) is card


@given(distinct_cards_st)
def test_parse_cards_format_cards_round_trip(cards: list[Card]) -> None:
    text = format_cards(cards)
    assert text == " ".join(ALL_NAMES[int(c)] for c in cards)
    assert parse_cards(text) == tuple(cards)
    # Glued, comma-separated and iterable-of-tokens forms give the same cards.
    assert parse_cards(text.replace(" ", "")) == tuple(cards)
    assert parse_cards(text.replace(" ", ",")) == tuple(cards)
    assert parse_cards(text.split()) == tuple(cards)


@given(maybe_cards_st)
def test_unknown_round_trip(cards: list[Card | None]) -> None:
    text = format_cards(cards)
    assert text == " ".join("??" if c is None else ALL_NAMES[int(c)] for c in cards)
    assert parse_cards_or_unknown(text) == tuple(cards)
    assert parse_cards_or_unknown(text.replace(" ", "")) == tuple(cards)


def test_unknown_cards() -> None:
    assert parse_cards_or_unknown("Ah ?? Kd ??") == (Card("Ah"), None, Card("Kd"), None)
    assert parse_cards_or_unknown("??") == (None,)
    assert parse_cards_or_unknown("?? ?? ??") == (None, None, None)
    assert parse_cards_or_unknown("Ah??10d") == (Card("Ah"), None, Card("Td"))
    assert parse_cards_or_unknown(["??", "Ah"]) == (None, Card("Ah"))
    assert format_cards([None, Card("Ah")]) == "?? Ah"
    # "??" is not a card to parse_cards.
    with pytest.raises(CardError, match=r"\?"):
        parse_cards("Ah ??")


def test_unseen_card_notation_reads_as_none_where_cards_may_be_unseen() -> None:
    """The README's ``??``: parse_cards_or_unknown gives None for it, and parse_cards, whose
    callers rely on every card being known, names that function in its error."""
    assert parse_cards_or_unknown("Ah ??") == (Card("Ah"), None)
    with pytest.raises(CardError, match=r"unseen card.*parse_cards_or_unknown reads '\?\?'"):
        parse_cards("Ah ??")
    with pytest.raises(CardError, match="unseen card"):
        parse_cards(["Ah", "??"])


def test_ten_accepted_as_10_on_input_and_written_as_t() -> None:
    for suit in SUIT_LETTERS:
        assert Card("10" + suit) == Card("T" + suit) == 32 + SUIT_LETTERS.index(suit)
        assert str(Card("10" + suit)) == "T" + suit
    assert parse_cards("10h 10s") == (Card("Th"), Card("Ts"))
    assert format_cards(parse_cards("10h 10s")) == "Th Ts"
    assert Rank.parse("10") is Rank.TEN
    assert repr(Card("10c")) == "Card('Tc')"


def test_glued_form() -> None:
    assert parse_cards("AhKd") == (Card("Ah"), Card("Kd"))
    assert parse_cards("AhKd10c2s") == (Card("Ah"), Card("Kd"), Card("Tc"), Card("2s"))
    assert parse_cards("10h10d") == (Card("Th"), Card("Td"))
    assert parse_cards("Ah,Kd, Qc") == (Card("Ah"), Card("Kd"), Card("Qc"))
    assert parse_cards("") == ()
    assert parse_cards("   ") == ()
    assert parse_cards([]) == ()


def test_case_handling() -> None:
    # Rank letters are matched case-insensitively, and so are suit letters.
    ace_of_hearts = Card("Ah")
    for text in ("Ah", "ah", "AH", "aH", " Ah ", "\tah\n"):
        assert Card.parse(text) is ace_of_hearts
    assert Card("tD") == Card("Td")
    assert Card("10H") == Card("Th")
    assert Card("kS") == Card("Ks")
    assert parse_cards("ahKD") == (Card("Ah"), Card("Kd"))
    assert Rank.parse("q") is Rank.QUEEN
    assert Suit.parse("S") is Suit.SPADES
    # Output is always an upper-case rank and a lower-case suit.
    assert str(Card("ah")) == "Ah"
    assert format_cards(parse_cards("ks QD")) == "Ks Qd"


@given(cards_st, st.lists(st.booleans(), min_size=2, max_size=2))
def test_any_case_mix_parses(card: Card, flips: list[bool]) -> None:
    assert Card.parse(_randomise_case(str(card), flips)) == card


@pytest.mark.parametrize(
    "bad", ["1x", "Ax", "Zh", "", "Ahh", "10", "1h", "11h", "A", "Ah Kd", "??"]
)
def test_parse_errors_name_the_bad_text(bad: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(bad)
    assert repr(bad) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_parse_error_says_which_part_is_wrong() -> None:
    with pytest.raises(CardError, match="suit"):
        Card.parse("Ax")
    with pytest.raises(CardError, match="rank"):
        Card.parse("Zh")
    with pytest.raises(CardError, match="rank"):
        Card.parse("1x")


def test_parse_cards_error_names_bad_token() -> None:
    with pytest.raises(CardError, match="'Zh'"):
        parse_cards("Ah Zh Kd")


@pytest.mark.parametrize(
    ("text", "dup"),
    [("Ah Kd Ah", "Ah"), ("AhKdah", "Ah"), ("10c Tc", "Tc"), ("2c 3c 4c 3c 2c", "3c")],
)
def test_duplicates_are_rejected_naming_the_card(text: str, dup: str) -> None:
    with pytest.raises(CardError, match=f"duplicate card {dup}"):
        parse_cards(text)
    with pytest.raises(CardError, match=f"duplicate card {dup}"):
        parse_cards_or_unknown(text + " ??")


def test_duplicate_with_unknowns() -> None:
    with pytest.raises(CardError, match="duplicate card Kd"):
        parse_cards_or_unknown("?? Kd ?? Kd")


@given(distinct_cards_st.filter(bool), st.data())
def test_any_repeated_card_is_rejected(cards: list[Card], data: st.DataObject) -> None:
    repeat = data.draw(st.sampled_from(cards))
    position = data.draw(st.integers(min_value=0, max_value=len(cards)))
    with_dup = [*cards[:position], repeat, *cards[position:]]
    with pytest.raises(CardError, match=f"duplicate card {ALL_NAMES[int(repeat)]}"):
        parse_cards(format_cards(with_dup))


# --------------------------------------------------------------------------------------------
# Deck kinds (au 4.1)
# --------------------------------------------------------------------------------------------


def _names(rank_letters: str) -> set[str]:
    return {r + s for r in rank_letters for s in "shdc"}


def _check_kind(kind: DeckKind, size: int, rank_letters: str, clause: str) -> None:
    names = [str(c) for c in kind.cards]
    assert kind.size == size
    assert len(kind.cards) == size
    assert len(set(names)) == size
    assert set(names) == _names(rank_letters)
    assert kind.clause == clause
    assert [r.char for r in kind.ranks] == sorted(rank_letters, key=RANK_LETTERS.index)
    assert kind.lowest.char == min(rank_letters, key=RANK_LETTERS.index)
    # Cards are listed in code order: deuce (or the lowest rank) of clubs first, ace of spades last.
    assert list(kind.cards) == sorted(kind.cards)
    assert str(kind.cards[-1]) == "As"
    assert DeckKind.from_size(size) is kind
    for name in ALL_NAMES:
        assert (Card(name) in kind) == (name in set(names))


def test_au_4_1_a_standard_deck_52_cards() -> None:
    # au 4.1(a): a full 52-card deck without jokers.
    _check_kind(DeckKind.STANDARD, 52, "AKQJT98765432", "au 4.1(a)")
    assert str(DeckKind.STANDARD.cards[0]) == "2c"
    assert list(DeckKind.STANDARD.cards) == list(range(52))


def test_au_4_1_b_40_card_deck_ace_to_five() -> None:
    # au 4.1(b): ace down to five in each of the four suits.
    _check_kind(DeckKind.SHORT_40, 40, "AKQJT98765", "au 4.1(b)")
    assert DeckKind.SHORT_40.lowest is Rank.FIVE


def test_au_4_1_c_36_card_deck_ace_to_six() -> None:
    # au 4.1(c): ace down to six in each of the four suits.
    _check_kind(DeckKind.SHORT_36, 36, "AKQJT9876", "au 4.1(c)")
    assert DeckKind.SHORT_36.lowest is Rank.SIX


def test_au_4_1_d_32_card_deck_ace_to_seven() -> None:
    # au 4.1(d): ace down to seven in each of the four suits.
    _check_kind(DeckKind.SHORT_32, 32, "AKQJT987", "au 4.1(d)")
    assert DeckKind.SHORT_32.lowest is Rank.SEVEN


def test_royal_20_card_deck_ace_to_ten() -> None:
    kind = DeckKind.ROYAL_20
    _check_kind(kind, 20, "AKQJT", kind.clause)
    assert kind.lowest is Rank.TEN
    assert "au" not in kind.clause  # not one of the rulebook's decks


def test_deck_kinds_are_exactly_these() -> None:
    assert sorted(kind.size for kind in DeckKind) == [20, 32, 36, 40, 52]


@pytest.mark.parametrize(
    ("kind", "outsider", "clause"),
    [
        (DeckKind.SHORT_40, "4h", "au 4.1(b)"),
        (DeckKind.SHORT_40, "2c", "au 4.1(b)"),
        (DeckKind.SHORT_36, "5s", "au 4.1(c)"),
        (DeckKind.SHORT_32, "6d", "au 4.1(d)"),
        (DeckKind.ROYAL_20, "9h", "royal"),
    ],
)
def test_check_rejects_card_outside_deck_naming_clause(
    kind: DeckKind, outsider: str, clause: str
) -> None:
    with pytest.raises(CardError) as info:
        kind.check(parse_cards(f"As {outsider} Kd"))
    message = str(info.value)
    assert outsider in message
    assert clause in message
    assert str(kind.size) in message


def test_check_accepts_cards_in_deck() -> None:
    for kind in DeckKind:
        kind.check(kind.cards)
        kind.check([])
    DeckKind.STANDARD.check(parse_cards("2c 4h 7d"))
    DeckKind.SHORT_40.check(parse_cards("5c Ah Td"))


def test_from_size_unknown() -> None:
    for bad in (0, 24, 53, 48):
        with pytest.raises(CardError, match=str(bad)):
            DeckKind.from_size(bad)


# --------------------------------------------------------------------------------------------
# Deck
# --------------------------------------------------------------------------------------------


def test_ordered_deck_and_deal_from_top() -> None:
    deck = Deck.ordered()
    assert deck.kind is DeckKind.STANDARD
    assert len(deck) == 52
    assert deck.deal(3) == parse_cards("2c 2d 2h")
    assert len(deck) == 49
    assert deck.deal() == (Card("2s"),)
    assert deck.deal(0) == ()
    assert deck.cards[0] == Card("3c")
    rest = deck.deal(48)
    assert [str(c) for c in rest] == ALL_NAMES[4:]
    assert len(deck) == 0
    with pytest.raises(CardError):
        deck.deal()


def test_deal_too_many_errors_and_leaves_deck_alone() -> None:
    deck = Deck.ordered(DeckKind.SHORT_32)
    deck.deal(30)
    before = deck.cards
    with pytest.raises(CardError) as info:
        deck.deal(3)
    assert "3" in str(info.value)
    assert "2" in str(info.value)
    assert deck.cards == before
    assert deck.deal(2) == (Card("Ah"), Card("As"))


def test_deal_negative() -> None:
    with pytest.raises(ValueError, match="-1"):
        Deck.ordered().deal(-1)


def test_deck_constructor_validates() -> None:
    with pytest.raises(CardError, match=re.escape("au 4.1(b)")):
        Deck(DeckKind.SHORT_40, parse_cards("Ah 4h"))
    with pytest.raises(CardError, match="duplicate card Ah"):
        Deck(DeckKind.STANDARD, [Card("Ah"), Card("Kd"), Card("Ah")])
    deck = Deck(DeckKind.SHORT_36, parse_cards("6c Ah"))
    assert deck.deal(2) == (Card("6c"), Card("Ah"))


def test_deck_cards_is_a_snapshot() -> None:
    deck = Deck.ordered(DeckKind.ROYAL_20)
    snapshot = deck.cards
    deck.deal(5)
    assert len(snapshot) == 20
    assert len(deck.cards) == 15


@pytest.mark.parametrize("kind", list(DeckKind))
def test_deck_repr_is_evaluable(kind: DeckKind) -> None:
    scope = {"Deck": Deck, "DeckKind": DeckKind, "parse_cards": parse_cards}
    deck = Deck.shuffled(kind, SeededShuffler(7))
    for deal in (0, 3, kind.size - 6, 3):
        deck.deal(deal)
        again = eval(repr(deck), scope)
        assert type(again) is Deck
        assert again.kind is deck.kind
        assert again.cards == deck.cards
    assert len(deck) == 0


# --------------------------------------------------------------------------------------------
# Shuffling
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(DeckKind))
def test_shuffled_keeps_exactly_the_decks_cards(kind: DeckKind) -> None:
    for shuffler in (SeededShuffler(1), SeededShuffler(2), SecureShuffler(), None):
        deck = Deck.shuffled(kind, shuffler)
        assert deck.kind is kind
        assert len(deck) == kind.size
        assert sorted(deck.cards) == list(kind.cards)
        assert {str(c) for c in deck.cards} == {str(c) for c in kind.cards}


def test_seeded_shuffler_is_reproducible() -> None:
    for seed in (0, 1, 42, 2**70):
        first = Deck.shuffled(DeckKind.STANDARD, SeededShuffler(seed)).cards
        second = Deck.shuffled(DeckKind.STANDARD, SeededShuffler(seed)).cards
        assert first == second
        assert first != DeckKind.STANDARD.cards
    shuffler = SeededShuffler(5)
    draws = [shuffler.randbelow(1000) for _ in range(50)]
    again = SeededShuffler(5)
    assert [again.randbelow(1000) for _ in range(50)] == draws
    assert repr(SeededShuffler(5)) == "SeededShuffler(5)"
    assert repr(SecureShuffler()) == "SecureShuffler()"


def test_different_seeds_give_different_orders() -> None:
    orders = {Deck.shuffled(DeckKind.STANDARD, SeededShuffler(seed)).cards for seed in range(50)}
    assert len(orders) == 50


def test_seeded_shuffle_matches_stdlib_shuffle() -> None:
    # Same Mersenne Twister bits, same rejection sampler and the same Fisher-Yates loop as
    # random.Random.shuffle, so the orders agree: an independent reference for the seeded order.
    for seed in (0, 3, 99):
        expected = list(DeckKind.STANDARD.cards)
        random.Random(seed).shuffle(expected)
        assert list(Deck.shuffled(DeckKind.STANDARD, SeededShuffler(seed)).cards) == expected


class _ScriptExhaustedError(Exception):
    def __init__(self, bound: int) -> None:
        super().__init__(bound)
        self.bound = bound


class _ScriptedShuffler:
    """Answers randbelow from a script; asks for a branch when the script runs out."""

    def __init__(self, script: Sequence[int]) -> None:
        self.script = script
        self.used = 0

    def randbelow(self, n: int) -> int:
        if self.used == len(self.script):
            raise _ScriptExhaustedError(n)
        value = self.script[self.used]
        assert 0 <= value < n
        self.used += 1
        return value


def _every_shuffle_outcome(items: list[Card]) -> list[tuple[Card, ...]]:
    """Run shuffle once for every possible sequence of randbelow answers."""
    outcomes = []
    pending: list[tuple[int, ...]] = [()]
    while pending:
        script = pending.pop()
        fake = _ScriptedShuffler(script)
        trial = list(items)
        try:
            shuffle(trial, fake)
        except _ScriptExhaustedError as branch:
            pending.extend((*script, answer) for answer in range(branch.bound))
            continue
        assert fake.used == len(script)
        outcomes.append(tuple(trial))
    return outcomes


def test_fisher_yates_each_permutation_exactly_once_for_four_cards() -> None:
    # With a uniform randbelow each answer sequence is equally likely, so a one-to-one map from
    # answer sequences onto permutations means every order is equally likely.
    items = list(parse_cards("Ah Kd 7c 2s"))
    outcomes = _every_shuffle_outcome(items)
    assert len(outcomes) == 24
    assert Counter(outcomes) == Counter(itertools.permutations(items))


@pytest.mark.parametrize("size", [0, 1, 2, 3, 5, 6])
def test_fisher_yates_each_permutation_exactly_once(size: int) -> None:
    items = list(DeckKind.STANDARD.cards[:size])
    outcomes = _every_shuffle_outcome(items)
    assert sorted(outcomes) == sorted(itertools.permutations(items))


def test_shuffle_with_identity_answers_keeps_order() -> None:
    class Top:
        def randbelow(self, n: int) -> int:
            return n - 1

    deck = Deck.shuffled(DeckKind.SHORT_32, Top())
    assert deck.cards == DeckKind.SHORT_32.cards


class _CyclingWords(random.Random):
    """A bit source whose 32-bit words carry, in their top ``width`` bits, a fixed permutation of
    0 .. 2**width - 1, cyclically: every width-bit value comes up equally often."""

    def __init__(self, order_seed: int, width: int) -> None:
        super().__init__(order_seed)
        self.cycle = list(range(2**width))
        random.Random(order_seed * 1000 + width).shuffle(self.cycle)
        self.width = width
        self.position = 0
        self.requests: list[int] = []

    def getrandbits(self, k: int, /) -> int:
        self.requests.append(k)
        value = 0
        for i in range(k // 32):  # the first word lowest, as CPython's generator fills them
            word = self.cycle[self.position % len(self.cycle)] << (32 - self.width)
            self.position += 1
            value |= word << (32 * i)
        return value


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6, 7, 8, 9, 13, 17, 31, 32, 33, 52, 100, 1000])
@pytest.mark.parametrize("order_seed", [0, 1])
def test_randbelow_rejection_has_no_modulo_bias(n: int, order_seed: int) -> None:
    source = _CyclingWords(order_seed, n.bit_length())
    shuffler = _BitsShuffler(source)  # the base of Seeded/SecureShuffler
    rounds = 3
    counts = Counter(shuffler.randbelow(n) for _ in range(n * rounds))
    # Every value of the bit source came up equally often, so an unbiased sampler returns each
    # of 0 .. n-1 equally often; `bits % n` would favour the small values.
    assert counts == Counter({value: rounds for value in range(n)})
    assert source.requests and all(k % 32 == 0 for k in source.requests)  # whole words


def test_cycling_source_would_expose_modulo_bias() -> None:
    # Control: the same source reduced modulo n is visibly biased, so the test above has teeth.
    source = _CyclingWords(0, 3)
    assert Counter(value % 5 for value in source.cycle) == Counter({0: 2, 1: 2, 2: 2, 3: 1, 4: 1})


def _reference_randbelow(source: random.Random, n: int) -> int:
    """Rejection sampling with one getrandbits call per draw (the shufflers' first form)."""
    bits = n.bit_length()
    while True:
        value = source.getrandbits(bits)
        if value < n:
            return value


@given(
    st.integers(min_value=0, max_value=2**32),
    st.lists(st.integers(min_value=1, max_value=2**80), min_size=1, max_size=200),
)
def test_seeded_draws_are_those_of_one_getrandbits_call_each(seed: int, bounds: list[int]) -> None:
    """Fetching bits in bulk changes no draw: seeded decks keep their order across versions."""
    reference = random.Random(seed)
    shuffler = SeededShuffler(seed)
    for n in bounds:
        assert shuffler.randbelow(n) == _reference_randbelow(reference, n)
    expected = list(DeckKind.STANDARD.cards)
    for i in range(len(expected) - 1, 0, -1):
        j = _reference_randbelow(reference, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert Deck.shuffled(DeckKind.STANDARD, shuffler).cards == tuple(expected)


@given(st.integers(min_value=1, max_value=10**6), st.integers(min_value=0, max_value=2**32))
def test_randbelow_in_range(n: int, seed: int) -> None:
    assert 0 <= SeededShuffler(seed).randbelow(n) < n
    assert 0 <= SecureShuffler().randbelow(n) < n


def test_randbelow_one_is_zero_and_bad_bounds_raise() -> None:
    assert SeededShuffler(1).randbelow(1) == 0
    assert SecureShuffler().randbelow(1) == 0
    for bad in (0, -3):
        with pytest.raises(ValueError, match=str(bad)):
            SeededShuffler(1).randbelow(bad)


def test_seeded_positions_are_uniform_chi_square() -> None:
    # Deterministic (fixed seed): where does each of 6 cards land over 12,000 shuffles?
    size, trials = 6, 12_000
    shuffler = SeededShuffler(20240601)
    items = list(DeckKind.STANDARD.cards[:size])
    table = [[0] * size for _ in range(size)]
    perms: Counter[tuple[Card, ...]] = Counter()
    for _ in range(trials):
        trial = list(items)
        shuffle(trial, shuffler)
        perms[tuple(trial)] += 1
        for position, card in enumerate(trial):
            table[items.index(card)][position] += 1
    expected = trials / size
    chi2 = sum((count - expected) ** 2 / expected for row in table for count in row)
    # 25 degrees of freedom: mean 25; 80 is far out in the tail.
    assert chi2 < 80, chi2
    # Every one of the 720 orders shows up, none wildly over-represented.
    assert len(perms) == 720
    expected_perm = trials / 720
    chi2_perm = sum((count - expected_perm) ** 2 / expected_perm for count in perms.values())
    # 719 degrees of freedom: mean 719, sd about 38.
    assert chi2_perm < 719 + 8 * 38, chi2_perm


def test_secure_shuffler_gives_valid_permutations() -> None:
    shuffler = SecureShuffler()
    orders = set()
    for _ in range(20):
        items = list(DeckKind.STANDARD.cards)
        shuffle(items, shuffler)
        assert sorted(items) == list(DeckKind.STANDARD.cards)
        orders.add(tuple(items))
    # 52! orders: twenty identical-looking shuffles would mean the generator is stuck.
    assert len(orders) > 1
    default = Deck.shuffled()
    assert sorted(default.cards) == list(DeckKind.STANDARD.cards)


@pytest.mark.parametrize("size", [0, 1, 2, 52, 255, 256, 300])
def test_seeded_shuffle_of_any_length_is_the_one_call_per_draw_order(size: int) -> None:
    """Lists up to 255 long take the inlined byte path, longer ones the general one."""
    reference = random.Random(size)
    shuffler = SeededShuffler(size)
    for _ in range(3):  # across buffer refills
        order = list(range(size))
        for i in range(size - 1, 0, -1):
            j = _reference_randbelow(reference, i + 1)
            order[i], order[j] = order[j], order[i]
        items = [Card(code % 52) for code in range(size)]
        expected = [items[k] for k in order]
        shuffler.shuffle(items)
        assert items == expected
