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
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from croupier import events as ev
from croupier.betting import Betting, IllegalAction, MinRaise, ShortAllIn, Structure
from croupier.cards import Card, CardError, Deck, DeckKind
from croupier.evaluate import HandValue, best_hand
from croupier.games import GameError, game
from croupier.hand import Hand, Phase, Rules
from croupier.history.phh import (
    VARIANTS,
    Action,
    ActionKind,
    Amount,
    HandHistory,
    Origin,
    PHHError,
    format_phh_cards,
)
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
    "NT": ("holdem", Structure.NO_LIMIT),
    "FT": ("holdem", Structure.FIXED),
    "PO": ("omaha", Structure.POT),
}
"""The PHH variants the engine replays: code -> (engine game, betting structure)."""

_UNSUPPORTED: dict[str, str] = {
    "NS": "PHH's short-deck hold'em has a button blind and its own hand order; the engine's "
    "36-card hold'em (au 9.3) is not checked to be the same game",
    "FO/8": "the engine has no high/low split Omaha",
    "F7S": "replaying stud (up cards every street, the bring-in 'pb' and its completion) is "
    "not written yet",
    "F7S/8": "the engine has no high/low split stud",
    "FR": "the engine has no razz",
    "N2L1D": "the engine's draw game is high draw with one draw, not deuce-to-seven lowball",
    "F2L3D": "the engine has no triple draw and no deuce-to-seven lowball game",
    "FB": "the engine has no badugi game (only its hand ranking)",
}

