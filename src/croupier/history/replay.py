"""Replaying a PHH hand history on the croupier engine, and writing engine hands as PHH.

:func:`replay` builds a :class:`~croupier.hand.Hand` for the history's variant, feeds it every
action in order (each must be legal, by whom it is and by amount), settles the hand as PHH
does, and compares the result with ``finishing_stacks`` when the history gives them.

PHH semantics (phh-std; PokerKit is its reference implementation) and how they map:

- Players: PHH's p1..pN are the engine's players 0..N-1 (p1 is first left of the button, pN the
  button). Heads-up PHH reverses the forced bets, so p2, the button, posts the small blind and
  p1 the big blind: the engine's ``heads_up_button_small_blind`` (rws 3.7) does the same.
- Betting: no commission; minimum raise the previous full raise (:attr:`MinRaise.PREVIOUS`);
  only a full raise reopens the betting (:attr:`ShortAllIn.FULL_RAISE_REOPENS`); no raise cap in
  no-limit and pot-limit. Fixed-limit: PokerKit caps a round at four completions, bets or raises
  after the blinds; the engine counts the big blind as the opening bet, so ``raise_cap=4`` gives
  PokerKit's cap before the flop (the blind and four raises) and one more raise than PokerKit
  after it (a bet and four raises). The replay accepts every capped round PokerKit accepts.
- Odd chips: all of a pot's remainder to the first winner left of the button
  (``OddChip(LEFT_OF_BUTTON, one_per_player=False)``), as PokerKit does.
- Showdown: a hand mucked in the history (``pN sm``) is dead even if it would have won; the
  engine's cards-speak settlement is redone with the mucked hands out (see ``notes``).
- A blind posted all-in for less is the bet to match (PokerKit); the engine's own rule keeps the
  blind as set (league), so the replay posts the smaller blind (noted).
- The last player with chips, facing nothing after the others folded or went all-in, checks to
  close the round in PokerKit; the engine closes it at once. :func:`history_from_hand` writes
  that check and :func:`replay` accepts it.
- Amounts written as decimals (``0.25``) are scaled to whole chips of the smallest decimal the
  history uses; ``inf`` stacks (unknown) are replaced by a stack nobody can bet against.
- Cards: the deck is ordered to deal what the history says (hole cards one at a time from p1,
  burns, boards); unknown cards (``??``) and burns are cards nobody saw. A showdown that depends
  on unknown cards is an error.

Known differences from PokerKit, where the engine follows its rulebooks: odd chips are split pot
by pot (cardroom ties 5(d)) where PokerKit merges pots the same players contest; a short all-in
never reopens the betting, even as the first raise of a round or added to another short all-in
(PokerKit reopens in both cases); a fixed-limit raise after a short all-in goes on top of the full
bet (PokerKit: on top of the all-in); the engine offers a raise when the others have chips but
cannot call more than the bet (PokerKit refuses it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from croupier.betting import Betting, IllegalAction, MinRaise, RulesError, ShortAllIn, Structure
from croupier.cards import Card, CardError
from croupier.deck import SeededShuffler
from croupier.evaluate import HandValue, best_hand
from croupier.games import GameError, game
from croupier.hand import Hand, Phase, Rules
from croupier.history.dealing import RecordedCards, StackedDeck, street_name
from croupier.history.extensions import STANDARD_GAMES, extension_rules
from croupier.history.phh import (
    VARIANTS,
    Action,
    ActionKind,
    Amount,
    HandHistory,
    Origin,
    PHHError,
)
from croupier.history.writer import history_from_hand
from croupier.pots import CardSet, OddChip, OddChipRule, PotError, build_pots, settle, uncalled

__all__ = [
    "SUPPORTED_VARIANTS",
    "ReplayPot",
    "ReplayResult",
    "chip_scale",
    "history_from_hand",
    "replay",
    "standard_rules",
]


SUPPORTED_VARIANTS: dict[str, tuple[str, Structure]] = {
    code: (name, structure) for code, (name, _, structure) in STANDARD_GAMES.items()
}
"""The PHH variants the engine replays: code -> (engine game, betting structure); the deck is
the variant's (:data:`~croupier.history.phh.VARIANTS`)."""


