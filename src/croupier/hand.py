"""One deal of poker as a pure, deterministic state machine: player and dealer operations.

Given the rules, the forced bets, the stacks and the cards, the same operations always give the
same events. Players are numbered in deal order: 0 is the first seat left of the button, the last
is the button.

The dealer's steps (burning, dealing hole cards and the board, a draw's replacements, and at the
showdown each player's show or muck) are operations like the players' bets, each checked before it
is done and each appending its event. By default they happen by themselves, from the hand's deck
and by the usual showdown practice; a hand made with ``auto_deal=False`` or ``auto_show=False``
stops at each such step (:meth:`Hand.next_step`), so that a live dealer, a replay or an
irregularity ruling can give the cards, or the player's choice, in between. A card nobody saw is
``None``: a live dealer does not see the hole cards, and a history may not name them.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from croupier import corrections as fix
from croupier import events as ev
from croupier.betting import TABLE_STAKES, IllegalAction, Legal, Structure
from croupier.cards import Card
from croupier.corrections import IrregularityError
from croupier.games import Opener
from croupier.hand_state import HandState
from croupier.pots import settle
from croupier.rules import Rules, ShowFirst
from croupier.steps import _BOARD, _BURN, _HOLE, _PUSH, _REPLACE, _SHOW, Phase, Step, StepKind

__all__ = ["Hand", "Phase", "Rules", "ShowFirst", "Step", "StepKind"]


class Hand(HandState):
    """A hand in progress. Players act with :meth:`fold`, :meth:`check_or_call`,
    :meth:`bet_or_raise_to`, :meth:`post_bring_in` and :meth:`draw`; ask :meth:`legal` first. The
    dealer acts with :meth:`burn`, :meth:`deal_hole`, :meth:`deal_board` and
    :meth:`show_or_muck` (or :meth:`deal_next`) when :meth:`next_step` says one is due. Every
    change appends to :attr:`events`; a refused operation raises :class:`IllegalAction` and
    changes nothing."""

    def legal(self) -> Legal:
        """What the player to act may do (with amounts)."""
        if self._legal is None or self._legal_at != len(self.events):
            self._legal = self._compute_legal()
            self._legal_at = len(self.events)
        return self._legal

    def _compute_legal(self) -> Legal:
        player = self._require_turn()
        assert self.round is not None
        # Raising is pointless, and not offered, when nobody else could put in more than the
        # bet already made.
        stacks, bets, current = self.stacks, self.bets, self.round.current
        able = 0
        others_can_call = False
        for p in self._live:
            stack = stacks[p]
            if stack:
                able += 1
                if not others_can_call and p != player and bets[p] + stack > current:
                    others_can_call = True
        legal = self.round.legal(player, able, others_can_call)
        if self.rules.chip_unit > 1:
            legal = _in_units(legal, self.rules.chip_unit)
        if self.restricted and player in self.restricted and legal.raise_range is not None:
            low = legal.raise_range[0]
            if self.restricted[player] == "no-bet-or-raise":  # cardroom betting 11
                legal = replace(legal, raise_range=None)
            else:  # league 22: only the minimum
                legal = replace(legal, raise_range=(low, low))
        if self._must_open(player):
            # The lowest up card opens with a bet of at least the minimum (au 12.2(a)), or
            # where the table has one, with the bring-in (cardroom betting 16).
            bring_in = min(self.forced.bring_in, self.stacks[player]) or None
            legal = replace(legal, can_fold=False, can_check=False, bring_in=bring_in)
        return legal

    def _must_open(self, player: int) -> bool:
        street = self.rules.game.streets[self.street]
        assert self.round is not None
        return street.forced_open and player == self.opener and self.round.current == 0

    def __repr__(self) -> str:
        rules = self.rules
        structure = "/".join(dict.fromkeys(s.value for s in rules.betting.structures))
        if self.phase is Phase.OVER:
            state = f"over, stacks {self.stacks}"
        elif self.to_act is not None and self.phase is Phase.BETTING:
            state = f"p{self.to_act + 1} to act: {self.legal()}"
        elif self.to_act is not None:
            state = f"p{self.to_act + 1} to draw"
        else:
            state = f"the dealer to {self.next_step()}"
        return (
            f"<Hand {rules.game.name} {structure}, {self.players} players, round "
            f"{self.street + 1}, {state}, pot {self.pot}>"
        )

    def fold(self) -> None:
        legal = self.legal()
        if self._guarded:
            self._guard(legal.player)
        if not legal.can_fold:
            raise IllegalAction(
                f"p{legal.player + 1} may not fold: the lowest up card must open "
                f"(au 12.2(a), 13.2(a)); legal: {legal}"
            )
        self._live.remove(legal.player)
        if self.rules.dead_receiver:
            self._keep_dealing_to(legal.player)
        self._log(ev.Fold(legal.player))
        self._advance()

    def check_or_call(self) -> None:
        legal = self.legal()
        if self._guarded:
            self._guard(legal.player)
        assert self.round is not None
        if not legal.can_check and legal.call == 0:
            raise IllegalAction(
                f"p{legal.player + 1} must open with a bet of at least the minimum "
                f"(au 12.2(a), 13.2(a)); legal: {legal}"
            )
        if legal.can_check:
            self.round.check(legal.player)
            self._log(ev.Check(legal.player))
        else:
            added = self.round.call(legal.player)
            self._log(ev.Call(legal.player, added, self.stacks[legal.player] == 0))
        self._advance()

    def bet_or_raise_to(self, amount: object) -> None:
        """Bet, or raise, to ``amount`` chips in all for this round (a whole number)."""
        legal = self.legal()
        if self._guarded:
            self._guard(legal.player)
        to = self._checked_amount(amount, legal)
        round_ = self.round
        assert round_ is not None
        added, full = round_.raise_to(legal.player, to)
        self.last_aggressor = legal.player
        cap = self.rules.betting.cap_for(self.street)
        if full and cap is not None and round_.raises == cap + 1:
            # A cap reached with three or more players able to bet stays when the round turns
            # heads-up (cardroom betting 4-5): decided when it is reached, not when asked.
            able = sum(1 for p in self._live if self.stacks[p] > 0)
            round_.stuck = self.rules.betting.cap_sticks and able > 2
        if self.receivers:
            self.receivers.clear()  # a wager ends the folded seats' cards (au 19.12, 19.19)
        self._log(ev.Bet(legal.player, to, added, self.stacks[legal.player] == 0, full))
        self._advance()

    def post_bring_in(self) -> None:
        """The stud opener posts the bring-in rather than a full bet (cardroom betting 16)."""
        legal = self.legal()
        if self._guarded:
            self._guard(legal.player)
        assert self.round is not None
        if legal.bring_in is None:
            raise IllegalAction(
                f"p{legal.player + 1} has no bring-in to post: only the opener of a stud "
                f"table with a bring-in may (cardroom betting 16); legal: {legal}"
            )
        added = self.round.bring_in(legal.player, legal.bring_in)
        self._log(ev.BringIn(legal.player, added, self.stacks[legal.player] == 0))
        self._advance()

    def verify_bet_or_raise_to(self, amount: object, legal: Legal | None = None) -> None:
        """Raise :class:`IllegalAction` unless ``amount`` is a legal bet or raise-to now."""
        self._checked_amount(amount, legal or self.legal())

    def can_bet_or_raise_to(self, amount: object) -> bool:
        try:
            self.verify_bet_or_raise_to(amount)
        except IllegalAction:
            return False
        return True

    def _checked_amount(self, amount: object, legal: Legal) -> int:
        structure = self.rules.betting.structure(self.street)
        if legal.raise_range is None:
            why = self._why_not(legal)
            who = f"p{legal.player + 1}"
            raise IllegalAction(f"{who} may not bet or raise now{why}; legal: {legal}")
        low, high = legal.raise_range
        to = _chips(amount)
        move = f"raise to {to}" if legal.facing else f"a bet of {to}"
        assert self.round is not None
        opening = self.round.opening_raise_rule()  # qld s24(4): the one raise to make
        if to < low:
            rule = opening or self._min_rule(structure)
            # A rule in words carries its own clause: "..., the minimum 4: at least the
            # previous bet or raise (rws 3.3)", never "(... (rws 3.3))".
            why = f": {rule}" if " (" in rule else f" ({rule})"
            raise IllegalAction(f"{move} is below the minimum {low}{why}; legal: {legal}")
        unit = self.rules.chip_unit
        if to % unit and to != legal.all_in:
            raise IllegalAction(
                f"{move} uses chips smaller than the smallest in play ({unit}): bets "
                f"go in multiples of {unit}, all-in excepted (cardroom betting 1); legal: {legal}"
            )
        if to > high:
            all_in = self.bets[legal.player] + self.stacks[legal.player]
            betting = self.rules.betting
            limit = betting.cite("structure", structure.limit_rule)
            reason = TABLE_STAKES if high == all_in else opening or limit
            if structure is Structure.FIXED and self.rules.betting.open_range and not legal.facing:
                reason = "qld s25(4): an opening bet is at most the maximum wager"
            if self.round.cap_to >= 0 and high == self.round.cap_to:
                reason = "an exposed card capped the round (au 19.29, qld s36(3))"
            if self.restricted.get(legal.player) == "min-raise-only":
                reason = "a player who bet out of turn may only make the minimum (league 22)"
            raise IllegalAction(f"{move} is above the maximum {high}: {reason}; legal: {legal}")
        return to

    def _why_not(self, legal: Legal) -> str:
        assert self.round is not None
        if self.round.capped(sum(self.stacks[p] > 0 for p in self._live)):
            betting = self.rules.betting
            cap = betting.cap_for(self.street)
            return ": " + betting.cite(
                "raise_cap", f"the round is capped at a bet and {cap} raises (au 11.5(g))"
            )
        current = self.round.current
        if not any(
            self.bets[p] + self.stacks[p] > current for p in self._live if p != legal.player
        ):
            return ": nobody else could call a raise (all the others are all-in or matched)"
        if self.round.acted_at[legal.player] >= self.round.reopen_count:
            betting = self.rules.betting
            return ": " + betting.cite("short_all_in", betting.short_all_in_for(self.street).rule)
        if self.round.cap_to >= 0:
            cap = self.round.cap_to
            return f": an exposed card capped the round at {cap} (au 19.29, qld s36(3))"
        if self.restricted.get(legal.player) == "no-bet-or-raise":
            return ": a player who checked out of turn may not bet or raise (cardroom betting 11)"
        return ""

    def _min_rule(self, structure: Structure) -> str:
        betting = self.rules.betting
        if structure is Structure.FIXED:
            return betting.cite("structure", structure.limit_rule)
        return betting.cite("min_raise", betting.min_raise.rule)

    def verify_draw(self, discards: Sequence[Card | None]) -> None:
        """Raise :class:`IllegalAction` unless the player to draw holds ``discards`` (``None``: a
        card nobody has seen)."""
        if self.phase is not Phase.DRAWING or self.to_act is None:
            raise IllegalAction("nobody is drawing now: the draw comes after the first round")
        self.dealt.check_discards(self.to_act, discards)

    def draw(self, discards: Sequence[Card | None] = ()) -> None:
        """Discard ``discards`` (none: stand pat) and receive as many from the dealer."""
        if self._guarded:
            self._guard(self.to_act)
        if self.phase is not Phase.DRAWING or self.to_act is None:
            raise IllegalAction("nobody is drawing now: the draw comes after the first round")
        player = self.to_act
        cards = self.dealt.check_discards(player, discards)
        dealt = self.dealt
        if dealt.stub() < len(cards):
            # Only the discards of the players who drew before are shuffled (au 11.3(b)); in a
            # game of several draws, those of the earlier draws too, and then the burns.
            self._shuffle_in(discards=True)
            if dealt.stub() < len(cards):
                self._shuffle_in(discards=False)
        self._discarding = cards
        self.to_act = None
        if not cards:
            self._replace(player, ())
            return
        self._log(ev.Discards(player, cards))  # then the dealer's replacements (Draw)
        if self.auto_deal:
            self._replace(player, dealt.deck.deal(len(cards)))
        else:
            self._steps = [Step(_REPLACE, player, len(cards))]

    def _replace(self, player: int, drawn: Sequence[Card | None]) -> None:
        discarded = self._discarding
        self.dealt.replace(player, discarded, drawn)
        self._discarding = ()
        self._log(ev.Draw(player, discarded, tuple(drawn)))
        later = [p for p in self._live if p > player]
        if later:
            self.to_act = later[0]
            return
        self.phase = Phase.BETTING
        self._start_betting(self.rules.game.streets[self.street].opener)

    def burn(self, card: Card | None = None, *, extra: bool = False) -> None:
        """Burn ``card`` (``None``: a card nobody sees; a card set aside as the next burn by a
        ruling is burned first). ``extra``: a ruling's burn outside the deal's steps (the
        cards after a burn error come as if there had been none, cardroom irregularities 16)."""
        if self._guarded:
            self._guard(None)
        if extra:
            fix._open(self, "a card is burned")
            given = self._cards([card], Step(_BURN, count=1))
        else:
            given = self._cards([card], self._due(_BURN))
        burned = self.dealt.take_for("burn", given, "the burn")
        if not extra:
            self._steps.pop(0)
        self.dealt.burn(burned[0])
        self._log(ev.ExtraBurn(burned[0]) if extra else ev.Burn(burned[0]))
        if not extra:
            self._after_step()

    def deal_hole(self, cards: Sequence[Card | None], player: int | None = None) -> None:
        """Deal a player their cards of this street (face down, then face up in stud), or a
        drawing player's replacements; ``None``: a card nobody sees. ``player``: whom, where
        the dealer reports the street's hands in another order than he dealt them."""
        if self._guarded:
            self._guard(None)
        order = list(self._steps)
        self._bring_forward(_HOLE, player)
        try:
            replacing = bool(self._steps) and self._steps[0].kind is _REPLACE
            step = self._due(_REPLACE if replacing else _HOLE)
            if replacing and player is not None and player != step.player:
                raise IllegalAction(
                    f"p{step.player + 1}'s replacements are due, not p{player + 1}'s cards"
                )
            given = self._cards(cards, step)
            self.dealt.take(given, f"p{step.player + 1}", self._discarding)
        except IllegalAction:
            self._steps = order  # refused: nothing changes, not even whose step is next
            raise
        down = step.count - step.up
        self._steps.pop(0)
        if step.kind is _REPLACE:
            self._replace(step.player, given)
            return
        # An up card a record does not name is held like an unseen card: shown to be valued.
        missing = sum(1 for c in given[down:] if c is None)
        unnamed: tuple[Card | None, ...] = (None,) * missing
        self._unnamed_up[step.player] += missing
        named = tuple(c for c in given[down:] if c is not None)
        self._give(step.player, given[:down] + unnamed, named)
        self._after_step()

    def deal_board(self, cards: Sequence[Card | None], *, extra: bool = False) -> None:
        """Turn community cards face up (cards set aside for the board by a ruling first; a
        ``None`` stands for one of those). ``extra``: a ruling's board card outside the deal's
        steps, in the place of one it took back (qld s35, au 19.3)."""
        if self._guarded:
            self._guard(None)
        if extra:
            fix._open(self, "a board card is dealt")
            given = self._cards(cards, Step(_BOARD, count=len(cards)))
        else:
            given = self._cards(cards, self._due(_BOARD))
        kept = sum(1 for _, role in self.dealt.aside if role == "board")
        if any(c is None for c in given[kept:]):
            raise IllegalAction("board cards are dealt face up: name them")
        dealt = self.dealt.take_for("board", given, "the board")
        known = [c for c in dealt if c is not None]
        if not extra:
            self._steps.pop(0)
        self.dealt.board.extend(known)
        self._log(ev.BoardAdded(tuple(known)) if extra else ev.DealBoard(tuple(known)))
        if not extra:
            self._after_step()

    def show_or_muck(
        self, show: bool, cards: Sequence[Card] = (), player: int | None = None
    ) -> None:
        """The player due at the showdown shows (``cards``: the hand, needed where the dealer
        has not seen it) or mucks; ``player``: another player still to show, who tables the
        hand early (cardroom showdown 8 encourages it). A hand turned up for an all-in may not
        be mucked (league)."""
        if self._guarded:
            self._guard(None)
        order = list(self._steps)
        self._bring_forward(_SHOW, player)
        try:
            self._check_show_or_muck(show, cards)
        except IllegalAction:
            self._steps = order  # refused: nothing changes, not even whose step is next
            raise
        player = self._due(_SHOW).player
        self._steps.pop(0)
        self._show(player, show)
        self._after_showing()

    def _check_show_or_muck(self, show: bool, cards: Sequence[Card]) -> None:
        player = self._due(_SHOW).player
        if not show and self._shown[player] >= 0:
            raise IllegalAction(f"p{player + 1}'s hand was turned up for the all-in: it stays up")
        if not show and player in self.stay_up:
            raise IllegalAction(
                f"p{player + 1} turned the cards up going all-in: they stay face up (league 26)"
            )
        if not show and self.rules.all_in_face_up and self._face_up():
            raise IllegalAction(
                f"p{player + 1}'s hand is turned face up for the all-in and is live: it may not "
                "be mucked (league 17)"
            )
        if show:
            self.dealt.reveal(player, cards)

    def deal_next(self) -> None:
        """Do the dealer step that is due by itself: cards from the top of the deck, or at the
        showdown the usual practice (show a hand as good as the called one, muck the rest)."""
        step = self.next_step()
        if step is None:
            raise IllegalAction(self._no_step())
        if step.kind is _SHOW:
            self.show_or_muck(self._worth_showing(step.player))
            return
        if step.kind is _PUSH:
            self.push()
            return
        if step.kind is _BURN:
            self.burn(self.dealt.peek_for("burn", 1)[0])
        elif step.kind is _BOARD:
            self.deal_board(self.dealt.peek_for("board", step.count))
        else:
            self.deal_hole(self.dealt.deck.peek(step.count))

    def copy(self) -> Hand:
        """An independent hand in the same state (rebuilt from the events; see
        :mod:`croupier.rebuild`)."""
        from croupier.rebuild import copy_hand

        return copy_hand(self)

    def step_back(self) -> Hand:
        """The hand as it was before its last operation, as a new hand; this one is unchanged
        (a dealer who mistyped a card or an action goes on from the returned hand)."""
        from croupier.rebuild import step_back

        return step_back(self)

    def automate(self, deal: bool = True, show: bool = True, push: bool = True) -> None:
        """From now on deal from the deck (``deal``), show down by the usual practice
        (``show``) and settle the pots (``push``) without being asked: a hand a live dealer or a
        history began, carried on by the engine. The steps already due are done now."""
        self.auto_deal = self.auto_deal or deal
        self.auto_show = self.auto_show or show
        self.auto_push = self.auto_push or push
        while (step := self.next_step()) is not None:
            if step.kind is _SHOW:
                if not self.auto_show or self.dealt.hidden[step.player]:
                    return
            elif step.kind is _PUSH:
                if not self.auto_push:
                    return
            elif not self.auto_deal:
                return
            self.deal_next()

    def push(self) -> None:
        """Settle the pots held after the showdown (``auto_push=False``): from now on no hand
        can be asked to show or found dead (au 19.4, 19.1(g); cardroom showdown 5)."""
        if self._guarded:
            self._guard(None)
        self._due(_PUSH)
        self._steps.pop(0)
        self._finish()

    def record_ruling(self, ruling: ev.RulingMade) -> int:
        """Log a ruling (croupier.irregularities makes them); returns its index in the log. One
        with choices and no choice awaits a decision: while a blocking one waits, the hand
        refuses every other player and dealer operation; a later ruling with the ``choice``
        settles it. A player's option (``blocking=False``, au 19.20) lets the betting go on."""
        waiting = self.pending
        if waiting is not None and not ruling.choice:
            raise IrregularityError(
                f"a ruling awaits a choice: {waiting.situation} ({waiting.clause}): choose one "
                f"of {', '.join(waiting.choices)}"
            )
        if ruling.choice:
            if ruling.player >= 0 and ruling.player in self.options:
                self.options.pop(ruling.player)
            elif waiting is None or ruling.choice not in waiting.choices:
                allowed = ", ".join(waiting.choices) if waiting is not None else "none is pending"
                raise IrregularityError(f"no choice {ruling.choice!r} is pending: {allowed}")
            else:
                self.pending = None
        elif ruling.choices and not ruling.blocking:
            fix._player(self, ruling.player)
            self.options[ruling.player] = len(self.events)
        elif ruling.choices:
            self.pending = ruling
        self._log(ruling)
        self.refresh_guard()
        return len(self.events) - 1

    def seal_ruling(self, index: int) -> None:
        """Record in the ruling at ``index`` how many events it applied after it (a step back
        undoes them together)."""
        ruling = self.events[index]
        if not isinstance(ruling, ev.RulingMade):
            raise IllegalAction(f"event {index} is not a ruling")
        steps = len(self.events) - index - 1
        if self.pending is ruling:
            self.pending = replace(ruling, steps=steps)
        self.events[index] = replace(ruling, steps=steps)

    def _guard(self, player: int | None) -> None:
        waiting = self.pending
        if waiting is not None:
            raise IrregularityError(
                f"a ruling awaits a choice: {waiting.situation} ({waiting.clause}): choose one "
                f"of {', '.join(waiting.choices)}"
            )
        if player is not None and player in self.held_actions:
            action, _ = self.held_actions[player]
            raise IrregularityError(
                f"p{player + 1}'s {action} out of turn is held: the book settles it first "
                "(resolve_held: apply, return or forfeit)"
            )

    def leave(self, player: int) -> None:
        """``player``'s hand is out (killed): the turn, the deal and the showdown go on
        without it."""
        if player in self._live:
            self._live.remove(player)
        self.restricted.pop(player, None)
        self.options.pop(player, None)
        self._steps = [
            step for step in self._steps if step.player != player or step.kind is _REPLACE
        ]
        if self.phase is Phase.BETTING and self.round is not None:
            turn = self.to_act
            if turn is None or len(self._live) <= 1:
                self.to_act = None
            else:
                self.to_act = self._next_to_act(turn + 1 if turn == player else turn)
            if self.to_act is None:
                self._end_round()
        elif self.phase is Phase.DRAWING:
            if self.to_act == player:
                later = [p for p in self._live if p > player]
                if later and len(self._live) > 1:
                    self.to_act = later[0]
                else:
                    self.phase = Phase.BETTING
                    self._start_betting(self.rules.game.streets[self.street].opener)
        elif self.phase is Phase.SHOWDOWN:
            if self._steps and self._steps[0].kind is _SHOW:
                self._showdown()
            elif not self._steps:
                self._after_showing()
        elif len(self._live) <= 1 and self.phase is Phase.DEALING:
            self.to_act = None
            self._finish()

    def rejoin(self, player: int) -> None:
        """``player``'s folded, mucked or dead hand is live again (a retrieved hand, cardroom
        dead-hands 2; a hand the winner asked to see, au 19.4)."""
        if player not in self._live:
            self._live.append(player)
            self._live.sort()
        self.mucked[player] = False
        if player in self.receivers:
            self.receivers.remove(player)
        if self.phase is Phase.BETTING and self.round is not None:
            self.round.acted_at[player] = -1  # acts when the turn comes, facing the bet
            if self.to_act is None:
                self.to_act = self._next_to_act(player)

    def award(self, player: int, amount: int) -> None:
        """Every chip in the middle to ``player`` without a showdown (qld s33(4))."""
        for p in range(self.players):
            if self.held[p]:
                self.stacks[p] = self.stacks[p] + self.held[p]
                self.held[p] = 0
        self.held_actions.clear()
        count = self.players
        settlement = settle(
            [0] * count, [p == player for p in range(count)], [None] * count,
            button=count - 1, commission=self.rules.commission, odd_chip=self.rules.odd_chip,
            chip=self.rules.chip_unit, dead=amount,
        )  # fmt: skip
        self.contributed[:] = [0] * count
        self.bets[:] = [0] * count
        self.dead_paid[:] = [0] * count
        self.dead = 0
        self._pay(settlement, [None] * count, None)

    def rename_opener(self) -> None:
        """Stud's up cards changed before anyone acted on the first round (a ruling corrected
        the deal, au 19.7, 19.14): the opener is named again from the cards showing."""
        street = self.rules.game.streets[0]
        round_ = self.round
        if self.street != 0 or self.phase is not Phase.BETTING or round_ is None:
            return
        if street.opener not in (Opener.LOWEST_UP_CARD, Opener.HIGHEST_UP_CARD):
            return
        if round_.current or any(a >= 0 for a in round_.acted_at):
            return
        self.opener = self._first_to_act(street.opener)
        self.to_act = self._next_to_act(self.opener)

    def recheck_turn(self) -> None:
        """After a correction that took a player out of the betting: who acts now, or the end
        of the round."""
        if self.phase is not Phase.BETTING or self.round is None or self.to_act is None:
            return
        self.to_act = self._next_to_act(self.to_act)
        if self.to_act is None:
            self._end_round()

    def restore_from(self, other: Hand) -> None:
        """Take on ``other``'s whole state (a hand rebuilt from part of this one's log): how an
        action is voided (au 19.26)."""
        for name in _STATE:
            setattr(self, name, getattr(other, name))

    def give_card(self, player: int, card: Card | None = None, up: bool = False) -> None:
        """One card to a named player now, face down or up, outside the street's deal (a
        replacement, a reconstruction); a folded seat's card goes to the muck (au 19.12)."""
        fix.give_card(self, player, card, up, False)

    def verify_give_card(self, player: int, card: Card | None = None, up: bool = False) -> None:
        fix.give_card(self, player, card, up, True)

    def can_give_card(self, player: int, card: Card | None = None, up: bool = False) -> bool:
        return _can(self.verify_give_card, player, card, up)

    def expose(
        self, card: Card | str, by: str = "dealer", to: int | None = None,
        player: int | None = None, stay_up: bool = False,
    ) -> None:  # fmt: skip
        """``card`` is seen where it lies: by everyone, or by seat ``to`` alone. ``player``:
        whose unseen face-down card it is; ``stay_up``: the hand stays face up (league 26)."""
        fix.expose(self, card, by, to, player, stay_up, False)

    def verify_expose(
        self, card: Card | str, by: str = "dealer", to: int | None = None,
        player: int | None = None, stay_up: bool = False,
    ) -> None:  # fmt: skip
        fix.expose(self, card, by, to, player, stay_up, True)

    def can_expose(
        self, card: Card | str, by: str = "dealer", to: int | None = None,
        player: int | None = None, stay_up: bool = False,
    ) -> bool:  # fmt: skip
        return _can(self.verify_expose, card, by, to, player, stay_up)

    def set_aside(self, card: Card | str | None, role: str, player: int = -1) -> None:
        """Take ``card`` from where it lies and keep it as the next burn or board card."""
        fix.set_aside(self, card, role, player, False)

    def verify_set_aside(self, card: Card | str | None, role: str, player: int = -1) -> None:
        fix.set_aside(self, card, role, player, True)

    def can_set_aside(self, card: Card | str | None, role: str, player: int = -1) -> bool:
        return _can(self.verify_set_aside, card, role, player)

    def restack(self, cards: Sequence[Card | str]) -> None:
        """Put ``cards`` back on top of the stub, the first dealt next."""
        fix.restack(self, cards, False)

    def verify_restack(self, cards: Sequence[Card | str]) -> None:
        fix.restack(self, cards, True)

    def can_restack(self, cards: Sequence[Card | str]) -> bool:
        return _can(self.verify_restack, cards)

    def discard(self, card: Card | str | None, scrap: bool = False, player: int = -1) -> None:
        """``card`` to the muck, or out of the game (``scrap``)."""
        fix.discard(self, card, scrap, player, False)

    def verify_discard(
        self, card: Card | str | None, scrap: bool = False, player: int = -1
    ) -> None:
        fix.discard(self, card, scrap, player, True)

    def can_discard(self, card: Card | str | None, scrap: bool = False, player: int = -1) -> bool:
        return _can(self.verify_discard, card, scrap, player)

    def reshuffle(
        self, returned: Sequence[Card | str | None] = (), order: Sequence[Card] | None = None
    ) -> None:
        """Put ``returned`` cards (board, burns, set aside) into the stub, then shuffle and cut
        it (``order``: the resulting stub, when replaying a log)."""
        fix.reshuffle(self, returned, order, False)

    def verify_reshuffle(
        self, returned: Sequence[Card | str | None] = (), order: Sequence[Card] | None = None
    ) -> None:
        fix.reshuffle(self, returned, order, True)

    def can_reshuffle(self, returned: Sequence[Card | str | None] = ()) -> bool:
        return _can(self.verify_reshuffle, returned)

    def void_hand(self, keep: Iterable[int] = ()) -> None:
        """The hand ends void: every chip goes back, except ``keep`` players', carried to the
        next deal (rws 5.1; cardroom irregularities 5)."""
        fix.void_hand(self, keep, False)

    def verify_void_hand(self, keep: Iterable[int] = ()) -> None:
        fix.void_hand(self, keep, True)

    def can_void_hand(self, keep: Iterable[int] = ()) -> bool:
        return _can(self.verify_void_hand, keep)

    def kill_hand(self, player: int, refund: bool = False) -> None:
        """``player``'s hand is dead; ``refund``: every chip put in goes back (au 19.1(f))."""
        fix.kill_hand(self, player, refund, False)

    def verify_kill_hand(self, player: int, refund: bool = False) -> None:
        fix.kill_hand(self, player, refund, True)

    def can_kill_hand(self, player: int, refund: bool = False) -> bool:
        return _can(self.verify_kill_hand, player, refund)

    def revive(self, player: int) -> None:
        """A folded, mucked or dead hand is live again (cardroom dead-hands 2; au 19.4)."""
        fix.revive(self, player, False)

    def verify_revive(self, player: int) -> None:
        fix.revive(self, player, True)

    def can_revive(self, player: int) -> bool:
        return _can(self.verify_revive, player)

    def award_pots(self, player: int, uncontested: bool = False) -> None:
        """Every pot to ``player`` without a showdown (qld s33(4)); ``uncontested``: only the
        chips no live or all-in hand can win, the rest settling as usual (qld s33(5))."""
        fix.award_pots(self, player, uncontested, False)

    def verify_award_pots(self, player: int, uncontested: bool = False) -> None:
        fix.award_pots(self, player, uncontested, True)

    def can_award_pots(self, player: int, uncontested: bool = False) -> bool:
        return _can(self.verify_award_pots, player, uncontested)

    def cap_round(self, to: int) -> None:
        """Nobody's total this round may pass ``to`` (au 19.29, qld s36(3))."""
        fix.cap_round(self, to, False)

    def verify_cap_round(self, to: int) -> None:
        fix.cap_round(self, to, True)

    def can_cap_round(self, to: int) -> bool:
        return _can(self.verify_cap_round, to)

    def void_action(self) -> None:
        """Undo the last betting action: chips back, the same player to act (au 19.26)."""
        fix.void_action(self, False)

    def verify_void_action(self) -> None:
        fix.void_action(self, True)

    def can_void_action(self) -> bool:
        return _can(self.verify_void_action)

    def hold_action(self, player: int, action: str, to: int = 0) -> None:
        """``player`` acted out of turn: the chips are held in front, the turn stays (qld s37)."""
        fix.hold_action(self, player, action, to, False)

    def verify_hold_action(self, player: int, action: str, to: int = 0) -> None:
        fix.hold_action(self, player, action, to, True)

    def can_hold_action(self, player: int, action: str, to: int = 0) -> bool:
        return _can(self.verify_hold_action, player, action, to)

    def resolve_held(self, player: int, how: str) -> None:
        """Settle a held action: ``apply`` it now, ``return`` the chips, or ``forfeit`` them."""
        fix.resolve_held(self, player, how, False)

    def verify_resolve_held(self, player: int, how: str) -> None:
        fix.resolve_held(self, player, how, True)

    def can_resolve_held(self, player: int, how: str) -> bool:
        return _can(self.verify_resolve_held, player, how)

    def restrict(self, player: int, rule: str) -> None:
        """Until ``player``'s next action: ``no-bet-or-raise`` or ``min-raise-only``."""
        fix.restrict(self, player, rule, False)

    def verify_restrict(self, player: int, rule: str) -> None:
        fix.restrict(self, player, rule, True)

    def can_restrict(self, player: int, rule: str) -> bool:
        return _can(self.verify_restrict, player, rule)

    def treat_as_all_in(self, player: int) -> None:
        """``player`` bets no more and is eligible for what is in (au 19.20)."""
        fix.treat_as_all_in(self, player, False)

    def verify_treat_as_all_in(self, player: int) -> None:
        fix.treat_as_all_in(self, player, True)

    def can_treat_as_all_in(self, player: int) -> bool:
        return _can(self.verify_treat_as_all_in, player)

    def correct_wager(self, player: int, to: int) -> None:
        """``player``'s wager (or held wager) this round becomes ``to`` in all."""
        fix.correct_wager(self, player, to, False)

    def verify_correct_wager(self, player: int, to: int) -> None:
        fix.correct_wager(self, player, to, True)

    def can_correct_wager(self, player: int, to: int) -> bool:
        return _can(self.verify_correct_wager, player, to)