_STREET_NAMES = ("pre-flop", "flop", "turn", "river")


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
    origin = history.origin
    code = history.variant
    if code not in SUPPORTED_VARIANTS:
        if code in _UNSUPPORTED:
            name = VARIANTS[code].name
            reason = _UNSUPPORTED[code]
            supported = ", ".join(SUPPORTED_VARIANTS)
            raise origin.error(
                f"unsupported variant {code} ({name}): {reason}; croupier replays {supported}",
                field="variant",
            )
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
    blinds = [scale.chips(b) for b in history.blinds_or_straddles or (0,) * players]
    while blinds and blinds[-1] == 0:
        blinds.pop()
    if 0 in blinds[2:]:
        raise origin.error(
            f"unsupported forced bets {list(history.blinds_or_straddles or ())}: the engine "
            "posts blinds and straddles from p1 on, with no gap (a button straddle needs an "
            "engine hook)",
            field="blinds_or_straddles",
        )
    if players == 2 and len(blinds) > 2:
        raise origin.error("a heads-up straddle is not supported", field="blinds_or_straddles")
    blinds = _effective_blinds(history, scale, blinds, antes[0] if antes else 0)
    if structure is Structure.FIXED:
        small = scale.chips(history.small_bet or 0)
        big = scale.chips(history.big_bet or 0)
        betting = Betting(
            structures=(structure,),
            small_bet=small,
            big_bet=big,
            big_bet_from=2,
            raise_cap=4,
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
        ante=antes[0] if antes else 0,
        heads_up_button_small_blind=True,
        odd_chip=OddChip(OddChipRule.LEFT_OF_BUTTON, one_per_player=False),
    )


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

    # --- errors ----------------------------------------------------------------------------

    def error_at(self, index: int, message: str) -> PHHError:
        return self.origin.error(message, action=index, text=self.history.actions[index])

    # --- the replay ------------------------------------------------------------------------

    def play(self) -> ReplayResult:
        history = self.history
        rules = self.custom_rules or _standard_rules(history, self.scale)
        self.rules = rules
        if self.custom_rules is None:
            self._note_short_blinds(rules)
        actions = history.parsed_actions()
        self.actions = actions
        players = history.player_count
        stacks = self._stacks()
        deck = self._deck(rules, actions, players)
        try:
            hand = Hand(rules, stacks, deck)
        except (IllegalAction, GameError, CardError) as error:
            raise self.origin.error(str(error), field="starting_stacks") from None
        self.hand = hand
        self._feed(hand, actions)
        return self._result(hand)

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
        finite = [s for s in history.starting_stacks if not _infinite(s)]
        try:
            chips = [self.scale.chips(s) for s in finite]
            bets = [self.scale.chips(a) for a in _amounts(history) if not _infinite(a)]
        except ValueError as error:
            raise self.origin.error(str(error), field="starting_stacks") from None
        unknown = 10 * (sum(chips) + sum(bets)) + 1_000_000
        self.unknown_stacks = [_infinite(s) for s in history.starting_stacks]
        if any(self.unknown_stacks):
            self.notes.append(
                f"unknown (inf) stacks are played as {unknown} chips, more than anyone can bet"
            )
        return [unknown if _infinite(s) else self.scale.chips(s) for s in history.starting_stacks]

    def _deck(self, rules: Rules, actions: Sequence[Action], players: int) -> Deck:
        """A deck order that deals what the history says: hole cards one at a time from p1,
        burns, boards; unknown cards (``??``) and burns are cards nobody saw."""
        streets = rules.game.streets
        count = streets[0].hole
        holes: list[list[Card | None]] = [[None] * count for _ in range(players)]
        dealt: dict[int, int] = {}
        board: list[Card | None] = []
        board_sizes = [s.board for s in streets if s.board]
        board_deals = 0
        shown: dict[int, int] = {}
        if any(s.hole or s.up for s in streets[1:]) or streets[0].up:
            raise self.origin.error(
                f"{rules.game.name} deals cards after the first round: not replayable from PHH",
                field="variant",
            )
        for index, action in enumerate(actions):
            if action.kind is ActionKind.DEAL_HOLE:
                player = action.player
                assert player is not None
                if player in dealt:
                    raise self.error_at(
                        index,
                        f"p{player + 1} was dealt hole cards already (actions[{dealt[player]}]): "
                        f"{self.history.variant} deals them once",
                    )
                if len(action.cards) != count:
                    raise self.error_at(
                        index,
                        f"{self.history.variant} deals {count} hole cards, got {len(action.cards)}",
                    )
                dealt[player] = index
                holes[player] = list(action.cards)
            elif action.kind is ActionKind.DEAL_BOARD:
                if board_deals >= len(board_sizes):
                    raise self.error_at(index, "every board card was dealt already")
                expected = board_sizes[board_deals]
                if len(action.cards) != expected:
                    street = _street_name(1 + board_deals)
                    raise self.error_at(
                        index,
                        f"the {street} is {expected} card{'s' * (expected > 1)}, "
                        f"got {len(action.cards)}",
                    )
                board_deals += 1
                board.extend(action.cards)
            elif action.kind is ActionKind.SHOW_OR_MUCK and action.player is not None:
                if action.player in shown:
                    raise self.error_at(
                        index, f"p{action.player + 1} showed or mucked already (actions["
                        f"{shown[action.player]}])",
                    )  # fmt: skip
                shown[action.player] = index
        # Cards shown at the showdown fill in hole cards dealt unknown.
        self.shown_cards: dict[int, tuple[Card, ...]] = {}
        for player, index in shown.items():
            action = actions[index]
            known_hole = {c for c in holes[player] if c is not None}
            showing = [c for c in action.cards if c is not None]
            for card in showing:
                if card in known_hole:
                    continue
                if None not in holes[player]:
                    dealt_text = format_phh_cards(holes[player])
                    raise self.error_at(
                        index, f"p{player + 1} shows {card}, but was dealt {dealt_text}"
                    )
                holes[player][holes[player].index(None)] = card
            self.shown_cards[player] = tuple(showing)
        seen: dict[Card, str] = {}
        for player, hole in enumerate(holes):
            for known in hole:
                if known is None:
                    continue
                where = f"p{player + 1}'s hole cards"
                if known in seen:
                    index = dealt.get(player, shown.get(player, 0))
                    raise self.error_at(index, f"{known} is dealt twice: also in {seen[known]}")
                seen[known] = where
        position = 0
        for deal, size in enumerate(board_sizes[:board_deals]):
            for known in board[position : position + size]:
                if known is not None and known in seen:
                    index = _nth(actions, ActionKind.DEAL_BOARD, deal)
                    raise self.error_at(index, f"{known} is dealt twice: also in {seen[known]}")
                if known is not None:
                    seen[known] = "the board"
            position += size
        self.unknown_hole = [None in cards for cards in holes]
        self.unknown_board = [c is None for c in board]
        spare = iter([c for c in rules.deck.cards if c not in seen])
        order: list[Card] = []
        for round_ in range(count):
            for hole in holes:
                slot = hole[round_]
                order.append(next(spare) if slot is None else slot)
        board_left = iter(board)
        for later in streets[1:]:
            if later.burn and later.board:
                order.append(next(spare))
            for _ in range(later.board):
                slot = next(board_left, None)
                order.append(next(spare) if slot is None else slot)
        order.extend(spare)
        return Deck(rules.deck, order)

    def _feed(self, hand: Hand, actions: Sequence[Action]) -> None:
        board_seen = 0
        betting_began = False
        self.mucked: set[int] = set()
        self.showed: set[int] = set()
        for index, action in enumerate(actions):
            kind = action.kind
            player = action.player
            if kind is ActionKind.NO_OP:
                continue
            if kind is ActionKind.DEAL_HOLE:
                if betting_began:
                    raise self.error_at(index, "hole cards are dealt before the betting begins")
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
            if kind in (ActionKind.BRING_IN, ActionKind.STAND_PAT_OR_DISCARD):
                what = "a bring-in" if kind is ActionKind.BRING_IN else "standing pat or drawing"
                raise self.error_at(
                    index, f"{what} is not part of {self.history.variant} ({kind.value!r})"
                )
            if kind is ActionKind.CHECK_OR_CALL and self._closing_check(hand, player):
                continue
            if hand.phase is Phase.OVER:
                raise self.error_at(index, f"p{player + 1} acts after the hand is over")
            if board_seen < len(hand.board):
                street = _street_name(hand.street)
                raise self.error_at(
                    index, f"p{player + 1} acts before the {street} is dealt ('d db ...')"
                )
            if hand.to_act != player:
                who = "nobody" if hand.to_act is None else f"p{hand.to_act + 1}"
                raise self.error_at(index, f"p{player + 1} acts out of turn: {who} is to act")
            betting_began = True
            try:
                if kind is ActionKind.FOLD:
                    hand.fold()
                elif kind is ActionKind.CHECK_OR_CALL:
                    hand.check_or_call()
                else:
                    assert action.amount is not None
                    try:
                        amount = self.scale.chips(action.amount)
                    except ValueError as error:
                        raise self.error_at(index, str(error)) from None
                    hand.bet_or_raise_to(amount)
            except IllegalAction as error:
                raise self.error_at(index, str(error)) from None
        self.board_seen = board_seen

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
        street = _street_name(hand.street)
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
        if hand.phase is not Phase.OVER or board_seen < len(hand.board):
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
        if len(contenders) > 1:
            board_unknown = any(self.unknown_board[: len(hand.board)]) or len(
                self.unknown_board
            ) < len(hand.board)
            for player in contenders:
                if player in self.mucked:
                    continue
                if self.unknown_hole[player]:
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
        blinds_only = not any(isinstance(e, ev.Call | ev.Bet) for e in hand.events)
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