@dataclass(frozen=True)
class ReplayPot:
    """One pot as settled. Players are PHH positions counted from 0 (0 is p1)."""

    amount: Amount
    commission: Amount
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[Amount, ...]


@dataclass(frozen=True)
class ReplayResult:
    """What a replay found.

    ``ok``: every action was legal and the finishing stacks (when the history gives them)
    match. ``complete``: the history reaches the end of the hand; otherwise
    ``finishing_stacks`` are the stacks behind after the last action, as phh-std reads them for
    an unfinished hand, and ``pots`` is empty. ``notes`` say where the replay had to settle
    differently from the engine (a mucked winner) and what it assumed."""

    ok: bool
    complete: bool = False
    finishing_stacks: tuple[Amount, ...] | None = None
    pots: tuple[ReplayPot, ...] = ()
    commission: Amount = 0
    error: PHHError | None = None
    notes: tuple[str, ...] = ()
    hand: Hand | None = field(default=None, compare=False, repr=False)


# ---------------------------------------------------------------------------------------------
# Amounts


def chip_scale(history: HandHistory) -> int:
    """The factor that makes every amount in the history a whole number of chips: 1 for whole
    numbers, 100 when the smallest amount written is a cent (``0.25``), and so on."""
    places = 0
    for value in _amounts(history):
        if isinstance(value, Decimal) and value.is_finite():
            exponent = value.normalize().as_tuple().exponent
            if isinstance(exponent, int):
                places = max(places, -exponent)
    scale: int = 10**places
    return scale


def _amounts(history: HandHistory) -> list[Amount]:
    values: list[Amount] = []
    for name in ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks"):
        values.extend(getattr(history, name) or ())
    for name in ("bring_in", "small_bet", "big_bet", "min_bet"):
        value = getattr(history, name)
        if value is not None:
            values.append(value)
    for text in history.actions:
        words = text.partition("#")[0].split()
        if len(words) == 3 and words[1] == "cbr":
            if words[2].isdigit():
                values.append(int(words[2]))  # the usual case, parsed faster
                continue
            with contextlib.suppress(ArithmeticError):
                values.append(Decimal(words[2]))
    return values


@dataclass(frozen=True)
class _Scale:
    factor: int

    def chips(self, value: Amount) -> int:
        scaled = value * self.factor
        if isinstance(scaled, Decimal):
            if scaled != scaled.to_integral_value():
                raise ValueError(f"{value} is not a whole number of chips")
            return int(scaled)
        return scaled

    def amount(self, chips: int) -> Amount:
        return chips if self.factor == 1 else Decimal(chips) / self.factor


def standard_rules(history: HandHistory) -> Rules:
    """The engine's rules for the history's variant with PHH semantics (see the module notes).
    Amounts are in whole chips of :func:`chip_scale`. Raises :class:`PHHError` for a variant the
    engine does not replay or forced bets it cannot post."""
    return _standard_rules(history, _Scale(chip_scale(history)))


def _standard_rules(history: HandHistory, scale: _Scale) -> Rules:
    """The rules, shared by histories with the same variant, forced bets and limits (Rules are
    immutable; the errors are each history's own and are not kept). Stacks count only up to
    all the forced bets together: a larger one posts any blind in full."""
    forced = sum(history.blinds_or_straddles or ()) + sum(history.antes or ())
    stacks = tuple(stack if stack < forced else forced for stack in history.starting_stacks)
    key = (
        history.variant, history.antes, history.blinds_or_straddles, history.bring_in,
        history.small_bet, history.big_bet, history.min_bet, stacks, scale.factor,
    )  # fmt: skip
    rules = _RULES.get(key)
    if rules is None:
        rules = _rules_for(history, scale)
        if len(_RULES) >= 1 << 10:
            _RULES.clear()
        _RULES[key] = rules
    return rules


_RULES: dict[tuple[object, ...], Rules] = {}


