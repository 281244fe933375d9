"""PokerStars-style text hand histories for hold'em and Omaha, written from a hand's events.

The layout follows the files that tracking software reads: a header, seats, posts, the
``*** HOLE CARDS ***`` / ``*** FLOP ***`` / ``*** TURN ***`` / ``*** RIVER ***`` sections,
``Uncalled bet (...) returned``, ``collected ... from pot``, ``*** SHOW DOWN ***`` and a
``*** SUMMARY ***`` with the total pot and the rake. It is written from the house's side:
every player's hole cards appear under ``Dealt to``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from croupier import events as ev
from croupier.betting import Structure
from croupier.cards import format_cards
from croupier.hand import Hand, Phase

__all__ = ["TextHistoryError", "format_pokerstars"]

_GAMES = {"holdem": "Hold'em", "omaha": "Omaha"}
_LIMITS = {Structure.NO_LIMIT: "No Limit", Structure.POT: "Pot Limit", Structure.FIXED: "Limit"}
_STREETS = {0: "FLOP", 3: "TURN", 4: "RIVER"}  # by the cards already on the board


class TextHistoryError(ValueError):
    """A hand this format cannot describe (another game, an unfinished hand)."""


def format_pokerstars(
    hand: Hand,
    *,
    names: Sequence[str] | None = None,
    seats: Sequence[int] | None = None,
    hand_id: int = 1,
    table: str = "croupier",
    when: datetime | None = None,
) -> str:
    """The hand as PokerStars-style text. ``names`` and ``seats`` are per player in deal
    order (default ``p1``.., seats 1..n); the button is the last player."""
    _check(hand)
    count = hand.players
    names = list(names) if names is not None else [f"p{p + 1}" for p in range(count)]
    seats = list(seats) if seats is not None else list(range(1, count + 1))
    writer = _Writer(hand, names, seats)
    stamp = (when or datetime(2026, 1, 1)).strftime("%Y/%m/%d %H:%M:%S")
    rules = hand.rules
    limit = _LIMITS[rules.betting.structures[0]]
    stakes = "/".join(str(b) for b in rules.blinds) or str(rules.betting.small_bet)
    lines = [
        f"PokerStars Hand #{hand_id}:  {_GAMES[rules.game.name]} {limit} ({stakes}) - {stamp} ET",
        f"Table '{table}' {count}-max Seat #{seats[-1]} is the button",
        *(f"Seat {seats[p]}: {names[p]} ({hand.starting[p]} in chips)" for p in range(count)),
    ]
    lines += writer.body()
    lines += writer.summary()
    return "\n".join(lines) + "\n"


def _check(hand: Hand) -> None:
    if hand.phase is not Phase.OVER:
        raise TextHistoryError("only a finished hand can be written as a hand history")
    game = hand.rules.game.name
    structures = set(hand.rules.betting.structures)
    if game not in _GAMES or len(structures) != 1 or next(iter(structures)) not in _LIMITS:
        raise TextHistoryError(
            f"PokerStars text covers no-limit, pot-limit and limit hold'em and Omaha, "
            f"not {game} with {', '.join(s.value for s in structures)} betting"
        )


class _Writer:
    def __init__(self, hand: Hand, names: list[str], seats: list[int]) -> None:
        self.hand = hand
        self.names = names
        self.seats = seats
        self.folded_on: dict[int, str] = {}
        self.shown: dict[int, str] = {}
        self.won: dict[int, int] = {}

    def body(self) -> list[str]:
        lines: list[str] = []
        names = self.names
        street = "Flop"  # where a fold happened, for the summary ("folded before Flop")
        current = 0
        board: list[str] = []
        blinds = {0: "small blind", 1: "big blind"}
        for event in self.hand.events:
            if isinstance(event, ev.PostBlind):
                kind = blinds.get(len([1 for line in lines if ": posts " in line]), "blind")
                lines.append(f"{names[event.player]}: posts {kind} {event.amount}")
                current = max(current, event.amount)
            elif isinstance(event, ev.PostAnte):
                lines.append(f"{names[event.player]}: posts the ante {event.amount}")
            elif isinstance(event, ev.DealHole):
                if "*** HOLE CARDS ***" not in lines:
                    lines.append("*** HOLE CARDS ***")
                lines.append(f"Dealt to {names[event.player]} [{format_cards(event.cards)}]")
            elif isinstance(event, ev.DealBoard):
                new = [str(c) for c in event.cards]
                name = _STREETS[len(board)]
                shown = f"[{' '.join(board)}] [{' '.join(new)}]" if board else f"[{' '.join(new)}]"
                lines.append(f"*** {name} *** {shown}")
                street = {"FLOP": "Turn", "TURN": "River", "RIVER": "Show Down"}[name]
                board += new
                current = 0
            elif isinstance(event, ev.Fold):
                lines.append(f"{names[event.player]}: folds")
                self.folded_on[event.player] = f"folded before {street}"
            elif isinstance(event, ev.Check):
                lines.append(f"{names[event.player]}: checks")
            elif isinstance(event, ev.Call):
                tail = " and is all-in" if event.all_in else ""
                lines.append(f"{names[event.player]}: calls {event.amount}{tail}")
            elif isinstance(event, ev.Bet):
                tail = " and is all-in" if event.all_in else ""
                if current == 0:
                    lines.append(f"{names[event.player]}: bets {event.to}{tail}")
                else:
                    by = event.to - current
                    lines.append(f"{names[event.player]}: raises {by} to {event.to}{tail}")
                current = event.to
            elif isinstance(event, ev.ReturnUncalled):
                lines.append(f"Uncalled bet ({event.amount}) returned to {names[event.player]}")
            elif isinstance(event, ev.Show):
                if "*** SHOW DOWN ***" not in lines:
                    lines.append("*** SHOW DOWN ***")
                cards = format_cards(event.cards)
                lines.append(f"{names[event.player]}: shows [{cards}] ({event.description})")
                self.shown[event.player] = f"showed [{cards}]"
            elif isinstance(event, ev.Muck):
                if "*** SHOW DOWN ***" not in lines:
                    lines.append("*** SHOW DOWN ***")
                lines.append(f"{names[event.player]}: mucks hand")
                self.shown[event.player] = "mucked"
            elif isinstance(event, ev.Collect):
                pots = len([e for e in self.hand.events if isinstance(e, ev.Announce)])
                where = "pot" if pots == 1 else ("main pot" if event.pot == 0 else "side pot")
                if pots > 2 and event.pot:
                    where = f"side pot-{event.pot}"
                lines.append(f"{names[event.player]} collected {event.amount} from {where}")
                self.won[event.player] = self.won.get(event.player, 0) + event.amount
        return lines

    def summary(self) -> list[str]:
        hand = self.hand
        announced = [e for e in hand.events if isinstance(e, ev.Announce)]
        announced.sort(key=lambda e: e.pot)
        total = sum(e.amount for e in announced)
        rake = sum(e.commission for e in announced)
        parts = f"Total pot {total}"
        if len(announced) > 1:
            parts += f" Main pot {announced[0].amount}."
            parts += "".join(
                f" Side pot{'' if len(announced) == 2 else f'-{e.pot}'} {e.amount}."
                for e in announced[1:]
            )
        lines = ["*** SUMMARY ***", f"{parts} | Rake {rake}"]
        if hand.board:
            lines.append(f"Board [{format_cards(hand.board)}]")
        roles = {hand.players - 1: " (button)"}
        posters = [e.player for e in hand.events if isinstance(e, ev.PostBlind)]
        for player, role in zip(posters, (" (small blind)", " (big blind)"), strict=False):
            roles[player] = roles.get(player, "") + role
        for p in range(hand.players):
            who = f"Seat {self.seats[p]}: {self.names[p]}{roles.get(p, '')}"
            if p in self.folded_on:
                lines.append(f"{who} {self.folded_on[p]}")
            elif p in self.shown and self.shown[p] != "mucked":
                won = self.won.get(p)
                result = f"and won ({won})" if won else "and lost"
                lines.append(f"{who} {self.shown[p]} {result}")
            elif p in self.shown:
                lines.append(f"{who} mucked")
            else:
                lines.append(f"{who} collected ({self.won.get(p, 0)})")
        return lines
