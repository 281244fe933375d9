"""One deal of poker as a pure, deterministic state machine.

Given the rules, the stacks and a deck order, the same actions always give the same events.
Players are numbered in deal order: 0 is the first seat left of the button, the last is the
button. Dealing is done by the hand itself from its deck (the dealer is the chance actor, fed by
an explicit deck so that seeded games and replays take the same path).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from croupier import events as ev
from croupier.betting import (
    Betting,
    BettingRound,
    IllegalAction,
    Legal,
    RulesError,
    Structure,
    whole,
)
from croupier.cards import Card, DeckKind, format_cards
from croupier.deck import SECURE, Deck, Shuffler
from croupier.evaluate import HandValue, Ranking, best_hand, describe_value, scalar_evaluator
from croupier.frozen import Frozen
from croupier.games import Game, Opener, Street, game
from croupier.pots import CardSet, Commission, OddChip, OddChipRule, Settlement, settle

__all__ = ["Hand", "Phase", "Rules", "ShowFirst"]


class ShowFirst(enum.Enum):
    """Who shows first at the showdown when nobody bet in the last round."""

    LEFT_OF_BUTTON = "left-of-button"  # rws 3.13.2(b); cardroom showdown
    BUTTON = "button"  # qld s27(2): the designated player, else the first active player


@dataclass(frozen=True)
class Rules(Frozen):
    """Everything that decides how one hand is played and paid (a rulebook plus table options)."""

    game: Game
    betting: Betting
    deck: DeckKind = DeckKind.STANDARD
    blinds: tuple[int, ...] = ()  # first blind, second blind, ... (au 11.1(c); qld s23)
    ante: int = 0
    heads_up_button_small_blind: bool = True  # rws 3.7, 3.8.1(a)
    over_blind: bool = False  # the voluntary over-blind is offered (au 11.1(c)(iv): draw)
    bring_in: int = 0  # stud: the opener may post this instead of a full bet (cardroom 16)
    all_in_face_up: bool = False  # every hand turned up when a player is all-in (league 17)
    commission: Commission = field(default_factory=Commission)
    odd_chip: OddChip = field(default_factory=OddChip)
    show_first: ShowFirst = ShowFirst.LEFT_OF_BUTTON
    # Equal stud hands showing: the suit of the highest card decides (au 12.3(b), 13.3(b)), or
    # with this set, the first of them in deal order (PHH, PokerKit).
    showing_ties_by_position: bool = False
    chip_unit: int = 1  # the smallest chip in play: pots split to it (au 11.4(d), rws 4.5)

    def __post_init__(self) -> None:
        object.__setattr__(self, "game", game(self.game))
        for blind in self.blinds:
            whole(blind, "a blind", 0)  # 0: a position that posts nothing (a dead blind)
        whole(self.ante, "the ante", 0)
        whole(self.bring_in, "the bring-in", 0)
        whole(self.chip_unit, "the smallest chip (chip_unit)", 1)
        if self.bring_in >= self.betting.small_bet and self.bring_in:
            raise RulesError(
                f"the bring-in ({self.bring_in}) must be less than the minimum bet "
                f"({self.betting.small_bet}) (cardroom betting 16)"
            )
        rounds = len(self.game.streets)
        if len(self.betting.structures) not in (1, rounds):
            raise RulesError(
                f"{self.game.name} has {rounds} betting rounds: give one structure for all, "
                f"or one per round, not {len(self.betting.structures)}"
            )


class Phase(enum.Enum):
    BETTING = "betting"
    OVER = "over"


class Hand:
    """A hand in progress. Act with :meth:`fold`, :meth:`check_or_call`, :meth:`bet_or_raise_to`;
    ask :meth:`legal` first. Every change appends to :attr:`events`."""

    def __init__(
        self,
        rules: Rules,
        stacks: Sequence[int],
        deck: Deck | None = None,
        *,
        shuffler: Shuffler | None = None,
        over_blind: bool = False,
    ) -> None:
        """``over_blind``: the player left of the last blind chooses to post the voluntary
        over-blind, double the last blind (au 11.1(c)(iv), 11.5(c))."""
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
        self.deck = deck if deck is not None else Deck.shuffled(rules.deck, self.shuffler)
        if self.deck.kind is not rules.deck:
            raise IllegalAction(
                f"the rules call for a {rules.deck.size}-card deck, got {self.deck.kind.size}"
            )
        self.ranking = rules.game.ranking_for(rules.deck)
        self._evaluate: Callable[[Sequence[Card]], int] | None = None  # at the showdown
        self._hands: dict[int, HandValue] = {}  # described hands, filled at the showdown
        self.starting = tuple(stacks)
        self.stacks = list(stacks)
        self.bets = [0] * count  # this round
        self.contributed = [0] * count  # earlier rounds and antes
        self.folded = [False] * count
        self._live = list(range(count))
        self._legal: Legal | None = None
        self.hole: list[list[Card]] = [[] for _ in range(count)]  # face down
        self.up: list[list[Card]] = [[] for _ in range(count)]  # face up (stud)
        self.board: list[Card] = []
        self.burned: list[Card] = []
        self.discards: list[Card] = []  # this draw's discards, in order (au 11.3(b))
        self.drawing = False  # players are drawing (to_act is the player to draw)
        self.opener: int | None = None  # who opened the current betting round
        self.over_blind = over_blind
        if over_blind and not rules.over_blind:
            raise IllegalAction("this table has no over-blind (au 11.1(c)(iv): draw only)")
        if over_blind and (not rules.blinds or count <= len(rules.blinds)):
            raise IllegalAction("an over-blind needs blinds and a player left of the last blind")
        self.events: list[ev.Event] = []
        self.street = -1
        self.round: BettingRound | None = None
        self.to_act: int | None = None
        self.phase = Phase.BETTING
        self.last_aggressor: int | None = None
        self.ran_out = False  # betting stopped early because all but one were all-in
        self.payouts: tuple[int, ...] = ()
        self.commission = 0
        self.settlement: Settlement | None = None  # pots, shares and commission, once over
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
        """All chips in the middle: earlier rounds and this round's bets."""
        return _total(self.contributed) + _total(self.bets)

    def in_hand(self) -> list[int]:
        """Players who have not folded, in deal order (a copy)."""
        return list(self._live)

    def legal(self) -> Legal:
        """What the player to act may do (with amounts)."""
        if self._legal is None:
            player = self._require_turn()
            assert self.round is not None
            # Raising is pointless, and not offered, when nobody else could put in more than
            # the bet already made.
            stacks, bets, current = self.stacks, self.bets, self.round.current
            able = 0
            others_can_call = False
            for p in self._live:
                if stacks[p]:
                    able += 1
                    others_can_call = others_can_call or (
                        p != player and bets[p] + stacks[p] > current
                    )
            legal = self.round.legal(player, able, others_can_call)
            if self.rules.chip_unit > 1:
                legal = _in_units(legal, self.rules.chip_unit)
            if self._must_open(player):
                # The lowest up card opens with a bet of at least the minimum (au 12.2(a)), or
                # where the table has one, with the bring-in (cardroom betting 16).
                bring_in = min(self.rules.bring_in, self.stacks[player]) or None
                legal = replace(legal, can_fold=False, can_check=False, bring_in=bring_in)
            self._legal = legal
        return self._legal

    def _must_open(self, player: int) -> bool:
        street = self.rules.game.streets[self.street]
        assert self.round is not None
        return street.forced_open and player == self.opener and self.round.current == 0

    # --- player actions --------------------------------------------------------------------

    def fold(self) -> None:
        legal = self.legal()
        if not legal.can_fold:
            raise IllegalAction(
                f"p{legal.player + 1} may not fold: the lowest up card must open "
                f"(au 12.2(a), 13.2(a)); legal: {legal}"
            )
        self.folded[legal.player] = True
        self._live.remove(legal.player)
        self._log(ev.Fold(legal.player))
        self._advance()

    def check_or_call(self) -> None:
        legal = self.legal()
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

    def bet_or_raise_to(self, amount: int) -> None:
        legal = self.legal()
        assert self.round is not None
        self.verify_bet_or_raise_to(amount, legal)
        added, full = self.round.raise_to(legal.player, amount)
        self.last_aggressor = legal.player
        all_in = self.stacks[legal.player] == 0
        self._log(ev.Bet(legal.player, amount, added, all_in, full))
        self._advance()

    def post_bring_in(self) -> None:
        """The stud opener posts the bring-in rather than a full bet (cardroom betting 16)."""
        legal = self.legal()
        assert self.round is not None
        if legal.bring_in is None:
            raise IllegalAction(
                f"p{legal.player + 1} has no bring-in to post: only the opener of a stud "
                f"table with a bring-in may (cardroom betting 16); legal: {legal}"
            )
        added = self.round.bring_in(legal.player, legal.bring_in)
        self._log(ev.BringIn(legal.player, added, self.stacks[legal.player] == 0))
        self._advance()

    def verify_bet_or_raise_to(self, amount: int, legal: Legal | None = None) -> None:
        legal = legal or self.legal()
        structure = self.rules.betting.structure(self.street)
        if legal.raise_range is None:
            raise IllegalAction(
                f"p{legal.player + 1} may not bet or raise now{self._why_not(legal)}; "
                f"legal: {legal}"
            )
        low, high = legal.raise_range
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise IllegalAction(f"a bet must be a whole number of chips, got {amount!r}")
        if amount < low:
            raise IllegalAction(
                f"raise to {amount} is below the minimum {low} ({self._min_rule(structure)}); "
                f"legal: {legal}"
            )
        unit = self.rules.chip_unit
        if amount % unit and amount != legal.all_in:
            raise IllegalAction(
                f"raise to {amount} uses chips smaller than the smallest in play ({unit}): bets "
                f"go in multiples of {unit}, all-in excepted (cardroom betting 1); legal: {legal}"
            )
        if amount > high:
            all_in = self.bets[legal.player] + self.stacks[legal.player]
            reason = "the stack (table stakes, au 10.1)" if high == all_in else structure.limit_rule
            raise IllegalAction(
                f"raise to {amount} is above the maximum {high}: {reason}; legal: {legal}"
            )

    def can_bet_or_raise_to(self, amount: int) -> bool:
        try:
            self.verify_bet_or_raise_to(amount)
        except IllegalAction:
            return False
        return True

    # --- the flow --------------------------------------------------------------------------

    def _require_turn(self) -> int:
        if self.phase is Phase.OVER or self.to_act is None:
            raise IllegalAction("the hand is over: nobody is to act")
        if self.drawing:
            raise IllegalAction(f"p{self.to_act + 1} is to draw, not to bet (au 11.3)")
        return self.to_act

    def _why_not(self, legal: Legal) -> str:
        assert self.round is not None
        if self.round.capped(sum(self.stacks[p] > 0 for p in self._live)):
            cap = self.rules.betting.cap_for(self.street)
            return f": the round is capped at a bet and {cap} raises (au 11.5(g))"
        current = self.round.current
        if not any(
            self.bets[p] + self.stacks[p] > current for p in self._live if p != legal.player
        ):
            return ": nobody else could call a raise (all the others are all-in or matched)"
        if self.round.acted_at[legal.player] >= self.round.reopen_count:
            return ": a short all-in does not reopen the betting (au 10.2, rws 3.14.3)"
        return ""

    def _min_rule(self, structure: Structure) -> str:
        if structure is Structure.FIXED:
            return structure.limit_rule
        return self.rules.betting.min_raise.rule

    def _post_antes(self) -> None:
        if not self.rules.ante:
            return
        for player in range(self.players):
            amount = min(self.rules.ante, self.stacks[player])
            self.stacks[player] = self.stacks[player] - amount
            self.contributed[player] = self.contributed[player] + amount
            self._log(ev.PostAnte(player, amount))

    def _next_street(self) -> None:
        self.street += 1
        street = self.rules.game.streets[self.street]
        self.round = BettingRound(
            self.rules.betting, self.street, self.bets, self.stacks, _total(self.contributed)
        )
        if street.opener is Opener.LEFT_OF_BLINDS:
            self._post_blinds()  # before the first card is dealt (au 11.1(c), 16.1; qld s23(3))
        self._deal(street)
        if street.draw and len(self._live) > 1:
            self.drawing = True  # clockwise from the left of the button (au 11.3(a))
            self.to_act = self._live[0]
            return
        self._start_betting(street.opener)

    def _start_betting(self, opener: Opener) -> None:
        self._log(ev.StreetStart(self.street))
        self.opener = self._first_to_act(opener)
        self.to_act = self._next_to_act(self.opener)
        if self.to_act is None:
            self.ran_out = self.ran_out or len(self._live) > 1
            self._end_round()

    def _deal(self, street: Street) -> None:
        per_player = street.hole + street.up
        needed = per_player * len(self._live) + street.burn
        if per_player and len(self.deck) < needed and not self._restock(needed):
            # Not enough even with the burns: one community card for all (au 12.4(a)).
            self._deal_board(1, burn=True)
            return
        if street.burn and (per_player or street.board or street.draw):
            self._burn()
        # One card at a time, clockwise from the left of the button (rws 3.6, au 12.1(c)): a
        # player's k-th card is the k-th of every ``players`` cards, the face-down ones first.
        players = len(self._live)
        dealt = self.deck.deal(per_player * players)
        face_down = street.hole * players
        for i, player in enumerate(self._live if per_player else ()):
            if street.hole:
                cards = dealt[i:face_down:players]
                self.hole[player].extend(cards)
                self._log(ev.DealHole(player, cards))
            if street.up:
                cards = dealt[face_down + i :: players]
                self.up[player].extend(cards)
                self._log(ev.DealUp(player, cards))
        if street.board:
            self._deal_board(street.board, burn=False)

    def _burn(self) -> None:
        if not self.deck:
            self._shuffle_in(self.discards)  # a draw game's deck ran out in an earlier draw
        card = self.deck.deal()[0]
        self.burned.append(card)
        self._log(ev.Burn(card))

    def _deal_board(self, count: int, *, burn: bool) -> None:
        if burn:
            self._burn()
        cards = self.deck.deal(count)
        self.board.extend(cards)
        self._log(ev.DealBoard(cards))

    def _restock(self, needed: int) -> bool:
        """Shuffle the burns back in if that completes the deal (au 12.4(a), 13.4(a))."""
        if len(self.deck) + len(self.burned) < needed:
            if len(self.deck) < 2:
                self._shuffle_in(self.burned)
            return False
        self._shuffle_in(self.burned)
        return True

    def _shuffle_in(self, cards: list[Card]) -> None:
        self.deck.restock(cards, self.shuffler)
        cards.clear()
        self._log(ev.Reshuffle(len(self.deck)))

    def _post_blinds(self) -> None:
        assert self.round is not None
        blinds = list(self.rules.blinds)
        if self.over_blind:
            blinds.append(2 * blinds[-1])  # double the last blind (au 11.5(c))
        posters = self._blind_posters(len(blinds))
        for player, amount in zip(posters, blinds, strict=False):  # fewer posters heads-up
            added = self.round.post(player, amount)
            self._log(ev.PostBlind(player, added, self.stacks[player] == 0))
        if not blinds:
            return  # a blind game played without blinds opens like any later round
        if not self.rules.betting.big_blind_option:
            self.round.acted_at[posters[-1]] = 0  # no option (qld s4(2), s24(10))
        self.round.open_with_blinds(max(blinds[: len(posters)]))

    def _blind_posters(self, count: int | None = None) -> list[int]:
        count = min(
            len(self.rules.blinds) + self.over_blind if count is None else count, self.players
        )
        if self.players == 2 and self.rules.heads_up_button_small_blind and count == 2:
            return [1, 0]  # the button posts the small blind heads-up (rws 3.7)
        return list(range(count))

    def _first_to_act(self, opener: Opener) -> int:
        """Who opens the round: after the last blind (au 11.2(a), 11.4(a); rws 3.8.1(a)),
        after the button (rws 3.9.1(a)), or by the stud cards showing (au 12.2-12.4)."""
        if opener in (Opener.LEFT_OF_BLINDS, Opener.LEFT_OF_LAST_BLIND) and self.rules.blinds:
            return (self._blind_posters()[-1] + 1) % self.players
        if opener is Opener.LOWEST_UP_CARD:
            # An all-in player does not start the betting (au 19.10, 19.17).
            able = [p for p in self._live if self.stacks[p] > 0] or self._live
            return min(able, key=lambda p: self.up[p][-1])  # rank, then suit: clubs lowest
        if opener is Opener.HIGHEST_UP_CARD:  # razz: the highest card brings it in, aces low
            able = [p for p in self._live if self.stacks[p] > 0] or self._live
            return max(able, key=lambda p: _ace_low(self.up[p][-1]))
        # The community card does not count (au 19.13, 19.21); an all-in opener passes the
        # action to the left (au 19.10, 19.17), which the turn order does by itself. Among
        # equal hands min() and max() keep the first in deal order.
        by_suit = not self.rules.showing_ties_by_position
        if opener is Opener.HIGHEST_SHOWING:
            return max(self._live, key=lambda p: _showing(self.up[p], by_suit))
        if opener is Opener.LOWEST_SHOWING:
            return min(self._live, key=lambda p: _low_showing(self.up[p]))
        return 0

    # --- the draw --------------------------------------------------------------------------

    def verify_draw(self, discards: Sequence[Card]) -> None:
        if not self.drawing or self.to_act is None:
            raise IllegalAction("nobody is drawing now: the draw comes after the first round")
        player = self.to_act
        hand = self.hole[player]
        cards = [Card(c) for c in discards]
        missing = [str(c) for c in cards if c not in hand]
        if missing or len(set(cards)) != len(cards):
            raise IllegalAction(
                f"p{player + 1} can only discard cards in their hand ({format_cards(hand)}), "
                f"not {' '.join(missing) or 'a card twice'} (au 11.3(a))"
            )

    def draw(self, discards: Sequence[Card] = ()) -> None:
        """Discard ``discards`` (none: stand pat) and receive as many from the top."""
        self.verify_draw(discards)
        assert self.to_act is not None
        player = self.to_act
        cards = [Card(c) for c in discards]
        if len(self.deck) < len(cards):
            # Only the discards of the players who drew before are shuffled (au 11.3(b)); in a
            # game of several draws, those of the earlier draws too, and then the burns.
            self._shuffle_in(self.discards)
            if len(self.deck) < len(cards):
                self._shuffle_in(self.burned)
        drawn = self.deck.deal(len(cards))
        for card in cards:
            self.hole[player].remove(card)
        self.hole[player].extend(drawn)
        self.discards.extend(cards)
        self._log(ev.Draw(player, tuple(cards), drawn))
        later = [p for p in self._live if p > player]
        if later:
            self.to_act = later[0]
            return
        self.drawing = False
        self._start_betting(self.rules.game.streets[self.street].opener)

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
        self._legal = None
        self.to_act = self._next_to_act(self.to_act + 1)
        if self.to_act is None:
            self._end_round()

    def _end_round(self) -> None:
        for player in range(self.players):
            self.contributed[player] = self.contributed[player] + self.bets[player]
            self.bets[player] = 0
        self.to_act = None
        last = self.street == len(self.rules.game.streets) - 1
        if len(self._live) <= 1 or last:
            self._finish()
        else:
            self.last_aggressor = None
            self._next_street()

    # --- showdown and settlement -----------------------------------------------------------

    def _finish(self) -> None:
        self.phase = Phase.OVER
        self.round = None
        live = [not f for f in self.folded]
        # Cards speak: every live hand is valued; who shows and who mucks is only what the
        # table sees, and a mucked hand could not have won anything.
        contested = self._live if len(self._live) > 1 else []
        values: list[int | None] = [None] * self.players
        for player in contested:
            values[player] = self._value(player)
        lows = self.low_values(contested) if self.rules.game.low_ranking else None
        settlement = settle(
            self.contributed,
            live,
            values,
            low_values=lows,
            button=self.players - 1,
            cards=self._odd_chip_cards(contested),
            commission=self.rules.commission,
            odd_chip=self.rules.odd_chip,
            chip=self.rules.chip_unit,
            blinds_only=self.rules.commission.exempt_blinds_only and self.blinds_only(),
        )
        if settlement.returned is not None:
            player, amount = settlement.returned
            self._log(ev.ReturnUncalled(player, amount))
        if contested:
            self._show_down(values, lows, [pot.eligible for pot in settlement.pots])
        # Side pots are settled first, the main pot last (cardroom showdown 7).
        for index in range(len(settlement.pots) - 1, -1, -1):
            pot = settlement.pots[index]
            described = tuple(
                self._described(value, lows[w] if lows else None)
                for w in pot.winners
                if (value := values[w]) is not None
            )
            paid = pot.amount - pot.commission
            self._log(ev.Announce(index, pot.amount, pot.commission, paid, pot.winners, described))
            if pot.commission:
                self._log(ev.Rake(index, pot.commission, pot.commission_base))
            for k, winner in enumerate(pot.winners):
                self._log(ev.Collect(index, winner, pot.shares[k]))
        for player, payout in enumerate(settlement.payouts):
            self.stacks[player] = self.stacks[player] + payout
        self.payouts = settlement.payouts
        self.commission = settlement.commission
        self.settlement = settlement
        self._log(ev.HandOver(tuple(self.stacks)))

    def _value(self, player: int) -> int:
        """The value of a player's best hand (the scalar path; no description)."""
        if self.rules.game.hole_cards_used is None:
            if self._evaluate is None:
                self._evaluate = scalar_evaluator(self.ranking)
            return self._evaluate(self.hole[player] + self.up[player] + self.board)
        return self._hand(player).value

    def _hand(self, player: int) -> HandValue:
        """A player's best hand, described (computed once, only for hands the table sees)."""
        if player not in self._hands:
            self._hands[player] = best_hand(
                self.hole[player] + self.up[player], self.board, self.ranking,
                hole_cards_used=self.rules.game.hole_cards_used,
            )  # fmt: skip
        return self._hands[player]

    def _describe(self, value: int) -> str:
        """describe_value, memoised per ranking in a list by value (its own cache costs more)."""
        known = _DESCRIPTIONS.get(self.ranking)
        if known is None:
            known = _DESCRIPTIONS[self.ranking] = []
        if value >= len(known):
            known.extend([None] * (value + 1 - len(known)))
        text = known[value]
        if text is None:
            text = known[value] = describe_value(value, self.ranking)
        return text

    def _described(self, value: int, low_value: int | None) -> str:
        """A winner's hand, with its qualifying low in split games."""
        high = self._describe(value)
        low = self.rules.game.low_ranking
        if low is None or low_value is None:
            return high
        return f"{high}; low {describe_value(low_value, low)}"

    def low_values(self, players: Iterable[int]) -> list[int | None]:
        """The qualifying low of each of ``players``, or None (split games)."""
        low = self.rules.game.low_ranking
        assert low is not None
        values: list[int | None] = [None] * self.players
        for player in players:
            hand = best_hand(
                self.hole[player] + self.up[player], self.board, low,
                hole_cards_used=self.rules.game.hole_cards_used,
            )  # fmt: skip
            values[player] = hand.value if hand.qualifies else None
        return values

    def _show_down(
        self, values: list[int | None], lows: list[int | None] | None, pots: list[tuple[int, ...]]
    ) -> None:
        """The player called shows first; each other player shows a hand equal to or better
        than the called hand of a pot they are in (qld s27(4), rws 3.13.2(c)), for the high
        or, in split games, for the low, and mucks otherwise. Hands are all turned up after an
        all-in with no betting left, and, where the table says so, whenever a player is all-in
        (league 17)."""
        all_in = any(self.stacks[p] == 0 for p in self._live)
        face_up = self.ran_out or (self.rules.all_in_face_up and all_in)
        called: dict[int, tuple[int, int | None]] = {}  # pot -> the called hand's high, low
        for player in self._showdown_order():
            mine = [i for i, eligible in enumerate(pots) if player in eligible]
            value = values[player]
            low = lows[player] if lows else None
            assert value is not None
            if face_up or any(_as_good(value, low, called.get(i)) for i in mine):
                for i in mine:
                    called.setdefault(i, (value, low))
                shown = tuple(self.hole[player] + self.up[player])
                self._log(ev.Show(player, shown, self._describe(value)))
            else:
                self._log(ev.Muck(player))

    def _odd_chip_cards(self, contested: list[int]) -> dict[str, list[tuple[Card, ...]]]:
        """The cards the odd-chip rule looks at: the whole hand, the hole cards, or the hole
        cards used (au 11.4(d), 16.5(e), 17.5(e)); none where it goes by seat."""
        rule = self.rules.odd_chip
        kind = rule.cards
        if rule.rule is OddChipRule.LEFT_OF_BUTTON and rule.low_rule is OddChipRule.LEFT_OF_BUTTON:
            return {}
        if kind is CardSet.HOLE:
            cards = [tuple(h) for h in self.hole]
        elif kind is CardSet.HOLE_USED:
            cards = [
                self._hand(p).hole_cards if p in contested else () for p in range(self.players)
            ]
        else:
            cards = [tuple(h + u + self.board) for h, u in zip(self.hole, self.up, strict=True)]
        return {kind.value: cards}

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


