"""A hand told at the terminal, event by event, as one viewer sees it.

The table is read from the one reducer (:class:`croupier.views.Reducer`) fed the events as the
viewer may see them: a person's own seat, or the house for a game between bots. The teller
keeps no chips of its own; it only chooses the words: streets with their cards, actions, what
is shown, and who wins which pot with what, naming the kicker when the kicker decides and the
half of a split pot with its low hand, as a dealer announces them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.markup import escape

from croupier import events as ev
from croupier.betting import Legal
from croupier.bots import must_open
from croupier.cards import Card
from croupier.evaluate import Category, EvaluationError, HandValue, best_hand
from croupier.games import Game
from croupier.hand import Rules
from croupier.table import HandSummary
from croupier.views import HOUSE, HandView, Reducer

__all__ = [
    "Teller",
    "card_markup",
    "cards_markup",
    "describe_legal",
    "is_stud",
    "street_name",
]

SUIT_STYLES = ("green", "blue", "red", "bold")  # clubs, diamonds, hearts, spades: four colours
RANK_NAMES = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
    "Jack", "Queen", "King", "Ace",
)  # fmt: skip
_ACTIONS = (ev.Fold, ev.Check, ev.Call, ev.Bet, ev.BringIn)
_MOVES = (ev.PostBlind, ev.PostDead, ev.Fold, ev.Call, ev.Bet, ev.BringIn, ev.ReturnUncalled)
_KICKERS = (
    Category.HIGH_CARD, Category.ONE_PAIR, Category.TWO_PAIR, Category.THREE_OF_A_KIND,
    Category.FOUR_OF_A_KIND,
)  # fmt: skip


def card_markup(card: Card | None) -> str:
    """A card in rich markup: four colours, one per suit; ``??`` dimmed when unknown."""
    if card is None:
        return "[dim]??[/]"
    return f"[{SUIT_STYLES[card.suit]}]{card}[/]"


def cards_markup(cards: Iterable[Card | None]) -> str:
    return " ".join(card_markup(card) for card in cards)


def is_stud(game: Game) -> bool:
    """Stud deals cards face up and has no button to open from."""
    return any(street.up for street in game.streets)


def describe_legal(legal: Legal) -> str:
    """What the player may do, with amounts: ``call 40 · raise 80..1240 · fold``."""
    if must_open(legal) and legal.raise_range is not None:
        low, high = legal.raise_range
        amount = str(low) if low == high else f"{low}..{high}"
        return f"bet {amount} (you must open the betting)"
    return str(legal)


_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def street_name(game: Game, index: int) -> str:
    """A betting round's usual name: preflop/flop/turn/river, 3rd..7th street, the draw."""
    streets = game.streets
    if is_stud(game):
        cards = sum(street.hole + street.up for street in streets[: index + 1])
        return _ORDINALS.get(cards, f"{cards}th") + " street"
    draws = sum(street.draw for street in streets)
    if draws == 1:
        return "after the draw" if streets[index].draw else "before the draw"
    if draws > 1:
        done = sum(street.draw for street in streets[: index + 1])
        return "before the first draw" if not done else f"after draw {done}"
    board = sum(street.board for street in streets[: index + 1])
    if streets[0].board == 0 and len(streets) > 1 and streets[1].board == 3:
        return ("preflop", "flop", "turn", "river")[min(board - 2, 3)] if board else "preflop"
    return f"round {index + 1}"


@dataclass(frozen=True)
class _Judged:
    """A hand shown down, valued for the high and, in split games, the low."""

    high: HandValue
    low: HandValue | None  # qualifying low only


