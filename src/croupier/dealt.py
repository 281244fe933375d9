"""Where every card of a hand is: the players' cards, the board, the burns, the discards, the stub.

:class:`Dealt` is the hand's card bookkeeping, apart from the flow of play. A card nobody has seen
(a live dealer does not see the hole cards; a history may not name them) is counted, not named:
it stays in the deck's list of cards, since it could be any of them, and ``unseen`` cards are
taken off the stub's size instead. Cards named later (a hand shown down) are taken then.
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.betting import IllegalAction
from croupier.cards import Card, CardError, format_cards
from croupier.deck import Deck, Shuffler

__all__ = ["Dealt"]

_DISCARDED = (
    "it was discarded, and the deck was not reshuffled: the discards of the players who drew "
    "before are shuffled only when the stub cannot finish a draw, then the burns (au 11.3(b)); "
    "folded hands are not"
)


class Dealt:
    """The cards of one hand, per player in deal order."""

    def __init__(self, deck: Deck, live: list[int], shuffler: Shuffler) -> None:
        """``live``: the players in the hand, a list the hand keeps up to date."""
        players = len(live)
        self.deck = deck
        self.live = live
        self.shuffler = shuffler
        self.hole: list[list[Card]] = [[] for _ in range(players)]  # face down, where known
        self.hidden = [0] * players  # face-down cards nobody has seen
        self.up: list[list[Card]] = [[] for _ in range(players)]  # face up (stud)
        self.board: list[Card] = []
        self.burned: list[Card] = []
        self.discards: list[Card] = []  # discarded since the last reshuffle (au 11.3(b))
        self.unseen_out = 0  # unseen cards dealt: in ``deck``'s list, but not in the stub
        self.unseen_spent = 0  # of those, burned or discarded: they return at a reshuffle
        # Rulings (croupier.corrections): cards kept for the next burn or board card, in order;
        # folded and dead cards a ruling sent to the muck; cards out of the game; cards seen.
        self.aside: list[tuple[Card | None, str]] = []
        self.muck: list[Card] = []
        self.scrap: list[Card] = []
        self.exposed: list[Card] = []  # seen by everyone
        self.shown: list[tuple[Card, int]] = []  # seen by one seat (show one)

    def stub(self) -> int:
        """Cards left to deal."""
        return len(self.deck) - self.unseen_out

    def cards_of(self, player: int) -> list[Card]:
        """A player's cards, face down then face up; an error while some are unseen."""
        if self.hidden[player]:
            raise IllegalAction(
                f"p{player + 1}'s hand holds cards nobody has seen: show them to value the hand"
            )
        return self.hole[player] + self.up[player]

    # --- taking cards from the stub --------------------------------------------------------

    def take(
        self, cards: Sequence[Card | None], to: str, discarding: Sequence[Card | None] = ()
    ) -> None:
        """Take the given cards out of the stub (``None``: an unseen card), after checking they
        can all come from it: nothing changes when one cannot. ``to``: where they go, for the
        error ("p2", "the board"); ``discarding``: the cards a drawing player throws away for
        these."""
        known = [c for c in cards if c is not None]
        if len(set(known)) != len(known):
            raise IllegalAction(f"the dealer's cards hold one twice: {format_cards(known)}")
        for card in known:
            where = _DISCARDED if card in discarding else None
            if where is not None or card not in self.deck:
                why = where or self.whereabouts(card)
                raise IllegalAction(f"{card} cannot be dealt to {to}: {why}")
        if len(cards) > self.stub():
            raise IllegalAction(f"the stub holds {self.stub()} cards: it cannot give {len(cards)}")
        for card in known:
            self.deck.take(card)
        self.unseen_out += len(cards) - len(known)

    def take_for(self, role: str, cards: Sequence[Card | None], to: str) -> list[Card | None]:
        """The cards of a burn or a board deal: those set aside for ``role`` first (a ruling's,
        au 19.25, qld s34(2), s36(2)), then the given ones from the stub. A given card where one
        is set aside must be that card, or ``None``. Returns the cards as dealt."""
        waiting = [i for i, (_, kept) in enumerate(self.aside) if kept == role]
        used = waiting[: len(cards)]
        dealt: list[Card | None] = []
        for k, given in enumerate(cards):
            if k < len(used):
                card = self.aside[used[k]][0]
                if given is not None and card is not None and given != card:
                    raise IllegalAction(
                        f"{card} was set aside for {to} by a ruling: deal it, not {given}"
                    )
                dealt.append(card if card is not None else given)
            else:
                dealt.append(given)
        self.take(cards[len(used) :], to)
        for i in reversed(used):
            self.aside.pop(i)
        return dealt

    def peek_for(self, role: str, count: int) -> tuple[Card, ...]:
        """The next ``count`` cards of a burn or board deal from a known stub, set-aside first."""
        kept = [c for c, kept in self.aside if kept == role and c is not None][:count]
        return (*kept, *self.deck.peek(count - len(kept)))

    def locate(self, card: Card) -> tuple[str, int]:
        """Where a known card lies: ('hole'|'up', player), ('board'|'burned'|'aside'|'muck'|
        'discards'|'scrap'|'stub', -1); ('', -1) when nowhere (an unseen card, or not dealt)."""
        for player in range(len(self.hole)):
            if card in self.hole[player]:
                return "hole", player
            if card in self.up[player]:
                return "up", player
        for name, cards in (
            ("board", self.board), ("burned", self.burned), ("muck", self.muck),
            ("discards", self.discards), ("scrap", self.scrap),
        ):  # fmt: skip
            if card in cards:
                return name, -1
        if any(c == card for c, _ in self.aside):
            return "aside", -1
        if card in self.deck:
            return "stub", -1
        return "", -1

    def remove(self, card: Card | None, player: int = -1) -> str:
        """Take a card out of wherever it lies (for a ruling to move it); ``None`` with a
        ``player``: one of that player's face-down cards nobody saw; ``None`` alone: the stub's
        top card, unseen. Returns the zone it came from; IllegalAction when it is nowhere."""
        if card is None:
            if player >= 0:
                if not self.hidden[player]:
                    raise IllegalAction(f"p{player + 1} holds no card nobody has seen")
                self.hidden[player] -= 1
                return "hole"
            if self.stub() < 1:
                raise IllegalAction("the stub is empty")
            self.unseen_out += 1
            return "stub"
        zone, owner = self.locate(card)
        if zone == "" and player >= 0 and self.hidden[player] and card in self.deck:
            self.deck.take(card)  # one of the player's unseen cards, named now
            self.unseen_out -= 1
            self.hidden[player] -= 1
            return "hole"
        if zone in ("hole", "up"):
            (self.hole if zone == "hole" else self.up)[owner].remove(card)
        elif zone == "aside":
            self.aside.pop(next(i for i, (c, _) in enumerate(self.aside) if c == card))
        elif zone == "stub":
            self.deck.take(card)
        elif zone:
            getattr(self, zone).remove(card)
        else:
            raise IllegalAction(f"{card} is not in play: {self.whereabouts(card)}")
        return zone

    def name_hidden(self, player: int, card: Card) -> None:
        """One of ``player``'s unseen face-down cards is ``card`` (it was exposed)."""
        if card in self.hole[player] or card in self.up[player]:
            return
        if not self.hidden[player] or card not in self.deck:
            raise IllegalAction(
                f"p{player + 1} cannot hold {card}: {self.whereabouts(card)}"
                if card not in self.deck
                else f"p{player + 1} holds no card nobody has seen"
            )
        self.deck.take(card)
        self.unseen_out -= 1
        self.hidden[player] -= 1
        self.hole[player].append(card)

    def whereabouts(self, card: Card) -> str:
        """Why ``card`` is not in the stub."""
        if card not in self.deck.kind:
            return f"it is not in the {self.deck.kind.size}-card deck (au 4.1)"
        for player in range(len(self.hole)):
            if card in self.hole[player] or card in self.up[player]:
                if player in self.live:
                    return f"p{player + 1} holds it"
                return (
                    f"it is in p{player + 1}'s folded hand: the engine does not reshuffle folded "
                    "hands (au 11.3(b)); PokerKit reshuffles the muck and the burns too"
                )
        if card in self.board:
            return "it is on the board"
        if card in self.burned:
            return "it was burned, and the deck was not reshuffled (au 11.3(b), 13.4(a))"
        if card in self.discards:
            return _DISCARDED
        if card in self.muck:
            return "a ruling sent it to the muck"
        if card in self.scrap:
            return "a ruling took it out of the game"
        if any(c == card for c, _ in self.aside):
            return "a ruling set it aside for the next burn or board card"
        return "the stub does not hold it"

    # --- the cards' moves ------------------------------------------------------------------

    def give(self, player: int, down: tuple[Card | None, ...], up: tuple[Card, ...]) -> None:
        hole = self.hole[player]
        for card in down:
            if card is None:
                self.hidden[player] = self.hidden[player] + 1
            else:
                hole.append(card)
        if up:
            self.up[player].extend(up)

    def burn(self, card: Card | None) -> None:
        if card is None:
            self.unseen_spent += 1
        else:
            self.burned.append(card)

    def replace(
        self, player: int, discarded: Sequence[Card | None], drawn: Sequence[Card | None]
    ) -> None:
        """A draw: ``discarded`` leave the player's hand for the discards, ``drawn`` join it."""
        hole = self.hole[player]
        for card in discarded:
            if card is None:
                self.hidden[player] -= 1
                self.unseen_spent += 1
            else:
                hole.remove(card)
                self.discards.append(card)
        self.give(player, tuple(drawn), ())

    def check_discards(
        self, player: int, discards: Sequence[Card | None]
    ) -> tuple[Card | None, ...]:
        """The cards a player discards, checked to be in the hand (au 11.3(a))."""
        try:
            cards = tuple(None if c is None else Card(c) for c in discards)
        except CardError as error:
            raise IllegalAction(f"p{player + 1} cannot discard that: {error}") from None
        hand = self.hole[player]
        known = [c for c in cards if c is not None]
        missing = [str(c) for c in known if c not in hand]
        unseen = len(cards) - len(known)
        if missing or len(set(known)) != len(known) or unseen > self.hidden[player]:
            held = format_cards([*hand, *[None] * self.hidden[player]])
            raise IllegalAction(
                f"p{player + 1} can only discard cards in their hand ({held}), "
                f"not {' '.join(missing) or 'a card twice'} (au 11.3(a))"
            )
        return cards

    def reveal(self, player: int, cards: Sequence[Card]) -> None:
        """A hand shown down names the cards nobody had seen; the known ones must match."""
        if not self.hidden[player] and not cards:
            return
        try:
            shown = [Card(c) for c in cards]
        except (CardError, TypeError) as error:
            raise IllegalAction(f"p{player + 1} shows: {error}") from None
        held = [*self.hole[player], *self.up[player]]
        new = [c for c in shown if c not in held]
        hidden = self.hidden[player]
        if len(shown) != len(held) + hidden or len(new) != hidden or len(set(new)) != len(new):
            raise IllegalAction(
                f"p{player + 1} holds {format_cards([*held, *[None] * hidden])}: a shown hand is "
                f"those cards, not {format_cards(shown)}"
            )
        for card in new:
            if card not in self.deck:
                raise IllegalAction(f"p{player + 1} shows {card}: {self.whereabouts(card)}")
        for card in new:
            self.deck.take(card)
        self.unseen_out -= hidden
        self.hole[player].extend(new)
        self.hidden[player] = 0

    def shuffle_in(self, discards: bool) -> None:
        """Shuffle the discards (or the burns) into the stub to finish a deal the stub cannot
        (au 11.3(b), 12.4(a), 13.4(a)); unseen spent cards come back with them."""
        cards = self.discards if discards else self.burned
        self.deck.restock(cards, self.shuffler)
        cards.clear()
        self.unseen_out -= self.unseen_spent
        self.unseen_spent = 0
