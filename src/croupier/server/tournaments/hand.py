"""One tournament hand in the server: the library deals it, the server steps it.

The tournament library (:mod:`croupier.tournament`) decides who is dealt in, the button, the
blinds and antes of the level and who is absent; :class:`~croupier.tournament.EngineHands`
deals the hand from the setup's seed with the tournament's forced bets. Here the hand is
stepped one decision at a time: a bot or an absent player through the library's
:meth:`~croupier.tournament.DealtHand.step`, a person by the move they send. Every decision is
a :class:`~croupier.server.rooms.game_table.Move`, stored before it is broadcast; after a
restart the hand is dealt again from its stored setup and its stored moves are applied again.

Each seat is shown only what it may see (``Event.visible_to``): its own hole cards, the board,
cards shown down; a spectator sees no hole card.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from croupier.betting import IllegalAction
from croupier.cards import CardError
from croupier.hand import Hand
from croupier.history import event_record
from croupier.out_of_time import out_of_time_in
from croupier.server.rooms.game_table import Move, RuleError, apply_move, legal_json, move_of_action
from croupier.server.rooms.table_spec import TableSpec
from croupier.tournament import DealtHand, EngineHands, ForcedBets, HandSetup, SeatInHand
from croupier.wire import dumps, loads

__all__ = ["Playing", "TourneyHand", "dump_setup", "load_setup", "move_json", "move_of"]

Record = dict[str, object]


def dump_setup(setup: HandSetup) -> str:
    """A hand's setup as JSON (it holds the seed: the deal is made again from it)."""
    return dumps(asdict(setup))


def load_setup(text: str) -> HandSetup:
    data = loads(text)
    data["seats"] = tuple(SeatInHand(**seat) for seat in data["seats"])
    data["forced"] = ForcedBets(**data["forced"])
    return HandSetup(**data)


class TourneyHand:
    """A hand at a tournament table: ``people`` are the players who decide for themselves
    (the others are the house's bots)."""

    def __init__(self, engine: EngineHands, setup: HandSetup, people: Iterable[str]) -> None:
        self.setup = setup
        self.dealt: DealtHand = engine.deal(setup)
        self.people = frozenset(people)
        self.order = tuple(seat.seat for seat in setup.seats)  # seat of each player, deal order
        self.moves = 0

    @classmethod
    def replayed(
        cls,
        engine: EngineHands,
        setup: HandSetup,
        people: Iterable[str],
        moves: Iterable[tuple[int, Move]],
    ) -> TourneyHand:
        """The hand dealt again from its setup, its stored moves applied again in order."""
        hand = cls(engine, setup, people)
        for seat, move in moves:
            hand.apply(seat, move)
        return hand

    # --- as a hand history reads it (croupier.server.web.histories.Dealt) ---------------------

    @property
    def hand(self) -> Hand:
        return self.dealt.hand

    @property
    def spec(self) -> TableSpec:
        """The table as a history names it: the league's no-limit hold'em at the level."""
        forced = self.setup.forced
        return TableSpec(
            game="holdem", rulebook="league", structure="no-limit",
            stakes=f"{forced.small_blind}/{forced.big_blind}", seats=self.setup.table_size,
        )  # fmt: skip

    # --- whose turn ---------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.dealt.over

    def to_act(self) -> int | None:
        """The seat to act, None once the hand is over."""
        hand = self.dealt.hand
        if hand.over or hand.to_act is None:
            return None
        return self.order[hand.to_act]

    def name_at(self, seat: int) -> str:
        return self.setup.seats[self.order.index(seat)].player

    def decides_itself(self, seat: int) -> bool:
        """Whether the seat's decisions are the library's: a bot, or an absent player's dead
        hand (league 27)."""
        player = self.order.index(seat)
        return player in self.dealt.absent or self.name_at(seat) not in self.people

    def seat_of_player(self, name: str) -> int | None:
        for seat in self.setup.seats:
            if seat.player == name:
                return seat.seat
        return None

    # --- decisions ----------------------------------------------------------------------------

    def step(self) -> tuple[int, Move]:
        """The bot (or the absent player's dead hand) to act decides and acts."""
        seat = self.to_act()
        if seat is None:
            raise RuleError("the hand is over: nobody is to act")
        action = self.dealt.step()
        self.moves += 1
        return seat, move_of_action(action)

    def apply(self, seat: int, move: Move) -> None:
        """``seat``'s move; a move the rules refuse raises :class:`RuleError` (the engine's
        words, naming the clause) and changes nothing."""
        whose = self.to_act()
        if whose is None:
            raise RuleError("the hand is over")
        if whose != seat:
            raise RuleError(
                f"it is not seat {seat}'s turn: seat {whose} is to act "
                "(league 39: each acts in turn)"
            )
        try:
            apply_move(self.dealt.hand, move)
        except (IllegalAction, CardError) as error:
            raise RuleError(str(error)) from None
        self.moves += 1

    def auto_move(self) -> Move:
        """What the clock does for a player out of time: the engine's one rule
        (:func:`croupier.out_of_time.out_of_time`)."""
        return move_of_action(out_of_time_in(self.dealt.hand))

    def stacks(self) -> dict[int, int]:
        """Every dealt seat's chips after the hand (the library's result)."""
        return dict(self.dealt.result().stacks)

    # --- what each seat sees ------------------------------------------------------------------

    def player_of(self, seat: int | None) -> int | None:
        return self.order.index(seat) if seat is not None and seat in self.order else None

    def visible(self, seat: int | None, start: int = 0) -> list[Record]:
        player = self.player_of(seat)
        return [event_record(e.visible_to(player)) for e in self.dealt.hand.events[start:]]

    def records(self, start: int) -> list[Record]:
        """The house records of the hand's events from ``start`` on (as a move stores them)."""
        return [event_record(e) for e in self.dealt.hand.events[start:]]

    def event_count(self) -> int:
        return len(self.dealt.hand.events)

    def pot(self) -> int:
        hand = self.dealt.hand
        return 0 if hand.over else int(hand.pot)

    def legal(self, seat: int | None) -> dict[str, object] | None:
        """What ``seat`` may do, when it is a person's turn (the protocol's ``legal``)."""
        hand = self.dealt.hand
        if seat is None or self.to_act() != seat or self.decides_itself(seat):
            return None
        return legal_json(hand.legal())

    def view(self, seat: int | None, number: int, clock_end: float | None) -> dict[str, Any]:
        """The hand as ``seat`` may see it (the protocol's ``hand`` object)."""
        to_act = self.to_act()
        return {
            "number": number,
            "button": self.setup.button,
            "order": list(self.order),
            "starting": [s.chips for s in self.setup.seats],
            "events": self.visible(seat),
            "pot": self.pot(),
            "to_act": to_act,
            "clock_end": clock_end if to_act is not None else None,
            "bank_end": None,
            "legal": self.legal(seat),
        }


@dataclass
class Playing:
    """A hand in play at one of a tournament's tables."""

    hand: TourneyHand
    hand_id: int
    number: int
    clock_end: float | None = None  # a person's turn runs out then (time.time)
    due: float = 0.0  # a bot may act then (loop time)


def move_json(move: Move) -> str:
    return dumps(move.to_json())


def move_of(text: str) -> Move:
    data: Mapping[str, object] = loads(text)
    return Move.from_json(data)
