"""The dealer's assistant: a live table's hand, typed one short line at a time.

A :class:`DealerSession` holds one hand under a house's book. Each input is a dealer step (a
card as it is seen, ``?`` for one nobody sees), a player's action (``p3 raise 40``; typed for a
player who is not to act, it is an action out of turn), an irregularity by name (``exposed p3
Qh``: the floor's ruling with its clause), ``choose KEY`` for a choice a ruling awaits, or
``undo``. :meth:`DealerSession.enter` returns what happened; :meth:`DealerSession.status` says who
acts and for how much, the pots, who shows first and who won. The format: docs/dealer.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from croupier import events as ev
from croupier.betting import IllegalAction
from croupier.cards import Card, CardError, parse_cards
from croupier.citing import book_prefix, in_force
from croupier.deck import Deck, SeededShuffler, Shuffler
from croupier.forced import ForcedBets
from croupier.hand import Hand, Phase, Rules, StepKind
from croupier.irregularities.floor import Floor
from croupier.irregularities.model import Ruling
from croupier.irregularities.reports import REPORTS, ReportError

__all__ = ["DealerError", "DealerSession", "Outcome"]

HELP = """\
cards:    hole [pN] C C · burn C · flop C C C · turn C · river C · board C.. · card pN C [up]
          deal (the due steps: from the stub, or unseen cards) · ? for a card nobody sees
actions:  pN fold | check | call | bet N | raise N | all-in | draw C.. | pat
showdown: show pN [C..] · muck pN · push (settle the pots)
rulings:  any irregularity by name, e.g. exposed p3 Qh · misdeal · out-of-turn p5 bet 40
          choose KEY [pN] answers a choice; undo steps back one input; status; help