def _can(verify: Callable[..., None], *args: object) -> bool:
    try:
        verify(*args)
    except IllegalAction:
        return False
    return True


# Everything a hand's future depends on, taken over by Hand.restore_from.
_STATE = (
    "rules", "shuffler", "forced", "auto_deal", "auto_show", "auto_push", "over_blind", "_live",
    "dealt", "valuation", "starting", "stacks", "bets", "contributed", "dead", "mucked", "street",
    "round", "to_act", "phase", "opener", "last_aggressor", "ran_out", "settlement", "_steps",
    "_legal", "_legal_at", "_discarding", "_called", "_levels", "_shown", "_shown_early",
    "_returned", "dead_paid", "held", "held_actions", "behind", "restricted", "options",
    "receivers", "killed", "stay_up", "pending", "carried", "void", "_guarded",
)  # fmt: skip


def _chips(amount: object) -> int:
    """A whole number of chips (a numpy integer too), or IllegalAction: the same error from the
    compiled and the pure-Python engine, whatever was passed."""
    if isinstance(amount, int) and not isinstance(amount, bool):
        return amount
    if not isinstance(amount, bool):
        try:
            return operator.index(amount)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise IllegalAction(f"a bet must be a whole number of chips, got {amount!r}")


def _in_units(legal: Legal, unit: int) -> Legal:
    """Bets and raises in whole multiples of the smallest chip in play, an all-in excepted
    (cardroom betting 1)."""
    if legal.raise_range is None:
        return replace(legal, unit=unit)
    low, high = legal.raise_range
    up = low if low == legal.all_in or low % unit == 0 else low + unit - low % unit
    down = high if high == legal.all_in or high % unit == 0 else high - high % unit
    if up > down:
        return replace(legal, unit=unit, raise_range=(high, high) if high == legal.all_in else None)
    return replace(legal, unit=unit, raise_range=(up, down))