def _total(amounts: list[int]) -> int:
    """``sum(amounts)``; compiled, this loop is native where ``sum`` of a list is a Python call."""
    total = 0
    for amount in amounts:
        total += amount
    return total


_DESCRIPTIONS: dict[Ranking, list[str | None]] = {}  # ranking -> hand value -> its name
_VOLUNTARY = (ev.Call, ev.Bet)  # what makes a hand more than its blinds (au 8.6)


def _as_good(high: int, low: int | None, called: tuple[int, int | None] | None) -> bool:
    """Whether a hand is worth showing against the called hand: no hand called yet, a high as
    good, or a qualifying low as good (a called hand with no low loses the low to any)."""
    if called is None or high >= called[0]:
        return True
    return low is not None and (called[1] is None or low >= called[1])


def _showing(
    cards: Sequence[Card], by_suit: bool = True
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """How good the face-up cards look, for the stud opener (au 12.3(b), 13.3(b)): pairs and
    trips first, then ranks; equal ranks are split by the suit of the highest card."""
    counts, ranks = _grouped([card >> 2 for card in cards])
    top = max(c for c in cards if c >> 2 == ranks[0]) if by_suit else 0
    return counts, ranks, top


def _low_showing(cards: Sequence[Card]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """How good the face-up cards look for razz (lower is better): unpaired first, then the
    highest rank, aces low."""
    return _grouped([_ace_low(card)[0] for card in cards])


def _grouped(ranks: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Rank counts, largest first, and the ranks ordered by count then rank, highest first."""
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return tuple(sorted(counts.values(), reverse=True)), tuple(order)


def _ace_low(card: Card) -> tuple[int, int]:
    """A card's (rank, suit) with the ace below the deuce."""
    return ((card >> 2) + 1) % 13, card & 3


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
