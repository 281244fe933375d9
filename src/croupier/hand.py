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

import enum
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from croupier import corrections as fix
from croupier import events as ev
from croupier.betting import BettingRound, IllegalAction, Legal, RulesError, Structure
from croupier.cards import Card, CardError
from croupier.corrections import IrregularityError
from croupier.dealt import Dealt
from croupier.deck import SECURE, Deck, Shuffler
from croupier.evaluate import Ranking
from croupier.forced import BlindKind, ForcedBets
from croupier.frozen import Frozen
from croupier.games import Opener, Street
from croupier.positions import ace_low, as_good, low_showing, showing
from croupier.pots import Settlement, settle, uncalled
from croupier.rules import Rules, ShowFirst
from croupier.valuation import Valuation

__all__ = ["Hand", "Phase", "Rules", "ShowFirst", "Step", "StepKind"]


class Phase(enum.Enum):
    DEALING = "dealing"  # a dealer step is due (explicit dealing): see Hand.next_step
    BETTING = "betting"  # a player is to check, call, bet, raise or fold
    DRAWING = "drawing"  # a player is to discard or stand pat
    SHOWDOWN = "showdown"  # a player is to show or muck (explicit showdown)
    OVER = "over"


class StepKind(enum.Enum):
    BURN = "burn"
    HOLE = "hole"  # a player's cards of this street: face down, then face up (stud)
    BOARD = "board"
    REPLACE = "replace"  # a drawing player's replacements
    SHOW = "show"  # a player shows or mucks at the showdown
    PUSH = "push"  # the pots are settled (held back while a hand may still be asked to show)


@dataclass(frozen=True)
class Step(Frozen):
    """A dealer step that is due: what, for whom (-1: nobody in particular) and how many cards
    (``up`` of them face up)."""

    kind: StepKind
    player: int = -1
    count: int = 0
    up: int = 0

    def __init__(self, kind: StepKind, player: int = -1, count: int = 0, up: int = 0) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "up", up)

    def __str__(self) -> str:
        whom = f" p{self.player + 1}" if self.player >= 0 else ""
        cards = f" {self.count} card{'s' * (self.count != 1)}" if self.count else ""
        return f"{self.kind.value}{whom}{cards}"


_BURN, _HOLE, _BOARD = StepKind.BURN, StepKind.HOLE, StepKind.BOARD
_REPLACE, _SHOW, _PUSH = StepKind.REPLACE, StepKind.SHOW, StepKind.PUSH
_DEAD = BlindKind.DEAD


