"""The cards a PHH history records, checked against its game before they are dealt.

A history says which cards each player was dealt (``d dh pN CARDS``: hole cards, stud's up cards,
a draw's replacements), which were discarded (``pN sd CARDS``), the board (``d db``) and what was
shown (``pN sm CARDS``). :class:`RecordedCards` reads them and checks them for the game, each
problem naming the action it is in; the replay then gives the engine exactly those cards (the
engine's dealer operations take them). Unknown cards (``??``) and burns are cards the history
never names, and the engine deals them as cards nobody saw.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from croupier.cards import Card
from croupier.games import Game
from croupier.history.phh import Action, ActionKind, PHHError, format_phh_cards

__all__ = ["RecordedCards", "Slot", "street_name"]

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
    """One card the history deals: ``card`` None when unknown (``??``), and filled in where a
    later action names it (a discard, a hand shown down); ``action`` the action that deals it."""

    card: Card | None
    action: int

    def __init__(self, card: Card | None, action: int) -> None:
        self.card = card
        self.action = action


class RecordedCards:
    """Every card a history deals, discards and shows, per player and on the board, checked
    against the game."""

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
        self.stud = any(s.up for s in game.streets)
        self.first = game.streets[0].hole + game.streets[0].up
        players = 1 + max((a.player for a in actions if a.player is not None), default=0)
        self.holes: list[list[Slot]] = [[] for _ in range(players)]
        self.board: list[Slot] = []
        self.board_sizes = [s.board for s in game.streets if s.board]
        if not self.board_sizes and any(s.up for s in game.streets):
            # Stud: one community card when the stub cannot give everyone a card (au 12.4(a),
            # 13.4(a)); the replay checks that the engine's deck runs short there.
            self.board_sizes = [1]
        self.dealt_by: dict[int, tuple[int, int, int]] = {}  # dh action -> player, start, end
        self.discarded: dict[int, list[Slot]] = {}  # sd action -> the slots discarded
        self.final: list[list[Slot]] = [[] for _ in range(players)]  # the hands at the end
        self.shown: dict[int, int] = {}  # player -> sm action
        self.replaced_by: dict[int, list[int]] = {}  # sd action -> the d dh giving replacements
        self._discarding: dict[int, int] = {}  # player -> sd action still owed replacements
        self._read(actions)

    def resize(self, players: int) -> None:
        while len(self.holes) < players:
            self.holes.append([])
            self.final.append([])

    def dealt(self, index: int) -> tuple[int, list[Card | None]]:
        """The player a ``d dh`` action deals to, and the cards (as far as the history names
        them, anywhere)."""
        player, start, end = self.dealt_by[index]
        return player, [slot.card for slot in self.holes[player][start:end]]

    def replacements(self, index: int) -> tuple[list[int], list[Card | None]]:
        """The ``d dh`` actions that give the replacements of the ``pN sd`` action ``index``
        (PHH writes every player's discards first, then the replacements), and their cards."""
        deals = self.replaced_by.get(index, [])
        cards: list[Card | None] = []
        for deal in deals:
            cards.extend(self.dealt(deal)[1])
        return deals, cards

    def discards(self, index: int) -> list[Card | None]:
        """The cards a ``pN sd`` action discards (None: unknown)."""
        return [slot.card for slot in self.discarded.get(index, ())]

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
                    if player in self._discarding:
                        self.replaced_by.setdefault(self._discarding[player], []).append(index)
                    if not pending[player]:
                        self._discarding.pop(player, None)
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
                if self.stud and len(action.cards) != expected:
                    raise self.error_at(
                        index,
                        f"{self.variant} deals no community cards but one, when the stub cannot "
                        "give every player a card (au 12.4(a), 13.4(a)); got "
                        f"{len(action.cards)}",
                    )
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
                if action.cards:
                    self._discarding[player] = index
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

    def unknown(self, player: int) -> bool:
        """Whether the player's hand at the end holds a card the history does not give."""
        return player < len(self.final) and any(s.card is None for s in self.final[player])
