"""PokerStars hand histories: the text that tracking software reads, written from the reducer.

A hand is written as PokerStars writes its own: the header (``PokerStars Hand #N:``, the game,
the stakes or, in a tournament, ``Tournament #T, ...`` and the ``Level``, then the real date and
time in Eastern time, ``2024/03/15 21:04:11 ET``), the table and button line, the seats with
their chips, the forced bets, ``*** HOLE CARDS ***`` with ``Dealt to``, every action (``raises 20
to 40 and is all-in``), ``*** FLOP ***`` / ``*** TURN ***`` / ``*** RIVER ***``, ``Uncalled bet
(N) returned to``, ``*** SHOW DOWN ***`` with ``shows`` and ``mucks hand``, ``collected N from
pot`` (main pot, side pot, side pot-1 ...) and the ``*** SUMMARY ***`` with the total pot and rake,
the board and one result line per seat.

Stud (7 Card Stud, Stud Hi/Lo, Razz) is written as PokerStars writes it: the antes, ``*** 3rd
STREET ***`` .. ``*** 6th STREET ***`` and ``*** RIVER ***``, a ``Dealt to`` line for each
player's new cards (``[what they had] [the new card]``), ``brings in for``, ``completes it to``,
and a summary without a button or a board. Draw (5 Card Draw, 2-7 Single Draw, 2-7 Triple Draw,
Badugi): ``*** DEALING HANDS ***``, ``*** FIRST DRAW ***`` .. ``*** THIRD DRAW ***`` in the triple
draws (a single draw has no header), ``discards 2 cards`` or ``stands pat``, and the drawing
player's own ``Dealt to NAME [kept] [new]``. The words follow published PokerStars histories
(text_words).

It is written from :class:`croupier.views.Reducer`, fed the events as ``viewer`` saw them: a
seat's own history has only that seat's hidden cards and discards (everyone's up cards and the
hands shown), as PokerStars gives a player; :data:`~croupier.events.HOUSE` has every card.
The games PokerStars deals, on the 52-card deck, no-limit, pot-limit and limit; the others
(five card stud, Manila, short decks) are PHH's (croupier.history.phh).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from croupier import events as ev
from croupier.betting import Structure
from croupier.cards import Card, DeckKind
from croupier.forced import BlindKind
from croupier.hand import Hand
from croupier.history.text_words import (
    BOARD_STREETS,
    DRAWS,
    GAMES,
    LIMITS,
    Family,
    describe,
    family_of,
    folded_on,
    stud_street,
)
from croupier.views import Reducer, check_viewer, visible

__all__ = ["TextHistoryError", "Tournament", "format_pokerstars", "stamp"]

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
    """The date and time as PokerStars headers give them: the local time with its zone's
    abbreviation, then Eastern time in brackets, ``2024/09/22 11:32:16 CET [2024/09/22 5:32:16
    ET]`` (hours not padded); Eastern time alone when that is the local time. The local time
    is ``when``'s own zone (croupier's histories keep UTC), which ``when`` must say."""
    if when.tzinfo is None or when.utcoffset() is None:
        raise TextHistoryError(
            f"the hand's time needs its time zone (PokerStars writes Eastern time), got {when}"
        )
    east = when.astimezone(_EASTERN)
    eastern = f"{east:%Y/%m/%d} {east.hour}:{east:%M:%S} ET"
    if getattr(when.tzinfo, "key", None) == _EASTERN.key:
        return eastern
    zone = when.tzname() or "UTC"
    return f"{when:%Y/%m/%d} {when.hour}:{when:%M:%S} {zone} [{eastern}]"


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
    stud = family_of(hand.rules.game.name) is Family.STUD
    button = "" if stud else f" Seat #{seats[-1]} is the button"  # stud has no button
    lines = [
        header,
        f"Table '{table}' {size}-max{button}",
        *(
            f"Seat {seats[p]}: {names[p]} ({money(hand.starting[p])} in chips)"
            for p in sorted(range(count), key=seats.__getitem__)  # in seat order
        ),
        *body,
        *writer.summary(),
    ]
    return "\n".join(lines) + "\n"


_COVERED = (
    "hold'em, Omaha, Omaha hi-lo, 7 Card Stud, Stud hi-lo, Razz, 5 Card Draw, 2-7 single and "
    "triple draw and Badugi on the 52-card deck, no-limit, pot-limit or limit"
)


def _check(hand: Hand) -> None:
    if not hand.over:
        raise TextHistoryError("only a finished hand can be written as a hand history")
    rules = hand.rules
    name = rules.game.name
    structures = set(rules.betting.structures)
    if (
        name not in GAMES
        or rules.deck is not DeckKind.STANDARD
        or len(structures) != 1
        or next(iter(structures)) not in LIMITS
    ):
        raise TextHistoryError(
            f"PokerStars text covers the games PokerStars deals ({_COVERED}), not {name} on "
            f"{rules.deck.size} cards with {', '.join(s.value for s in rules.betting.structures)} "
            "betting (PHH covers every game croupier deals)"
        )


def _header(
    hand: Hand, hand_id: int, when: datetime, tournament: Tournament | None, money: _Money
) -> str:
    rules = hand.rules
    structure = rules.betting.structures[0]
    game = f"{GAMES[rules.game.name]} {LIMITS[structure]}"
    blinds = [b.amount for b in hand.forced.blinds if b.kind is BlindKind.BLIND][:2]
    small = rules.betting.small_bet
    if structure is Structure.FIXED:
        stakes = [small, rules.betting.big_bet or 2 * small]
    elif family_of(rules.game.name) is Family.STUD:
        stakes = [rules.bring_in or rules.ante, small]  # no blinds: the bring-in and the bet
    else:  # the table's blinds, though a hand without a small blind (dead) posts one alone
        stakes = (blinds if len(blinds) == 2 else list(rules.blinds[:2])) or blinds or [small]
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
        self.game = hand.rules.game.name
        self.family = family_of(self.game)
        self.draws = sum(street.draw for street in hand.rules.game.streets)
        self.names = names
        self.seats = seats
        self.money = money
        self.events = visible(hand.events, viewer)
        self.reducer = Reducer(hand.starting, viewer)
        self.folded_on: dict[int, str] = {}
        self.early: set[int] = set()  # folded in the first betting round
        self.bet: set[int] = set()  # put chips in beyond an ante (a blind, a bring-in, a bet)
        self.shown: dict[int, str] = {}
        self.mucked: set[int] = set()
        self.won: dict[int, int] = {}
        self.described: dict[int, str] = {}
        self.pots = len([e for e in hand.events if isinstance(e, ev.Announce)])
        # Each player's cards in dealing order as the viewer saw them (None: not seen).
        self.cards: list[list[Card | None]] = [[] for _ in range(hand.players)]
        self.dealing: dict[int, list[Card | None]] = {}  # this dealing's new cards, per player
        self.round = 0
        self.deals = 0  # dealings so far (stud: 3rd street is the first)
        self.drawing = False  # between a round's last action and the next round
        self.said_discards: set[int] = set()
        self.drew: set[int] = set()  # the players who drew in this draw
        self.no_low = False
        self.shows: list[str] = []  # the showdown's lines, written when the cards are out
        self.shown_at = -1  # where they were written
        self._lines: list[str] = []
        self.show_lines: dict[int, int] = {}  # each shows line's index in shows, for its low
        self.posts: dict[int, tuple[int, bool]] = {}  # forced blind -> (chips posted, all-in)
        self.killed: list[int] = []  # dead hands whose fold is not written yet
        self.acted = False  # a player has acted
        self.turn_at = -1  # the last mover's place in the first round's order (for dead hands)

    def body(self) -> list[str]:
        lines: list[str] = []
        names, money, reducer = self.names, self.money, self.reducer
        for event in self.events:
            current = reducer.current
            reducer.apply(event)
            if self.posts and not isinstance(event, ev.PostBlind | ev.PostDead):
                lines.extend(self._posted())
            if self.dealing and not isinstance(event, ev.DealHole | ev.DealUp):
                self._dealt(lines)
            if isinstance(event, ev.StreetStart | ev.RoundEnd):
                self.drawing = False  # the next draw is the next round's
            if self.killed:
                self._kills(lines, event)
            if isinstance(event, _ACTIONS):
                self.acted = True
            match event:
                case ev.PostAnte(player=player, amount=amount):
                    lines.append(f"{names[player]}: posts the ante {money(amount)}")
                case ev.PostBlind(player=player, amount=amount):
                    self.bet.add(player)
                    self._post(player, amount, event.all_in, dead=False)
                case ev.PostDead(player=player, amount=amount):
                    self.bet.add(player)
                    self._post(player, amount, False, dead=True)
                case (
                    ev.DealHole(player=player, cards=cards) | ev.DealUp(player=player, cards=cards)
                ):
                    self._deal(lines, player, cards)
                case ev.DealBoard(cards=cards):
                    if self.family is Family.BOARD and "*** HOLE CARDS ***" not in lines:
                        lines.append("*** HOLE CARDS ***")
                    before = reducer.board[: -len(cards)]
                    shown = f"[{_cards(cards)}]"
                    if before:
                        shown = f"[{_cards(before)}] {shown}"
                    at = {0: 0, 3: 1}.get(len(before), 2)  # flop, turn, river
                    street = "RIVER" if self.family is Family.STUD else BOARD_STREETS[at]
                    lines.append(f"*** {street} *** {shown}")
                case ev.StreetStart(index=index):
                    self.round = index
                case ev.Discards(player=player, cards=cards):
                    self._discards(lines, player, cards)
                case ev.Draw(player=player, discarded=discarded, drawn=drawn):
                    if player not in self.said_discards:
                        self._discards(lines, player, discarded)
                    self.said_discards.discard(player)
                    self._draw(lines, player, discarded, drawn)
                case ev.BringIn(player=player, amount=amount):
                    self.bet.add(player)
                    tail = " and is all-in" if event.all_in else ""
                    lines.append(f"{names[player]}: brings in for {money(amount)}{tail}")
                case ev.Fold(player=player):
                    self._fold(lines, player)
                case ev.Check(player=player):
                    lines.append(f"{names[player]}: checks")
                case ev.Call(player=player, amount=amount):
                    self.bet.add(player)
                    tail = " and is all-in" if event.all_in else ""
                    lines.append(f"{names[player]}: calls {money(amount)}{tail}")
                case ev.Bet(player=player, to=to):
                    self.bet.add(player)
                    tail = " and is all-in" if event.all_in else ""
                    if self._completes(current):
                        lines.append(f"{names[player]}: completes it to {money(to)}{tail}")
                    elif current == 0:
                        lines.append(f"{names[player]}: bets {money(to)}{tail}")
                    else:
                        by = money(to - current)
                        lines.append(f"{names[player]}: raises {by} to {money(to)}{tail}")
                case ev.HandKilled(player=player):
                    # A dead hand (league 27: an absent player's, killed at the first card) is
                    # a fold, as PokerStars writes a hand sitting out: at its turn in the first
                    # round, else where it is killed.
                    if self.round == 0 and not self.acted:
                        self.killed.append(player)
                    else:
                        self._fold(lines, player)
                case ev.ReturnUncalled(player=player, amount=amount):
                    lines.append(f"Uncalled bet ({money(amount)}) returned to {names[player]}")
                case ev.Show(player=player, cards=cards, description=description):
                    # The showdown is written once the cards are all out, as PokerStars
                    # writes it: hands turned up at an all-in come after the board.
                    if description:
                        self.described[player] = describe(self.game, description)
                    self.shown[player] = _cards(self._in_dealt_order(player, cards))
                    if player in self.show_lines:  # turned up at an all-in, now whole
                        self.shows[self.show_lines[player]] = self._shows(player)
                    else:
                        self.show_lines[player] = len(self.shows)
                        self.shows.append(self._shows(player))
                case ev.Muck(player=player):
                    self.mucked.add(player)
                    self.shows.append(f"{names[player]}: mucks hand")
                case ev.Announce(hands=hands, winners=winners):
                    self._showdown(lines)
                    self._lows(winners, hands)
                case ev.Collect(player=player, pot=pot, amount=amount):
                    self._showdown(lines)
                    self.won[player] = self.won.get(player, 0) + amount
                    lines.append(
                        f"{names[player]} collected {money(amount)} from {self._pot_name(pot)}"
                    )
                case _:
                    pass
        lines.extend(self._posted())
        self._kills(lines, ev.RoundEnd(0))
        self._showdown(lines)
        if self.no_low:
            lines.append("No low hand qualified")
        return lines

    def _fold(self, lines: list[str], player: int) -> None:
        lines.append(f"{self.names[player]}: folds")
        self.folded_on[player] = folded_on(self.family, self.round, self.draws)
        if self.round == 0:
            self.early.add(player)

    def _kills(self, lines: list[str], event: ev.Event) -> None:
        """The dead hands' folds, each at its turn in the first round (the order from the
        player left of the last blind): before the action of the first player after it, or
        once the round is over."""
        count = self.hand.players
        last = self.hand.forced.last_positional()
        opener = (last + 1) % count if last is not None else 0
        if isinstance(event, ev.DealBoard | ev.StreetStart | ev.RoundEnd | ev.Show | ev.Muck):
            due = list(self.killed)
        elif isinstance(event, _ACTIONS):
            # the turn went round from the last mover to this one: the dead hands passed on
            # the way had their turn
            at = self.turn_at
            gone = (event.player - opener - at) % count or count
            self.turn_at = (at + gone) % count
            due = [p for p in self.killed if (p - opener - at - 1) % count + 1 < gone]
        else:
            return
        for player in sorted(due, key=lambda p: (p - opener) % count):
            self.killed.remove(player)
            self._fold(lines, player)

    def _post(self, player: int, amount: int, all_in: bool, dead: bool) -> None:
        """A blind posted: kept with the hand's forced blind it is, until all are posted."""
        blinds = self.hand.forced.blinds
        for index, blind in enumerate(blinds):
            taken = index in self.posts
            if not taken and blind.player == player and (blind.kind is BlindKind.DEAD) == dead:
                self.posts[index] = (amount, all_in)
                return
        raise TextHistoryError(f"player {player} posts a blind the hand's forced bets do not give")

    def _posted(self) -> list[str]:
        """The blinds posted, as PokerStars writes them: the table's blinds first (small, big,
        then straddles), then the posts of players entering or coming back: a big blind posted
        out of position is "posts big blind", with a dead small blind "posts small & big blinds"
        (the sum: the big blind live, the small dead), a dead small blind alone "posts small
        blind"."""
        blinds = self.hand.forced.blinds
        roles = _roles(self.hand)
        positional: list[str] = []
        entering: list[str] = []
        for index in sorted(self.posts):
            blind = blinds[index]
            amount, all_in = self.posts[index]
            name = self.names[blind.player]
            if blind.kind is BlindKind.BLIND:
                kind, out = roles.get(index, "straddle"), positional
            elif blind.kind is BlindKind.POSTED:
                dead = [
                    i for i in self.posts
                    if blinds[i].player == blind.player and blinds[i].kind is BlindKind.DEAD
                ]  # fmt: skip
                amount += sum(self.posts[i][0] for i in dead)
                kind, out = ("small & big blinds" if dead else "big blind"), entering
            elif any(
                b.player == blind.player and b.kind is BlindKind.POSTED for b in blinds
            ):  # said with the live big blind
                continue
            else:
                kind, out = "small blind", entering  # dead
            tail = " and is all-in" if all_in else ""
            out.append(f"{name}: posts {kind} {self.money(amount)}{tail}")
        self.posts.clear()
        return positional + entering

    def _shows(self, player: int) -> str:
        said = f" ({self.described[player]})" if player in self.described else ""
        return f"{self.names[player]}: shows [{self.shown[player]}]{said}"

    def _lows(self, winners: Sequence[int], hands: Sequence[str]) -> None:
        """A hi-lo pot's winning lows, which the hands shown did not name: the shown lines
        say them (``HI: ...; LO: 7,6,4,2,A``), or the pot had none."""
        if not hands or self.game not in ("stud7-8", "omaha8"):
            return
        if self.game == "stud7-8" and not any("; low" in h for h in hands):
            self.no_low = True  # PokerStars says so after the pot is collected
        for player, text in zip(winners, hands, strict=False):
            if "; low" in text and player in self.show_lines:
                self.described[player] = describe(self.game, text)
                self._lines[self.shown_at + self.show_lines[player]] = self._shows(player)

    def _showdown(self, lines: list[str]) -> None:
        """``*** SHOW DOWN ***`` and the hands shown and mucked, once the cards are all out;
        a hand turned up at an all-in before then (unnamed then) is named now."""
        if not self.shows or self.shown_at >= 0:
            return
        hand = self.hand
        for player in self.shown:
            if player not in self.described:
                cards = hand.dealt.cards_of(player)
                value = hand.valuation.value(player, cards, hand.dealt.board)
                self.described[player] = describe(self.game, hand.valuation.describe(value))
                self.shows[self.show_lines[player]] = self._shows(player)
        lines.append("*** SHOW DOWN ***")
        self._lines = lines
        self.shown_at = len(lines)
        lines.extend(self.shows)

    def _completes(self, current: int) -> bool:
        """A bet over the bring-in up to the full bet on stud's first street."""
        return (
            self.family is Family.STUD
            and self.round == 0
            and 0 < current < self.hand.rules.betting.small_bet
        )

    def _deal(self, lines: list[str], player: int, cards: Sequence[Card | None]) -> None:
        if self.reducer.folded[player]:
            return  # a folded seat's card goes to the muck
        if not self.dealing:
            if self.family is Family.STUD:
                lines.append(stud_street(self.deals))
            elif self.deals == 0:
                head = "*** HOLE CARDS ***" if self.family is Family.BOARD else None
                lines.append(head or "*** DEALING HANDS ***")
            self.deals += 1
        self.dealing.setdefault(player, []).extend(cards)

    def _dealt(self, lines: list[str]) -> None:
        """The ``Dealt to`` lines of a dealing, once every player has this dealing's cards:
        what the viewer saw of each, ``[what they had] [the new cards]``."""
        for player, new in self.dealing.items():
            before = [c for c in self.cards[player] if c is not None]
            self.cards[player].extend(new)
            seen = [c for c in new if c is not None]
            if not seen:
                continue  # another player's face-down card
            had = f"[{_cards(before)}] " if before else ""
            lines.append(f"Dealt to {self.names[player]} {had}[{_cards(seen)}]")
        self.dealing = {}

    def _draw_header(self, lines: list[str], player: int) -> None:
        if not self.drawing or player in self.drew:  # all in: the draws follow each other
            self.drawing = True
            self.drew = set()
            self.deals += 1
            if self.draws > 1:
                lines.append(f"*** {DRAWS[min(self.deals - 2, 2)]} DRAW ***")

    def _discards(self, lines: list[str], player: int, cards: Sequence[Card | None]) -> None:
        self._draw_header(lines, player)
        self.drew.add(player)
        self.said_discards.add(player)
        name = self.names[player]
        if not cards:
            lines.append(f"{name}: stands pat")
            return
        plural = "card" if len(cards) == 1 else "cards"
        seen = [c for c in cards if c is not None]
        which = f" [{_cards(seen)}]" if seen and len(seen) == len(cards) else ""
        lines.append(f"{name}: discards {len(cards)} {plural}{which}")

    def _draw(
        self,
        lines: list[str],
        player: int,
        discarded: Sequence[Card | None],
        drawn: Sequence[Card | None],
    ) -> None:
        held = self.cards[player]
        gone = [c for c in discarded if c is not None]
        if len(gone) == len(discarded):
            kept = [c for c in held if c not in gone]
        else:
            kept = held[: len(held) - len(discarded)]  # unseen: only the count matters
        self.cards[player] = [*kept, *drawn]
        seen = [c for c in drawn if c is not None]
        if drawn and len(seen) == len(drawn):
            had = f"[{_cards(kept)}] " if kept else ""  # all five drawn: the new hand alone
            lines.append(f"Dealt to {self.names[player]} {had}[{_cards(seen)}]")

    def _in_dealt_order(self, player: int, cards: Sequence[Card]) -> list[Card]:
        """A stud hand shown as PokerStars shows it: the cards in the order they were dealt
        (the viewer's unseen slots filled with the shown cards it had not seen)."""
        if self.family is not Family.STUD or len(self.cards[player]) != len(cards):
            return list(cards)
        known = {c for c in self.cards[player] if c is not None}
        unseen = iter([c for c in cards if c not in known])
        ordered = [c if c is not None else next(unseen, None) for c in self.cards[player]]
        if any(c is None for c in ordered) or set(ordered) != set(cards):
            return list(cards)
        return [c for c in ordered if c is not None]

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
        roles: dict[int, str] = {}
        if self.family is not Family.STUD:  # stud has no button and no blinds
            roles[hand.players - 1] = " (button)"
            blinds = hand.forced.blinds
            for index, role in _roles(hand).items():
                if role != "straddle":
                    player = blinds[index].player
                    roles[player] = roles.get(player, "") + f" ({role})"
        for p in sorted(range(hand.players), key=self.seats.__getitem__):  # in seat order
            who = f"Seat {self.seats[p]}: {self.names[p]}{roles.get(p, '')}"
            lines.append(f"{who} {self._result(p)}")
        return lines

    def _result(self, p: int) -> str:
        won = self.won.get(p)
        if p in self.folded_on:
            quiet = " (didn't bet)" if p in self.early and p not in self.bet else ""
            return f"folded {self.folded_on[p]}{quiet}"
        if p in self.shown:
            said = f" with {self.described[p]}" if p in self.described else ""
            if won:
                return f"showed [{self.shown[p]}] and won ({self.money(won)}){said}"
            return f"showed [{self.shown[p]}] and lost{said}"
        if p in self.mucked:
            known = self.cards[p]
            if known and all(c is not None for c in known):
                return f"mucked [{_cards(known)}]"
            return "mucked"
        return f"collected ({self.money(won or 0)})"


_ACTIONS = (ev.Fold, ev.Check, ev.Call, ev.Bet, ev.BringIn)


def _roles(hand: Hand) -> dict[int, str]:
    """The table's own blinds (by index in the hand's forced blinds): the small blind, the big
    blind, then straddles (an over-blind among them). A table of one blind has a big blind; a
    hand short of the table's blinds (a dead small blind) lacks the first ones."""
    table = [i for i, b in enumerate(hand.forced.blinds) if b.kind is BlindKind.BLIND]
    count = len(hand.rules.blinds) or 2
    names = ["big blind"] if count == 1 else ["small blind", "big blind"]
    names += ["straddle"] * (max(count, len(table)) - len(names))
    return dict(zip(table, names[max(0, count - len(table)) :], strict=False))


def _cards(cards: Sequence[Card | None]) -> str:
    return " ".join(str(card) for card in cards if card is not None)