def _street_name(index: int) -> str:
    return _STREET_NAMES[index] if 0 <= index < len(_STREET_NAMES) else f"round {index + 1}"


def _nth(actions: Sequence[Action], kind: ActionKind, n: int) -> int:
    found = [i for i, a in enumerate(actions) if a.kind is kind]
    return found[n] if n < len(found) else 0


def _show(stacks: Sequence[Amount]) -> str:
    return "[" + ", ".join(str(s) for s in stacks) + "]"


# ---------------------------------------------------------------------------------------------
# From the engine to PHH


def history_from_hand(hand: Hand, **fields: Any) -> HandHistory:
    """The engine's hand as a PHH hand history (variants NT, FT and PO).

    Actions come from the hand's events; the showdown (``pN sm``) is written where PHH expects
    it, right after the last betting action, before any board the engine ran out. Keyword
    ``fields`` add or replace fields (``players=...``, ``event=...``, ``user_fields=...``)."""
    rules = hand.rules
    code = _variant_code(rules)
    players = hand.players
    if hand.over_blind:
        raise PHHError("PHH has no over-blind (au 11.1(c)(iv)): the hand cannot be written")
    if players == 2 and len(rules.blinds) == 2 and not rules.heads_up_button_small_blind:
        raise PHHError("heads-up PHH has the button post the small blind (rws 3.7)")
    blinds = list(rules.blinds[:players]) + [0] * (players - len(rules.blinds))
    betting = rules.betting
    limits: dict[str, Any]
    if code == "FT":
        limits = {"small_bet": betting.small_bet, "big_bet": betting.big_bet or betting.small_bet}
    else:
        limits = {"min_bet": betting.small_bet}
    history = HandHistory(
        variant=code,
        ante_trimming_status=True if rules.ante else None,
        antes=(rules.ante,) * players,
        blinds_or_straddles=tuple(blinds),
        starting_stacks=tuple(hand.starting),
        actions=tuple(_actions(hand)),
        finishing_stacks=tuple(hand.stacks),
        **limits,
    )
    return replace(history, **fields) if fields else history


