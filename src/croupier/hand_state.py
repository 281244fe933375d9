"""The state of one deal and how it moves on by itself: dealing the streets, passing the turn,
ending the rounds, the showdown and the settlement (:class:`HandState`).

:class:`croupier.hand.Hand` adds what players, the dealer and the floor do to it, each checked
first; this base holds what those operations share: the state, the queries (``legal``,
``next_step``) and the steps the hand takes between operations. Split from hand.py by concern
(both compiled); nothing outside croupier.hand builds a HandState.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from croupier import events as ev
from croupier.betting import BettingRound, IllegalAction, Legal, RulesError
from croupier.cards import Card, CardError
from croupier.dealt import Dealt
from croupier.deck import SECURE, Deck, Shuffler
from croupier.evaluate import Ranking
from croupier.forced import ForcedBets
from croupier.games import Opener, Street
from croupier.positions import ace_low, as_good, low_showing, showing
from croupier.pots import Settlement, settle, uncalled
from croupier.rules import Rules, ShowFirst
from croupier.steps import (
    _BOARD,
    _BURN,
    _DEAD,
    _HOLE,
    _PUSH,
    _SHOW,
    Phase,
    Step,
    StepKind,
)  # fmt: skip
from croupier.valuation import Valuation

__all__ = ["HandState"]


class HandState:
    """A hand's state, its queries and the steps it takes by itself between operations (see
    :class:`croupier.hand.Hand`, which is what callers make)."""

    def __init__(
        self,
        rules: Rules,
        stacks: Sequence[int],
        deck: Deck | None = None,
        *,
        forced: ForcedBets | None = None,
        shuffler: Shuffler | None = None,
        over_blind: bool = False,
        auto_deal: bool = True,
        auto_show: bool = True,
        openers: Mapping[int, int] | None = None,
        auto_push: bool = True,
    ) -> None:
        """``forced``: who posts what (default: the positional blinds and ante of ``rules``).
        ``over_blind``: the player left of the last blind posts the voluntary over-blind, double
        the last blind (au 11.1(c)(iv), 11.5(c)). ``deck``: the order to deal from (default: a
        fresh shuffle, au 6.1). ``auto_deal``, ``auto_show``: False to give the dealer's cards
        and the players' showdown choices step by step. ``openers``: round -> the player who
        opens it, as a record says, for a stud round whose opener the up cards cannot tell
        (a history that does not name an up card); unused where they can. ``auto_push``: False
        to hold the pots after a showdown until :meth:`push`, while a hand may still be asked to
        show (au 19.4, cardroom showdown 5) or found dead (au 19.1(g), qld s33(3)-(4))."""
        self.rules = rules
        self.shuffler = shuffler if shuffler is not None else SECURE
        count = len(stacks)
        rules.game.check(rules.deck, count)
        given: tuple[object, ...] = tuple(stacks)  # not typed as int until checked
        if any(isinstance(stack, bool) or not isinstance(stack, int) for stack in given):
            raise IllegalAction(f"stacks are whole numbers of chips, got {list(stacks)}")
        if any(stack <= 0 for stack in stacks):
            raise IllegalAction(
                f"every player needs chips to be dealt in, got stacks {list(stacks)}"
            )
        if over_blind and not rules.over_blind:
            raise IllegalAction("this table has no over-blind (au 11.1(c)(iv): draw only)")
        try:
            if forced is None:
                forced = rules.forced_bets(count, over_blind=over_blind)  # checked once made
            else:
                forced.check(count)
        except RulesError as error:
            raise IllegalAction(str(error)) from None
        if forced.bring_in and forced.bring_in >= rules.betting.small_bet:
            raise IllegalAction(
                f"the bring-in ({forced.bring_in}) must be less than the minimum bet "
                f"({rules.betting.small_bet}) (cardroom betting 16)"
            )
        if deck is None:
            deck = (
                Deck.shuffled(rules.deck, self.shuffler) if auto_deal else Deck.ordered(rules.deck)
            )
        if deck.kind is not rules.deck:
            raise IllegalAction(
                f"the rules call for a {rules.deck.size}-card deck, got {deck.kind.size}"
            )
        self.forced = forced
        self.auto_deal = auto_deal
        self.auto_show = auto_show
        self.auto_push = auto_push
        self.over_blind = over_blind
        self._live = list(range(count))  # not folded, in deal order
        self.dealt = Dealt(deck, self._live, self.shuffler)
        self.valuation = Valuation(rules)
        self.starting = tuple(stacks)
        self.stacks = list(stacks)
        self.bets = [0] * count  # this round
        self.contributed = [0] * count  # earlier rounds, and the antes that count as bets
        self.dead = 0  # dead money in the main pot: dead antes and dead blinds
        self.mucked = [False] * count  # gave the hand up at the showdown
        self.events: list[ev.Event] = []
        self.street = -1
        self.round: BettingRound | None = None
        self.to_act: int | None = None
        self.phase = Phase.DEALING
        self.opener: int | None = None  # who opened the current betting round
        self.last_aggressor: int | None = None
        self.ran_out = False  # betting stopped early because all but one were all-in
        self.settlement: Settlement | None = None  # pots, shares and commission, once over
        self._steps: list[Step] = []  # dealer steps due, in order
        self._legal: Legal | None = None
        self._legal_at = -1  # len(events) when _legal was worked out: any event makes it stale
        self._discarding: tuple[Card | None, ...] = ()  # a draw waiting for its replacements
        self._called: dict[int, tuple[int, int | None]] = {}  # pot -> the called hand's values
        self._levels: list[int] = []  # the showdown's all-in levels, one per pot
        self._shown = [-1] * count  # how many cards a player held when shown (-1: not shown)
        self._shown_early = False  # hands turned up for an all-in before the rest was dealt
        self._returned = 0  # uncalled chips given back (a commission base may count them)
        self.openers = dict(openers or {})
        self._unnamed_up = [0] * count  # up cards a record does not name, held as unseen
        # What rulings change (croupier.corrections; docs/irregularities-spec.md §1.2).
        self.dead_paid = [0] * count  # each player's share of ``dead`` (refunded by a void)
        self.held = [0] * count  # chips in front of a player who acted out of turn
        self.held_actions: dict[int, tuple[str, int]] = {}  # player -> (action, round total)
        self.behind = [0] * count  # chips kept back by a player treated as all-in (au 19.20)
        self.restricted: dict[int, str] = {}  # player -> a limit until their next action
        self.options: dict[int, int] = {}  # player -> log index: an all-in option (au 19.20)
        self.receivers: list[int] = []  # folded stud seats still dealt to (au 19.12, 19.19)
        self.killed: set[int] = set()  # hands declared dead
        self.stay_up: set[int] = set()  # players whose exposed cards stay up (league 26)
        self.pending: ev.RulingMade | None = None  # a ruling awaiting a choice blocks the hand
        self.carried = 0  # a void hand's forfeited chips, kept for the next deal
        self.void = False
        self._guarded = False  # a ruling waits or an action is held: operations check first
        self._post_antes()
        self._next_street()

    def _log(self, event: ev.Event) -> None:
        self.events.append(event)

    @property
    def players(self) -> int:
        return len(self.stacks)

    @property
    def pot(self) -> int:
        """All chips in the middle: earlier rounds, dead money and this round's bets."""
        return _total(self.contributed) + _total(self.bets) + self.dead

    @property
    def folded(self) -> list[bool]:
        """Per player, whether they folded (a copy)."""
        live = set(self._live)
        return [p not in live for p in range(self.players)]

    @property
    def over(self) -> bool:
        """Whether the hand is over: ``while not hand.over`` (a compiled test; on Python 3.11
        ``Phase.OVER`` alone, looked up on the enum class, costs some 70 ns)."""
        return self.phase is Phase.OVER

    @property
    def drawing(self) -> bool:
        """Whether a player is to discard or stand pat (draw poker)."""
        return self.phase is Phase.DRAWING

    @property
    def payouts(self) -> tuple[int, ...]:
        """What each player received at the end (empty until then)."""
        return self.settlement.payouts if self.settlement is not None else ()

    @property
    def commission(self) -> int:
        """What the house took from the pots (0 until the end)."""
        return self.settlement.commission if self.settlement is not None else 0

    @property
    def deck(self) -> Deck:
        """The stub: what is left to deal (in order, when dealing from a shuffled deck)."""
        return self.dealt.deck

    @property
    def hole(self) -> list[list[Card]]:
        """Each player's face-down cards, where known."""
        return self.dealt.hole

    @property
    def hidden(self) -> list[int]:
        """How many of each player's face-down cards nobody has seen."""
        return self.dealt.hidden

    @property
    def up(self) -> list[list[Card]]:
        """Each player's face-up cards (stud)."""
        return self.dealt.up

    @property
    def board(self) -> list[Card]:
        return self.dealt.board

    @property
    def burned(self) -> list[Card]:
        return self.dealt.burned

    @property
    def discards(self) -> list[Card]:
        """Discarded since the last reshuffle (au 11.3(b))."""
        return self.dealt.discards

    @property
    def ranking(self) -> Ranking:
        return self.valuation.ranking

    def in_hand(self) -> list[int]:
        """Players who have not folded, in deal order (a copy)."""
        return list(self._live)

    def next_step(self) -> Step | None:
        """The dealer step that is due, or None while a player is to act or the hand is over."""
        return self._steps[0] if self._steps and self.to_act is None else None

    @property
    def steps_due(self) -> tuple[Step, ...]:
        """Every dealer step due, in order (the first is :meth:`next_step` once nobody is to
        act)."""
        return tuple(self._steps)

    @property
    def in_play(self) -> int:
        """Every chip of the hand not in a stack: the pots, bets, held chips, chips a player
        treated as all-in keeps back, and a void hand's carried pot. With the stacks and the
        commission this is always the starting total and any pot carried in (chips are
        conserved)."""
        middle = 0 if self.settlement is not None else self.pot  # paid out once settled
        return middle + _total(self.held) + _total(self.behind) + self.carried

    def _require_turn(self) -> int:
        if self.phase is Phase.OVER:
            raise IllegalAction("the hand is over: nobody is to act")
        if self.to_act is None:
            raise IllegalAction(f"no player is to act: the dealer is to {self.next_step()}")
        if self.phase is Phase.DRAWING:
            raise IllegalAction(f"p{self.to_act + 1} is to draw, not to bet (au 11.3)")
        return self.to_act

    def refresh_guard(self) -> None:
        self._guarded = (
            self.pending is not None or bool(self.held_actions) or _total(self.behind) > 0
        )

    def _settle_options(self) -> None:
        """A player offered to be treated as all-in who has not chosen by the time of
        substantial action is treated as all-in (au 19.20)."""
        for player, since in list(self.options.items()):
            acted = {
                getattr(e, "player", -1)
                for e in self.events[since:]
                if isinstance(e, ev.Fold | ev.Check | ev.Call | ev.Bet)
            }
            if len(acted) >= 2:
                del self.options[player]
                kept = self.stacks[player]
                self.behind[player] = self.behind[player] + kept
                self.stacks[player] = 0
                self._log(ev.TreatedAllIn(player, kept))
                self.refresh_guard()

    def _bring_forward(self, kind: StepKind, player: int | None) -> None:
        """Make ``player``'s pending step of this kind the next one (a no-op for None)."""
        if player is None or self.next_step() is None or self._steps[0].kind is not kind:
            return
        for i, step in enumerate(self._steps):
            if step.kind is kind and step.player == player:
                if i:
                    self._steps.insert(0, self._steps.pop(i))
                return
        raise IllegalAction(
            f"p{player + 1} has no {kind.value} step due: the dealer is to {self._steps[0]}"
        )

    def _due(self, kind: StepKind) -> Step:
        step = self.next_step()
        if step is None:
            raise IllegalAction(self._no_step())
        if step.kind is not kind:
            raise IllegalAction(f"the dealer is to {step}, not to {kind.value}")
        return step

    def _no_step(self) -> str:
        if self.phase is Phase.OVER:
            return "the hand is over: nothing is to be dealt"
        verb = "draw" if self.phase is Phase.DRAWING else "act"
        return f"no dealer step is due: p{(self.to_act or 0) + 1} is to {verb}"

    @staticmethod
    def _cards(cards: Sequence[Card | None], step: Step) -> tuple[Card | None, ...]:
        try:
            given = tuple(None if c is None else Card(c) for c in cards)
        except (CardError, TypeError) as error:
            raise IllegalAction(f"the dealer's cards: {error}") from None
        if len(given) != step.count:
            raise IllegalAction(f"the dealer is to {step}, got {len(given)}")
        return given

    def _post_antes(self) -> None:
        carried = self.forced.carried
        if carried:  # a voided deal's forfeited chips, dead money (cardroom irregularities 6)
            self.dead += carried
            self._log(ev.PotCarried(carried))
        antes = self.forced.antes
        for player in range(len(antes)):
            if antes[player]:
                amount = self._post_dead(player, antes[player], ante=True)
                self._log(ev.PostAnte(player, amount, self.forced.dead_antes))

    def _post_dead(self, player: int, amount: int, ante: bool) -> int:
        """An ante (the player's contribution, or dead money in the main pot) or a dead blind
        (dead money: no part of anyone's bet, and never returned as uncalled)."""
        amount = min(amount, self.stacks[player])
        self.stacks[player] = self.stacks[player] - amount
        if ante and not self.forced.dead_antes:
            self.contributed[player] = self.contributed[player] + amount
        else:
            self.dead += amount
            self.dead_paid[player] = self.dead_paid[player] + amount
        return amount

    def _post_blinds(self) -> None:
        """Before the first card is dealt (au 11.1(c), 16.1; qld s23(3))."""
        round_ = self.round
        assert round_ is not None
        forced = self.forced
        if not forced.blinds:
            return  # a blind game played without blinds opens like any later round
        posted = 0  # the largest blind actually posted
        for blind in forced.blinds:
            player = blind.player
            if blind.kind is _DEAD:
                self._log(ev.PostDead(player, self._post_dead(player, blind.amount, ante=False)))
            else:
                added = round_.post(player, blind.amount)
                posted = max(posted, self.bets[player])
                self._log(ev.PostBlind(player, added, self.stacks[player] == 0))
        last = forced.last_positional()
        if not self.rules.betting.big_blind_option and last is not None:
            round_.acted_at[last] = 0  # no option (qld s4(2), s24(10))
        # The blind as set is the bet to match, even when its poster is all-in for less: an
        # all-in blind does not change the round's limits (league); or what was posted (PHH).
        round_.open_with_blinds(posted if forced.short_blind_sets_bet else forced.bet_to_match())

    def _next_street(self) -> None:
        self.street += 1
        street = self.rules.game.streets[self.street]
        self.round = BettingRound(
            self.rules.betting, self.street, self.bets, self.stacks,
            _total(self.contributed) + self.dead,
        )  # fmt: skip
        if street.opener is Opener.LEFT_OF_BLINDS and self.street == 0:
            self._post_blinds()
        self.phase = Phase.DEALING
        burn, per_player, board = self._street_cards(street)
        if self.auto_deal:
            self._deal_street(burn, per_player, street.up, board)
        else:
            steps = [Step(_BURN, count=1)] if burn else []
            for player in self._seats() if per_player else ():
                steps.append(Step(_HOLE, player, per_player, street.up))
            if board:
                steps.append(Step(_BOARD, count=board))
            self._steps = steps
        self._after_step()

    def _street_cards(self, street: Street) -> tuple[bool, int, int]:
        """Whether a card is burned, how many cards each player gets and how many go on the
        board: the street's, or when the stub cannot give everyone their card even with the
        burns, one community card for all (au 12.4(a), 13.4(a)). Shuffles the burns, or an
        earlier draw's discards, into the stub as needed."""
        per_player = street.hole + street.up
        needed = per_player * (len(self._live) + len(self.receivers)) + street.burn
        if per_player and self.dealt.stub() < needed and not self._restock(needed):
            return True, 0, 1
        burn = street.burn and (per_player > 0 or street.board > 0 or street.draw)
        if burn and not self.dealt.stub():
            self._shuffle_in(discards=True)  # an earlier draw emptied the stub
        return burn, per_player, street.board

    def _deal_street(self, burn: bool, per_player: int, up: int, board: int) -> None:
        """A street from the top of the deck. Hole cards go one at a time, clockwise from the
        left of the button (rws 3.6, au 12.1(c)): a player's k-th card is the k-th of every
        ``players`` cards, the face-down ones first."""
        if self.dealt.aside:
            self._deal_street_with_aside(burn, per_player, up, board)
            return
        deck = self.dealt.deck
        if burn:
            self._burn(deck.deal(1)[0])
        if per_player:
            live = self._seats()
            players = len(live)
            dealt = deck.deal(per_player * players)
            down = (per_player - up) * players
            for k in range(players):
                up_cards = _every(dealt, down + k, len(dealt), players) if up else ()
                self._give(live[k], _every(dealt, k, down, players), up_cards)
        if board:
            self._deal_board(deck.deal(board))

    def _deal_street_with_aside(self, burn: bool, per_player: int, up: int, board: int) -> None:
        """A street where a ruling set cards aside for the next burn or board card: those are
        used before the stub's (au 19.25, qld s34(2), s36(2))."""
        dealt = self.dealt
        if burn:
            self._burn(self._next_for("burn", 1)[0])
        if per_player:
            seats = self._seats()
            cards = dealt.deck.deal(per_player * len(seats))
            down = (per_player - up) * len(seats)
            for k in range(len(seats)):
                self._give(seats[k], cards[k : down : len(seats)], cards[down + k :: len(seats)])
        if board:
            self._deal_board([c for c in self._next_for("board", board) if c is not None])

    def _next_for(self, role: str, count: int) -> tuple[Card | None, ...]:
        aside = self.dealt.aside
        kept = [i for i, (_, kind) in enumerate(aside) if kind == role][:count]
        cards = tuple(aside[i][0] for i in kept)
        for i in reversed(kept):
            aside.pop(i)
        return (*cards, *self.dealt.deck.deal(count - len(kept)))

    def _seats(self) -> list[int]:
        """Who is dealt this street: the players in the hand, and folded stud seats that still
        receive a card (au 19.12, 19.19), in deal order."""
        if not self.receivers:
            return self._live
        return sorted(self._live + self.receivers)

    def _keep_dealing_to(self, player: int) -> None:
        """A stud player folding on a round of checking, or after making the forced bet, has
        the seat dealt on until someone wagers (au 19.12, 19.19)."""
        street = self.rules.game.streets[self.street]
        assert self.round is not None
        forced = street.forced_open and self.street == 0 and player == self.opener
        if self.round.current == 0 or forced:
            self.receivers.append(player)

    def _give(self, player: int, down: tuple[Card | None, ...], up: tuple[Card, ...]) -> None:
        if self.receivers and player in self.receivers:
            dealt = self.dealt
            dealt.muck.extend(c for c in (*down, *up) if c is not None)  # straight to the muck
            dealt.unseen_spent += sum(1 for c in down if c is None)
        else:
            self.dealt.give(player, down, up)
        if down:
            self._log(ev.DealHole(player, down))
        if up:
            self._log(ev.DealUp(player, up))

    def _burn(self, card: Card | None) -> None:
        self.dealt.burn(card)
        self._log(ev.Burn(card))

    def _deal_board(self, cards: Sequence[Card]) -> None:
        self.dealt.board.extend(cards)
        self._log(ev.DealBoard(tuple(cards)))

    def _restock(self, needed: int) -> bool:
        """Shuffle the burns back in if that completes the deal (au 12.4(a), 13.4(a))."""
        dealt = self.dealt
        if dealt.stub() + len(dealt.burned) < needed:
            if dealt.stub() < 2:
                self._shuffle_in(discards=False)
            return False
        self._shuffle_in(discards=False)
        return True

    def _shuffle_in(self, *, discards: bool) -> None:
        self.dealt.shuffle_in(discards)
        self._log(ev.Reshuffle(self.dealt.stub()))

    def _after_step(self) -> None:
        """Once the street's cards are dealt: the draw, or the betting."""
        if self._steps:
            self.phase = Phase.DEALING
            return
        street = self.rules.game.streets[self.street]
        if street.draw and len(self._live) > 1:
            self.phase = Phase.DRAWING  # clockwise from the left of the button (au 11.3(a))
            self.to_act = self._live[0]
            return
        self.phase = Phase.BETTING
        self._start_betting(street.opener)

    def _start_betting(self, opener: Opener) -> None:
        self._log(ev.StreetStart(self.street))
        self.opener = self._first_to_act(opener)
        self.to_act = self._next_to_act(self.opener)
        if self.to_act is None:
            self.ran_out = self.ran_out or len(self._live) > 1
            self._end_round()

    def _first_to_act(self, opener: Opener) -> int:
        """Who opens the round: after the last blind (au 11.2(a), 11.4(a); rws 3.8.1(a)),
        after the button (rws 3.9.1(a)), or by the stud cards showing (au 12.2-12.4)."""
        if opener is Opener.LEFT_OF_BLINDS or opener is Opener.LEFT_OF_LAST_BLIND:
            last = self.forced.last_positional()
            if last is not None:
                return (last + 1) % self.players
        if opener is Opener.LEFT_OF_BUTTON:
            return 0
        return self._opener_by_cards(opener)

    def _opener_by_cards(self, opener: Opener) -> int:
        """The stud opener by the up cards (apart: its closures cost every call they are in)."""
        up = self.dealt.up
        if any(self._unnamed_up[p] for p in self._live):
            return self._named_opener()
        if opener is Opener.LOWEST_UP_CARD:
            # An all-in player does not start the betting (au 19.10, 19.17).
            able = [p for p in self._live if self.stacks[p] > 0] or self._live
            return min(able, key=lambda p: up[p][-1])  # rank, then suit: clubs lowest
        if opener is Opener.HIGHEST_UP_CARD:  # razz: the highest card brings it in, aces low
            able = [p for p in self._live if self.stacks[p] > 0] or self._live
            return max(able, key=lambda p: ace_low(up[p][-1]))
        # The community card does not count (au 19.13, 19.21); an all-in opener passes the
        # action to the left (au 19.10, 19.17), which the turn order does by itself. Among
        # equal hands min() and max() keep the first in deal order.
        by_suit = not self.rules.showing_ties_by_position
        if opener is Opener.HIGHEST_SHOWING:
            return max(self._live, key=lambda p: showing(up[p], by_suit))
        if opener is Opener.LOWEST_SHOWING:
            return min(self._live, key=lambda p: low_showing(up[p]))
        return 0

    def _named_opener(self) -> int:
        """The opener a record names where an up card it does not name decides (else the
        first player in the hand: a round without betting needs none)."""
        named = self.openers.get(self.street)
        return named if named is not None and named in self._live else self._live[0]

    def _next_to_act(self, start: int) -> int | None:
        """The first player from ``start`` on, clockwise, who must still act; None when the
        round's betting is over."""
        live = self._live
        if len(live) <= 1:
            return None
        assert self.round is not None
        stacks, bets, current = self.stacks, self.bets, self.round.current
        reopened, acted_at = self.round.reopen_count, self.round.acted_at
        # A player with chips acts who has not acted since the last full raise or is short; one
        # player with chips, facing nothing, has nobody left to bet against. One pass, no lists.
        able = 0
        last_able = -1
        first = -1  # the first such player in deal order (-1: none; plain ints stay unboxed)
        after = -1  # the first from ``start`` on
        for p in live:
            if stacks[p]:
                able += 1
                last_able = p
                if acted_at[p] != reopened or bets[p] < current:
                    if first < 0:
                        first = p
                    if after < 0 and p >= start:
                        after = p
        if able == 1 and bets[last_able] >= current:
            return None
        if after >= 0:
            return after
        return first if first >= 0 else None

    def _advance(self) -> None:
        assert self.to_act is not None
        actor = self.to_act
        if self.restricted:
            self.restricted.pop(actor, None)  # a restriction lasts until the next action
        if self.options:
            self._settle_options()
        self.to_act = self._next_to_act(actor + 1)
        if self.to_act is None:
            self._end_round()

    def _end_round(self) -> None:
        bet = False
        for player in range(self.players):
            if self.bets[player]:
                bet = True
                self.contributed[player] = self.contributed[player] + self.bets[player]
                self.bets[player] = 0
        self.to_act = None
        self._log(ev.RoundEnd(self.street))
        if bet:
            self._return_uncalled()  # only this round's bets can be unmatched
        streets = self.rules.game.streets
        last = self.street == len(streets) - 1
        if len(self._live) <= 1:
            self._finish()
            return
        if not last and not self._shown_early:
            able = 0
            for p in self._live:
                able += self.stacks[p] > 0
            if able <= 1 and not any(s.draw for s in streets[self.street + 1 :]):
                # No betting is left: the hands are turned up before the rest is dealt (league
                # 17; PHH), then the board and the cards run out without betting. Nobody bets on
                # the last round, so its first player shows first (cardroom showdown 8).
                self.ran_out = self._shown_early = True
                self.last_aggressor = None
                self._begin_showdown()
                return
        if last:
            self._begin_showdown()
            return
        self.last_aggressor = None
        self._next_street()

    def _return_uncalled(self) -> None:
        """The part of the largest bet nobody matched goes back when the round ends (rws 4.3,
        au 8.5, qld s26(3)(a)), so that the pot is right on the next street."""
        returned = uncalled(self.contributed)
        if returned is None:
            return
        player, amount = returned
        if player in self.killed and self._live and all(self.stacks[p] for p in self._live):
            # A dead hand forfeits what it put in (league 27): with no live hand all in, every
            # live hand could have matched it, so it is dead money in the (only) pot. Against
            # an all-in hand it goes back: nobody wins more than they covered (rws 3.14.4).
            self.contributed[player] = self.contributed[player] - amount
            self.dead += amount
            self.dead_paid[player] = self.dead_paid[player] + amount
            return
        self.contributed[player] = self.contributed[player] - amount
        self.stacks[player] = self.stacks[player] + amount
        self._returned += amount
        self._log(ev.ReturnUncalled(player, amount))

    def _face_up(self) -> bool:
        """The hands are all turned up after an all-in with no betting left, and, where the
        table says so, whenever a player is all-in (league 17)."""
        return self.ran_out or (
            self.rules.all_in_face_up and any(self.stacks[p] == 0 for p in self._live)
        )

    def _begin_showdown(self) -> None:
        self.phase = Phase.SHOWDOWN
        self._called = {}
        levels: list[int] = []  # a list and a loop: compiled, a set and sorted() cost more
        for p in self._live:
            if self.contributed[p] not in levels:
                levels.append(self.contributed[p])
        levels.sort()
        self._levels = levels
        # Every hand not yet shown, and a hand turned up early that got cards since (stud).
        dealt = self.dealt
        self._steps = [
            Step(_SHOW, p)
            for p in self._showdown_order()
            if not self.mucked[p]
            and self._shown[p] < len(dealt.hole[p]) + len(dealt.up[p]) + dealt.hidden[p]
        ]
        self._showdown()

    def _showdown(self) -> None:
        """Each player in order shows or mucks. Every hand still standing is in the main pot,
        so a player left the only one standing (the others having mucked) wins unshown."""
        while self._steps:
            player = self._steps[0].player
            if not any(p != player and not self.mucked[p] for p in self._live):
                self._steps.pop(0)
                continue
            if not self.auto_show or self.dealt.hidden[player]:
                return  # the player's choice, or cards only the player can name
            self._steps.pop(0)
            self._show(player, self._worth_showing(player))
        self._after_showing()

    def _after_showing(self) -> None:
        if self._steps:
            self._showdown()
        elif self.street < len(self.rules.game.streets) - 1:
            self.last_aggressor = None  # turned up for an all-in: the rest is dealt
            self._next_street()
        elif self.auto_push:
            self._finish()
        else:
            self._steps = [Step(_PUSH)]  # the pot waits: a hand may be asked to show

    def _worth_showing(self, player: int) -> bool:
        """The usual practice: show when the hands are turned up, or when the hand is as good as
        the called hand of a pot the player is in (qld s27(4), rws 3.13.2(c)), high or low."""
        if self._face_up() or self._shown[player] >= 0:
            return True
        value = self._value(player)
        low = self._low(player)
        return any(as_good(value, low, self._called.get(pot)) for pot in self._pots_of(player))

    def _pots_of(self, player: int) -> list[int]:
        """The pots a player is eligible for, by all-in level (0 is the main pot)."""
        mine = self.contributed[player]
        return [i for i, level in enumerate(self._levels) if level <= mine]

    def _show(self, player: int, show: bool) -> None:
        if not show:
            self.mucked[player] = True
            self._log(ev.Muck(player))
            return
        cards = self.dealt.cards_of(player)
        self._shown[player] = len(cards)
        if self._shown_early and self.street < len(self.rules.game.streets) - 1:
            description = ""  # turned up before the hand is complete: named when it is
        else:
            value, low = self._value(player), self._low(player)
            for pot in self._pots_of(player):
                self._called.setdefault(pot, (value, low))
            description = self.valuation.describe(value)
        self._log(ev.Show(player, tuple(cards), description))

    def _finish(self) -> None:
        count = self.players
        dealt = self.dealt
        standing = [p for p in self._live if not self.mucked[p]]
        contested = standing if len(standing) > 1 else []
        live = [False] * count
        values: list[int | None] = [None] * count
        for player in standing:
            live[player] = True
        for player in contested:
            values[player] = self._value(player)
        lows = self.low_values(contested) if self.rules.game.low_ranking else None
        settlement = settle(
            self.contributed,
            live,
            values,
            low_values=lows,
            button=count - 1,
            cards=self.valuation.odd_chip_cards(dealt.hole, dealt.up, dealt.board, contested),
            commission=self.rules.commission,
            odd_chip=self.rules.odd_chip,
            chip=self.rules.chip_unit,
            blinds_only=self.rules.commission.exempt_blinds_only and self.blinds_only(),
            returned=self._returned,
            dead=self.dead,
        )
        self._pay(settlement, values, lows)

    def _pay(
        self, settlement: Settlement, values: list[int | None], lows: list[int | None] | None
    ) -> None:
        """Announce and pay each pot, side pots first, the main pot last (cardroom showdown 7);
        the hand is over."""
        self.phase = Phase.OVER
        self.round = None
        self._steps = []
        for index in range(len(settlement.pots) - 1, -1, -1):
            pot = settlement.pots[index]
            described = tuple(
                self.valuation.described(value, lows[w] if lows else None)
                for w in pot.winners
                if (value := values[w]) is not None
            )
            paid = pot.amount - pot.commission
            self._log(ev.Announce(index, pot.amount, pot.commission, paid, pot.winners, described))
            if pot.commission:
                self._log(ev.Rake(index, pot.commission, pot.commission_base))
            for k, winner in enumerate(pot.winners):
                self._log(ev.Collect(index, winner, pot.shares[k]))
        for player in range(self.players):
            self.stacks[player] = self.stacks[player] + settlement.payouts[player]
        if self._guarded or self.options:
            self._come_home()
        self.settlement = settlement
        self._log(ev.HandOver(tuple(self.stacks)))

    def _come_home(self) -> None:
        """At the end, chips held out of turn and chips a player treated as all-in kept back go
        back to their stacks."""
        for player in range(self.players):
            back = self.held[player] + self.behind[player]
            if back:
                self.stacks[player] = self.stacks[player] + back
                self.held[player] = self.behind[player] = 0
        self.held_actions.clear()
        self.options.clear()
        self.pending = None
        self.refresh_guard()

    def _value(self, player: int) -> int:
        return self.valuation.value(player, self.dealt.cards_of(player), self.dealt.board)

    def _low(self, player: int) -> int | None:
        if self.rules.game.low_ranking is None:
            return None
        return self.valuation.low(self.dealt.cards_of(player), self.dealt.board)

    def low_values(self, players: Iterable[int]) -> list[int | None]:
        """The qualifying low of each of ``players``, or None (split games)."""
        values: list[int | None] = [None] * self.players
        for player in players:
            values[player] = self.valuation.low(self.dealt.cards_of(player), self.dealt.board)
        return values

    def blinds_only(self) -> bool:
        """Whether nothing but the blinds was bet (au 8.6)."""
        return not any(isinstance(e, _VOLUNTARY) for e in self.events)

    def _showdown_order(self) -> list[int]:
        """The last bettor or raiser shows first, then clockwise (rws 3.13.2; qld s27(2)-(3))."""
        players = self.in_hand()
        if self.last_aggressor is not None and self.last_aggressor in players:
            first = self.last_aggressor
        elif self.rules.game.streets[-1].opener in (Opener.HIGHEST_SHOWING, Opener.LOWEST_SHOWING):
            # Stud has no button: with no bet on the last round, its opener shows first, as the
            # player being called would (au 12.4(d), 13.4(d)).
            first = self.opener if self.opener in players else players[0]
        elif self.rules.show_first is ShowFirst.BUTTON:
            first = players[-1] if (self.players - 1) in players else players[0]
        else:
            first = players[0]
        start = players.index(first)
        return players[start:] + players[:start] if start else players


def _every(cards: tuple[Card, ...], start: int, stop: int, step: int) -> tuple[Card, ...]:
    """``cards[start:stop:step]``; compiled, this is native where a stepped slice is not."""
    if start + step >= stop:
        return (cards[start],) if start < stop else ()
    if start + 2 * step >= stop:
        return cards[start], cards[start + step]  # hold'em's two hole cards, built directly
    picked: list[Card] = []
    while start < stop:
        picked.append(cards[start])
        start += step
    return tuple(picked)


def _total(amounts: list[int]) -> int:
    """``sum(amounts)``; compiled, this loop is native where ``sum`` of a list is a Python call."""
    total = 0
    for amount in amounts:
        total += amount
    return total


_VOLUNTARY: Final = (ev.Call, ev.Bet)  # what makes a hand more than its blinds (au 8.6)
