"""Replaying a PHH hand history on the croupier engine.

:func:`replay` builds a :class:`~croupier.hand.Hand` by the history's rules (PHH's own, see
:mod:`croupier.history.standard`, or those its croupier fields describe), then plays every action
in order through the engine's operations: each player action must be legal, by whom it is and by
amount; each ``d dh`` and ``d db`` gives the engine's dealer the cards the history names (unknown
cards, ``??``, and the burns PHH does not record are dealt as cards nobody saw); each ``pN sm``
shows or mucks. A hand mucked at the showdown is dead; where the history ends at the showdown,
the hands it does not show or muck are shown as a dealer would (cards speak). The result is
compared with ``finishing_stacks`` when the history gives them.

- The last player with chips, facing nothing after the others folded or went all-in, checks to
  close the round in PokerKit; the engine closes it at once. :func:`history_from_hand` writes
  that check and :func:`replay` accepts it.
- After an all-in with no betting left, the hands are shown before the rest of the board is
  dealt (PokerKit, league 17); a stud hand is shown again with the cards dealt after.

Known differences from PokerKit, where the engine follows its rulebooks: odd chips are split pot
by pot (cardroom ties 5(d)) where PokerKit merges pots the same players contest; a short all-in
never reopens the betting, even as the first raise of a round or added to another short all-in
(PokerKit reopens in both cases); a fixed-limit raise after a short all-in goes on top of the full
bet (PokerKit: on top of the all-in); the engine offers a raise when the others have chips but
cannot call more than the bet (PokerKit refuses it). See docs/differences-from-pokerkit.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from croupier.betting import IllegalAction, RulesError
from croupier.cards import CardError
from croupier.deck import SeededShuffler
from croupier.games import GameError
from croupier.hand import Hand, Phase, Rules, StepKind
from croupier.history.dealing import RecordedCards, street_name
from croupier.history.extensions import (
    BLIND_KEPT,
    RULEBOOK,
    blinds_posted_short,
    extension_rules,
    over_blind_posted,
)
from croupier.history.phh import Action, ActionKind, Amount, HandHistory, Origin, PHHError
from croupier.history.standard import (
    SUPPORTED_VARIANTS,
    Scale,
    amounts_of,
    chip_scale,
    forced_bets_of,
    rules_of,
    standard_rules,
)

__all__ = [
    "SUPPORTED_VARIANTS",
    "ReplayPot",
    "ReplayResult",
    "chip_scale",
    "replay",
    "standard_rules",
]


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
        self.scale = Scale(chip_scale(history))
        self.custom_rules = rules
        self.notes: list[str] = []
        self.hand: Hand | None = None
        self.replaced: set[int] = set()  # d dh actions dealt with their player's discard
        self.unseen_first: set[int] = set()  # players whose first cards the history left out

    def error_at(self, index: int, message: str) -> PHHError:
        return self.origin.error(message, action=index, text=self.history.actions[index])

    # --- the replay ------------------------------------------------------------------------

    def play(self) -> ReplayResult:
        history = self.history
        custom = self.custom_rules
        rules = custom or self._history_rules()
        self.rules = rules
        actions = history.parsed_actions()
        players = history.player_count
        stacks = self._stacks()
        self.cards = RecordedCards(history.variant, rules.game, actions, self.error_at)
        self.cards.resize(players)
        try:
            # PHH's semantics for a blind posted short, unless a book (or the hand) kept it.
            kept = RULEBOOK in history.user_fields or BLIND_KEPT in history.user_fields
            phh = custom is None and not kept
            over_blind = over_blind_posted(history)
            forced = forced_bets_of(history, self.scale, rules, phh, over_blind=over_blind)
            hand = Hand(
                rules, stacks, forced=forced, shuffler=SeededShuffler(0), over_blind=over_blind,
                auto_deal=False, auto_show=False, openers=_recorded_openers(actions),
            )  # fmt: skip
        except (IllegalAction, GameError, CardError, RulesError) as error:
            raise self.origin.error(str(error), field="starting_stacks") from None
        self.hand = hand
        if history.ante_trimming_status is True and hand.forced.dead_antes:
            self.notes.append(
                "a big-blind or button ante is dead money in the main pot, whatever "
                "ante_trimming_status says (PokerKit 0.7.7 trims it back to its poster)"
            )
        if phh:
            self._note_short_blinds(hand)
        self._feed(hand, actions)
        return self._result(hand)

    def _history_rules(self) -> Rules:
        """PHH's rules for the variant, or those the history's croupier fields describe
        (docs/phh-extensions.md)."""
        history, scale = self.history, self.scale

        def standard() -> Rules:
            return rules_of(history, scale)

        return extension_rules(history, scale.factor, standard) or standard()

    def _note_short_blinds(self, hand: Hand) -> None:
        for _, blind, posted in blinds_posted_short(hand):
            self.notes.append(
                f"the blind of {blind} is posted all-in for {posted}: "
                "the bet to match is the largest blind posted, as PHH (PokerKit) plays it; "
                "the books keep the blind as set (league)"
            )

    def _stacks(self) -> list[int]:
        history = self.history
        self.unknown_stacks = [_infinite(s) for s in history.starting_stacks]
        try:
            chips = [0 if _infinite(s) else self.scale.chips(s) for s in history.starting_stacks]
            if not any(self.unknown_stacks):
                return chips
            bets = [self.scale.chips(a) for a in amounts_of(history) if not _infinite(a)]
        except ValueError as error:
            raise self.origin.error(str(error), field="starting_stacks") from None
        unknown = 10 * (sum(chips) + sum(bets)) + 1_000_000
        self.notes.append(
            f"unknown (inf) stacks are played as {unknown} chips, more than anyone can bet"
        )
        return [unknown if u else c for c, u in zip(chips, self.unknown_stacks, strict=True)]

    def _feed(self, hand: Hand, actions: Sequence[Action]) -> None:
        variant = self.history.variant
        for index, action in enumerate(actions):
            kind = action.kind
            player = action.player
            try:
                if kind is ActionKind.NO_OP:
                    continue
                if kind is ActionKind.DEAL_HOLE:
                    self._deal_hole(hand, index)
                    continue
                if kind is ActionKind.DEAL_BOARD:
                    self._deal_board(hand, index, action)
                    continue
                assert player is not None
                if kind is ActionKind.SHOW_OR_MUCK:
                    self._show_or_muck(hand, index, action, player)
                    continue
                drawing = kind is ActionKind.STAND_PAT_OR_DISCARD
                if kind is ActionKind.BRING_IN and not hand.forced.bring_in:
                    raise self.error_at(index, f"a bring-in is not part of {variant} ('pb')")
                if drawing and not self.cards.draws:
                    raise self.error_at(
                        index, f"standing pat or drawing is not part of {variant} ('sd')"
                    )
                if kind is ActionKind.CHECK_OR_CALL and self._closing_check(hand, player):
                    continue
                if hand.over:
                    raise self.error_at(index, f"p{player + 1} acts after the hand is over")
                self._deal_unseen_first_cards(hand)
                self._burn(hand)
                self._check_dealt(hand, index, player)
                self._check_turn(hand, index, player, drawing)
                self._act(hand, index, action)
            except IllegalAction as error:
                raise self.error_at(index, str(error)) from None

    def _deal_unseen_first_cards(self, hand: Hand) -> None:
        """A history may leave out the first street's hole cards: they are dealt unseen when
        the play begins."""
        while hand.street == 0 and (step := hand.next_step()) is not None:
            if step.kind is not StepKind.HOLE:
                return
            hand.deal_hole([None] * step.count, step.player)
            self.unseen_first.add(step.player)

    def _burn(self, hand: Hand) -> None:
        """The burns the history does not record: unseen cards."""
        step = hand.next_step()
        if step is not None and step.kind is StepKind.BURN:
            hand.burn(None)

    def _check_dealt(self, hand: Hand, index: int, player: int) -> None:
        """Before anyone acts, the street's cards are in the history."""
        step = hand.next_step()
        if step is None or step.kind is StepKind.SHOW:
            return
        street = street_name(hand.rules.game, hand.street)
        if step.kind is StepKind.BOARD:
            raise self.error_at(
                index, f"p{player + 1} acts before the {street} is dealt ('d db ...')"
            )
        raise self.error_at(
            index,
            f"p{player + 1} acts before p{step.player + 1}'s cards of the {street} are dealt "
            f"('d dh p{step.player + 1} ...')",
        )

    def _check_turn(self, hand: Hand, index: int, player: int, drawing: bool) -> None:
        if hand.phase is Phase.SHOWDOWN:
            step = hand.next_step()
            who = f"p{step.player + 1}" if step is not None else "a player"
            raise self.error_at(
                index, f"p{player + 1} acts after the betting is over: {who} is to show or muck"
            )
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

    def _act(self, hand: Hand, index: int, action: Action) -> None:
        kind = action.kind
        if kind is ActionKind.FOLD:
            hand.fold()
        elif kind is ActionKind.CHECK_OR_CALL:
            hand.check_or_call()
        elif kind is ActionKind.BRING_IN:
            hand.post_bring_in()
        elif kind is ActionKind.STAND_PAT_OR_DISCARD:
            hand.draw(self.cards.discards(index))
            step = hand.next_step()
            if step is not None and step.kind is StepKind.REPLACE:
                deals, cards = self.cards.replacements(index)
                if len(cards) == step.count:  # else the history stops before they are dealt
                    hand.deal_hole(cards)
                    self.replaced.update(deals)
        else:
            assert action.amount is not None
            try:
                amount = self.scale.chips(action.amount)
            except ValueError as error:
                raise self.error_at(index, str(error)) from None
            hand.bet_or_raise_to(self._sized_to_the_callers(hand, action, amount))

    def _sized_to_the_callers(self, hand: Hand, action: Action, amount: int) -> int:
        """A raise short of the smallest legal one that already takes every chip the others
        could put in (they are all-in by calling it) is played as that smallest raise: the
        excess comes back uncalled either way, so the chips end the same. Real dealers accept
        it and histories record it (docs/differences-from-pokerkit.md)."""
        legal = hand.legal()
        if legal.raise_range is None or amount >= legal.raise_range[0]:
            return amount
        player = legal.player
        reach = max(
            (hand.bets[p] + hand.stacks[p] for p in hand.in_hand() if p != player), default=0
        )
        current = max(hand.bets)
        if not current < reach <= amount:
            return amount  # a raise short of what the others can call: refused as it is
        low = legal.raise_range[0]
        self.notes.append(
            f"p{player + 1} raises to {self.scale.amount(amount)}, short of the raise to "
            f"{self.scale.amount(low)}, but every other player is all-in calling it: played as "
            f"the raise to {self.scale.amount(low)}, the excess returned uncalled"
        )
        return low

    def _deal_hole(self, hand: Hand, index: int) -> None:
        """``d dh pN CARDS``: the cards of a street, or a draw's replacements, when they are
        due."""
        player, cards = self.cards.dealt(index)
        if index in self.replaced:
            return  # a draw's replacements, dealt with the discard
        self._finish_showdown(hand)
        self._burn(hand)
        step = hand.next_step()
        if step is None or step.kind not in (StepKind.HOLE, StepKind.REPLACE):
            if player in self.unseen_first and hand.street == 0:
                why = (
                    f"p{player + 1}'s cards are dealt after the betting they come before began: "
                    "hole cards are dealt before the betting begins"
                )
            elif player < hand.players and hand.folded[player]:
                why = f"p{player + 1} folded: no more cards are dealt to them"
            elif hand.over:
                why = f"p{player + 1} is dealt cards after the hand is over"
            else:
                street = street_name(hand.rules.game, hand.street)
                who = "a player" if hand.to_act is None else f"p{hand.to_act + 1}"
                verb = "draw" if hand.drawing else "act"
                if step is not None and step.kind is StepKind.SHOW:
                    who, verb = f"p{step.player + 1}", "show or muck"
                elif step is not None:
                    who, verb = "the dealer", str(step)
                why = (
                    f"p{player + 1}'s cards are dealt before they are due: the {street} is not "
                    f"over, {who} is to {verb}"
                )
            raise self.error_at(index, why)
        hand.deal_hole(cards, player)

    def _deal_board(self, hand: Hand, index: int, action: Action) -> None:
        self._finish_showdown(hand)
        self._burn(hand)
        step = hand.next_step()
        if step is None or step.kind is not StepKind.BOARD:
            raise self.error_at(index, self._why_no_board(hand))
        hand.deal_board(action.cards)

    def _closing_check(self, hand: Hand, player: int) -> bool:
        """A check the engine does not ask for: the last player with chips, facing nothing,
        after everyone else in the hand folded or went all-in. PokerKit (and so PHH written by
        it) has that player check to close the round; it changes nothing."""
        if hand.to_act == player or hand.folded[player] or hand.over:
            return False
        others = [p for p in range(hand.players) if p != player and not hand.folded[p]]
        if not others or hand.stacks[player] <= 0 or any(hand.stacks[p] > 0 for p in others):
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
        if hand.over:
            return "the board is dealt after the hand is over (everyone else folded)"
        street = street_name(hand.rules.game, hand.street)
        game = hand.rules.game
        if any(s.up for s in game.streets) and not hand.board:
            step = hand.next_step()
            due = f"the dealer is to {step}" if step is not None else "no card is due"
            return (
                "a stud community card is dealt only when the stub cannot give every player "
                f"their card (au 12.4(a), 13.4(a)): {due}"
            )
        if len(hand.board) == sum(s.board for s in game.streets):
            return "every board card was dealt already"
        step = hand.next_step()
        if step is not None and step.kind is StepKind.SHOW:
            return f"the board is dealt before the showdown: p{step.player + 1} is to show or muck"
        if step is not None:
            return f"the board is dealt before the {street} is: the dealer is to {step}"
        who = f"p{hand.to_act + 1}" if hand.to_act is not None else "a player"
        return f"the board is dealt before the {street} betting is over: {who} is to act"

    def _show_or_muck(self, hand: Hand, index: int, action: Action, player: int) -> None:
        if hand.folded[player]:
            raise self.error_at(index, f"p{player + 1} folded: there is no hand to show")
        step = hand.next_step()
        if hand.phase is not Phase.SHOWDOWN or step is None or step.kind is not StepKind.SHOW:
            if hand.over:
                raise self.error_at(index, f"p{player + 1} shows or mucks after the hand is over")
            who = f"p{hand.to_act + 1}" if hand.to_act is not None else "the dealer"
            raise self.error_at(
                index, f"p{player + 1} shows or mucks before the showdown: {who} is to act"
            )
        if action.mucks:
            hand.show_or_muck(False, player=player)
        else:
            hand.show_or_muck(True, [c for c in action.cards if c is not None], player=player)

    # --- the result ------------------------------------------------------------------------

    def _result(self, hand: Hand) -> ReplayResult:
        if hand.street == len(hand.rules.game.streets) - 1:
            self._finish_showdown(hand)
        scale = self.scale
        if not hand.over or hand.settlement is None:
            # The history stops before the end: the stacks behind (phh-std finishing_stacks).
            stacks = self._unscale_stacks(hand.stacks)
            return self._finish(stacks, (), 0, complete=False, hand=hand)
        settlement = hand.settlement
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
        stacks = self._unscale_stacks(hand.stacks)
        return self._finish(stacks, pots, settlement.commission, complete=True, hand=hand)

    def _finish_showdown(self, hand: Hand) -> None:
        """Where the history leaves the showdown out (it ends there, or deals the rest of an
        all-in's board), the hands it does not show or muck are shown as a dealer would (cards
        speak). A pot that depends on hole cards the history never gives is an error."""
        while hand.phase is Phase.SHOWDOWN:
            step = hand.next_step()
            if step is None:
                return
            player = step.player
            if hand.hidden[player]:
                label = self._pot_label(hand, player)
                raise self.origin.error(
                    f"{label} depends on the unknown hole cards of p{player + 1}: show them "
                    f"('p{player + 1} sm CARDS') or muck them ('p{player + 1} sm')",
                    field="actions",
                )
            hand.deal_next()

    @staticmethod
    def _pot_label(hand: Hand, player: int) -> str:
        levels = sorted({hand.contributed[p] for p in hand.in_hand()})
        number = levels.index(hand.contributed[player]) if hand.contributed[player] in levels else 0
        return "the main pot" if number == 0 else f"side pot {number}"

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


def _recorded_openers(actions: Sequence[Action]) -> dict[int, int]:
    """Betting round -> the first player the history has act in it: the engine asks for them
    only in stud, where an up card the history does not name (``??``) decides who opens. A
    round's cards come before its betting; a run of deals with no betting between them (an
    all-in's run-out) is counted as one round, and nobody bets after it."""
    openers: dict[int, int] = {}
    street = 0
    opened = False
    for action in actions:
        if action.kind in (ActionKind.DEAL_HOLE, ActionKind.DEAL_BOARD):
            if opened:
                street += 1
                opened = False
        elif action.kind in _BETTING and action.player is not None and not opened:
            openers[street] = action.player
            opened = True
    return openers


_BETTING = (
    ActionKind.FOLD, ActionKind.CHECK_OR_CALL, ActionKind.BRING_IN,
    ActionKind.COMPLETE_BET_OR_RAISE,
)  # fmt: skip


def _infinite(value: Amount) -> bool:
    return isinstance(value, Decimal) and value.is_infinite()


def _show(stacks: Sequence[Amount]) -> str:
    return "[" + ", ".join(str(s) for s in stacks) + "]"
