"""Random tables the shipped rulebooks allow, random legal play on them, and what a hand must
always be: the pieces the battery's play families (bench/families.py) share.

A table is drawn from every book x game x deck x structure (and qld's per-round combinations),
with the house options the book leaves open given random values within its limits (an option a
book requires, qld's ``max_wager`` for structured betting or au's stud ``ante``, nearly always
given). A table the book refuses is a :class:`RulebookError`, counted by the families, not
skipped. A hand is dealt automatically or step by step by a dealer giving random cards from
the stub (``auto_deal=False``), with random shows and mucks at the showdown.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from croupier.betting import IllegalAction, Structure
from croupier.cards import Card
from croupier.deck import Deck, SeededShuffler
from croupier.hand import Hand, Phase, Rules, StepKind
from croupier.rulebooks import Rulebook, RulebookError, load_rulebook, rulebook_names

_BOOKS: dict[str, Rulebook] = {}


def book(name: str) -> Rulebook:
    if name not in _BOOKS:
        _BOOKS[name] = load_rulebook(name)
    return _BOOKS[name]


@dataclass(frozen=True)
class Table:
    """One kind of table a book deals: book, game, deck size and structure (one per round for
    a combination)."""

    book: str
    game: str
    deck: int
    structure: Structure | tuple[Structure, ...]

    def __str__(self) -> str:
        shown = (
            self.structure.value
            if isinstance(self.structure, Structure)
            else "/".join(s.value for s in self.structure)
        )
        return f"{self.book} {self.game} {self.deck}-card {shown}"


def all_tables() -> list[Table]:
    """Every book x game x deck x structure the books list, and each per-round combination."""
    tables = []
    for name in rulebook_names():
        rulebook = book(name)
        for game in rulebook.game_names:
            entry = rulebook.game(game)
            structures: list[Structure | tuple[Structure, ...]] = list(rulebook.structures(game))
            for pattern in rulebook.value("combinations", game) or ():
                rounds = getattr(pattern, "rounds", ())
                for combo in itertools.product(*(sorted(r, key=str) for r in rounds)):
                    if pattern.matches(combo) and len(set(combo)) > 1:  # type: ignore[union-attr]
                        structures.append(tuple(combo))
            for kind in entry.deck_kinds:
                tables += [Table(name, game, kind.size, s) for s in structures]
    return tables


@dataclass
class Setup:
    """A table's rules as built, and what it took: the stakes and options given."""

    table: Table
    stakes: int
    options: dict[str, object]
    rules: Rules | None = None
    refused: str = ""  # the book's RulebookError

    def __str__(self) -> str:
        options = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"{self.table} (stakes={self.stakes}{options})"


