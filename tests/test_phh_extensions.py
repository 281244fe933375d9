"""PHH extension fields (docs/phh-extensions.md): rules from user fields, fields from hands."""

from __future__ import annotations

import random
import re
import warnings
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.betting import MinRaise, ShortAllIn, Structure
from croupier.bots import RandomBot, play_hand
from croupier.cards import DeckKind
from croupier.deck import Deck, SeededShuffler
from croupier.games import game
from croupier.hand import Hand, Phase, Rules
from croupier.history.extensions import (
    EXTENSION_VARIANT,
    extension_fields,
    extension_rules,
    phh_variant,
)
from croupier.history.phh import ActionKind, HandHistory, PHHError, dump_phh, load_phh
from croupier.history.replay import replay
from croupier.history.writer import history_from_hand
from croupier.pots import Basis, Commission, CommissionKind, OddChip, OddChipRule
from croupier.rulebooks import load_rulebook, rulebook_names

DOC = Path(__file__).parent.parent / "docs" / "phh-extensions.md"

AU_COMMISSION = {"commission": "percentage", "commission_rate": "10%", "commission_cap": 5}


def doc_example() -> str:
    """The worked example file of docs/phh-extensions.md (the block after its marker)."""
    text = DOC.read_text(encoding="utf-8")
    match = re.search(r"<!-- worked-example -->\s*```toml\n(.*?)```", text, re.S)
    assert match is not None, "the worked example block is missing"
    return match.group(1)


def history(**fields: object) -> HandHistory:
    base: dict[str, object] = {
        "variant": EXTENSION_VARIANT,
        "antes": (0, 0, 0),
        "blinds_or_straddles": (1, 2, 0),
        "min_bet": 2,
        "starting_stacks": (100, 80, 120),
        "actions": (),
    }
    user = fields.pop("user_fields", {})
    base.update(fields)
    return HandHistory(**base, user_fields=user)  # type: ignore[arg-type]


def deck_for(text_history: HandHistory, rules: Rules) -> Deck:
    """A deck that deals what the history's ``d dh`` and ``d db`` say: hole cards one at a
    time from p1, a burn (an unused card) before each board the game burns for."""
    actions = text_history.parsed_actions()
    holes = [a.cards for a in actions if a.kind is ActionKind.DEAL_HOLE]
    boards = [a.cards for a in actions if a.kind is ActionKind.DEAL_BOARD]
    used = [c for cards in holes + boards for c in cards if c is not None]
    spare = iter([c for c in rules.deck.cards if c not in used])
    order = [h[i] for i in range(len(holes[0])) for h in holes]
    streets = rules.game.streets
    first = 0 if streets[0].board else 1
    for index, board in enumerate(boards):
        if streets[first + index].burn:
            order.append(next(spare))
        order.extend(board)
    rest = [c for c in rules.deck.cards if c not in order]
    return Deck(rules.deck, [c for c in order if c is not None] + rest)


def play(text_history: HandHistory, rules: Rules) -> Hand:
    """The history's player actions on the engine (dealing comes from a stacked deck)."""
    hand = Hand(rules, list(text_history.starting_stacks), deck_for(text_history, rules))  # type: ignore[arg-type]
    for action in text_history.parsed_actions():
        if action.kind is ActionKind.FOLD:
            hand.fold()
        elif action.kind is ActionKind.CHECK_OR_CALL:
            hand.check_or_call()
        elif action.kind is ActionKind.COMPLETE_BET_OR_RAISE:
            hand.bet_or_raise_to(int(action.amount or 0))
    return hand


# ---------------------------------------------------------------------------------------------
# The worked example: Two Card Manila under au-casino with commission