class Hand:
    """A hand in progress. Players act with :meth:`fold`, :meth:`check_or_call`,
    :meth:`bet_or_raise_to`, :meth:`post_bring_in` and :meth:`draw`; ask :meth:`legal` first. The
    dealer acts with :meth:`burn`, :meth:`deal_hole`, :meth:`deal_board` and
    :meth:`show_or_muck` (or :meth:`deal_next`) when :meth:`next_step` says one is due. Every
    change appends to :attr:`events`; a refused operation raises :class:`IllegalAction` and
    changes nothing."""

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

    # --- queries ---------------------------------------------------------------------------

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
            if stacks[p]:
                able += 1
                others_can_call = others_can_call or (p != player and bets[p] + stacks[p] > current)
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

    # --- player actions --------------------------------------------------------------------

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
        if to < low:
            raise IllegalAction(
                f"raise to {to} is below the minimum {low} ({self._min_rule(structure)}); "
                f"legal: {legal}"
            )
        unit = self.rules.chip_unit
        if to % unit and to != legal.all_in:
            raise IllegalAction(
                f"raise to {to} uses chips smaller than the smallest in play ({unit}): bets "
                f"go in multiples of {unit}, all-in excepted (cardroom betting 1); legal: {legal}"
            )
        if to > high:
            all_in = self.bets[legal.player] + self.stacks[legal.player]
            betting = self.rules.betting
            limit = betting.cite("structure", structure.limit_rule)
            reason = "the stack (table stakes, au 10.1)" if high == all_in else limit
            assert self.round is not None
            if structure is Structure.FIXED and self.rules.betting.open_range and not legal.facing:
                reason = "qld s25(4): an opening bet is at most the maximum wager"
            if self.round.cap_to >= 0 and high == self.round.cap_to:
                reason = "an exposed card capped the round (au 19.29, qld s36(3))"
            if self.restricted.get(legal.player) == "min-raise-only":
                reason = "a player who bet out of turn may only make the minimum (league 22)"
            raise IllegalAction(
                f"raise to {to} is above the maximum {high}: {reason}; legal: {legal}"
            )
        return to

    def _require_turn(self) -> int:
        if self.phase is Phase.OVER:
            raise IllegalAction("the hand is over: nobody is to act")
        if self.to_act is None:
            raise IllegalAction(f"no player is to act: the dealer is to {self.next_step()}")
        if self.phase is Phase.DRAWING:
            raise IllegalAction(f"p{self.to_act + 1} is to draw, not to bet (au 11.3)")
        return self.to_act

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

    # --- the draw --------------------------------------------------------------------------

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
        elif self.auto_deal:
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

    # --- dealer operations -----------------------------------------------------------------

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
        self._bring_forward(_HOLE, player)
        step = self._due(_REPLACE if self._steps and self._steps[0].kind is _REPLACE else _HOLE)
        given = self._cards(cards, step)
        down = step.count - step.up
        self.dealt.take(given, f"p{step.player + 1}", self._discarding)
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

    # --- rulings: the corrections of croupier.corrections (docs/irregularities-spec.md §1.2) -

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

    def refresh_guard(self) -> None:
        self._guarded = (
            self.pending is not None or bool(self.held_actions) or _total(self.behind) > 0
        )

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

    # the verify/can/do triples ---------------------------------------------------------------

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

    # --- dealing ---------------------------------------------------------------------------

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
                self._give(live[k], dealt[k:down:players], dealt[down + k :: players])
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

    # --- the betting flow ------------------------------------------------------------------

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
        up = self.dealt.up
        if opener in (Opener.LEFT_OF_BLINDS, Opener.LEFT_OF_LAST_BLIND):
            last = self.forced.last_positional()
            if last is not None:
                return (last + 1) % self.players
        if opener is not Opener.LEFT_OF_BUTTON and any(self._unnamed_up[p] for p in self._live):
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
        first: int | None = None  # the first such player in deal order
        after: int | None = None  # the first from ``start`` on
        for p in live:
            if stacks[p]:
                able += 1
                last_able = p
                if acted_at[p] != reopened or bets[p] < current:
                    if first is None:
                        first = p
                    if after is None and p >= start:
                        after = p
        if able == 1 and bets[last_able] >= current:
            return None
        return after if after is not None else first

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
        self.contributed[player] = self.contributed[player] - amount
        self.stacks[player] = self.stacks[player] + amount
        self._returned += amount
        self._log(ev.ReturnUncalled(player, amount))

    # --- the showdown and the settlement ---------------------------------------------------

    def _face_up(self) -> bool:
        """The hands are all turned up after an all-in with no betting left, and, where the
        table says so, whenever a player is all-in (league 17)."""
        return self.ran_out or (
            self.rules.all_in_face_up and any(self.stacks[p] == 0 for p in self._live)
        )

    def _begin_showdown(self) -> None:
        self.phase = Phase.SHOWDOWN
        self._called = {}
        self._levels = sorted({self.contributed[p] for p in self._live})
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
        return players[start:] + players[:start]


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


def _total(amounts: list[int]) -> int:
    """``sum(amounts)``; compiled, this loop is native where ``sum`` of a list is a Python call."""
    total = 0
    for amount in amounts:
        total += amount
    return total


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


_VOLUNTARY = (ev.Call, ev.Bet)  # what makes a hand more than its blinds (au 8.6)


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