"""

_ACTIONS = ("fold", "check", "call", "bet", "raise", "all-in", "draw", "pat")
_STREETS = {"flop": 3, "turn": 1, "river": 1, "board": 0}


class DealerError(ValueError):
    """An input the assistant cannot read (``refused`` False) or the hand or the book does not
    allow (``refused`` True): nothing changed."""

    def __init__(self, message: str, refused: bool = False) -> None:
        super().__init__(message)
        self.refused = refused


@dataclass
class Outcome:
    """What one input did: the rulings it brought, and the events it added."""

    text: str
    rulings: list[Ruling] = field(default_factory=list)
    events: list[ev.Event] = field(default_factory=list)


class DealerSession:
    """One hand at a live table under ``floor``'s book."""

    def __init__(
        self,
        floor: Floor,
        rules: Rules,
        stacks: Sequence[int],
        *,
        stub: Sequence[Card] | None = None,
        shuffler: Shuffler | None = None,
        forced: ForcedBets | None = None,
    ) -> None:
        """``stub``: the deck's order where it is known (the engine then deals the cards itself;
        a reshuffle uses ``shuffler``); without it the dealer gives each card. ``forced``: the
        hand's forced bets as a table placed them (:class:`croupier.table.Table`: missed blinds,
        a newcomer's post, a dead button); without it the book's positional ones."""
        self.floor = floor
        self.rules = rules
        self.shuffler = shuffler or SeededShuffler(0)
        deck = None
        if stub is not None and not stub:  # "stub shuffled": the engine's own seeded shuffle
            deck = Deck.shuffled(rules.deck, self.shuffler)
        elif stub is not None:
            known = list(stub)
            deck = Deck(rules.deck, known + [c for c in rules.deck.cards if c not in known])
        self.hand = Hand(
            rules, list(stacks), deck, forced=forced, shuffler=self.shuffler,
            auto_deal=stub is not None, auto_show=False, auto_push=False,
        )  # fmt: skip
        self.history: list[int] = []  # the log's length before each input, for undo

    # --- input -----------------------------------------------------------------------------

    def enter(self, line: str) -> Outcome:
        """Apply one input line; DealerError (nothing changed) when it cannot be done."""
        words = line.split()
        if not words:
            return Outcome("")
        verb = words[0].lower()
        if verb == "undo":
            return self._undo()
        if verb in ("status", "help", "?"):
            return Outcome(HELP if verb != "status" else self.status())
        before = len(self.hand.events)
        rulings: list[Ruling] = []
        try:
            text = self._dispatch(verb, words, rulings)
        except (ReportError, CardError) as error:
            raise DealerError(str(error)) from None
        except IllegalAction as error:  # the engine's or the book's refusal, with its rule
            said = in_force(str(error), book_prefix(self.floor.book.name))  # the book in force's
            raise DealerError(said, refused=True) from None
        self.history.append(before)
        return Outcome(text, rulings, self.hand.events[before:])

    def _dispatch(self, verb: str, words: list[str], rulings: list[Ruling]) -> str:
        hand, floor = self.hand, self.floor
        if verb == "choose":
            if len(words) not in (2, 3):
                raise DealerError("choose KEY [pN]")
            player = _player(words[2]) if len(words) == 3 else None
            before = len(hand.events)
            rulings.append(floor.decide(hand, words[1], player))
            rulings.extend(_follow_ups(hand, before, rulings[-1]))
            return rulings[0].outcome
        if verb in REPORTS:
            rulings.append(floor.report(hand, " ".join(words)))
            rulings.extend(floor.follow_up(hand))
            return rulings[0].outcome
        if _is_player(verb) and len(words) >= 2 and words[1].lower() in _ACTIONS:
            return self._action(_player(verb), words[1].lower(), words[2:], rulings)
        if verb == "deal":
            return self._deal()
        if verb == "push":
            hand.push()
            return "the pots are pushed"
        if verb in ("show", "muck"):
            return self._show(verb, words[1:])
        if verb == "card":
            return self._card(words[1:])
        if verb in ("hole", "burn") or verb in _STREETS:
            return self._cards(verb, words[1:])
        raise DealerError(f"unknown input {verb!r}; type help")

    def _action(self, player: int, action: str, rest: list[str], rulings: list[Ruling]) -> str:
        hand = self.hand
        if action in ("draw", "pat"):
            if hand.to_act != player or not hand.drawing:
                raise DealerError(f"p{player + 1} is not to draw")
            hand.draw(_cards(rest) if action == "draw" else ())
            return f"p{player + 1} draws {len(rest) if action == 'draw' else 0}"
        amount = None
        if rest:
            try:
                amount = int(rest[0])
            except ValueError:
                raise DealerError(f"an amount is whole chips, not {rest[0]!r}") from None
        elif action in ("bet", "raise"):
            raise DealerError(f"{action} how much? e.g. p{player + 1} {action} 40")
        if action == "all-in":
            if hand.to_act != player:
                raise DealerError("all-in out of turn: say bet N or raise N")
            legal = hand.legal()
            if legal.raise_range is None:
                action = "call"
            else:
                action, amount = "bet", legal.raise_range[1]
        rulings.extend(self.floor.act(hand, player, action, amount))
        return f"p{player + 1} {action}{f' {amount}' if amount is not None else ''}"

    def _deal(self) -> str:
        hand = self.hand
        done = 0
        while (step := hand.next_step()) is not None and step.kind is not StepKind.PUSH:
            if step.kind is StepKind.SHOW:
                if hand.hidden[step.player]:
                    break
                hand.deal_next()
            elif hand.auto_deal:
                hand.deal_next()
            elif step.kind is StepKind.BOARD:
                break  # board cards are named
            elif step.kind is StepKind.BURN:
                hand.burn(None)
            else:
                hand.deal_hole([None] * step.count)
            done += 1
        return f"{done} dealer step(s)"

    def _cards(self, verb: str, words: list[str]) -> str:
        hand = self.hand
        player = None
        if words and _is_player(words[0]):
            player, words = _player(words[0]), words[1:]
        cards = _cards(words)
        if verb == "hole":
            hand.deal_hole(cards, player)
        elif verb == "burn":
            if len(cards) != 1:
                raise DealerError("burn one card: burn C (? for one nobody sees)")
            hand.burn(cards[0], extra=_step_not_due(hand, StepKind.BURN))
        else:
            count = _STREETS[verb]
            if count and len(cards) != count:
                raise DealerError(f"the {verb} is {count} card(s)")
            hand.deal_board(cards, extra=_step_not_due(hand, StepKind.BOARD))
        return f"{verb} {' '.join('?' if c is None else str(c) for c in cards)}"

    def _card(self, words: list[str]) -> str:
        if len(words) not in (2, 3) or not _is_player(words[0]):
            raise DealerError("card pN C [up]: one card to a named player")
        player = _player(words[0])
        card = _cards(words[1:2])[0]
        self.hand.give_card(player, card, len(words) == 3 and words[2] == "up")
        return f"p{player + 1} gets {card or '?'}"

    def _show(self, verb: str, words: list[str]) -> str:
        if not words or not _is_player(words[0]):
            raise DealerError(f"{verb} pN")
        player = _player(words[0])
        known = [c for c in _cards(words[1:]) if c is not None]
        self.hand.show_or_muck(verb == "show", known, player=player)
        return f"p{player + 1} {'shows' if verb == 'show' else 'mucks'}"

    def _undo(self) -> Outcome:
        if not self.history:
            raise DealerError("nothing to undo")
        target = self.history.pop()
        hand = self.hand
        while len(hand.events) > target:
            hand = hand.step_back()
        self.hand = hand
        return Outcome("undone: " + self.status().splitlines()[0])

    # --- what the dealer sees --------------------------------------------------------------

    def pots(self) -> list[tuple[int, tuple[int, ...]]]:
        """The main pot, then a side pot above each all-in player's level: amount and who may
        win it (bets still open in this round counted in)."""
        hand = self.hand
        if hand.over:
            return []
        amounts = [hand.contributed[p] + hand.bets[p] for p in range(hand.players)]
        live = [p for p in hand.in_hand() if not hand.mucked[p]]
        levels = sorted({amounts[p] for p in live if hand.stacks[p] == 0 and amounts[p]})
        levels.append(max((amounts[p] for p in range(hand.players)), default=0))
        pots: list[tuple[int, tuple[int, ...]]] = []
        below = 0
        for level in dict.fromkeys(levels):
            amount = sum(min(a, level) - min(a, below) for a in amounts)
            who = tuple(p for p in live if amounts[p] >= level or hand.stacks[p] > 0)
            if amount:
                pots.append((amount, who))
            below = level
        if hand.dead:
            first = pots[0] if pots else (0, tuple(live))
            pots[:1] = [(first[0] + hand.dead, first[1])]
        return pots

    def summary(self) -> dict[str, object]:
        """The final state as the script's last JSON line: stacks, pots, board, payouts."""
        hand = self.hand
        results = [
            {"pot": e.pot, "amount": e.amount, "commission": e.commission,
             "winners": [f"p{w + 1}" for w in e.winners]}
            for e in hand.events if isinstance(e, ev.Announce)
        ]  # fmt: skip
        pots = [{"amount": a, "eligible": [f"p{p + 1}" for p in who]} for a, who in self.pots()]
        return {
            "stacks": list(hand.stacks),
            "pots": pots,
            "board": [str(c) for c in hand.board],
            "hands": {
                f"p{p + 1}": " ".join(
                    [
                        *map(str, hand.hole[p]),
                        *["?"] * hand.hidden[p],
                        *(f"{c}^" for c in hand.up[p]),
                    ]
                )
                for p in range(hand.players)
            },  # up cards marked ^
            "muck": [str(c) for c in hand.dealt.muck],
            "over": hand.over,
            "void": hand.void,
            "carried": hand.carried,
            "commission": hand.commission,
            "results": results,
            "next": self.prompt(),
        }

    def prompt(self) -> str:
        """Who is to do what now, in a few words."""
        hand = self.hand
        if hand.pending is not None:
            return f"choose: {' | '.join(hand.pending.choices)}"
        if hand.over:
            return "the hand is over"
        if hand.to_act is not None and hand.phase is Phase.BETTING:
            return f"p{hand.to_act + 1} to act: {hand.legal()}"
        if hand.to_act is not None:
            return f"p{hand.to_act + 1} to draw"
        step = hand.next_step()
        if step is not None and step.kind is StepKind.PUSH:
            return "pot ready: push (or a request to see a hand)"
        if step is not None and step.kind is StepKind.SHOW:
            return f"p{step.player + 1} shows first (or mucks)"
        return f"the dealer to {step}" if step is not None else ""

    def status(self) -> str:
        """The table for the dealer: who acts, the legal amounts, pots and side pots, stacks,
        the board, commission and who won each pot."""
        hand = self.hand
        lines = [self.prompt()]
        seats = []
        for p in range(hand.players):
            mark = " folded" if p not in hand.in_hand() else (" mucked" if hand.mucked[p] else "")
            held = f" +{hand.held[p]} held" if hand.held[p] else ""
            bet = f" bet {hand.bets[p]}" if hand.bets[p] else ""
            cards = " ".join(str(c) for c in (*hand.hole[p], *hand.up[p])) + " ?" * hand.hidden[p]
            seats.append(f"p{p + 1} {hand.stacks[p]}{bet}{held}{mark}  {cards.strip()}")
        lines.extend(seats)
        if hand.board:
            lines.append("board " + " ".join(map(str, hand.board)))
        for k, (amount, who) in enumerate(self.pots()):
            name = "main pot" if k == 0 else f"side pot {k}"
            lines.append(f"{name} {amount}: {' '.join(f'p{p + 1}' for p in who)}")
        for event in hand.events:
            if isinstance(event, ev.Announce):
                name = "main pot" if event.pot == 0 else f"side pot {event.pot}"
                won = ", ".join(f"p{w + 1}" for w in event.winners)
                fee = f" (commission {event.commission})" if event.commission else ""
                lines.append(f"{name} {event.amount}{fee} to {won}")
        if hand.void:
            lines.append("void: every chip returned; redeal with the same button")
        return "\n".join(lines)


