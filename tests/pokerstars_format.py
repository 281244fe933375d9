"""An independent reader of PokerStars hand histories, written from the published format.

It knows the line forms of PokerStars' own histories of hold'em and Omaha, of stud (7 Card
Stud, Stud Hi/Lo, Razz: the streets, ``brings in for``, ``completes it to``, a ``Dealt to``
line with the cards a player had and the new one) and of draw (5 Card Draw, 2-7 Single and
Triple Draw, Badugi: ``discards 2 cards [..]``, ``stands pat``, ``Dealt to NAME [kept] [new]``),
as trackers parse them (the header with a cash game's stakes or a tournament's level, the
table, the seats, the posts, every action, the streets, uncalled bets, the showdown, collected
amounts and the summary with its pots, rake, board and per-seat results), and nothing of
croupier. Every line must be one of
these forms; it works out each player's chips from the lines alone and checks the summary's
arithmetic, and that a ``Dealt to`` line follows what the history showed of that player before.
Written against published histories (the samples in ``tests/test_text_history.py`` and
``tests/test_text_history_stud_draw.py``), it is then used on croupier's output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

CARD = r"[2-9TJQKA][cdhs]"
CARDS = rf"{CARD}(?: {CARD})*"
AMOUNT = r"\$?\d+(?:\.\d+)?"
DATE = r"\d{4}/\d{2}/\d{2} \d{1,2}:\d{2}:\d{2}"
GAME = (
    r"(Hold'em|Omaha Hi/Lo|Omaha|7 Card Stud Hi/Lo|7 Card Stud|Razz|5 Card Draw|"
    r"Single Draw 2-7 Lowball|Triple Draw 2-7 Lowball|Badugi) (No Limit|Pot Limit|Limit)"
)
STUD_GAMES = ("7 Card Stud Hi/Lo", "7 Card Stud", "Razz")
DRAW_GAMES = ("5 Card Draw", "Single Draw 2-7 Lowball", "Triple Draw 2-7 Lowball", "Badugi")

HEADER_CASH = re.compile(
    rf"^PokerStars (?:Hand|Game) #(\d+):\s+{GAME} \(({AMOUNT})/({AMOUNT})(?: (\w+))?\) - "
    rf"({DATE}) (\w+)(?: \[({DATE}) ET\])?$"
)
HEADER_TOURNAMENT = re.compile(
    rf"^PokerStars (?:Hand|Game) #(\d+): Tournament #(\d+), (Freeroll|\$[\d.]+\+\$[\d.]+ \w+) "
    rf"{GAME} - Level ([IVXLCDM]+) \((\d+)/(\d+)\) - ({DATE}) (\w+)(?: \[({DATE}) ET\])?$"
)
# Stud tables have no button.
TABLE = re.compile(r"^Table '(.+)' (\d+)-max(?: \(Play Money\))?(?: Seat #(\d+) is the button)?$")
SEAT = re.compile(rf"^Seat (\d+): (.+) \(({AMOUNT}) in chips(?:, {AMOUNT} bounty)?\)(.*)$")
ANTE = re.compile(rf"^(.+): posts the ante ({AMOUNT})( and is all-in)?$")
BLIND = re.compile(
    rf"^(.+): posts (small blind|big blind|small & big blinds|straddle) ({AMOUNT})"
    r"( and is all-in)?$"
)
# Stud: "[the cards they had] [the new card]"; draw: "[the cards kept] [the cards drawn]".
DEALT = re.compile(rf"^Dealt to (.+?) \[({CARDS})\](?: \[({CARDS})\])?$")
BRING_IN = re.compile(rf"^(.+): brings in for ({AMOUNT})( and is all-in)?$")
COMPLETE = re.compile(rf"^(.+): completes it to ({AMOUNT})( and is all-in)?$")
DISCARDS = re.compile(rf"^(.+): discards (\d+) cards?(?: \[({CARDS})\])?$")
PAT = re.compile(r"^(.+): stands pat$")
# The sections of stud and draw hands, which open a betting round (a single draw has none).
SECTION = re.compile(
    r"^\*\*\* (?:[3-6](?:rd|th) STREET|RIVER|DEALING HANDS|(?:FIRST|SECOND|THIRD) DRAW) \*\*\*$"
)
STREET = re.compile(rf"^\*\*\* (FLOP|TURN|RIVER) \*\*\* \[({CARDS})\](?: \[({CARDS})\])?$")
FOLD = re.compile(rf"^(.+): folds(?: \[({CARDS})\])?$")
CHECK = re.compile(r"^(.+): checks$")
CALL = re.compile(rf"^(.+): calls ({AMOUNT})( and is all-in)?$")
BET = re.compile(rf"^(.+): bets ({AMOUNT})( and is all-in)?$")
RAISE = re.compile(rf"^(.+): raises ({AMOUNT}) to ({AMOUNT})( and is all-in)?$")
UNCALLED = re.compile(rf"^Uncalled bet \(({AMOUNT})\) returned to (.+)$")
SHOWS = re.compile(rf"^(.+): shows \[({CARDS})\](?: \((.+)\))?$")
MUCKS = re.compile(r"^(.+): mucks hand$")
QUIET = re.compile(r"^(.+): doesn't show hand$")
COLLECTED = re.compile(rf"^(.+) collected ({AMOUNT}) from (pot|main pot|side pot(?:-\d+)?)$")
TOTAL = re.compile(
    rf"^Total pot ({AMOUNT})((?: Main pot {AMOUNT}\.)?(?: Side pot(?:-\d+)? {AMOUNT}\.)*) "
    rf"\| Rake ({AMOUNT})$"
)
BOARD = re.compile(rf"^Board \[({CARDS})\]$")
SEAT_RESULT = re.compile(r"^Seat (\d+): (.+)$")
RESULTS = (
    re.compile(r"^folded before Flop(?: \(didn't bet\))?$"),
    re.compile(r"^folded on the (?:Flop|Turn|River)$"),
    re.compile(r"^folded on the 3rd Street(?: \(didn't bet\))?$"),
    re.compile(r"^folded on the [4-6]th Street$"),
    re.compile(r"^folded before the Draw(?: \(didn't bet\))?$"),
    re.compile(r"^folded after the (?:1st |2nd |3rd )?Draw$"),
    re.compile(rf"^collected \(({AMOUNT})\)$"),
    re.compile(rf"^showed \[({CARDS})\] and won \(({AMOUNT})\)(?: with .+)?$"),
    re.compile(rf"^showed \[({CARDS})\] and lost(?: with .+)?$"),
    re.compile(rf"^mucked(?: \[({CARDS})\])?$"),
)
ROLE = re.compile(r" \((?:button|small blind|big blind)\)")
# Lines that move no chips and say nothing of the cards.
NOISE = re.compile(
    r'^(.+ said, ".*"|.+ (?:is sitting out|sits out|has timed out|is disconnected|is connected|'
    r"has returned|joins the table at seat #\d+|leaves the table|will be allowed to play after "
    r"the button|was removed from the table for failing to post)|Betting is capped|"
    r"No low hand qualified)$"
)


class FormatError(ValueError):
    """A line that is none of the published forms, or figures that do not add up."""


@dataclass
class ParsedHand:
    hand_id: int
    game: str
    limit: str
    stakes: tuple[Decimal, Decimal]
    when: datetime
    time_zone: str
    tournament: str | None = None
    level: int | None = None
    table: str = ""
    max_seats: int = 0
    button: int = 0
    seats: dict[str, int] = field(default_factory=dict)
    starting: dict[str, Decimal] = field(default_factory=dict)
    put: dict[str, Decimal] = field(default_factory=dict)
    returned: dict[str, Decimal] = field(default_factory=dict)
    collected: dict[str, Decimal] = field(default_factory=dict)
    dealt: dict[str, str] = field(default_factory=dict)  # the cards a player was seen to hold
    discarded: dict[str, list[str]] = field(default_factory=dict)  # the discards seen
    draws: dict[str, list[int]] = field(default_factory=dict)  # how many cards, each draw
    shown: dict[str, str] = field(default_factory=dict)
    board: list[str] = field(default_factory=list)
    total: Decimal = Decimal(0)
    rake: Decimal = Decimal(0)
    results: dict[str, str] = field(default_factory=dict)
    lines: int = 0

    def finishing(self) -> dict[str, Decimal]:
        """Each player's chips at the end, from the lines alone."""
        return {
            name: start - self.put.get(name, Decimal(0)) + self.returned.get(name, Decimal(0))
            + self.collected.get(name, Decimal(0))
            for name, start in self.starting.items()
        }  # fmt: skip


