"""A hand in play at one of a tournament's tables: what is tournament-only about it.

The tournament library (:mod:`croupier.tournament`) decides who is dealt in, the button, the
blinds and antes of the level and who is absent; the hand itself is a
:class:`~croupier.server.rooms.game_table.GameTable` dealt from that setup
(:meth:`GameTable.dealt_from`), as every call into the engine is. Here is what only a tournament
knows of it: whose decisions are the library's (a house bot, or an absent player's dead hand,
league 25, 27) and whose a person's, the players' names by seat, the protocol's ``hand`` object
of a tournament table, and the setup and moves as stored (after a restart the hand is dealt
again from its stored setup and its stored moves are applied again).

Each seat is shown only what it may see (``Event.visible_to``): its own hole cards, the board,
cards shown down; a spectator sees no hole card.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from croupier.server.records import Record
from croupier.server.rooms.game_table import GameTable, Move
from croupier.tournament import EngineHands, ForcedBets, HandSetup, SeatInHand
from croupier.wire import dumps, loads

__all__ = ["Playing", "dump_setup", "load_setup", "move_json", "move_of"]


def dump_setup(setup: HandSetup) -> str:
    """A hand's setup as JSON (it holds the seed: the deal is made again from it)."""
    return dumps(asdict(setup))


def load_setup(text: str) -> HandSetup:
    data = loads(text)
    data["seats"] = tuple(SeatInHand(**seat) for seat in data["seats"])
    data["forced"] = ForcedBets(**data["forced"])
    return HandSetup(**data)


@dataclass
class Playing:
    """A hand in play at one of a tournament's tables: ``people`` are the players who decide
    for themselves (the others are the house's bots)."""

    game: GameTable
    setup: HandSetup
    people: frozenset[str]
    hand_id: int = 0
    moves: int = 0  # stored so far
    clock_end: float | None = None  # a person's turn runs out then (time.time)
    due: float = 0.0  # a bot may act then (loop time)
    names: dict[int, str] = field(init=False)

    def __post_init__(self) -> None:
        self.names = {seat.seat: seat.player for seat in self.setup.seats}

    @classmethod
    def dealt(
        cls,
        engine: EngineHands,
        setup: HandSetup,
        people: Iterable[str],
        moves: Iterable[tuple[int, Move]] = (),
        hand_id: int = 0,
        *,
        deal: Sequence[Record] | None = None,
        records: Sequence[Sequence[Record] | None] = (),
    ) -> Playing:
        """The hand dealt from ``setup``; ``moves``: the stored ones, applied again in order,
        each giving the house records stored with it (``deal``, ``records``: None where none
        were stored; GameTable.dealt_from)."""
        stored = list(moves)
        game = GameTable.dealt_from(engine, setup, stored, deal=deal, records=records)
        return cls(game, setup, frozenset(people), hand_id, len(stored))

    @property
    def number(self) -> int:
        return self.setup.hand

    def decides_itself(self, seat: int) -> bool:
        """Whether the seat's decisions are the library's: a bot, or an absent player's dead
        hand (league 27)."""
        return self.game.absent(seat) or self.names[seat] not in self.people

    def seat_of_player(self, name: str) -> int | None:
        return next((seat for seat, player in self.names.items() if player == name), None)

    def legal(self, seat: int | None) -> dict[str, object] | None:
        """What ``seat`` may do, when it is a person's turn (the protocol's ``legal``)."""
        if seat is None or self.game.to_act() != seat or self.decides_itself(seat):
            return None
        return self.game.legal()

    def view(self, seat: int | None) -> dict[str, Any]:
        """The hand as ``seat`` may see it (the protocol's ``hand`` object)."""
        game = self.game
        to_act = game.to_act()
        return {
            "number": self.number,
            "button": self.setup.button,
            "order": list(game.order),
            "starting": [s.chips for s in self.setup.seats],
            "events": game.visible(seat),
            "pot": game.pot(),
            "to_act": to_act,
            "clock_end": self.clock_end if to_act is not None else None,
            "bank_end": None,
            "legal": self.legal(seat),
        }


def move_json(move: Move) -> str:
    return dumps(move.to_json())


def move_of(text: str) -> Move:
    data: Mapping[str, object] = loads(text)
    return Move.from_json(data)
