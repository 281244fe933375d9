"""The cards a PHH history records, and a deck that deals them on the engine.

A history says which cards each player was dealt (``d dh pN CARDS``: hole cards, stud's up cards,
a draw's replacements), which were discarded (``pN sd CARDS``), the board (``d db``) and what was
shown (``pN sm CARDS``). :class:`RecordedCards` reads and checks them for the game;
:class:`StackedDeck` is the engine's deck, stacked before every engine action with the cards the
history says come next (:meth:`RecordedCards.upcoming`). When the engine reshuffles (a draw the
stub cannot finish, au 11.3(b); stud's burns, au 13.4(a)), the deck stacks the reshuffled cards
the same way, so a card dealt again after it was discarded replays too. Unknown cards (``??``)
and burns are cards the history never names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from croupier import events as ev
from croupier.cards import Card, DeckKind
from croupier.deck import Deck, Shuffler
from croupier.games import Game
from croupier.hand import Hand
from croupier.history.phh import Action, ActionKind, PHHError, format_phh_cards

__all__ = ["RecordedCards", "Slot", "StackedDeck"]

_STREET_NAMES = ("pre-flop", "flop", "turn", "river")
_STUD_STREETS = ("third street", "fourth street", "fifth street", "sixth street", "seventh street")


def street_name(game: Game, index: int) -> str:
    """The betting round's usual name."""
    if any(s.up for s in game.streets):
        names: Sequence[str] = _STUD_STREETS
    elif any(s.draw for s in game.streets):
        names = ["the first round"] + [f"after draw {n}" for n in range(1, len(game.streets))]
    else:
        names = _STREET_NAMES
    return names[index] if 0 <= index < len(names) else f"round {index + 1}"


@dataclass
class Slot:
    """One card the history deals: ``card`` None when unknown (``??``); ``action`` the action
    that deals it. ``engine`` is the card the engine dealt there, once dealt; ``betting`` how
    many betting actions had been played then."""

    card: Card | None
    action: int
    engine: Card | None = None
    betting: int = -1

    def __init__(
        self, card: Card | None, action: int, engine: Card | None = None, betting: int = -1
    ) -> None:
        self.card = card
        self.action = action
        self.engine = engine
        self.betting = betting


_DEALT_TO_PLAYERS = (ev.DealHole, ev.DealUp, ev.Draw)


class StackedDeck(Deck):
    """A deck whose next cards are the ones a history deals (:meth:`stack`); it keeps that order
    when the engine reshuffles discards or burns into it. Unknown cards and burns are cards the
    history never names, where there are any left."""

    def __init__(self, kind: DeckKind, named: Iterable[Card]) -> None:
        super().__init__(kind, ())
        self._cards = list(kind.cards)  # the whole deck: nothing to check
        self._named = frozenset(named)
        self._plan: list[Card | None] = []
        self._keep: frozenset[Card] = frozenset()
        self._planned_at = len(self)

    def stack(self, plan: Sequence[Card | None], keep: Iterable[Card] = ()) -> None:
        """Put the cards of ``plan`` on top, in order (None: a card the history does not name;
        ``keep``: cards the history deals later, not to be used for those). A card the deck
        does not hold ends the stacked part: the engine will deal another card there, which the
        replay reports."""
        plan, keep = list(plan), frozenset(keep)
        if plan == self._plan and keep == self._keep and self._planned_at == len(self):
            return  # nothing dealt and nothing changed since the last stacking
        self._plan = plan
        self._keep = keep
        self._planned_at = len(self)
        self._arrange()

    def restock(self, cards: Iterable[Card], shuffler: Shuffler) -> None:
        done = self._planned_at - len(self)
        super().restock(cards, shuffler)
        self._plan = self._plan[done:]
        self._planned_at = len(self)
        self._arrange()

    def _arrange(self) -> None:
        pool = sorted(self.cards)
        available = set(pool)
        wanted = {card for card in self._plan if card is not None} | self._keep
        fillers = [c for c in pool if c not in self._named] + [
            c for c in pool if c in self._named and c not in wanted
        ]
        top: list[Card] = []
        used: set[Card] = set()
        for card in self._plan:
            if card is None:
                while fillers and fillers[0] in used:
                    fillers.pop(0)
                if not fillers:
                    break
                card = fillers.pop(0)
            elif card not in available or card in used:
                break
            top.append(card)
            used.add(card)
        rest = [c for c in pool if c not in used and c not in self._named]
        rest += [c for c in pool if c not in used and c in self._named]
        self._cards = top + rest