class Teller:
    """Tells one hand. ``seats``: the seat of each player in deal order; ``names`` by seat;
    ``viewer``: the player index whose eyes the story is told through, or
    :data:`~croupier.views.HOUSE` (every card, for bots alone); ``person``: the player index
    addressed as "you", if any."""

    def __init__(
        self,
        console: Console,
        rules: Rules,
        seats: Sequence[int],
        names: Mapping[int, str],
        starting: Sequence[int],
        viewer: int,
        *,
        person: int | None = None,
    ) -> None:
        self.console = console
        self.rules = rules
        self.seats = tuple(seats)
        self.names = names
        self.viewer = viewer
        self.person = person
        self.seen = Reducer(starting, viewer)
        self.stud = is_stud(rules.game)
        self.to_act: int | None = None
        self.street_pending = False  # a street began: show the table before its first action
        self.changed = True  # chips moved since the table line was last shown
        self.drew = -1  # the betting round whose draw has its header printed
        self.bring_in = False  # the round's bet so far is only a bring-in (stud)
        self._antes: list[ev.PostAnte] = []
        self._dealt: list[str] = []  # deal lines, printed under their street
        self._announce: ev.Announce | None = None
        self._pots = 0  # pots announced at the end (side pots first)
        self._judged: dict[int, _Judged | None] = {}
        self._shown: set[int] = set()

    # --- telling ---------------------------------------------------------------------------

    def who(self, player: int) -> str:
        return escape(self.names[self.seats[player]])

    def header(self, number: int, button: int | None) -> None:
        """The rule above a hand: its number, and the button where the game has one."""
        self.console.print()
        title = f"[bold]Hand #{number}[/]"
        if button is not None and not self.stud:
            title += f" · button s{button} {escape(self.names[button])}"
        self.console.rule(title)

    def tell(self, events: Iterable[ev.Event]) -> None:
        """Print what the viewer sees of ``events`` (the house's record, as the hand logs it)."""
        for event in events:
            seen = event if self.viewer == HOUSE else event.visible_to(self.viewer)
            self._tell(seen)
        self._flush_antes()

    def _tell(self, event: ev.Event) -> None:
        if not isinstance(event, ev.PostAnte):
            self._flush_antes()
        if isinstance(event, _ACTIONS) and self.street_pending:
            self.to_act = event.player
            self._show_table()
        current = self.seen.current
        self.seen.apply(event)
        if isinstance(event, _MOVES):
            self.changed = True  # the table line would read differently now
        if isinstance(event, ev.PostAnte):
            self._antes.append(event)
            return
        line = self._line(event, current)
        if line is not None:
            self.console.print(line)

    def _flush_antes(self) -> None:
        if self._antes:
            self.console.print(
                "antes: " + " · ".join(f"{self.who(e.player)} {e.amount}" for e in self._antes)
            )
            self._antes = []

    def _flush_dealt(self) -> None:
        for line in self._dealt:
            self.console.print(line)
        self._dealt = []

    def _line(self, event: ev.Event, current: int) -> str | None:
        who = self.who
        if isinstance(event, ev.PostBlind | ev.PostDead):
            note = _all_in_note(getattr(event, "all_in", False))
            dead = " dead" if isinstance(event, ev.PostDead) else ""
            return f"{who(event.player)} post{self._s(event.player)}{dead} {event.amount}{note}"
        if isinstance(event, ev.DealHole):
            if any(card is not None for card in event.cards):
                verb = "are" if event.player == self.person else "is"
                self._dealt.append(f"{who(event.player)} {verb} dealt {cards_markup(event.cards)}")
            return None
        if isinstance(event, ev.StreetStart):
            line = self._street(event.index)
            self.console.print(line)
            self._flush_dealt()
            return None
        if isinstance(event, ev.BringIn):
            self.bring_in = True
            note = _all_in_note(event.all_in)
            return f"{who(event.player)} bring{self._s(event.player)} in {event.amount}{note}"
        if isinstance(event, ev.Fold):
            return f"{who(event.player)} [dim]fold{self._s(event.player)}[/]"
        if isinstance(event, ev.Check):
            return f"{who(event.player)} check{self._s(event.player)}"
        if isinstance(event, ev.Call):
            s, note = self._s(event.player), _all_in_note(event.all_in)
            return f"{who(event.player)} call{s} {event.amount}{note}"
        if isinstance(event, ev.Bet):
            return self._bet(event, current)
        if isinstance(event, ev.Draw):
            return self._draw(event)
        if isinstance(event, ev.Reshuffle):
            return f"[dim]the dealer shuffles the spent cards: {event.cards} in the stub[/]"
        if isinstance(event, ev.ReturnUncalled):
            return f"{event.amount} uncalled goes back to {who(event.player)}"
        if isinstance(event, ev.Show):
            self._shown.add(event.player)
            return self._show(event)
        if isinstance(event, ev.Muck):
            return f"{who(event.player)} [dim]muck{self._s(event.player)}[/]"
        if isinstance(event, ev.Announce):
            if self._announce is None:
                self._pots = event.pot + 1  # side pots are announced first, the main pot last
            self._announce = event
            return None
        if isinstance(event, ev.Rake):
            return f"[dim]commission {event.amount} from {self._pot(event.pot)}[/]"
        if isinstance(event, ev.Collect):
            return self._collect(event)
        return None  # up cards and the board (in the street line), burns, round ends

    def _s(self, player: int) -> str:
        return "" if player == self.person else "s"

    def _bet(self, event: ev.Bet, current: int) -> str:
        s = self._s(event.player)
        if current == 0:
            verb = f"bet{s} {event.to}"
        elif self.bring_in:
            verb = f"complete{s} to {event.to}"
        else:
            verb = f"raise{s} to {event.to}"
        self.bring_in = False
        return f"{self.who(event.player)} [bold]{verb}[/]{_all_in_note(event.all_in)}"

    def _draw(self, event: ev.Draw) -> str:
        street = self.seen.street
        header = "" if self.drew == street else "[bold cyan]── the draw[/]\n"
        self.drew = street
        who, s = self.who(event.player), self._s(event.player)
        if not event.discarded:
            return f"{header}{who} stand{s} pat"
        if all(card is not None for card in event.discarded + event.drawn):
            return (
                f"{header}{who} discard{s} {cards_markup(event.discarded)}, "
                f"draw{s} {cards_markup(event.drawn)}"
            )
        return f"{header}{who} draw{s} {len(event.discarded)}"

    def _street(self, index: int) -> str:
        self.street_pending = True
        self.bring_in = False
        seen = self.seen
        name = street_name(self.rules.game, index)
        board = f"  {cards_markup(seen.board)}" if seen.board else ""
        line = f"[bold cyan]── {name}[/]{board}  [dim]pot[/] {self.pot}"
        if self.stud:  # every live player's up cards, all-in players' too, on every street
            ups = [
                f"{self.who(p)} [{cards_markup(seen.up[p])}]"
                for p in range(len(self.seats))
                if not seen.folded[p] and seen.up[p]
            ]
            line += "   " + " · ".join(ups)
        return line

    def _show(self, event: ev.Show) -> str:
        who, s = self.who(event.player), self._s(event.player)
        if not event.description:  # turned up for an all-in before the hand is complete
            return f"{who} turn{s} up {cards_markup(event.cards)} [yellow](all-in)[/]"
        board = self.seen.board
        shown = f"  [dim](board {cards_markup(board)})[/]" if board else ""
        return (
            f"{who} show{s} {cards_markup(event.cards)}  [bold]{escape(event.description)}[/]"
            f"{shown}"
        )

    @property
    def pot(self) -> int:
        seen = self.seen
        return sum(seen.contributed) + sum(seen.bets) + seen.dead

    def _pot(self, index: int) -> str:
        if self._pots <= 1:
            return "the pot"
        return "the main pot" if index == 0 else f"side pot {index}"

    def _show_table(self) -> None:
        self.street_pending = False
        self.changed = False
        self.console.print(self.table_line())

    def table_line(self) -> str:
        """Every player in a line: seat, name, up cards (stud), chips and this round's bet;
        the player to act highlighted."""
        seen = self.seen
        parts = []
        for player, seat in enumerate(self.seats):
            text = f"[dim]s{seat}[/] {self.who(player)}"
            if seen.up[player]:
                text += f" [{cards_markup(seen.up[player])}]"
            text += f" {seen.stacks[player]}"
            if seen.folded[player]:
                text = f"[dim]{text} folded[/]"
            elif seen.stacks[player] == 0:
                text += " [yellow]all-in[/]"
            if seen.bets[player]:
                text += f" [dim](bet {seen.bets[player]})[/]"
            if player == self.to_act:
                text = f"[reverse]{text}[/]"
            parts.append(text)
        return " · ".join(parts)

    # --- the person's turn -----------------------------------------------------------------

    def turn(self, view: HandView) -> None:
        """The person's turn: their cards, the board, the pots, what is legal."""
        self.to_act = view.viewer
        if self.changed:
            self._show_table()
        hole = [card for card in view.hole[view.viewer] if card is not None]
        mine = "  ".join(f"[dim]{i}[/] {card_markup(card)}" for i, card in enumerate(hole, 1))
        if view.up[view.viewer]:
            mine += f"  [dim]up[/] {cards_markup(view.up[view.viewer])}"
        board = f"   board {cards_markup(view.board)}" if view.board else ""
        self.console.print(f"your cards {mine}{board}   {_pots(view)}")
        if view.legal is None:
            self.console.print(
                "[bold]your draw:[/] d 2 5 (positions) or d Ah Kd to discard and draw · "
                "p to stand pat"
            )
        else:
            self.console.print(f"[bold]your turn:[/] {escape(describe_legal(view.legal))}")

    def result(self, summary: HandSummary) -> None:
        parts = []
        for seat, net in summary.net.items():
            style = "green" if net > 0 else "red" if net < 0 else "dim"
            parts.append(f"{escape(self.names[seat])} [{style}]{net:+d}[/]")
        line = "net: " + " · ".join(parts)
        if summary.commission:
            line += f" · [dim]house {summary.commission}[/]"
        self.console.print(line)
        for seat in summary.busted:
            self.console.print(f"[yellow]{escape(self.names[seat])} is out of chips[/]")

    # --- who wins what, as the dealer announces it -----------------------------------------

    def _collect(self, event: ev.Collect) -> str:
        who, s = self.who(event.player), self._s(event.player)
        won = f"[green]{who} win{s} {event.amount}[/]"
        pot = self._pot(event.pot)
        announce = self._announce
        if announce is None or event.player not in announce.winners:
            return f"{won} from {pot}"
        if not announce.hands:  # uncontested: the hand is named only if it was shown
            judged = self._judge(event.player) if event.player in self._shown else None
            named = "" if judged is None else f" with {escape(judged.high.description)}"
            return f"{won} from {pot}{named}"
        try:
            how = self._how(event.player, announce, pot)
        except EvaluationError:
            how = None
        if how is None:  # the engine's own name for the hand
            named = announce.hands[announce.winners.index(event.player)]
            return f"{won} from {pot} with {escape(named)}"
        return f"{won}{escape(how)}"

    def _how(self, player: int, announce: ev.Announce, pot: str) -> str | None:
        """What follows "wins N": the pot and the winning hand as the dealer names it, with
        the kicker when it beats a hand of the same name, and in split games which half it
        takes, with the low hand."""
        mine = self._judge(player)
        if mine is None:
            return None
        rivals = {p: j for p in self._contenders(announce) if (j := self._judge(p)) is not None}
        rivals.setdefault(player, mine)
        best_high = max(j.high.value for j in rivals.values())
        high = mine.high.description + _kicker(mine.high, [
            j.high for j in rivals.values() if j.high.value < mine.high.value
        ])  # fmt: skip
        if self.rules.game.low_ranking is None:
            return f" from {pot} with {high}"
        lows = [j.low.value for j in rivals.values() if j.low is not None]
        if not lows:
            return f" from {pot} with {high} (no qualifying low: the high hand takes it all)"
        best_low = max(lows)
        high_winners = sum(j.high.value == best_high for j in rivals.values())
        low_winners = sum(j.low is not None and j.low.value == best_low for j in rivals.values())
        halves = []
        if mine.high.value == best_high:
            share = "the high half" if high_winners == 1 else "a share of the high half"
            halves.append((share, high))
        if mine.low is not None and mine.low.value == best_low:
            share = "the low half" if low_winners == 1 else "a share of the low half"
            halves.append((share, mine.low.description))
        if not halves:
            return None
        if len(halves) == 1:
            share, hand = halves[0]
            return f", {share} of {pot}, with {hand}"
        scoop = " (a scoop)" if high_winners == low_winners == 1 else ""
        parts = " and ".join(f"{share} with {hand}" for share, hand in halves)
        return f" from {pot}{scoop}: {parts}"

    def _contenders(self, announce: ev.Announce) -> list[int]:
        """The hands still standing in the announced pot: shown and eligible for it."""
        seen = self.seen
        view = seen.snapshot(self.rules)
        pots = view.pots()
        if announce.pot < len(pots):
            eligible = pots[announce.pot].eligible
        else:
            eligible = tuple(p for p in range(len(self.seats)) if not seen.folded[p])
        return [p for p in eligible if not seen.mucked[p]]

    def _judge(self, player: int) -> _Judged | None:
        if player in self._judged:
            return self._judged[player]
        seen = self.seen
        cards = [c for c in seen.hole[player] if c is not None] + list(seen.up[player])
        game, deck = self.rules.game, self.rules.deck
        judged: _Judged | None = None
        if cards and None not in seen.hole[player]:
            used = game.hole_cards_used
            high = best_hand(cards, seen.board, game.ranking_for(deck), hole_cards_used=used)
            low = None
            if game.low_ranking is not None:
                low = best_hand(cards, seen.board, game.low_ranking, hole_cards_used=used)
                low = low if low.qualifies else None
            judged = _Judged(high, low)
        self._judged[player] = judged
        return judged