def test_worked_example_rules_are_au_casino_with_the_options() -> None:
    example = load_phh(doc_example())
    rules = extension_rules(example)
    assert rules is not None
    expected = load_rulebook("au-casino").rules(
        "manila2", "no-limit", stakes=(1, 2), deck=32, **AU_COMMISSION
    )
    assert rules == expected
    assert rules.game.name == "manila2" and rules.deck is DeckKind.SHORT_32
    assert rules.commission.rate == Fraction(1, 10) and rules.commission.basis is Basis.HAND
    assert rules.commission.cap == 5  # au 8.1, 8.7
    assert not rules.heads_up_button_small_blind  # au 14.1(c)(i)
    assert rules.odd_chip.rule is OddChipRule.HIGHEST_CARD  # au 14.4(e)


def test_worked_example_plays_to_its_finishing_stacks_with_the_commission() -> None:
    example = load_phh(doc_example())
    rules = extension_rules(example)
    assert rules is not None
    hand = play(example, rules)
    assert hand.phase is Phase.OVER
    # Sums bet in the hand (au 8.2(a)): p1 6 + 10, p2 the blind 2, p3 6 + 10 = 34.
    # 10% of 34 is 3.4: 3 chips (the smallest chip, au 11.4(d)); the cap of 5 is not reached.
    assert hand.commission == 3
    # p3's A-7-8-9-T straight (ace low in the 32-card deck, au 9.3) wins 34 - 3 = 31:
    # p1 100 - 16 = 84, p2 80 - 2 = 78, p3 120 - 16 + 31 = 135.
    assert tuple(hand.stacks) == (84, 78, 135) == example.finishing_stacks


def test_worked_example_replays_with_the_extension_rules() -> None:
    from croupier.history.replay import chip_scale, replay

    example = load_phh(doc_example())
    result = replay(example, extension_rules(example, chip_scale(example)))
    assert result.ok and result.complete, result.error
    assert result.finishing_stacks == (84, 78, 135) and result.commission == 3


def test_worked_example_fields_come_back_from_the_played_hand() -> None:
    example = load_phh(doc_example())
    rules = extension_rules(example)
    assert rules is not None
    hand = play(example, rules)
    assert phh_variant(hand) == EXTENSION_VARIANT
    fields = extension_fields(hand, rulebook="au-casino", options=AU_COMMISSION)
    assert fields == {k: v for k, v in example.user_fields.items() if k.startswith("_croupier")}


def test_commission_cap_stops_the_commission() -> None:
    example = load_phh(doc_example())
    options = dict(example.user_fields["_croupier_options"], commission_cap=2)
    capped = replace(example, user_fields={**example.user_fields, "_croupier_options": options})
    rules = extension_rules(capped)
    assert rules is not None
    hand = play(example, rules)
    # 3.4 chips of commission, capped at 2 (au 8.7): p3 gets 34 - 2 = 32, 120 - 16 + 32 = 136.
    assert hand.commission == 2 and tuple(hand.stacks) == (84, 78, 136)


def test_no_rulebook_means_phh_semantics_and_no_commission() -> None:
    example = load_phh(doc_example())
    plain = {k: v for k, v in example.user_fields.items() if k not in
             ("_croupier_rulebook", "_croupier_options")}  # fmt: skip
    rules = extension_rules(replace(example, user_fields=plain))
    assert rules is not None
    assert rules.commission == Commission() and rules.betting.min_raise is MinRaise.PREVIOUS
    assert rules.betting.short_all_in is ShortAllIn.FULL_RAISE_REOPENS
    assert rules.heads_up_button_small_blind  # PHH reverses the blinds heads-up
    hand = play(example, rules)
    # The same actions, nothing taken: p3 wins all 34, 120 - 16 + 34 = 138.
    assert hand.commission == 0 and tuple(hand.stacks) == (84, 78, 138)


def test_worked_example_round_trips_through_dump_and_load() -> None:
    example = load_phh(doc_example())
    again = load_phh(dump_phh(example))
    assert again == example
    assert again.user_fields["_croupier_options"] == AU_COMMISSION


# ---------------------------------------------------------------------------------------------
# Other croupier games and structures