def amount(text: str) -> Decimal:
    return Decimal(text.removeprefix("$"))


def roman(text: str) -> int:
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for i, letter in enumerate(text):
        value = values[letter]
        following = values[text[i + 1]] if i + 1 < len(text) else 0
        total += -value if value < following else value
    return total


def parse(text: str) -> ParsedHand:
    lines = [line for line in text.splitlines() if line.strip()]
    hand = _header(lines[0])
    table = TABLE.match(lines[1])
    if table is None:
        raise FormatError(f"line 2 is not the table line: {lines[1]!r}")
    hand.table, hand.max_seats, hand.button = table[1], int(table[2]), int(table[3] or 0)
    street_bets: dict[str, Decimal] = {}
    big_blind = Decimal(0)  # the table's big blind, once posted
    section = "seats"
    drawing = False  # the last line was a discard (a single draw's draw has no header)
    for number, line in enumerate(lines[2:], start=3):
        hand.lines = number
        if section == "seats" and (m := SEAT.match(line)):
            hand.seats[m[2]] = int(m[1])
            hand.starting[m[2]] = amount(m[3])
            continue
        if NOISE.match(line):
            continue
        section = "play" if section == "seats" else section
        if line == "*** SUMMARY ***":
            section = "summary"
            continue
        if section == "summary":
            _summary_line(hand, line)
            continue
        if line in ("*** HOLE CARDS ***", "*** SHOW DOWN ***"):
            continue
        if SECTION.match(line):
            if line != "*** DEALING HANDS ***":  # the blinds are this round's bets
                street_bets = {}
            continue
        if (m := DISCARDS.match(line)) or (m := PAT.match(line)):
            name = _known(hand, m[1])
            if not drawing:
                street_bets = {}  # a new betting round follows the draw
            drawing = True
            count = int(m[2]) if m.re is DISCARDS else 0
            hand.draws.setdefault(name, []).append(count)
            if m.re is DISCARDS and m[3]:
                gone = m[3].split()
                if len(gone) != count or not set(gone) <= set(hand.dealt.get(name, "").split()):
                    raise FormatError(f"line {number}: {name} discards cards they did not hold")
                hand.discarded.setdefault(name, []).extend(gone)
            continue
        drawing = False
        if m := ANTE.match(line):
            _put(hand, m[1], amount(m[2]))
        elif m := BLIND.match(line):
            paid = amount(m[3])
            _put(hand, m[1], paid)
            if m[2] == "small & big blinds":  # the small blind part is dead
                # the big blind's (a limit header's stakes are its bets, the first the blind)
                paid = big_blind or hand.stakes[0 if hand.limit == "Limit" else 1]
            elif m[2] == "small blind" and big_blind:
                paid = Decimal(0)  # a missed small blind made up after the blinds: dead
            if m[2] == "big blind" and not big_blind:
                big_blind = paid
            street_bets[m[1]] = street_bets.get(m[1], Decimal(0)) + paid
        elif m := DEALT.match(line):
            _dealt(hand, _known(hand, m[1]), m[2], m[3])
        elif m := BRING_IN.match(line):
            _put(hand, m[1], amount(m[2]))
            street_bets[m[1]] = amount(m[2])
        elif m := COMPLETE.match(line):
            to = amount(m[2])
            if to <= max(street_bets.values(), default=Decimal(0)):
                raise FormatError(f"line {number}: completes to {m[2]}, no more than the bet")
            _put(hand, m[1], to - street_bets.get(m[1], Decimal(0)))
            street_bets[m[1]] = to
        elif m := STREET.match(line):
            new = (m[3] or m[2]).split()
            before = m[2].split() if m[3] else []
            if before != hand.board:
                raise FormatError(f"line {number}: the board so far is {hand.board}: {line!r}")
            hand.board += new
            street_bets = {}
        elif (m := FOLD.match(line)) or (m := CHECK.match(line)):
            _known(hand, m[1])
        elif (m := CALL.match(line)) or (m := BET.match(line)):
            _put(hand, m[1], amount(m[2]))
            street_bets[m[1]] = street_bets.get(m[1], Decimal(0)) + amount(m[2])
        elif m := RAISE.match(line):
            to = amount(m[3])
            before_bet = street_bets.get(m[1], Decimal(0))
            if to - amount(m[2]) != max(street_bets.values(), default=Decimal(0)):
                raise FormatError(f"line {number}: raises by {m[2]} to {m[3]} from another bet")
            _put(hand, m[1], to - before_bet)
            street_bets[m[1]] = to
        elif m := UNCALLED.match(line):
            name = _known(hand, m[2])
            hand.returned[name] = hand.returned.get(name, Decimal(0)) + amount(m[1])
        elif m := SHOWS.match(line):
            hand.shown[_known(hand, m[1])] = m[2]
        elif (m := MUCKS.match(line)) or (m := QUIET.match(line)):
            _known(hand, m[1])
        elif m := COLLECTED.match(line):
            name = _known(hand, m[1])
            hand.collected[name] = hand.collected.get(name, Decimal(0)) + amount(m[2])
        else:
            raise FormatError(f"line {number} is none of the PokerStars forms: {line!r}")
    _check(hand)
    return hand