class RecordedCards:
    """Every card a history deals, discards and shows, per player and on the board, checked
    against the game; and, as the engine deals, which recorded card each dealt card is."""

    def __init__(
        self,
        variant: str,
        game: Game,
        actions: Sequence[Action],
        error_at: Callable[[int, str], PHHError],
    ) -> None:
        self.variant = variant
        self.game = game
        self.error_at = error_at
        self.draws = any(s.draw for s in game.streets)
        self.first = game.streets[0].hole + game.streets[0].up
        players = 1 + max((a.player for a in actions if a.player is not None), default=0)
        self.holes: list[list[Slot]] = [[] for _ in range(players)]
        self.board: list[Slot] = []
        self.board_sizes = [s.board for s in game.streets if s.board]
        self.dealt_by: dict[int, tuple[int, int, int]] = {}  # dh action -> player, start, end
        self.discarded: dict[int, list[Slot]] = {}  # sd action -> the slots discarded
        self.final: list[list[Slot]] = [[] for _ in range(players)]  # the hands at the end
        self.shown: dict[int, int] = {}  # player -> sm action
        self.next: list[int] = []  # per player: recorded cards the engine has dealt
        self.board_next = 0
        self._read(actions)

    def resize(self, players: int) -> None:
        while len(self.holes) < players:
            self.holes.append([])
            self.final.append([])
        self.next = [0] * players

    # --- reading -----------------------------------------------------------------------------

    def _read(self, actions: Sequence[Action]) -> None:
        per_player = sum(s.hole + s.up for s in self.game.streets)
        pending: dict[int, int] = {}  # draw games: replacements owed after a discard
        first_deal: dict[int, int] = {}
        for index, action in enumerate(actions):
            player = action.player
            if action.kind is ActionKind.DEAL_HOLE:
                assert player is not None
                self._resize_to(player)
                cards = action.cards
                have = len(self.holes[player])
                if self.draws and have >= self.first:
                    owed = pending.get(player, 0)
                    if len(cards) > owed:
                        raise self.error_at(
                            index,
                            f"p{player + 1} is dealt {len(cards)} card(s) but has {owed} to "
                            f"replace: {self.variant} deals {self.first} cards, then as many as "
                            "each player discards ('pN sd CARDS')",
                        )
                    pending[player] = owed - len(cards)
                elif self.first == per_player and not self.draws:
                    # Hold'em and Omaha: the hole cards come in one action.
                    if player in first_deal:
                        raise self.error_at(
                            index,
                            f"p{player + 1} was dealt hole cards already (actions["
                            f"{first_deal[player]}]): {self.variant} deals them once",
                        )
                    if len(cards) != self.first:
                        raise self.error_at(
                            index,
                            f"{self.variant} deals {self.first} hole cards, got {len(cards)}",
                        )
                elif have + len(cards) > (self.first if self.draws else per_player):
                    limit = self.first if self.draws else per_player
                    raise self.error_at(
                        index,
                        f"p{player + 1} is dealt {have + len(cards)} cards: {self.variant} "
                        f"deals {limit} ({self._deals()})",
                    )
                first_deal.setdefault(player, index)
                slots = [Slot(card, index) for card in cards]
                self.dealt_by[index] = (player, have, have + len(slots))
                self.holes[player].extend(slots)
                self.final[player].extend(slots)
            elif action.kind is ActionKind.DEAL_BOARD:
                deals = sum(1 for _ in self._board_deals())
                if not self.board_sizes:
                    raise self.error_at(
                        index, f"{self.variant} deals no community cards ('d db' is not part of it)"
                    )
                if deals >= len(self.board_sizes):
                    raise self.error_at(index, "every board card was dealt already")
                expected = self.board_sizes[deals]
                if len(action.cards) != expected:
                    street = street_name(self.game, 1 + deals)
                    raise self.error_at(
                        index,
                        f"the {street} is {expected} card{'s' * (expected > 1)}, "
                        f"got {len(action.cards)}",
                    )
                self.board.extend(Slot(card, index) for card in action.cards)
            elif action.kind is ActionKind.STAND_PAT_OR_DISCARD and self.draws:
                assert player is not None
                self._resize_to(player)
                self.discarded[index] = self._discard(index, player, action.cards)
                pending[player] = pending.get(player, 0) + len(action.cards)
            elif action.kind is ActionKind.SHOW_OR_MUCK and player is not None:
                self._resize_to(player)
                before = self.shown.get(player)
                if before is not None and (
                    actions[before].mucks or not self._dealt_between(player, before, index)
                ):
                    raise self.error_at(
                        index, f"p{player + 1} showed or mucked already (actions[{before}])"
                    )
                # A stud hand shown at an all-in is shown again with the cards dealt after.
                self.shown[player] = index
                self._show(index, player, action.cards)
        self._check_duplicates(actions)

    def _dealt_between(self, player: int, start: int, end: int) -> bool:
        return any(start < slot.action < end for slot in self.holes[player])

    def _board_deals(self) -> Iterable[int]:
        seen: list[int] = []
        for slot in self.board:
            if slot.action not in seen:
                seen.append(slot.action)
        return seen

    def _deals(self) -> str:
        streets = self.game.streets
        first = streets[0]
        text = f"{first.hole} down" + (f" and {first.up} up" if first.up else "")
        later = [s.hole + s.up for s in streets[1:] if s.hole + s.up]
        if later:
            text += ", then " + ", ".join(str(n) for n in later) + " on the later streets"
        return text

    def _resize_to(self, player: int) -> None:
        while len(self.holes) <= player:
            self.holes.append([])
            self.final.append([])

    def _discard(self, index: int, player: int, cards: Sequence[Card | None]) -> list[Slot]:
        hand = self.final[player]
        out: list[Slot] = []
        for card in cards:
            found = next((s for s in hand if s.card is not None and s.card == card), None)
            if found is None:
                found = next((s for s in hand if s.card is None), None)
                if found is None:
                    held = format_phh_cards(s.card for s in hand) or "no cards"
                    what = "an unknown card ('??')" if card is None else str(card)
                    raise self.error_at(index, f"p{player + 1} discards {what}, but holds {held}")
                found.card = card  # a discard shows a card dealt unknown
            hand.remove(found)
            out.append(found)
        return out

    def _show(self, index: int, player: int, cards: Sequence[Card | None]) -> None:
        hand = self.final[player]
        known = {s.card for s in hand if s.card is not None}
        for card in cards:
            if card is None or card in known:
                continue
            slot = next((s for s in hand if s.card is None), None)
            if slot is None:
                dealt = format_phh_cards(s.card for s in hand)
                raise self.error_at(index, f"p{player + 1} shows {card}, but was dealt {dealt}")
            slot.card = card
            known.add(card)

    def _check_duplicates(self, actions: Sequence[Action]) -> None:
        """A card is dealt once, unless it was discarded first (draw games reshuffle)."""
        where: dict[Card, int] = {}  # card -> the player dealt it; -1: the board
        by_action: dict[int, list[tuple[int, Slot]]] = {}
        for player, slots in enumerate(self.holes):
            for slot in slots:
                by_action.setdefault(slot.action, []).append((player, slot))
        for slot in self.board:
            by_action.setdefault(slot.action, []).append((-1, slot))
        for index in range(len(actions)):
            for owner, slot in by_action.get(index, ()):
                card = slot.card
                if card is None:
                    continue
                if card in where:
                    held = where[card]
                    place = "the board" if held < 0 else f"p{held + 1}'s hole cards"
                    raise self.error_at(index, f"{card} is dealt twice: also in {place}")
                where[card] = owner
            for slot in self.discarded.get(index, ()):
                if slot.card is not None:
                    where.pop(slot.card, None)
            action = actions[index]
            if self.draws and action.kind is ActionKind.FOLD and action.player is not None:
                for slot in self.final[action.player] if action.player < len(self.final) else ():
                    if slot.card is not None and where.get(slot.card) == action.player:
                        where.pop(slot.card)

    # --- what comes next ---------------------------------------------------------------------

    @property
    def named(self) -> set[Card]:
        cards = {s.card for slots in self.holes for s in slots if s.card is not None}
        return cards | {s.card for s in self.board if s.card is not None}

    def pending(self) -> set[Card]:
        """The known cards the engine has not dealt yet."""
        cards = {
            slot.card
            for player, slots in enumerate(self.holes)
            for slot in slots[self.next[player] :]
            if slot.card is not None
        }
        return cards | {s.card for s in self.board[self.board_next :] if s.card is not None}

    def _slot(self, player: int, position: int) -> Slot | None:
        slots = self.holes[player] if player < len(self.holes) else []
        return slots[position] if position < len(slots) else None

    def upcoming(
        self, street: int, live: Sequence[int], drawer: int | None = None, drawn: int = 0
    ) -> list[Card | None]:
        """The cards the engine deals next, in its order: ``drawer``'s ``drawn`` replacements,
        then the later streets for the players in ``live`` (burns, one round of cards at a time
        from the left of the button, boards) up to the next draw."""
        plan: list[Card | None] = []
        taken = list(self.next)

        def take(player: int) -> Card | None:
            slot = self._slot(player, taken[player])
            taken[player] = taken[player] + 1
            return slot.card if slot is not None else None

        if drawer is not None:
            plan.extend(take(drawer) for _ in range(drawn))
        board = self.board_next
        for later in self.game.streets[street + 1 :]:
            per_player = later.hole + later.up
            if later.burn and (per_player or later.board or later.draw):
                plan.append(None)
            for _ in range(per_player):
                plan.extend(take(player) for player in live)
            for _ in range(later.board):
                plan.append(self.board[board].card if board < len(self.board) else None)
                board += 1
            if later.draw:
                break
        return plan

    def follow(self, hand: Hand, events: Sequence[ev.Event], betting: int) -> None:
        """Match the cards the engine dealt (``events``) with the recorded ones; ``betting``: the
        betting actions played so far. A card the deck could not give is an error naming the
        action that deals it."""
        for event in events:
            if isinstance(event, _DEALT_TO_PLAYERS):
                cards = event.drawn if isinstance(event, ev.Draw) else event.cards
                player = event.player
                for card in cards:
                    assert card is not None
                    slot = self._slot(player, self.next[player])
                    self.next[player] = self.next[player] + 1
                    if slot is not None:
                        self._match(hand, slot, card, f"p{player + 1}", betting)
            elif isinstance(event, ev.DealBoard):
                for card in event.cards:
                    at = self.board_next
                    slot = self.board[at] if at < len(self.board) else None
                    self.board_next += 1
                    if slot is not None:
                        self._match(hand, slot, card, "the board", betting)

    def _match(self, hand: Hand, slot: Slot, card: Card, whom: str, betting: int) -> None:
        slot.engine = card
        slot.betting = betting
        if slot.card is None or slot.card == card:
            return
        raise self.error_at(slot.action, f"{slot.card} cannot be dealt to {whom}: "
                            f"{self._whereabouts(hand, slot.card)}")  # fmt: skip

    def _whereabouts(self, hand: Hand, card: Card) -> str:
        for player in range(hand.players):
            if (card in hand.hole[player] or card in hand.up[player]) and hand.folded[player]:
                return (
                    f"it is in p{player + 1}'s folded hand: the engine does not reshuffle folded "
                    "hands (au 11.3(b)); PokerKit reshuffles the muck and the burns too"
                )
            if card in hand.hole[player] or card in hand.up[player]:
                return f"it is dealt twice: also in p{player + 1}'s hole cards"
        if card in hand.board:
            return "it is dealt twice: also on the board"
        if card in hand.discards or any(
            isinstance(e, ev.Draw) and card in e.discarded for e in hand.events
        ):
            return (
                "it was discarded, and the deck was not reshuffled: the engine shuffles the "
                "discards of the players who drew before only when the stub cannot finish a "
                "draw, then the burns (au 11.3(b)); PokerKit deals any card not in play"
            )
        if card in hand.burned:
            return "it was burned, and the deck was not reshuffled (au 11.3(b), 13.4(a))"
        return "the engine's deck cannot give it here"

    def recorded_through(self, index: int) -> tuple[int, int, int] | None:
        """(player, start, end) of the cards the deal action ``index`` records."""
        return self.dealt_by.get(index)

    def unknown(self, player: int) -> bool:
        """Whether the player's hand at the end holds a card the history does not give."""
        return player < len(self.final) and any(s.card is None for s in self.final[player])