def test_draw_blind_high_on_a_40_card_deck_under_au() -> None:
    h = history(
        user_fields={
            "_croupier_game": "draw",
            "_croupier_deck": 40,
            "_croupier_rulebook": "au-casino",
            "_croupier_structures": ["pot"],
        }
    )
    rules = extension_rules(h)
    assert rules is not None
    assert rules.game.name == "draw" and rules.deck is DeckKind.SHORT_40
    assert rules.betting.structures == (Structure.POT,)
    assert rules.over_blind  # au 11.1(c)(iv): offered; a history cannot say it was posted


def test_five_card_stud_fixed_limit_with_ante_and_big_bet() -> None:
    h = history(
        antes=(1, 1, 1),
        blinds_or_straddles=None,
        min_bet=None,
        small_bet=2,
        big_bet=4,
        user_fields={
            "_croupier_game": "stud5",
            "_croupier_rulebook": "au-casino",
            "_croupier_structures": ["fixed"],
        },
    )
    rules = extension_rules(h)
    assert rules is not None
    assert rules.ante == 1 and rules.blinds == ()  # au 12.1(b)
    assert rules.betting.small_bet == 2 and rules.betting.big_bet == 4
    assert rules.betting.raise_cap == 3  # au 12.5(e)
    # Five card stud, no bring-in: the lowest up card opens with the minimum (au 12.2(a)).
    hand = Hand(rules, [50, 50, 50], Deck.shuffled(DeckKind.STANDARD))
    assert hand.legal().bring_in is None and not hand.legal().can_fold


def test_qld_combination_structures_per_round() -> None:
    structures = ["straddle", "fixed", "fixed", "pot"]
    book = load_rulebook("qld")
    expected = book.rules("holdem", tuple(structures), stakes=10, max_wager=20)
    h = history(
        blinds_or_straddles=(*expected.blinds, 0),
        min_bet=None,
        small_bet=10,
        big_bet=expected.betting.big_bet,
        user_fields={"_croupier_game": "holdem", "_croupier_structures": structures,
                     "_croupier_rulebook": "qld", "_croupier_options": {"max_wager": 20}},
    )  # fmt: skip
    assert extension_rules(h) == expected
    # qld s28(8)(b): the late fixed rounds raise by the maximum wager.
    assert expected.betting.big_bet == 20


def test_standard_variant_with_rulebook_and_options() -> None:
    h = history(
        variant="NT",
        user_fields={"_croupier_rulebook": "rws", "_croupier_options": {
            "commission": "percentage", "commission_rate": 0.05, "commission_cap": 4}},
    )  # fmt: skip
    rules = extension_rules(h)
    assert rules == load_rulebook("rws").rules(
        "holdem", "no-limit", stakes=(1, 2), commission="percentage", commission_rate="5%",
        commission_cap=4,
    )  # fmt: skip


def test_options_in_decimal_amounts_are_scaled_like_the_history() -> None:
    h = history(
        variant="NT",
        blinds_or_straddles=(0.5, 1, 0),
        min_bet=1,
        user_fields={"_croupier_options": {"commission": "percentage",
                                           "commission_rate": "5%", "commission_cap": 0.5}},
    )  # fmt: skip
    h = load_phh(dump_phh(h))  # 0.5 is read as Decimal('0.5')
    rules = extension_rules(h, scale=10)
    assert rules is not None
    assert rules.blinds == (5, 10) and rules.commission.cap == 5


def test_standard_variant_without_fields_is_plain_phh() -> None:
    assert extension_rules(history(variant="NT")) is None


# ---------------------------------------------------------------------------------------------
# Writing: fields from a played hand, read back to the same rules


def described(hand: Hand, **kwargs: object) -> Rules | None:
    rules = hand.rules
    betting = rules.betting
    fixed = Structure.FIXED in betting.structures
    limits: dict[str, object] = (
        {"small_bet": betting.small_bet, "big_bet": betting.big_bet or betting.small_bet}
        if fixed else {"min_bet": betting.small_bet}
    )  # fmt: skip
    h = HandHistory(
        variant=phh_variant(hand),
        antes=(rules.ante,) * hand.players,
        blinds_or_straddles=rules.blinds + (0,) * (hand.players - len(rules.blinds))
        if rules.blinds
        else None,
        bring_in=rules.bring_in or None,
        starting_stacks=hand.starting,
        actions=(),
        user_fields=extension_fields(hand, **kwargs),  # type: ignore[arg-type]
        **limits,  # type: ignore[arg-type]
    )
    return extension_rules(load_phh(dump_phh(h), strict=False))


