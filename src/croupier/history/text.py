"""PokerStars hand histories: the text that tracking software reads, written from the reducer.

A hand is written as PokerStars writes its own: the header (``PokerStars Hand #N:``, the game,
the stakes or, in a tournament, ``Tournament #T, ...`` and the ``Level``, then the real date and
time in Eastern time, ``2024/03/15 21:04:11 ET``), the table and button line, the seats with
their chips, the forced bets, ``*** HOLE CARDS ***`` with ``Dealt to``, every action (``raises 20
to 40 and is all-in``), ``*** FLOP ***`` / ``*** TURN ***`` / ``*** RIVER ***``, ``Uncalled bet
(N) returned to``, ``*** SHOW DOWN ***`` with ``shows`` and ``mucks hand``, ``collected N from
pot`` (main pot, side pot, side pot-1 ...) and the ``*** SUMMARY ***`` with the total pot and rake,
the board and one result line per seat.

It is written from :class:`croupier.views.Reducer`, fed the events as ``viewer`` saw them: a
seat's own history has only that seat's hole cards (and the hands shown), as PokerStars gives a
player; :data:`~croupier.events.HOUSE` has every hand. Hold'em and Omaha (hi and hi-lo) on the
52-card deck, no-limit, pot-limit and limit: the games PokerStars deals with these words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from croupier import events as ev
from croupier.betting import Structure
from croupier.cards import Card, DeckKind, Rank
from croupier.forced import BlindKind
from croupier.hand import Hand
from croupier.views import Reducer, check_viewer, visible

__all__ = ["TextHistoryError", "Tournament", "format_pokerstars", "stamp"]

_GAMES = {"holdem": "Hold'em", "omaha": "Omaha", "omaha8": "Omaha Hi/Lo"}
_LIMITS = {Structure.NO_LIMIT: "No Limit", Structure.POT: "Pot Limit", Structure.FIXED: "Limit"}
_STREETS = ("FLOP", "TURN", "RIVER")
_FOLDED = ("before Flop", "on the Flop", "on the Turn", "on the River")
_EASTERN = ZoneInfo("America/New_York")


class TextHistoryError(ValueError):
    """A hand this format cannot describe (another game, an unfinished hand), or a bad option."""


@dataclass(frozen=True)
class Tournament:
    """A tournament hand's header: ``Tournament #number, $buy_in+$fee currency`` (a freeroll
    without a buy-in) and the blind level, written in Roman numerals as PokerStars does."""

    number: int | str
    level: int
    buy_in: Decimal | None = None
    fee: Decimal = Decimal(0)
    currency: str = "USD"


def stamp(when: datetime) -> str:
    """The date and time as PokerStars headers give them, in Eastern time:
    ``2024/03/15 9:04:11 ET`` (the hour not padded). ``when`` must say its time zone."""
    if when.tzinfo is None or when.utcoffset() is None:
        raise TextHistoryError(
            f"the hand's time needs its time zone (PokerStars writes Eastern time), got {when}"
        )
    east = when.astimezone(_EASTERN)
    return f"{east:%Y/%m/%d} {east.hour}:{east:%M:%S} ET"


def format_pokerstars(
    hand: Hand,
    *,
    viewer: int,
    when: datetime | None = None,
    hand_id: int = 1,
    table: str = "croupier",
    names: Sequence[str] | None = None,
    seats: Sequence[int] | None = None,
    max_seats: int | None = None,
    tournament: Tournament | None = None,
    chip_value: Decimal | None = None,
    currency: str = "USD",
) -> str:
    """The finished hand as PokerStars text, as ``viewer`` saw it: a player's index (their own
    history), or :data:`~croupier.events.HOUSE` (every hand). Never a default.

    ``when``: the hand's start, with its time zone (default: now). ``names``, ``seats``: per
    player in deal order (default ``p1``.., seats 1..n); the button is the last player.
    ``max_seats``: the table's size (default: the players). ``tournament``: a tournament
    header with the level; amounts are then chips. ``chip_value``: in a cash game, what one
    chip is worth in ``currency`` (amounts written ``$0.25``, ``$10``); default chips."""
    _check(hand)
    viewer = check_viewer(viewer, hand.players)
    count = hand.players
    names = list(names) if names is not None else [f"p{p + 1}" for p in range(count)]
    seats = list(seats) if seats is not None else list(range(1, count + 1))
    if len(names) != count or len(seats) != count:
        raise TextHistoryError(f"give a name and a seat for each of the {count} players")
    if tournament is not None and chip_value is not None:
        raise TextHistoryError("a tournament hand is written in chips: give no chip_value")
    money = _Money(chip_value, currency)
    writer = _Writer(hand, viewer, names, seats, money)
    body = writer.body()
    header = _header(hand, hand_id, when or datetime.now(UTC), tournament, money)
    size = max_seats if max_seats is not None else count
    lines = [
        header,
        f"Table '{table}' {size}-max Seat #{seats[-1]} is the button",
        *(
            f"Seat {seats[p]}: {names[p]} ({money(hand.starting[p])} in chips)"
            for p in range(count)
        ),
        *body,
        *writer.summary(),
    ]
    return "\n".join(lines) + "\n"


def _check(hand: Hand) -> None:
    if not hand.over:
        raise TextHistoryError("only a finished hand can be written as a hand history")
    rules = hand.rules
    name = rules.game.name
    structures = set(rules.betting.structures)
    if (
        name not in _GAMES
        or rules.deck is not DeckKind.STANDARD
        or len(structures) != 1
        or next(iter(structures)) not in _LIMITS
    ):
        raise TextHistoryError(
            "PokerStars text covers no-limit, pot-limit and limit hold'em, Omaha and Omaha "
            f"hi-lo on the 52-card deck, not {name} on {rules.deck.size} cards with "
            f"{', '.join(s.value for s in rules.betting.structures)} betting"
        )


def _header(
    hand: Hand, hand_id: int, when: datetime, tournament: Tournament | None, money: _Money
) -> str:
    rules = hand.rules
    game = f"{_GAMES[rules.game.name]} {_LIMITS[rules.betting.structures[0]]}"
    blinds = [b.amount for b in hand.forced.blinds if b.kind is BlindKind.BLIND][:2]
    if rules.betting.structures[0] is Structure.FIXED:
        small = rules.betting.small_bet
        stakes = [small, rules.betting.big_bet or 2 * small]
    else:
        stakes = blinds or list(rules.blinds[:2]) or [rules.betting.small_bet]
    when_text = stamp(when)
    if tournament is None:
        cash = "/".join(money(s) for s in stakes)
        unit = f" {money.currency}" if money.value is not None else ""
        return f"PokerStars Hand #{hand_id}:  {game} ({cash}{unit}) - {when_text}"
    if tournament.level < 1:
        raise TextHistoryError(f"a tournament level is 1 or more, got {tournament.level}")
    if tournament.buy_in is None:
        entry = "Freeroll"
    else:
        entry = f"${tournament.buy_in:.2f}+${tournament.fee:.2f} {tournament.currency}"
    level = _roman(tournament.level)
    chips = "/".join(str(s) for s in stakes)
    return (
        f"PokerStars Hand #{hand_id}: Tournament #{tournament.number}, {entry} {game} - "
        f"Level {level} ({chips}) - {when_text}"
    )


def _roman(number: int) -> str:
    out = []
    for value, letters in (
        (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
        (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
    ):  # fmt: skip
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)


class _Money:
    """Chips as written: whole chips, or ``$0.25`` at ``value`` per chip."""

    def __init__(self, value: Decimal | None, currency: str) -> None:
        if value is not None and value <= 0:
            raise TextHistoryError(f"a chip is worth more than nothing, got {value}")
        self.value = value
        self.currency = currency

    def __call__(self, chips: int) -> str:
        if self.value is None:
            return str(chips)
        dollars = chips * self.value
        if dollars == dollars.to_integral_value():
            return f"${int(dollars)}"  # PokerStars: $10, $0.50, $10.15
        return f"${dollars:.2f}"


class _Writer:
    """The body and the summary, from the events as the viewer saw them."""

    def __init__(
        self, hand: Hand, viewer: int, names: list[str], seats: list[int], money: _Money
    ) -> None:
        self.hand = hand
        self.names = names
        self.seats = seats
        self.money = money
        self.events = visible(hand.events, viewer)
        self.reducer = Reducer(hand.starting, viewer)
        self.folded_on: dict[int, str] = {}
        self.voluntary: set[int] = set()  # put chips in by choice (not a blind or ante)
        self.shown: dict[int, str] = {}
        self.mucked: set[int] = set()
        self.won: dict[int, int] = {}
        self.described: dict[int, str] = {}
        pots = [e for e in hand.events if isinstance(e, ev.Announce)]
        self.pots = len(pots)

    def body(self) -> list[str]:
        lines: list[str] = []
        names, money, reducer = self.names, self.money, self.reducer
        posted = 0
        street = 0  # 0 pre-flop, 1 flop, 2 turn, 3 river
        for event in self.events:
            current = reducer.current
            reducer.apply(event)
            match event:
                case ev.PostAnte(player=player, amount=amount):
                    lines.append(f"{names[player]}: posts the ante {money(amount)}")
                case ev.PostBlind(player=player, amount=amount):
                    kind = ("small blind", "big blind")[posted] if posted < 2 else "straddle"
                    if len(self.hand.forced.live) == 1:
                        kind = "big blind"
                    posted += 1
                    tail = " and is all-in" if event.all_in else ""
                    lines.append(f"{names[player]}: posts {kind} {money(amount)}{tail}")
                case ev.PostDead(player=player, amount=amount):
                    lines.append(f"{names[player]}: posts small & big blinds {money(amount)}")
                case ev.DealHole(player=player, cards=cards):
                    if "*** HOLE CARDS ***" not in lines:
                        lines.append("*** HOLE CARDS ***")
                    if all(card is not None for card in cards):
                        lines.append(f"Dealt to {names[player]} [{_cards(cards)}]")
                case ev.DealBoard(cards=cards):
                    if "*** HOLE CARDS ***" not in lines:
                        lines.append("*** HOLE CARDS ***")
                    before = reducer.board[: -len(cards)]
                    shown = f"[{_cards(cards)}]"
                    if before:
                        shown = f"[{_cards(before)}] {shown}"
                    lines.append(f"*** {_STREETS[min(street, 2)]} *** {shown}")
                    street += 1
                case ev.Fold(player=player):
                    lines.append(f"{names[player]}: folds")
                    self.folded_on[player] = _FOLDED[min(street, 3)]
                case ev.Check(player=player):
                    lines.append(f"{names[player]}: checks")
                case ev.Call(player=player, amount=amount):
                    self.voluntary.add(player)
                    tail = " and is all-in" if event.all_in else ""
                    lines.append(f"{names[player]}: calls {money(amount)}{tail}")
                case ev.Bet(player=player, to=to):
                    self.voluntary.add(player)
                    tail = " and is all-in" if event.all_in else ""
                    if current == 0:
                        lines.append(f"{names[player]}: bets {money(to)}{tail}")
                    else:
                        by = money(to - current)
                        lines.append(f"{names[player]}: raises {by} to {money(to)}{tail}")
                case ev.ReturnUncalled(player=player, amount=amount):
                    lines.append(f"Uncalled bet ({money(amount)}) returned to {names[player]}")
                case ev.Show(player=player, cards=cards, description=description):
                    self._showdown(lines)
                    if description:
                        self.described[player] = _description(description)
                    self.shown[player] = _cards(cards)
                    said = f" ({self.described[player]})" if player in self.described else ""
                    lines.append(f"{names[player]}: shows [{_cards(cards)}]{said}")
                case ev.Muck(player=player):
                    self._showdown(lines)
                    self.mucked.add(player)
                    lines.append(f"{names[player]}: mucks hand")
                case ev.Collect(player=player, pot=pot, amount=amount):
                    self.won[player] = self.won.get(player, 0) + amount
                    lines.append(
                        f"{names[player]} collected {money(amount)} from {self._pot_name(pot)}"
                    )
                case _:
                    pass
        return lines

    @staticmethod
    def _showdown(lines: list[str]) -> None:
        if "*** SHOW DOWN ***" not in lines:
            lines.append("*** SHOW DOWN ***")

    def _pot_name(self, pot: int) -> str:
        if self.pots == 1:
            return "pot"
        if pot == 0:
            return "main pot"
        return "side pot" if self.pots == 2 else f"side pot-{pot}"

    def summary(self) -> list[str]:
        hand, money = self.hand, self.money
        announced = sorted(
            (e for e in self.events if isinstance(e, ev.Announce)), key=lambda e: e.pot
        )
        total = sum(e.amount for e in announced)
        rake = sum(e.commission for e in announced)
        parts = f"Total pot {money(total)}"
        if len(announced) > 1:
            parts += f" Main pot {money(announced[0].amount)}."
            for e in announced[1:]:
                label = "Side pot" if len(announced) == 2 else f"Side pot-{e.pot}"
                parts += f" {label} {money(e.amount)}."
        lines = ["*** SUMMARY ***", f"{parts} | Rake {money(rake)}"]
        if self.reducer.board:
            lines.append(f"Board [{_cards(self.reducer.board)}]")
        roles = {hand.players - 1: " (button)"}
        live = [b.player for b in hand.forced.blinds if b.kind is BlindKind.BLIND]
        for player, role in zip(live, (" (small blind)", " (big blind)"), strict=False):
            roles[player] = roles.get(player, "") + role
        for p in range(hand.players):
            who = f"Seat {self.seats[p]}: {self.names[p]}{roles.get(p, '')}"
            lines.append(f"{who} {self._result(p)}")
        return lines

    def _result(self, p: int) -> str:
        won = self.won.get(p)
        if p in self.folded_on:
            early = self.folded_on[p] == _FOLDED[0]
            quiet = " (didn't bet)" if early and p not in self.voluntary else ""
            return f"folded {self.folded_on[p]}{quiet}"
        if p in self.shown:
            said = f" with {self.described[p]}" if p in self.described else ""
            if won:
                return f"showed [{self.shown[p]}] and won ({self.money(won)}){said}"
            return f"showed [{self.shown[p]}] and lost{said}"
        if p in self.mucked:
            hole = self.reducer.hole[p]
            known = [c for c in hole if c is not None]
            return f"mucked [{_cards(known)}]" if known and len(known) == len(hole) else "mucked"
        return f"collected ({self.money(won or 0)})"


def _cards(cards: Sequence[Card | None]) -> str:
    return " ".join(str(card) for card in cards if card is not None)


# PokerStars names hands in lower case, with its own words for some ("Aces full of Kings").
_RANK_NAMES = [rank.name.title() for rank in Rank]


def _description(text: str) -> str:
    """croupier's name of a hand ("Full House, Aces over Kings"), as PokerStars words it
    ("a full house, Aces full of Kings"); a hi-lo hand as ``HI: ...; LO: 8,6,5,2,A``."""
    high, _, low = text.partition("; low ")
    words = _high(high)
    if low:
        return f"HI: {words}; LO: {','.join(low.removesuffix(' low').split('-'))}"
    return words


def _high(text: str) -> str:
    kind, _, rest = text.partition(", ")
    kind = kind.lower()
    if text.startswith("Pair of "):
        return "a pair of " + text.removeprefix("Pair of ")
    if kind == "two pair":
        return f"two pair, {rest}"
    if kind == "full house":
        return "a full house, " + rest.replace(" over ", " full of ")
    if kind in ("three of a kind", "four of a kind"):
        return f"{kind}, {rest}"
    if kind == "royal flush":
        return "a Royal Flush"
    if kind == "high card":
        return f"high card {rest}"
    if kind in ("straight", "straight flush"):
        top = rest.removesuffix(" high")
        index = _RANK_NAMES.index(top) if top in _RANK_NAMES else -1
        bottom = _RANK_NAMES[index - 4] if index >= 4 else "Ace"
        return f"a {kind}, {bottom} to {top}"
    if kind == "flush":
        return f"a flush, {rest}"
    return text