def _rules_for(history: HandHistory, scale: _Scale) -> Rules:
    origin = history.origin
    code = history.variant
    if code not in SUPPORTED_VARIANTS:
        raise origin.error(f"unknown variant code {code!r}", field="variant")
    game_name, structure = SUPPORTED_VARIANTS[code]
    players = history.player_count
    antes = [scale.chips(a) for a in history.antes or (0,) * players]
    if len(set(antes)) > 1:
        raise origin.error(
            f"unsupported antes {list(history.antes or ())}: the engine posts one ante for "
            "everyone (a big-blind or button ante needs an engine hook: per-player antes)",
            field="antes",
        )
    ante = antes[0] if antes else 0
    stud = history.bring_in is not None
    blinds = [scale.chips(b) for b in history.blinds_or_straddles or (0,) * players]
    while blinds and blinds[-1] == 0:
        blinds.pop()
    if players > 2 and len(blinds) == players and not any(blinds[:-1]):
        raise origin.error(
            f"unsupported forced bets {list(history.blinds_or_straddles or ())}: a blind from "
            "the button alone (short-deck's antes and button blind) needs an engine hook; the "
            "engine posts blinds from p1, left of the button, on",
            field="blinds_or_straddles",
        )
    if 0 in blinds[2:]:
        raise origin.error(
            f"unsupported forced bets {list(history.blinds_or_straddles or ())}: the engine "
            "posts blinds and straddles from p1 on, with no gap (a button straddle needs an "
            "engine hook)",
            field="blinds_or_straddles",
        )
    if players == 2 and len(blinds) > 2:
        raise origin.error("a heads-up straddle is not supported", field="blinds_or_straddles")
    blinds = _effective_blinds(history, scale, blinds, ante)
    bring_in = scale.chips(history.bring_in or 0)
    if stud and not bring_in:
        raise origin.error(
            "a stud hand without a bring-in: the engine's lowest up card must bring it in or "
            "bet (cardroom betting 16, au 13.2(a)); PHH with no bring-in lets it check",
            field="bring_in",
        )
    try:
        if structure is Structure.FIXED:
            # PokerKit allows four completions, bets or raises a round. The engine counts the big
            # blind as the opening bet (FT keeps its one cap of four: see the module notes).
            caps: tuple[int | None, ...] = () if code == "FT" else (3,) if stud else (4, 3)
            betting = Betting(
                structures=(structure,),
                small_bet=scale.chips(history.small_bet or 0),
                big_bet=scale.chips(history.big_bet or 0),
                big_bet_from=2,
                raise_cap=4,
                raise_caps=caps,
                uncapped_heads_up=False,
                min_raise=MinRaise.PREVIOUS,
                short_all_in=ShortAllIn.FULL_RAISE_REOPENS,
            )
        else:
            betting = Betting(
                structures=(structure,),
                small_bet=scale.chips(history.min_bet or 0),
                min_raise=MinRaise.PREVIOUS,
                short_all_in=ShortAllIn.FULL_RAISE_REOPENS,
            )
        return Rules(
            game=game(game_name),
            betting=betting,
            deck=VARIANTS[code].deck,
            blinds=tuple(blinds),
            ante=ante,
            bring_in=bring_in,
            heads_up_button_small_blind=True,
            odd_chip=OddChip(OddChipRule.LEFT_OF_BUTTON, one_per_player=False),
            showing_ties_by_position=True,
        )
    except RulesError as error:
        field = "bring_in" if stud else "variant"
        raise origin.error(f"the engine cannot play these stakes: {error}", field=field) from None


def _effective_blinds(
    history: HandHistory, scale: _Scale, blinds: list[int], ante: int
) -> list[int]:
    """A blind posted all-in for less is the bet to match in PHH (PokerKit posts
    ``min(blind, stack - ante)`` and the others match what was posted); the engine keeps the blind
    as set (league). The replay posts the smaller amount as the blind."""
    players = history.player_count
    stacks = history.starting_stacks
    posters = [1, 0] if players == 2 and len(blinds) == 2 else list(range(len(blinds)))
    effective = list(blinds)
    for position, poster in enumerate(posters):
        stack = stacks[poster]
        if _infinite(stack):
            continue
        chips = scale.chips(stack)
        effective[position] = min(blinds[position], chips - min(ante, chips))
    return effective