def _header(line: str) -> ParsedHand:
    if m := HEADER_CASH.match(line):
        return ParsedHand(
            int(m[1]), m[2], m[3], (amount(m[4]), amount(m[5])),
            datetime.strptime(m[9] or m[7], "%Y/%m/%d %H:%M:%S"), "ET" if m[9] else m[8],
        )  # fmt: skip
    if m := HEADER_TOURNAMENT.match(line):
        return ParsedHand(
            int(m[1]), m[4], m[5], (Decimal(m[7]), Decimal(m[8])),
            datetime.strptime(m[11] or m[9], "%Y/%m/%d %H:%M:%S"), "ET" if m[11] else m[10],
            tournament=m[2], level=roman(m[6]),
        )  # fmt: skip
    raise FormatError(f"line 1 is not a PokerStars header: {line!r}")


def _dealt(hand: ParsedHand, name: str, first: str, new: str | None) -> None:
    """A ``Dealt to`` line: the cards dealt, or in stud ``[what they had] [the new card]`` (what
    they had as this history showed it), in draw ``[the cards kept] [the cards drawn]`` (the
    cards kept among those held, as many drawn as discarded)."""
    had = hand.dealt.get(name, "").split()
    draws = hand.draws.get(name, [])
    if new is None and had and hand.game in DRAW_GAMES and draws and draws[-1] == len(had):
        new, first = first, ""  # every card drawn: the new hand alone
    if new is None:
        if had:
            raise FormatError(f"line {hand.lines}: {name} is dealt again without their cards")
        hand.dealt[name] = first
        return
    kept, drawn = first.split(), new.split()
    if hand.game in STUD_GAMES:
        if kept != had:
            raise FormatError(f"line {hand.lines}: {name} had {had}, the line says {kept}")
    elif hand.game in DRAW_GAMES:
        if (
            not set(kept) <= set(had)
            or len(kept) + len(drawn) != len(had)
            or not draws
            or draws[-1] != len(drawn)
        ):
            raise FormatError(f"line {hand.lines}: {name} keeps or draws what they cannot")
    else:
        raise FormatError(f"line {hand.lines}: a {hand.game} hand deals nobody more cards")
    hand.dealt[name] = " ".join(kept + drawn)