@pytest.mark.parametrize(
    ("book", "game_name", "structure", "stakes", "options"),
    [
        (
            "au-casino",
            "manila3",
            "half-pot",
            (1, 2),
            {"commission": "hand_fee", "commission_fee": 1},
        ),
        ("au-casino", "stud7", "fixed", 4, {"ante": 1}),
        ("au-casino", "holdem", "spread", (2, 4), {"max_wager": 40}),
        ("qld", "holdem", ("straddle", "fixed", "fixed", "pot"), 10, {"max_wager": 20}),
        ("qld", "holdem", "straddle", 10, {"commission": "percentage"}),
        ("cardroom", "holdem", "fixed", (1, 2), {}),
        ("league", "holdem", "no-limit", (1, 2), {}),
    ],
)
def test_book_hands_are_described_completely(
    book: str, game_name: str, structure: object, stakes: object, options: dict[str, object]
) -> None:
    rules = load_rulebook(book).rules(game_name, structure, stakes=stakes, **options)  # type: ignore[arg-type]
    hand = Hand(rules, [500] * 4, Deck.shuffled(rules.deck))
    assert described(hand, rulebook=book, options=options) == rules


def test_hand_made_rules_are_described_as_options() -> None:
    rules = Rules(
        game=game("holdem"),
        betting=replace(
            load_rulebook("rws").rules("holdem", "no-limit", stakes=(1, 2)).betting,
            big_bet=0,  # no fixed-limit round: PHH semantics have no big bet
        ),
        blinds=(1, 2),
        commission=Commission(
            CommissionKind.PERCENTAGE, Fraction(1, 30), basis=Basis.WINNINGS, cap=7,
            only_over=19, base_unit=20, base_cap=200, exempt_all_tie=True,
        ),
        odd_chip=OddChip(OddChipRule.HIGHEST_CARD, one_per_player=False),
        chip_unit=1,
    )  # fmt: skip
    hand = Hand(rules, [300, 300, 300], Deck.shuffled(DeckKind.STANDARD))
    fields = extension_fields(hand)
    assert "_croupier_rulebook" not in fields
    options = fields["_croupier_options"]
    assert options["commission_rate"] == "1/30" and options["commission_base_cap"] == "100"
    assert options["odd_chip_rule"] == "highest_card"
    assert described(hand) == rules


def test_hand_in_progress_is_described() -> None:
    rules = load_rulebook("au-casino").rules("manila2", stakes=(1, 2), **AU_COMMISSION)
    hand = Hand(rules, [100, 100, 100], Deck.shuffled(rules.deck))
    hand.check_or_call()
    assert hand.phase is Phase.BETTING
    fields = extension_fields(hand, rulebook="au-casino", options=AU_COMMISSION)
    assert fields["_croupier_game"] == "manila2" and fields["_croupier_deck"] == 32


def test_wrong_rulebook_for_the_hand_is_an_error() -> None:
    rules = load_rulebook("au-casino").rules("holdem", stakes=(1, 2), **AU_COMMISSION)
    hand = Hand(rules, [100, 100, 100], Deck.shuffled(rules.deck))
    with pytest.raises(PHHError, match="commission"):
        extension_fields(hand, rulebook="au-casino")  # the commission options left out