def _follow_ups(hand: Hand, before: int, decided: Ruling) -> list[Ruling]:
    """The rulings the floor made by itself after a decision (held actions, I30-I31)."""
    made = [e for e in hand.events[before:] if isinstance(e, ev.RulingMade)][1:]
    return [
        Ruling(e.situation, decided.book, e.clause, e.basis, None, e.outcome,
               choices=(), report=e.report)
        for e in made
    ]  # fmt: skip


def _step_not_due(hand: Hand, kind: StepKind) -> bool:
    step = hand.next_step()
    return step is None or step.kind is not kind


def _is_player(word: str) -> bool:
    return len(word) >= 2 and word[0] in "pP" and word[1:].isdigit()


def _player(word: str) -> int:
    if not _is_player(word) or int(word[1:]) < 1:
        raise DealerError(f"a player is p1, p2, ... not {word!r}")
    return int(word[1:]) - 1


def _cards(words: Sequence[str]) -> list[Card | None]:
    cards: list[Card | None] = []
    for word in words:
        if word == "?":
            cards.append(None)
        else:
            cards.extend(parse_cards(word))
    return cards


# --- sessions from options and scripts ------------------------------------------------------------

_SETUP = ("stub", "stacks", "denominations")


def open_session(
    book: str,
    game: str,
    *,
    structure: str | None = None,
    stakes: int | Sequence[int] = 10,
    options: dict[str, object] | None = None,
    stacks: Sequence[int] = (),
    stub: Sequence[Card] | None = None,
    seed: int = 0,
    denominations: Sequence[int] = (),
) -> DealerSession:
    """A session for ``game`` under the rulebook ``book`` (a name or a file), the table options
    as ``croupier rules show`` lists them."""
    from croupier.rulebooks import load_rulebook

    rulebook = load_rulebook(book)
    table: dict[str, object] = dict(options or {})
    rules = rulebook.rules(game, structure, stakes=stakes, **table)  # type: ignore[arg-type]
    if not stacks:
        stacks = (100 * rules.betting.small_bet,) * 4
    floor = Floor(rulebook, denominations=tuple(denominations))
    return DealerSession(floor, rules, stacks, stub=stub, shuffler=SeededShuffler(seed))