def _known(hand: ParsedHand, name: str) -> str:
    if name not in hand.seats:
        raise FormatError(f"line {hand.lines}: {name!r} has no seat")
    return name


def _put(hand: ParsedHand, name: str, chips: Decimal) -> None:
    name = _known(hand, name)
    hand.put[name] = hand.put.get(name, Decimal(0)) + chips
    if hand.put[name] > hand.starting[name]:
        raise FormatError(f"line {hand.lines}: {name} puts in more than their chips")


def _summary_line(hand: ParsedHand, line: str) -> None:
    if m := TOTAL.match(line):
        hand.total, hand.rake = amount(m[1]), amount(m[3])
        pots = [amount(a) for a in re.findall(rf"pot(?:-\d+)? ({AMOUNT})\.", m[2])]
        if pots and sum(pots) != hand.total:
            raise FormatError(f"the pots {pots} do not add up to the total {hand.total}")
    elif m := BOARD.match(line):
        if m[1].split() != hand.board:
            raise FormatError(f"the summary's board {m[1]} is not the one dealt {hand.board}")
    elif m := SEAT_RESULT.match(line):
        seat = int(m[1])
        names = [n for n, s in hand.seats.items() if s == seat and m[2].startswith(n)]
        if not names:
            raise FormatError(f"the summary names seat {seat}, which has nobody: {line!r}")
        name = max(names, key=len)
        rest = ROLE.sub("", m[2][len(name) :]).strip()
        if "(button)" in m[2][len(name) :] and seat != hand.button:
            raise FormatError(f"seat {seat} is marked the button, the table says {hand.button}")
        for form in RESULTS:
            if r := form.match(rest):
                hand.results[name] = rest
                won = r[2] if form.groups == 2 else (r[1] if "collected" in rest else None)
                if won is not None and amount(won) != hand.collected.get(name, Decimal(0)):
                    raise FormatError(f"{name} won {won} in the summary, collected otherwise")
                return
        raise FormatError(f"a seat's result is none of the forms: {line!r}")
    else:
        raise FormatError(f"a summary line is none of the forms: {line!r}")


def _check(hand: ParsedHand) -> None:
    put = sum(hand.put.values(), Decimal(0)) - sum(hand.returned.values(), Decimal(0))
    paid = sum(hand.collected.values(), Decimal(0))
    if put != hand.total:
        raise FormatError(f"the chips put in ({put}) are not the total pot ({hand.total})")
    if paid + hand.rake != hand.total:
        raise FormatError(f"collected {paid} and rake {hand.rake} are not the pot {hand.total}")
    if set(hand.results) != set(hand.seats):
        missing = set(hand.seats) - set(hand.results)
        raise FormatError(f"the summary has no result for {sorted(missing)}")
