"""Engine hands written as PHH (every phh-std variant the engine plays: see
:data:`croupier.history.standard.SUPPORTED_VARIANTS`).

The actions come from the hand's events. Stud's cards of a street go in one ``d dh`` per player
(down cards first, then the up card, as PHH deals them); a draw is written as PHH writes it, every
player's ``pN sd`` first, then the replacements (``d dh``); the bring-in is ``pN pb``; the
showdown (``pN sm``) where the engine showed or mucked. The forced bets are the hand's own, per
player: a big-blind or button ante, a blind on the button; a dead blind is dead money, as an ante
is; a live blind posted out of position (a newcomer's, or a returning player's big blind) is
written with the others and named by ``_croupier_posted``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from croupier import events as ev
from croupier.betting import Structure
from croupier.cards import Card
from croupier.events import HOUSE
from croupier.forced import BlindKind
from croupier.hand import Hand
from croupier.history.extensions import (
    BLIND_KEPT,
    EXTENSION_VARIANT,
    OVER_BLIND,
    POSTED,
    blinds_posted_short,
    extension_fields,
    phh_variant,
)
from croupier.history.phh import VARIANTS, HandHistory, PHHError, format_phh_cards
from croupier.history.standard import standard_rules
from croupier.views import visible

__all__ = ["history_from_hand"]


def _check_recordable(hand: Hand) -> None:
    """PHHError for a hand PHH cannot record: a floor's ruling changed it, or it began with a
    pot carried from a void deal. Its event log (.jsonl) keeps it whole."""
    from croupier.rebuild import CORRECTIONS

    for event in hand.events:
        if isinstance(event, ev.RulingMade):
            raise PHHError(
                f"a ruling changed this hand ({event.situation}, {event.clause}): PHH cannot "
                "record it; keep it as croupier's event log (.jsonl)"
            )
        if isinstance(event, (ev.PotCarried, *CORRECTIONS)):
            raise PHHError(
                f"PHH cannot record {type(event).__name__} (cardroom irregularities 6 and the "
                "floor's corrections); keep the hand as croupier's event log (.jsonl)"
            )


def _forced(hand: Hand) -> tuple[tuple[int, ...], tuple[int, ...], list[int]]:
    """PHH's ``antes`` and ``blinds_or_straddles``: each player's, heads-up blinds reversed as
    PHH writes them (p2, the button, posts the first); a dead blind is written as an ante (dead
    money, as a player's own ante is). Also the players (``pN``'s N) whose blind is posted out
    of position, for ``_croupier_posted``."""
    players = hand.players
    antes = list(hand.forced.antes) or [0] * players
    blinds = [0] * players
    posted = []
    for blind in hand.forced.blinds:
        if blind.kind is BlindKind.DEAD:
            antes[blind.player] += blind.amount
        else:
            blinds[blind.player] = blind.amount
            if blind.kind is BlindKind.POSTED:
                posted.append(blind.player + 1)
    live = hand.forced.live
    if players == 2 and len(live) == 2 and live[0].player == 1 and not posted:
        blinds.reverse()
    return tuple(antes), tuple(blinds), sorted(posted)


def history_from_hand(
    hand: Hand,
    /,
    *,
    viewer: int = HOUSE,
    rulebook: str | None = None,
    options: Mapping[str, object] | None = None,
    **fields: Any,
) -> HandHistory:
    """The engine's hand as a PHH hand history: a phh-std variant where PokerKit plays the same
    game, else ``variant = "croupier"``; what PHH cannot say (the game, the deck, the rulebook
    and its options, a commission) goes in the croupier fields of docs/phh-extensions.md.

    ``rulebook``, ``options``: the shipped book and the house options the hand was played under
    (``Rulebook.rules`` keywords), written as such. Keyword ``fields`` add or replace fields
    (``players=...``, ``event=...``). ``viewer``: whose record it is, a player's index (the
    others' hole cards and draws are ``??`` unless shown), :data:`~croupier.events.SPECTATOR`
    or :data:`~croupier.events.HOUSE` (every card the hand knows). Raises :class:`PHHError`
    for rules the fields cannot describe. An over-blind (au 11.1(c)(iv)) is the last of
    ``blinds_or_straddles``, marked by ``_croupier_over_blind``."""
    _check_recordable(hand)
    rules = hand.rules
    code = phh_variant(hand)
    betting = rules.betting
    if code == EXTENSION_VARIANT:
        fixed = Structure.FIXED in betting.structures
        required = ("antes",) + ("blinds_or_straddles",) * bool(rules.blinds)
        required += ("bring_in",) * bool(rules.bring_in)
        required += ("small_bet", "big_bet") if fixed else ("min_bet",)
    else:
        required = VARIANTS[code].required
    limits: dict[str, Any] = {}
    antes, blinds, posted = _forced(hand)
    if "blinds_or_straddles" in required:
        limits["blinds_or_straddles"] = blinds
    elif any(blinds):
        raise PHHError(f"{code} has no blinds: the hand posts {list(blinds)}")
    if "bring_in" in required:
        limits["bring_in"] = rules.bring_in
    if "small_bet" in required:
        limits["small_bet"] = betting.small_bet
        limits["big_bet"] = betting.big_bet or betting.small_bet
    else:
        limits["min_bet"] = betting.small_bet
    # The antes are each player's contribution, unless dead (a dead blind is dead money either
    # way: alone, antes of one player are dead as PHH reads them).
    contributed = any(hand.forced.antes) and not hand.forced.dead_antes
    history = HandHistory(
        variant=code,
        ante_trimming_status=True if contributed else None,
        antes=antes,
        starting_stacks=tuple(hand.starting),
        actions=tuple(_Writer(hand, visible(hand.events, viewer)).actions()),
        finishing_stacks=tuple(hand.stacks),
        user_fields={POSTED: posted} if posted else {},
        **limits,
    )
    standard = standard_rules(history) if code != EXTENSION_VARIANT else None
    described = extension_fields(hand, rulebook=rulebook, options=options, standard=standard)
    if hand.over_blind:
        described[OVER_BLIND] = True
    if posted:
        described[POSTED] = posted
    if rulebook is None and not hand.forced.short_blind_sets_bet and blinds_posted_short(hand):
        described[BLIND_KEPT] = True  # else PHH's rule would replay another hand (league)
    if described:
        history = replace(history, user_fields=described)
    return replace(history, **fields) if fields else history


class _Writer:
    """The hand's events as PHH actions, with the showdown and PokerKit's closing checks where
    PHH expects them.

    PokerKit keeps every player who has not acted since the last bet in the round's queue, and
    lets the round end only when the queue is empty; the engine ends a round as soon as one
    player with chips is left facing nothing. That player's check (a no-op) is written, so that
    PokerKit can read the history; :func:`~croupier.history.replay.replay` accepts it."""

    def __init__(self, hand: Hand, events: list[ev.Event]) -> None:
        self.hand = hand
        self.events = events
        players = hand.players
        self.stacks = list(hand.starting)
        self.bets = [0] * players
        self.live = [True] * players
        self.queue: list[int] | None = []  # None: the round's queue, not yet ordered
        self.lines: list[str] = []
        self.dealing: dict[int, list[Card | None]] = {}  # cards of one deal, per player
        self.held: list[list[Card]] = [[] for _ in range(players)]  # in dealing order
        self.replacements: dict[int, list[Card | None]] = {}  # a draw's new cards, per player

    def actions(self) -> list[str]:
        lines = self.lines
        for event in self.events:
            if not isinstance(event, ev.DealHole | ev.DealUp):
                self._flush_deal()
            if not isinstance(event, ev.Draw | ev.Discards | ev.Reshuffle):
                self._flush_draw()
            match event:
                case (
                    ev.PostAnte(player=player, amount=amount)
                    | ev.PostDead(player=player, amount=amount)
                ):
                    self.stacks[player] -= amount
                case ev.PostBlind(player=player, amount=amount):
                    self.stacks[player] -= amount
                    self.bets[player] += amount
                case (
                    ev.DealHole(player=player, cards=cards) | ev.DealUp(player=player, cards=cards)
                ):
                    self.dealing.setdefault(player, []).extend(cards)
                    self.held[player].extend(card for card in cards if card is not None)
                case ev.StreetStart(index=index):
                    self._start_round(index)
                case ev.Burn() | ev.DealBoard() | ev.Show() | ev.Muck() | ev.HandOver():
                    self._close_round()
                    if isinstance(event, ev.DealBoard):
                        lines.append(f"d db {format_phh_cards(event.cards)}")
                    elif isinstance(event, ev.Show):
                        # in dealing order, as PHH shows them; cards nobody had seen last
                        held = self.held[event.player]
                        shown = [c for c in held if c in event.cards]
                        shown += [c for c in event.cards if c not in held]
                        lines.append(f"p{event.player + 1} sm {format_phh_cards(shown)}")
                    elif isinstance(event, ev.Muck):
                        lines.append(f"p{event.player + 1} sm")
                case ev.Draw(player=player, discarded=discarded, drawn=drawn):
                    self._close_round()
                    held = self.held[player]
                    held[:] = [c for c in held if c not in discarded]
                    held.extend(card for card in drawn if card is not None)
                    if drawn:
                        self.replacements[player] = list(drawn)
                    lines.append(f"p{player + 1} sd {format_phh_cards(discarded)}".rstrip())
                case ev.Fold(player=player):
                    self._acted(player, f"p{player + 1} f")
                    self.live[player] = False
                case ev.Check(player=player):
                    self._acted(player, f"p{player + 1} cc")
                case ev.Call(player=player, amount=amount):
                    self._acted(player, f"p{player + 1} cc")
                    self._put(player, amount)
                case ev.BringIn(player=player, amount=amount):
                    self._acted(player, f"p{player + 1} pb")
                    self._put(player, amount)
                case ev.Bet(player=player, to=to, amount=amount):
                    self._acted(player, f"p{player + 1} cbr {to}")
                    self._put(player, amount)
                    self.queue = self._rotation(player + 1, exclude=player)
                case _:
                    pass
        self._flush_deal()
        self._flush_draw()
        return lines

    def _flush_deal(self) -> None:
        for player in sorted(self.dealing):
            self.lines.append(f"d dh p{player + 1} {format_phh_cards(self.dealing[player])}")
        self.dealing.clear()

    def _flush_draw(self) -> None:
        if not self.replacements:
            return
        for player in sorted(self.replacements):
            self.lines.append(f"d dh p{player + 1} {format_phh_cards(self.replacements[player])}")
        self.replacements.clear()

    def _put(self, player: int, amount: int) -> None:
        self.stacks[player] -= amount
        self.bets[player] += amount

    def _able(self, player: int) -> bool:
        return self.live[player] and self.stacks[player] > 0

    def _rotation(self, start: int, exclude: int | None = None) -> list[int]:
        players = self.hand.players
        order = [(start + offset) % players for offset in range(players)]
        return [p for p in order if p != exclude and self._able(p)]

    def _start_round(self, index: int) -> None:
        self.queue = None
        if index > 0:
            self.bets = [0] * self.hand.players  # the first round keeps the blinds

    def _acted(self, player: int, line: str) -> None:
        if self.queue is None:
            self.queue = self._opening_queue(player)
        if player in self.queue:
            self.queue.remove(player)
        self.lines.append(line)

    def _opening_queue(self, first: int) -> list[int]:
        """PokerKit's queue at the start of a round: players with chips who could still lose
        some (an effective stack above nothing)."""
        totals = sorted(b + s for b, s, alive in zip(self.bets, self.stacks, self.live,
                                                     strict=True) if alive)  # fmt: skip
        second = totals[-2] if len(totals) > 1 else 0
        return [p for p in self._rotation(first) if second - self.bets[p] > 0]

    def _close_round(self) -> None:
        # Only the last player with chips is left to close a round the engine ended (where a
        # book ends it otherwise, e.g. the blind without an option of qld s24(10), the engine's
        # actions stand as they are).
        able = [p for p in range(self.hand.players) if self._able(p)]
        if self.queue and sum(self.live) > 1 and len(able) == 1 and able[0] in self.queue:
            self.lines.append(f"p{able[0] + 1} cc")
        self.queue = []