def run_script(text: str, **settings: object) -> tuple[DealerSession, list[dict[str, object]]]:
    """Play a script (one input a line; ``#`` starts a comment; ``stub``, ``stacks`` and
    ``denominations`` lines first set the table up) and return the session and a record per
    ruling, refusal or error, as ``--json`` prints them."""
    lines = [(n, line.split("#", 1)[0].strip()) for n, line in enumerate(text.splitlines(), 1)]
    lines = [(n, line) for n, line in lines if line]
    setup: dict[str, object] = dict(settings)
    while lines and lines[0][1].split()[0].lower() in _SETUP:
        verb, *words = lines.pop(0)[1].split()
        if verb.lower() == "stub":
            shuffled = words == ["shuffled"]  # the engine deals a shuffle seeded by --seed
            setup["stub"] = [] if shuffled else [c for c in _cards(words) if c is not None]
        else:
            setup[verb.lower()] = [int(w) for w in words]
    session = open_session(**setup)  # type: ignore[arg-type]
    records: list[dict[str, object]] = []
    for number, line in lines:
        try:
            outcome = session.enter(line)
        except DealerError as error:
            kind = "refused" if error.refused else "error"
            records.append({"line": number, "input": line, kind: str(error)})
            continue
        for ruling in outcome.rulings:
            records.append({"line": number, "input": line, **ruling.as_json()})
    return session, records