def test_phh_variant_is_standard_only_for_pokerkit_games() -> None:
    nt = load_rulebook("rws").rules("holdem", "no-limit", stakes=(1, 2))
    assert phh_variant(Hand(nt, [50] * 3, Deck.shuffled(nt.deck))) == "NT"
    au = load_rulebook("au-casino").rules("holdem", "no-limit", stakes=(1, 2))
    assert phh_variant(Hand(au, [50] * 3, Deck.shuffled(au.deck))) == "NT"
    # Heads-up au posts the first blind left of the button (au 16.1(c)(i)); PHH reverses it.
    assert phh_variant(Hand(au, [50] * 2, Deck.shuffled(au.deck))) == EXTENSION_VARIANT
    pot = load_rulebook("au-casino").rules("holdem", "pot", stakes=(1, 2))
    assert phh_variant(Hand(pot, [50] * 3, Deck.shuffled(pot.deck))) == EXTENSION_VARIANT
    stud = load_rulebook("au-casino").rules("stud7", "fixed", stakes=2, ante=1)
    assert phh_variant(Hand(stud, [50] * 3, Deck.shuffled(stud.deck))) == EXTENSION_VARIANT


# ---------------------------------------------------------------------------------------------
# Errors name the field and what is allowed


@pytest.mark.parametrize(
    ("fields", "where", "message"),
    [
        ({"_croupier_game": "manila4"}, "_croupier_game", "expected one of holdem, omaha"),
        ({"_croupier_game": "manila2", "_croupier_deck": 52}, "_croupier_deck",
         "manila2 is dealt from a deck of 32 cards"),
        ({"_croupier_game": "holdem", "_croupier_structures": ["pot-limit"]},
         "_croupier_structures", "expected structures 'no-limit', 'pot'"),
        ({"_croupier_game": "holdem", "_croupier_structures": ["pot", "pot"]},
         "_croupier_structures", "one per round (4 for holdem)"),
        ({"_croupier_game": "holdem", "_croupier_rulebook": "vegas"}, "_croupier_rulebook",
         "expected the name of a shipped rulebook (au-casino, cardroom, league, qld, rws)"),
        ({"_croupier_game": "holdem", "_croupier_rules": "x"}, "_croupier_rules",
         "unknown croupier field"),
        ({"_croupier_game": "holdem", "_croupier_options": {"rake": 5}}, "_croupier_options",
         "unknown option 'rake'"),
        ({"_croupier_game": "holdem", "_croupier_options": {"commission_rate": "5%"}},
         "_croupier_options", "option commission_rate needs the option commission"),
        ({"_croupier_game": "holdem", "_croupier_options": "commission"}, "_croupier_options",
         "expected a table of options"),
        ({"_croupier_game": "holdem", "_croupier_rulebook": "au-casino",
          "_croupier_options": {"commission": "percentage", "commission_rate": "20%"}},
         "_croupier_options", "commission_rate 20% is above the maximum 10% (au 8.2(a))"),
        ({"_croupier_game": "holdem", "_croupier_rulebook": "qld",
          "_croupier_options": {"commission": "hand_fee"}},
         "_croupier_options", "allowed: none, percentage, participation_fee"),
        ({}, "variant", "variant 'croupier' needs _croupier_game"),
    ],
)  # fmt: skip
def test_bad_fields(fields: dict[str, object], where: str, message: str) -> None:
    with pytest.raises(PHHError, match=re.escape(message)) as caught:
        extension_rules(history(user_fields=fields))
    assert caught.value.field == where


def test_a_standard_code_contradicted_is_an_error() -> None:
    h = history(variant="NT", user_fields={"_croupier_game": "manila2"})
    with pytest.raises(PHHError, match="contradicts variant NT") as caught:
        extension_rules(h)
    assert caught.value.field == "_croupier_game"


def test_errors_point_at_the_line_of_the_field() -> None:
    text = doc_example().replace('commission_rate = "10%"', 'commission_rate = "2%"')
    example = load_phh(text)
    with pytest.raises(PHHError) as caught:
        extension_rules(example)
    line = text.splitlines().index(
        next(row for row in text.splitlines() if row.startswith("_croupier_options"))
    )
    assert caught.value.line == line + 1
    assert "below the minimum 5% (au 8.2(a))" in str(caught.value)


