"""Table chat: what the players at a table say to each other, and the floor's word.

The players seated at the table (and dealers and admins) write; everyone watching the table
reads. A line is plain text (control characters dropped, spaces run together, at most
:data:`MAX_CHARS` characters; the page shows it as text, never as markup), at most
:data:`RATE` lines in :data:`PER` seconds an account, and stored in the audit log before anyone
hears it. A dealer or an admin silences a seat's player at the table (and lets them speak
again). While a hand is in play, a player dealt into it may not name one of their own hole
cards (a house rule: one player to a hand, so no cards are told to the table); the server
never writes a card into a line of its own. A player mutes another in their own page.

The last :data:`KEPT` lines of each table are kept in memory, and sent to a viewer who starts
watching; the audit log keeps every line."""

from __future__ import annotations

import re
import time
from collections import deque
from dataclasses import dataclass, field

from croupier.server.records import Refused
from croupier.server.rooms.ports import Listener
from croupier.server.rooms.room import Room
from croupier.server.store import rooms as rows

__all__ = ["KEPT", "MAX_CHARS", "PER", "RATE", "Chats", "TableChat", "clean"]

MAX_CHARS = 200
RATE, PER = 3, 5.0  # lines, seconds
KEPT = 50
FLOOR_ROLES = ("dealer", "admin")
HOUSE_RULE = "house rule: one player to a hand"
_CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKAtjqka])([cdhsCDHS])(?![A-Za-z0-9])")
_SPACES = re.compile(r"\s+")


def clean(text: str) -> str:
    """``text`` as a chat line: printable characters only, each run of spaces one space."""
    printable = "".join(ch if ch.isprintable() else " " for ch in text)
    return _SPACES.sub(" ", printable).strip()


def _cards_named(text: str) -> set[str]:
    """The cards ``text`` names, written as the server writes them ("Ah", "Td")."""
    named = set()
    for rank, suit in _CARD.findall(text):
        named.add(("T" if rank == "10" else rank.upper()) + suit.lower())
    return named


@dataclass
class TableChat:
    """One table's chat: its last lines, the accounts the floor silenced, each account's
    recent lines (for the rate)."""

    lines: deque[dict[str, object]] = field(default_factory=lambda: deque(maxlen=KEPT))
    silenced: set[int] = field(default_factory=set)
    recent: dict[int, deque[float]] = field(default_factory=dict)


class Chats:
    """The chat of every table this process runs, by table id."""

    def __init__(self) -> None:
        self.tables: dict[int, TableChat] = {}

    def of(self, table: int) -> TableChat:
        chat = self.tables.get(table)
        if chat is None:
            chat = self.tables[table] = TableChat()
        return chat

    def recall(self, room: Room, conn: Listener) -> None:
        """Send a viewer who starts watching the table's last lines."""
        for line in self.of(room.id).lines:
            conn.send(line)

    async def say(
        self, room: Room, conn: Listener, request: str, text: str, now: float | None = None
    ) -> None:
        """``conn``'s player says ``text`` at ``room``'s table: checked, stored in the audit
        log, then sent to everyone watching. Refused (one line, why) otherwise."""
        account = conn.account_id
        seat = room.seat_of(account)
        floor = conn.role in FLOOR_ROLES
        if seat is None and not floor:
            raise Refused(
                "refused", "only the players at the table (and the floor) chat there; watchers read"
            )
        chat = self.of(room.id)
        if account in chat.silenced:
            raise Refused("refused", "the floor has silenced you at this table")
        line = clean(text)
        if not line:
            raise Refused("invalid", "a chat line needs some text")
        if len(line) > MAX_CHARS:
            raise Refused("invalid", f"a chat line is at most {MAX_CHARS} characters")
        when = time.time() if now is None else now
        assert account is not None
        said = chat.recent.setdefault(account, deque())
        while said and said[0] <= when - PER:
            said.popleft()
        if len(said) >= RATE:
            raise Refused(
                "rate_limited", f"at most {RATE} chat lines in {PER:g} seconds: wait a moment"
            )
        if seat is not None and room.game.dealt_in(seat) and room.game.hand is not None:
            hole = {str(c) for c in room.game.hand.hole[room.game.order.index(seat)]}
            if _cards_named(line) & hole:
                raise Refused(
                    "refused",
                    "your cards are not told to the table while the hand is in play "
                    f"({HOUSE_RULE})",
                )
        said.append(when)
        message: dict[str, object] = {
            "type": "chat",
            "table": room.id,
            "name": conn.name,
            "seat": seat,
            "text": line,
            "at": when,
            "floor": False,
        }
        await self._store_and_send(room, account, request, "chat", line, message)

    async def silence(
        self, room: Room, conn: Listener, request: str, seat: int, silenced: bool
    ) -> None:
        """A dealer or an admin silences the player in ``seat`` at the table (or lets them
        speak again); said to the table by the floor."""
        if conn.role not in FLOOR_ROLES:
            raise Refused("unauthorised", "only a dealer or an admin silences a player")
        state = room.seats.get(seat)
        if state is None or state.bot is not None:
            raise Refused("not_found", f"no player sits in seat {seat}")
        chat = self.of(room.id)
        if silenced:
            chat.silenced.add(state.account)
        else:
            chat.silenced.discard(state.account)
        words = "silenced by the floor" if silenced else "may chat again"
        line = f"{state.name} (seat {seat}) {words}"
        message: dict[str, object] = {
            "type": "chat",
            "table": room.id,
            "name": conn.name,
            "seat": None,
            "text": line,
            "at": time.time(),
            "floor": True,
        }
        await self._store_and_send(room, conn.account_id, request, "chat_silence", line, message)

    async def _store_and_send(
        self,
        room: Room,
        account: int | None,
        request: str,
        kind: str,
        detail: str,
        message: dict[str, object],
    ) -> None:
        table, hand = room.id, room.hand_id if room.game.in_hand else None
        await room.store.write(
            lambda c: rows.audit(c, account, table, hand, request, kind, "applied", detail), table
        )
        self.of(table).lines.append(message)
        for viewer in list(room.viewers):
            viewer.send(message)