def _variant_code(rules: Rules) -> str:
    structures = set(rules.betting.structures)
    for code, (name, structure) in SUPPORTED_VARIANTS.items():
        if rules.game.name == name and structures == {structure}:
            if rules.deck is not DeckKind.STANDARD:
                break
            return code
    kinds = ", ".join(sorted(s.value for s in structures))
    raise PHHError(
        f"no PHH variant for {rules.game.name} ({kinds}, {rules.deck.size} cards): "
        f"croupier writes {', '.join(SUPPORTED_VARIANTS)}"
    )


def _actions(hand: Hand) -> list[str]:
    return _Writer(hand).actions()


class _Writer:
    """The hand's events as PHH actions, with the showdown and PokerKit's closing checks where
    PHH expects them.

    PokerKit keeps every player who has not acted since the last bet in the round's queue, and
    lets the round end only when the queue is empty; the engine ends a round as soon as one
    player with chips is left facing nothing. That player's check (a no-op) is written, so that
    PokerKit can read the history; :func:`replay` accepts it."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        players = hand.players
        self.stacks = list(hand.starting)
        self.bets = [0] * players
        self.live = [True] * players
        self.queue: list[int] | None = []  # None: the round's queue, not yet ordered
        self.lines: list[str] = []
        self.last_betting = -1

    def actions(self) -> list[str]:
        lines = self.lines
        showdown: list[str] = []
        dealt = 0
        for event in self.hand.events:
            match event:
                case ev.PostAnte(player=player, amount=amount):
                    self.stacks[player] -= amount
                case ev.PostBlind(player=player, amount=amount):
                    self.stacks[player] -= amount
                    self.bets[player] += amount
                case ev.DealHole(player=player, cards=cards):
                    lines.append(f"d dh p{player + 1} {format_phh_cards(cards)}")
                    if self.last_betting < 0:
                        dealt = len(lines)  # no betting yet: a showdown would follow the deal
                case ev.StreetStart(index=index):
                    self._start_round(index)
                case ev.Burn() | ev.DealBoard() | ev.Show() | ev.Muck() | ev.HandOver():
                    self._close_round()
                    if isinstance(event, ev.DealBoard):
                        lines.append(f"d db {format_phh_cards(event.cards)}")
                    elif isinstance(event, ev.Show):
                        showdown.append(f"p{event.player + 1} sm {format_phh_cards(event.cards)}")
                    elif isinstance(event, ev.Muck):
                        showdown.append(f"p{event.player + 1} sm")
                case ev.Fold(player=player):
                    self._acted(player, f"p{player + 1} f")
                    self.live[player] = False
                case ev.Check(player=player):
                    self._acted(player, f"p{player + 1} cc")
                case ev.Call(player=player, amount=amount):
                    self._acted(player, f"p{player + 1} cc")
                    self.stacks[player] -= amount
                    self.bets[player] += amount
                case ev.Bet(player=player, to=to, amount=amount):
                    self._acted(player, f"p{player + 1} cbr {to}")
                    self.stacks[player] -= amount
                    self.bets[player] += amount
                    self.queue = self._rotation(player + 1, exclude=player)
                case _:
                    pass
        last = self.last_betting if self.last_betting >= 0 else dealt
        return lines[:last] + showdown + lines[last:]

    def _able(self, player: int) -> bool:
        return self.live[player] and self.stacks[player] > 0

    def _rotation(self, start: int, exclude: int | None = None) -> list[int]:
        players = self.hand.players
        order = [(start + offset) % players for offset in range(players)]
        return [p for p in order if p != exclude and self._able(p)]

    def _start_round(self, index: int) -> None:
        self.queue = None
        if index > 0:
            self.bets = [0] * self.hand.players  # the first round keeps the blinds

    def _acted(self, player: int, line: str) -> None:
        if self.queue is None:
            self.queue = self._opening_queue(player)
        if player in self.queue:
            self.queue.remove(player)
        self.lines.append(line)
        self.last_betting = len(self.lines)

    def _opening_queue(self, first: int) -> list[int]:
        """PokerKit's queue at the start of a round: players with chips who could still lose
        some (an effective stack above nothing)."""
        totals = sorted(b + s for b, s, alive in zip(self.bets, self.stacks, self.live,
                                                     strict=True) if alive)  # fmt: skip
        second = totals[-2] if len(totals) > 1 else 0
        return [p for p in self._rotation(first) if second - self.bets[p] > 0]

    def _close_round(self) -> None:
        if self.queue and sum(self.live) > 1:
            for player in self.queue:
                if self._able(player):
                    self.lines.append(f"p{player + 1} cc")
                    self.last_betting = len(self.lines)
        self.queue = []