# ---------------------------------------------------------------------------------------------
# Replay


def replay(history: HandHistory, rules: Rules | None = None) -> ReplayResult:
    """Replay ``history`` on the engine. Never raises for a bad history: the first problem is
    in :attr:`ReplayResult.error` (a :class:`PHHError` naming the action's line).

    ``rules``: the engine rules to use instead of :func:`standard_rules` (e.g. with a
    commission); amounts in them are in whole chips of :func:`chip_scale`."""
    problems = list(history.errors) or history.validate()
    if problems:
        return ReplayResult(ok=False, error=problems[0])
    run = _Replay(history, rules)
    try:
        return run.play()
    except PHHError as error:
        return ReplayResult(ok=False, error=error, notes=tuple(run.notes), hand=run.hand)


class _Replay:
    def __init__(self, history: HandHistory, rules: Rules | None) -> None:
        self.history = history
        self.origin: Origin = history.origin
        self.scale = _Scale(chip_scale(history))
        self.custom_rules = rules
        self.notes: list[str] = []
        self.hand: Hand | None = None
        # (street, players in the hand, cards dealt to each, board cards dealt) when the deck
        # was last stacked for a betting action
        self.planned_for: tuple[int, list[int], list[int], int] | None = None

    # --- errors ----------------------------------------------------------------------------

    def error_at(self, index: int, message: str) -> PHHError:
        return self.origin.error(message, action=index, text=self.history.actions[index])

    # --- the replay ------------------------------------------------------------------------

    def play(self) -> ReplayResult:
        history = self.history
        rules = self.custom_rules or self._history_rules()
        self.rules = rules
        if self.custom_rules is None:
            self._note_short_blinds(rules)
        actions = history.parsed_actions()
        self.actions = actions
        players = history.player_count
        stacks = self._stacks()
        cards = RecordedCards(history.variant, rules.game, actions, self.error_at)
        cards.resize(players)
        self.cards = cards
        self.deck = StackedDeck(rules.deck, cards.named)
        self.deck.stack(cards.upcoming(-1, range(players)))
        self.betting = 0  # betting actions played
        try:
            hand = Hand(rules, stacks, self.deck, shuffler=SeededShuffler(0))
        except (IllegalAction, GameError, CardError) as error:
            raise self.origin.error(str(error), field="starting_stacks") from None
        self.hand = hand
        self.events_seen = 0
        self._follow(hand)
        self._feed(hand, actions)
        return self._result(hand)

    def _history_rules(self) -> Rules:
        """PHH's rules for the variant, or those the history's croupier fields describe
        (docs/phh-extensions.md)."""
        history, scale = self.history, self.scale

        def standard() -> Rules:
            return _standard_rules(history, scale)

        return extension_rules(history, scale.factor, standard) or standard()

    def _follow(self, hand: Hand) -> None:
        """Match the cards the engine just dealt with the history's."""
        events = hand.events[self.events_seen :]
        self.events_seen = len(hand.events)
        self.cards.follow(hand, events, self.betting)

    def _note_short_blinds(self, rules: Rules) -> None:
        history = self.history
        short = [
            p
            for p, stack in enumerate(history.starting_stacks)
            if not _infinite(stack) and self.scale.chips(stack) < rules.ante
        ]
        if short and history.ante_trimming_status is not True:
            who = ", ".join(f"p{p + 1}" for p in short)
            self.notes.append(
                f"{who} cannot pay the whole ante: the engine makes pots by what each paid "
                "(ante_trimming_status = true); the history does not say so (engine hook "
                "needed: an untrimmed ante)"
            )
        written = [self.scale.chips(b) for b in history.blinds_or_straddles or ()]
        for position, posted in enumerate(rules.blinds):
            if posted < written[position]:
                self.notes.append(
                    f"the blind of {written[position]} is posted all-in for {posted}: the bet "
                    f"to match is {posted}, as PHH (PokerKit) plays it; the engine's own rule "
                    "keeps the blind as set (league), so the replay posts the smaller blind"
                )

    def _stacks(self) -> list[int]:
        history = self.history
        self.unknown_stacks = [_infinite(s) for s in history.starting_stacks]
        try:
            chips = [0 if _infinite(s) else self.scale.chips(s) for s in history.starting_stacks]
            if not any(self.unknown_stacks):
                return chips
            bets = [self.scale.chips(a) for a in _amounts(history) if not _infinite(a)]
        except ValueError as error:
            raise self.origin.error(str(error), field="starting_stacks") from None
        unknown = 10 * (sum(chips) + sum(bets)) + 1_000_000
        self.notes.append(
            f"unknown (inf) stacks are played as {unknown} chips, more than anyone can bet"
        )
        return [unknown if u else c for c, u in zip(chips, self.unknown_stacks, strict=True)]

    def _feed(self, hand: Hand, actions: Sequence[Action]) -> None:
        board_seen = 0
        self.mucked: set[int] = set()
        self.showed: set[int] = set()
        self.recorded = [0] * hand.players  # cards the deal actions so far give each player
        variant = self.history.variant
        for index, action in enumerate(actions):
            kind = action.kind
            player = action.player
            if kind is ActionKind.NO_OP:
                continue
            if kind is ActionKind.DEAL_HOLE:
                self._dealt_hole(hand, index)
                continue
            if kind is ActionKind.DEAL_BOARD:
                need = board_seen + len(action.cards)
                if len(hand.board) < need:
                    raise self.error_at(index, self._why_no_board(hand))
                board_seen = need
                continue
            assert player is not None
            if kind is ActionKind.SHOW_OR_MUCK:
                self._show_or_muck(hand, index, action, player)
                continue
            drawing = kind is ActionKind.STAND_PAT_OR_DISCARD
            if kind is ActionKind.BRING_IN and not hand.rules.bring_in:
                raise self.error_at(index, f"a bring-in is not part of {variant} ('pb')")
            if drawing and not self.cards.draws:
                raise self.error_at(
                    index, f"standing pat or drawing is not part of {variant} ('sd')"
                )
            if kind is ActionKind.CHECK_OR_CALL and self._closing_check(hand, player):
                continue
            if hand.phase is Phase.OVER:
                raise self.error_at(index, f"p{player + 1} acts after the hand is over")
            if board_seen < len(hand.board):
                street = street_name(hand.rules.game, hand.street)
                raise self.error_at(
                    index, f"p{player + 1} acts before the {street} is dealt ('d db ...')"
                )
            if not drawing:
                self._check_cards_given(hand, index, player)
            self._check_turn(hand, index, player, drawing)
            self._act(hand, index, action, player)
        self.board_seen = board_seen

    def _check_cards_given(self, hand: Hand, index: int, player: int) -> None:
        """Cards the engine dealt after the first street are in the history before anyone acts
        on them."""
        for other in hand.in_hand():
            if self.cards.next[other] > max(self.recorded[other], self.cards.first):
                street = street_name(hand.rules.game, hand.street)
                raise self.error_at(
                    index,
                    f"p{player + 1} acts before p{other + 1}'s cards of the {street} are dealt "
                    f"('d dh p{other + 1} ...')",
                )

    def _check_turn(self, hand: Hand, index: int, player: int, drawing: bool) -> None:
        if hand.drawing and not drawing:
            assert hand.to_act is not None
            raise self.error_at(
                index, f"p{player + 1} bets before the draw is over: p{hand.to_act + 1} is to "
                f"stand pat or draw ('p{hand.to_act + 1} sd [CARDS]')",
            )  # fmt: skip
        if drawing and not hand.drawing:
            who = "nobody" if hand.to_act is None else f"p{hand.to_act + 1}"
            raise self.error_at(
                index, f"p{player + 1} draws, but the draw is not now: {who} is to act"
            )
        if hand.to_act != player:
            who = "nobody" if hand.to_act is None else f"p{hand.to_act + 1}"
            verb = "draws" if drawing else "acts"
            raise self.error_at(index, f"p{player + 1} {verb} out of turn: {who} is to act")

    def _act(self, hand: Hand, index: int, action: Action, player: int) -> None:
        """The action on the engine, with the deck stacked for whatever it deals next."""
        kind = action.kind
        live = [p for p in hand.in_hand() if not (kind is ActionKind.FOLD and p == player)]
        discards: list[Card] = []
        if kind is ActionKind.STAND_PAT_OR_DISCARD:
            for slot in self.cards.discarded.get(index, ()):
                if slot.engine is None:
                    raise self.error_at(index, f"p{player + 1} discards a card not dealt yet")
                discards.append(slot.engine)
            plan = self.cards.upcoming(hand.street, live, player, len(discards))
            self.deck.stack(plan, self.cards.pending())
            self.planned_for = None
        else:
            # What the engine deals next changes only with the street, the players in the hand
            # and the cards dealt so far: most actions leave the deck as it is.
            key = (hand.street, live, list(self.cards.next), self.cards.board_next)
            if key != self.planned_for:
                self.deck.stack(self.cards.upcoming(hand.street, live), self.cards.pending())
                self.planned_for = key
        try:
            if kind is ActionKind.FOLD:
                hand.fold()
            elif kind is ActionKind.CHECK_OR_CALL:
                hand.check_or_call()
            elif kind is ActionKind.BRING_IN:
                hand.post_bring_in()
            elif kind is ActionKind.STAND_PAT_OR_DISCARD:
                hand.draw(discards)
            else:
                assert action.amount is not None
                try:
                    amount = self.scale.chips(action.amount)
                except ValueError as error:
                    raise self.error_at(index, str(error)) from None
                hand.bet_or_raise_to(amount)
        except IllegalAction as error:
            raise self.error_at(index, str(error)) from None
        if kind is not ActionKind.STAND_PAT_OR_DISCARD:
            self.betting += 1
        self._follow(hand)

    def _dealt_hole(self, hand: Hand, index: int) -> None:
        """``d dh pN CARDS``: the engine has dealt them (the history may not deal early), and no
        betting came between the engine's deal and this action."""
        where = self.cards.recorded_through(index)
        assert where is not None
        player, start, end = where
        if player >= hand.players:
            return
        if self.cards.next[player] < end:
            if hand.folded[player]:
                why = f"p{player + 1} folded: no more cards are dealt to them"
            elif hand.phase is Phase.OVER:
                why = f"p{player + 1} is dealt cards after the hand is over"
            else:
                street = street_name(hand.rules.game, hand.street)
                who = "a player" if hand.to_act is None else f"p{hand.to_act + 1}"
                verb = "draw" if hand.drawing else "act"
                why = (
                    f"p{player + 1}'s cards are dealt before they are due: the {street} is not "
                    f"over, {who} is to {verb}"
                )
            raise self.error_at(index, why)
        slots = self.cards.holes[player][start:end]
        if any(slot.betting < self.betting for slot in slots):
            raise self.error_at(
                index, f"p{player + 1}'s cards are dealt after the betting they come before "
                "began: hole cards are dealt before the betting begins",
            )  # fmt: skip
        self.recorded[player] = max(self.recorded[player], end)

    def _closing_check(self, hand: Hand, player: int) -> bool:
        """A check the engine does not ask for: the last player with chips, facing nothing,
        after everyone else in the hand folded or went all-in. PokerKit (and so PHH written by
        it) has that player check to close the round; it changes nothing."""
        if hand.to_act == player or hand.folded[player]:
            return False
        behind = [
            s - c - b for s, c, b in zip(hand.starting, hand.contributed, hand.bets, strict=True)
        ]
        others = [p for p in range(hand.players) if p != player and not hand.folded[p]]
        if not others or behind[player] <= 0 or any(behind[p] > 0 for p in others):
            return False
        note = (
            "a check by the last player with chips, facing nothing, after the others folded "
            "or went all-in, is read as closing the round (PokerKit asks for it; the engine "
            "does not)"
        )
        if note not in self.notes:
            self.notes.append(note)
        return True

    def _why_no_board(self, hand: Hand) -> str:
        if hand.phase is Phase.OVER:
            return "the board is dealt after the hand is over (everyone else folded)"
        street = street_name(hand.rules.game, hand.street)
        if len(hand.board) == sum(s.board for s in hand.rules.game.streets):
            return "every board card was dealt already"
        who = f"p{hand.to_act + 1}" if hand.to_act is not None else "a player"
        return f"the board is dealt before the {street} betting is over: {who} is to act"

    def _show_or_muck(self, hand: Hand, index: int, action: Action, player: int) -> None:
        if hand.phase is not Phase.OVER:
            who = f"p{hand.to_act + 1}" if hand.to_act is not None else "a player"
            raise self.error_at(
                index, f"p{player + 1} shows or mucks before the showdown: {who} is to act"
            )
        if hand.folded[player]:
            raise self.error_at(index, f"p{player + 1} folded: there is no hand to show")
        if action.mucks:
            self.mucked.add(player)
        else:
            self.showed.add(player)

    # --- the result ------------------------------------------------------------------------

    def _result(self, hand: Hand) -> ReplayResult:
        history = self.history
        scale = self.scale
        board_seen = self.board_seen
        cards = self.cards
        unrecorded = any(
            cards.next[p] > max(self.recorded[p], cards.first) for p in range(hand.players)
        )
        if hand.phase is not Phase.OVER or board_seen < len(hand.board) or unrecorded:
            # The history stops before the end: the stacks behind (phh-std finishing_stacks).
            if hand.phase is Phase.OVER:
                behind = [s - c for s, c in zip(hand.starting, hand.contributed, strict=True)]
                returned = uncalled(hand.contributed)
                if returned is not None:
                    behind[returned[0]] += returned[1]
            else:
                behind = list(hand.stacks)
            stacks = self._unscale_stacks(behind)
            return self._finish(stacks, (), 0, complete=False, hand=hand)
        settlement = self._settle(hand)
        payouts = settlement.payouts
        final = [
            s - c + p for s, c, p in zip(hand.starting, hand.contributed, payouts, strict=True)
        ]
        if final != list(hand.stacks):
            dead = ", ".join(f"p{p + 1}" for p in sorted(self.mucked))
            self.notes.append(
                f"settled with the mucked hand(s) of {dead} dead, as the history says; the "
                f"engine's cards-speak settlement gives {list(hand.stacks)} (engine hook "
                "needed: a player's choice to muck at the showdown)"
            )
        pots = tuple(
            ReplayPot(
                scale.amount(pot.amount),
                scale.amount(pot.commission),
                pot.eligible,
                pot.winners,
                tuple(scale.amount(share) for share in pot.shares),
            )
            for pot in settlement.pots
        )
        stacks = self._unscale_stacks(final)
        del history
        return self._finish(stacks, pots, settlement.commission, complete=True, hand=hand)

    def _unscale_stacks(self, chips: Sequence[int]) -> tuple[Amount, ...]:
        return tuple(
            Decimal("Infinity") if unknown else self.scale.amount(value)
            for value, unknown in zip(chips, self.unknown_stacks, strict=True)
        )

    def _finish(
        self,
        stacks: tuple[Amount, ...],
        pots: tuple[ReplayPot, ...],
        commission: int,
        *,
        complete: bool,
        hand: Hand,
    ) -> ReplayResult:
        history = self.history
        error = None
        expected = history.finishing_stacks
        if expected is not None:
            differ = [
                f"p{p + 1} {want} vs {got}"
                for p, (want, got) in enumerate(zip(expected, stacks, strict=True))
                if not self.unknown_stacks[p] and want != got
            ]
            if differ:
                error = self.origin.error(
                    f"the replay finishes with {_show(stacks)}, the history says "
                    f"{_show(expected)} ({'; '.join(differ)})",
                    field="finishing_stacks",
                )
        return ReplayResult(
            ok=error is None,
            complete=complete,
            finishing_stacks=stacks,
            pots=pots,
            commission=self.scale.amount(commission),
            error=error,
            notes=tuple(self.notes),
            hand=hand,
        )

    def _settle(self, hand: Hand) -> Any:
        """The hand settled as PHH does: mucked hands are dead, cards speak for the rest."""
        players = hand.players
        live = [not folded for folded in hand.folded]
        contenders = [p for p in range(players) if live[p]]
        hands: dict[int, HandValue] = {}
        unknown: set[int] = set()
        if len(contenders) == 1 and hand.settlement is not None:
            return hand.settlement  # no showdown: the engine's own
        if len(contenders) > 1:
            recorded = self.cards.board
            board_unknown = any(s.card is None for s in recorded[: len(hand.board)]) or len(
                recorded
            ) < len(hand.board)
            hidden = any(p in self.mucked or self.cards.unknown(p) for p in contenders)
            if hand.settlement is not None and not board_unknown and not hidden:
                return hand.settlement  # every hand known and shown: the engine's own
            for player in contenders:
                if player in self.mucked:
                    continue
                if self.cards.unknown(player):
                    unknown.add(player)
                    continue
                hands[player] = best_hand(
                    hand.hole[player] + hand.up[player], hand.board, hand.ranking,
                    hole_cards_used=hand.rules.game.hole_cards_used,
                )  # fmt: skip
            self._check_contest(hand, live, unknown, board_unknown and len(hands) > 1)
        values: list[int | None] = [hands[p].value if p in hands else None for p in range(players)]
        for player in unknown:  # alone in every pot it is in (checked): any value wins it
            values[player] = 0
        cards = self._odd_chip_cards(hand, hands)
        blinds_only = hand.blinds_only()
        lows = hand.low_values(hands) if hand.rules.game.low_ranking else None
        try:
            return settle(
                hand.contributed, live, values, low_values=lows, button=players - 1,
                cards=cards, commission=hand.rules.commission, odd_chip=hand.rules.odd_chip,
                chip=hand.rules.chip_unit, blinds_only=blinds_only,
            )  # fmt: skip
        except PotError as error:
            raise self.origin.error(f"cannot settle the hand: {error}", field="actions") from None

    def _check_contest(
        self, hand: Hand, live: list[bool], unknown: set[int], board_matters: bool
    ) -> None:
        contributions = list(hand.contributed)
        returned = uncalled(contributions)
        if returned is not None:
            contributions[returned[0]] -= returned[1]
        for number, pot in enumerate(build_pots(contributions, live)):
            standing = [p for p in pot.eligible if p not in self.mucked]
            label = "the main pot" if number == 0 else f"side pot {number}"
            if not standing:
                raise self.origin.error(
                    f"every player in {label} mucked: nobody can win it", field="actions"
                )
            hidden = [p for p in standing if p in unknown]
            if hidden and len(standing) > 1:
                who = ", ".join(f"p{p + 1}" for p in hidden)
                raise self.origin.error(
                    f"{label} depends on the unknown hole cards of {who}: show them "
                    f"('p{hidden[0] + 1} sm CARDS') or muck them ('p{hidden[0] + 1} sm')",
                    field="actions",
                )
            if board_matters and len(standing) > 1:
                raise self.origin.error(
                    f"{label} depends on board cards the history does not give", field="actions"
                )

    @staticmethod
    def _odd_chip_cards(
        hand: Hand, hands: Mapping[int, HandValue]
    ) -> dict[str, list[tuple[Card, ...]]]:
        whole = [tuple(h + u + hand.board) for h, u in zip(hand.hole, hand.up, strict=True)]
        used = [hands[p].hole_cards if p in hands else () for p in range(hand.players)]
        return {
            CardSet.HAND.value: whole,
            CardSet.HOLE.value: [tuple(h) for h in hand.hole],
            CardSet.HOLE_USED.value: used,
        }


def _infinite(value: Amount) -> bool:
    return isinstance(value, Decimal) and value.is_infinite()


def _show(stacks: Sequence[Amount]) -> str:
    return "[" + ", ".join(str(s) for s in stacks) + "]"