def _kicker(hand: HandValue, beaten: Sequence[HandValue]) -> str:
    """``", Ace kicker"`` when ``hand`` beats a hand of the same name only on a side card."""
    same = [other for other in beaten if other.description == hand.description]
    if not same or hand.category not in (*_KICKERS, Category.FLUSH):
        return ""
    best = max(same, key=lambda other: other.value)
    for mine, theirs in zip(hand.significant, best.significant, strict=False):
        if mine != theirs:
            name = RANK_NAMES[mine]
            return f", {name} kicker" if hand.category in _KICKERS else f", then {name}"
    return ""


def _pots(view: HandView) -> str:
    """The pot, with its side pots from the rounds before (this round's bets are not yet in a
    pot: unequal blinds are no side pot)."""
    pots = dataclasses.replace(view, bets=(0,) * view.players).pots()
    text = f"pot {view.pot}"
    if len(pots) > 1:
        parts = ["main " + str(pots[0].amount)]
        parts += [f"side {i} {pot.amount}" for i, pot in enumerate(pots[1:], start=1)]
        text += " (" + " · ".join(parts) + ")"
    if any(view.bets):
        text += f" [dim]incl. bets {sum(view.bets)}[/]"
    return text


def _all_in_note(flag: bool) -> str:
    return " [yellow](all-in)[/]" if flag else ""