def test_our_reader_accepts_the_croupier_variant_only_with_its_game() -> None:
    load_phh(doc_example())  # strict: no error
    text = "\n".join(r for r in doc_example().splitlines() if not r.startswith("_croupier_game"))
    with pytest.raises(PHHError, match="unknown variant code 'croupier'"):
        load_phh(text)


# ---------------------------------------------------------------------------------------------
# PokerKit


def test_pokerkit_loads_standard_variant_files_with_the_fields_unchanged() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    rules = load_rulebook("au-casino").rules("holdem", "no-limit", stakes=(1, 2),
                                              **AU_COMMISSION)  # fmt: skip
    hand = Hand(rules, [100, 100, 100], Deck.shuffled(rules.deck))
    fields = extension_fields(hand, rulebook="au-casino", options=AU_COMMISSION)
    text = dump_phh(
        HandHistory(
            variant=phh_variant(hand),
            antes=(0, 0, 0),
            blinds_or_straddles=(1, 2, 0),
            min_bet=2,
            starting_stacks=(100, 100, 100),
            actions=("d dh p1 AsKs", "d dh p2 QhQd", "d dh p3 7c8d", "p3 f", "p1 f"),
            user_fields=fields,
        )
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loaded = pokerkit.HandHistory.loads(text)
        states = list(loaded)
    assert loaded.user_defined_fields == fields
    assert states[-1].stacks == [99, 101, 100]  # the blinds alone: no commission (au 8.6)


def test_pokerkit_loads_a_croupier_variant_but_cannot_play_it() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    loaded = pokerkit.HandHistory.loads(doc_example())
    assert loaded.variant == "croupier"
    assert loaded.user_defined_fields["_croupier_game"] == "manila2"
    with pytest.raises(KeyError, match="croupier"):
        loaded.create_state()


def test_the_doc_lists_every_field_and_option() -> None:
    from croupier.history.extensions import FIELDS, OPTIONS_WITHOUT_RULEBOOK

    text = DOC.read_text(encoding="utf-8")
    for name in (*FIELDS, *OPTIONS_WITHOUT_RULEBOOK):
        assert f"`{name}`" in text, name


# ---------------------------------------------------------------------------------------------
# Every book, game and structure: written by history_from_hand, read back by replay


def _book_tables() -> list[tuple[str, str, Structure, dict[str, object]]]:
    tables = []
    for name in rulebook_names():
        book = load_rulebook(name)
        for game_name in book.game_names:
            for structure in book.structures(game_name):
                options: dict[str, object] = {}
                if structure is Structure.SPREAD or (
                    name == "qld" and structure is Structure.FIXED
                ):
                    options["max_wager"] = 40  # au 11.5(f), qld s28(8)(b): the house posts it
                if "commission_rate" in book.house_options():
                    options.update(commission="percentage", commission_rate="5%")
                tables.append((name, game_name, structure, options))
    return tables


@pytest.mark.parametrize(("book", "game_name", "structure", "options"), _book_tables())
def test_every_book_game_and_structure_writes_histories_that_replay_to_the_chip(
    book: str, game_name: str, structure: Structure, options: dict[str, object]
) -> None:
    blinds = any(street.opener.value == "left-of-blinds" for street in game(game_name).streets)
    stakes: int | tuple[int, int] = (5, 10) if blinds else 10
    ante = {} if blinds else {"ante": 2}  # stud: the ante is a PHH field, not an option
    rules = load_rulebook(book).rules(game_name, structure, stakes=stakes, **ante, **options)
    players = min(4, max(rules.game.max_players.values()))
    for seed in range(3):
        rng = random.Random(seed)
        stacks = [rng.randint(30, 400) for _ in range(players)]
        hand = Hand(rules, stacks, Deck.shuffled(rules.deck, SeededShuffler(seed)))
        play_hand(hand, [RandomBot() for _ in range(players)], rng)
        history = load_phh(dump_phh(history_from_hand(hand, rulebook=book, options=options)))
        assert history.user_fields["_croupier_rulebook"] == book
        result = replay(history)
        assert result.ok, result.error
        assert list(result.finishing_stacks or ()) == hand.stacks
        assert result.commission == hand.commission