def _option(name: str, rng: random.Random, stakes: int, rulebook: Rulebook, game: str,
            structure: Structure | None) -> object:  # fmt: skip
    """A value for a house option within the book's limits (mostly)."""
    case = rulebook.setting(name, game, structure)
    if case.choices is not None:
        return getattr(rng.choice(case.choices), "value", None)
    if name == "commission_rate":
        low = case.minimum if case.minimum is not None else Fraction(0)
        high = case.maximum if case.maximum is not None else Fraction(1, 10)
        return f"{float(rng.choice((low, high, (low + high) / 2))) * 100:g}%"
    if name == "max_wager":
        return stakes * rng.choice((2, 4, 10, 40))
    if name == "big_bet":
        return stakes * rng.choice((1, 2, 3))
    if name == "chip_unit":
        return rng.choice([u for u in (1, 2, 5, 10) if stakes % u == 0])
    if name == "ante":
        return rng.choice((1, 1, max(1, stakes // 5), stakes // 2 or 1))
    if name == "raise_cap":
        return rng.choice((0, 1, 3, 4))
    if name == "commission_cap":
        return stakes * rng.choice((1, 3, 10))
    if name == "commission_fee":
        return rng.choice((1, stakes // 2 or 1, stakes))
    if name == "chips_per_dollar":
        return rng.choice((1, 1, 100))
    return case.value


def random_setup(table: Table, rng: random.Random) -> Setup:
    """Random stakes and house options for ``table``, and the rules the book builds (or its
    refusal)."""
    rulebook = book(table.book)
    one = table.structure if isinstance(table.structure, Structure) else None
    stakes = rng.choice((2, 4, 10, 10, 20, 50, 100))
    options: dict[str, object] = {}
    qld_fixed = table.book == "qld" and Structure.FIXED in (
        table.structure if isinstance(table.structure, tuple) else (table.structure,)
    )
    needs = {"max_wager": one is Structure.SPREAD or qld_fixed,
             "ante": table.game.startswith("stud")}  # fmt: skip
    coherent = rng.random() < 0.95  # else options that may not go together, to be refused
    for name in rulebook.house_options():
        chance = 0.95 if needs.get(name) else 0.3
        kind = options.get("commission", "none")
        if coherent and name in ("commission_rate", "commission_cap"):
            chance = 0.5 * (kind == "percentage")
        elif coherent and name == "commission_fee":
            chance = float(kind not in ("none", "percentage"))
        if rng.random() < chance:
            try:
                options[name] = _option(name, rng, stakes, rulebook, table.game, one)
            except RulebookError:
                continue
    setup = Setup(table, stakes, options)
    try:
        setup.rules = rulebook.rules(table.game, table.structure, stakes=stakes, deck=table.deck,
                                     **options)  # fmt: skip
    except RulebookError as error:
        setup.refused = str(error)
    return setup


def random_stacks(rules: Rules, rng: random.Random) -> list[int]:
    """Players within the deck's limit; stacks short (a few blinds) to deep, mostly in whole
    units of the table's smallest chip."""
    most = rules.game.max_players[rules.deck]
    players = rng.randint(2, most) if rng.random() < 0.7 else rng.choice((2, most))
    big = max((*rules.blinds, rules.betting.small_bet, rules.ante, 1))
    unit = rules.chip_unit
    stacks = []
    for _ in range(players):
        depth = rng.choice((1, 2, 5, 20, 100))
        stack = rng.randint(1, big * depth)
        if rng.random() < 0.8:
            stack = max(unit, stack // unit * unit)
        stacks.append(stack)
    return stacks


@dataclass
class Deal:
    """A hand and how it is dealt: automatically, or by a dealer giving random cards."""

    setup: Setup
    hand: Hand
    manual: bool
    seed: int
    actions: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        how = "dealt step by step" if self.manual else "dealt automatically"
        return f"{self.setup}, stacks {list(self.hand.starting)}, {how}, seed {self.seed}" + (
            f", after {' '.join(self.actions[-12:])}" if self.actions else ""
        )


def new_deal(setup: Setup, rng: random.Random, seed: int) -> Deal | str:
    """A hand at the table (or the reason it could not start, when the engine refuses the
    stacks: a failure)."""
    rules = setup.rules
    assert rules is not None
    stacks = random_stacks(rules, rng)
    manual = rng.random() < 0.4
    over_blind = rules.over_blind and len(stacks) > 2 and rng.random() < 0.3
    shuffler = SeededShuffler(seed)
    hand = Hand(
        rules, stacks, Deck.shuffled(rules.deck, shuffler), shuffler=shuffler,
        over_blind=over_blind, auto_deal=not manual, auto_show=not manual,
        auto_push=not manual or rng.random() < 0.5,
    )  # fmt: skip
    return Deal(setup, hand, manual, seed)


def dealer_step(deal: Deal, rng: random.Random) -> None:
    """Do the dealer step that is due: random cards from the stub, or the deck's next ones;
    at the showdown a random show or muck (the other when the first is refused)."""
    hand = deal.hand
    step = hand.next_step()
    assert step is not None
    deal.actions.append(str(step).replace(" ", ""))
    if step.kind is StepKind.PUSH:
        hand.push()
        return
    if step.kind is StepKind.SHOW:
        show = rng.random() < 0.6
        try:
            hand.show_or_muck(show)
        except IllegalAction:
            hand.show_or_muck(not show)
        return
    if rng.random() < 0.2:
        hand.deal_next()
        return
    count = step.count if step.kind is not StepKind.BURN else 1
    cards = rng.sample(list(hand.deck.cards), count)
    if step.kind is StepKind.BURN:
        hand.burn(cards[0])
    elif step.kind is StepKind.BOARD:
        hand.deal_board(cards)
    else:  # HOLE, REPLACE
        hand.deal_hole(cards)


def player_action(deal: Deal, rng: random.Random) -> None:
    """A random legal action of the player to act (a draw of random cards in a draw round)."""
    hand = deal.hand
    player = hand.to_act
    assert player is not None
    if hand.drawing:
        held = hand.hole[player]
        discards = rng.sample(held, rng.randint(0, len(held)))
        deal.actions.append(f"p{player + 1}:draw{len(discards)}")
        hand.draw(discards)
        return
    legal = hand.legal()
    roll = rng.random()
    must_bet = not legal.can_check and legal.call == 0
    if legal.bring_in is not None and roll < 0.3:
        deal.actions.append(f"p{player + 1}:bring-in")
        hand.post_bring_in()
    elif legal.raise_range is not None and (roll < 0.35 or must_bet):
        low, high = legal.raise_range
        to = rng.choice([low, high, legal.snap(rng.randint(low, high))])
        deal.actions.append(f"p{player + 1}:to{to}")
        hand.bet_or_raise_to(to)
    elif legal.can_fold and roll > 0.85:
        deal.actions.append(f"p{player + 1}:f")
        hand.fold()
    else:
        deal.actions.append(f"p{player + 1}:cc")
        hand.check_or_call()


def advance(deal: Deal, rng: random.Random) -> None:
    """One step of the hand: the dealer's when one is due, else the player's."""
    if deal.hand.next_step() is not None:
        dealer_step(deal, rng)
    else:
        player_action(deal, rng)


# ---------------------------------------------------------------------------------------------
# What a hand must always be


def every_card(hand: Hand) -> list[Card]:
    """Every card the hand holds anywhere: players' hands, face up, the board, burns, discards,
    the ruling zones (muck, scrap, set aside) and the stub."""
    dealt = hand.dealt
    cards = [c for cards in hand.hole + hand.up for c in cards]
    cards += hand.board + hand.burned + hand.discards
    cards += list(getattr(dealt, "muck", ())) + list(getattr(dealt, "scrap", ()))
    cards += [c for c, _ in getattr(dealt, "aside", ()) if c is not None]
    return cards + list(hand.deck.cards)


def broken_invariant(hand: Hand) -> str | None:
    """What is wrong with the hand now (None: nothing): chips conserved, no stack below zero,
    no card in two places, every card of the deck somewhere (when no card is unseen)."""
    total = sum(hand.starting) + hand.forced.carried
    counted = sum(hand.stacks) + hand.in_play + hand.commission
    if counted != total:
        return (
            f"chips not conserved: stacks {hand.stacks} + in play {hand.in_play} + commission "
            f"{hand.commission} = {counted}, not {total} (starting + carried)"
        )
    if min(hand.stacks) < 0:
        return f"a stack below zero: {hand.stacks}"
    cards = every_card(hand)
    twice = sorted(str(c) for c, n in Counter(cards).items() if n > 1)
    if twice:
        return f"a card in two places: {' '.join(twice)}"
    if not any(hand.hidden) and not getattr(hand.dealt, "unseen_out", 0):
        missing = set(hand.rules.deck.cards) - set(cards)
        if missing or len(cards) != hand.rules.deck.size:
            return f"cards lost: {' '.join(sorted(map(str, missing)))} ({len(cards)} held)"
    return None


STATE = (
    "phase", "street", "to_act", "stacks", "bets", "contributed", "dead", "folded", "mucked",
    "hole", "hidden", "up", "board", "burned", "discards", "next_step", "legal", "payouts",
    "commission", "events",
)  # fmt: skip
FULL_STATE = (
    "betting round", "stub", "last_aggressor", "opener", "held", "behind", "in_play", *STATE,
)  # fmt: skip


def differences(
    names: tuple[str, ...], ours: tuple[object, ...], theirs: tuple[object, ...]
) -> str:
    """Which parts of two states differ, the first one shown."""
    diff = [i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b]
    first = diff[0]
    return (
        f"{', '.join(names[i] for i in diff)} differ "
        f"({names[first]}: {str(ours[first])[:160]} v {str(theirs[first])[:160]})"
    )


def state(hand: Hand) -> tuple[object, ...]:
    """Everything a hand's future depends on, as plain values (as tests/test_dealer_operations
    compares a hand and its rebuild)."""
    legal = None
    if hand.phase is Phase.BETTING and hand.to_act is not None:
        legal = hand.legal()
    return (
        hand.phase, hand.street, hand.to_act, list(hand.stacks), list(hand.bets),
        list(hand.contributed), hand.dead, hand.folded, list(hand.mucked),
        [list(c) for c in hand.hole], list(hand.hidden), [list(c) for c in hand.up],
        list(hand.board), list(hand.burned), list(hand.discards), hand.next_step(), legal,
        hand.payouts, hand.commission, list(hand.events),
    )  # fmt: skip


ROUND_FIELDS = (
    "current", "full_level", "last_raise", "last_wager", "last_was_opening", "last_was_call",
    "raises", "reopen_count", "acted_at", "stuck", "opened", "brought_in",
)  # fmt: skip


def full_state(hand: Hand) -> tuple[object, ...]:
    """:func:`state`, and what it reads through (the betting round's fields, the stub's order,
    who opened and who raised last), read without asking the hand anything that might change
    it."""
    round_ = hand.round
    betting = None
    if round_ is not None:
        betting = tuple(_plain(getattr(round_, name, None)) for name in ROUND_FIELDS)
    return (
        betting, hand.deck.cards, hand.last_aggressor, hand.opener, list(hand.held),
        list(hand.behind), hand.in_play, *state(hand),
    )  # fmt: skip


def _plain(value: object) -> object:
    return list(value) if isinstance(value, list | tuple | dict) else value


def rebuilt_differs(hand: Hand) -> str | None:
    """Whether the hand rebuilt from its log (croupier.rebuild) is in another state."""
    from croupier.rebuild import RebuildError, rebuild

    try:
        again = rebuild(hand.rules, hand.starting, hand.events, forced=hand.forced,
                        over_blind=hand.over_blind, shuffler=hand.shuffler)  # fmt: skip
    except RebuildError as error:
        return f"rebuild failed: RebuildError: {error}"
    ours, theirs = state(hand), state(again)
    if ours != theirs:
        return f"rebuilt from its log to another state: {differences(STATE, ours, theirs)}"
    return None
