# ruff: noqa: E501  (the document's tables are long lines of Markdown)
"""Write docs/protocol.md from the protocol's schemas (croupier.server.protocol) and the
descriptions and examples below: ``python tools/protocol_doc.py > docs/protocol.md``.
tests/test_server_protocol.py checks the document against the code."""

from __future__ import annotations

import json

from croupier.server.protocol import CLIENT_MESSAGES, ERROR_CODES, MAX_MESSAGE, SERVER_MESSAGES

HEAD = (
    f"""# The card room protocol

`croupier serve` speaks JSON over one WebSocket per client, at `/ws`, and plain HTTP for the
rest (accounts, the lobby, the ledger, hand histories). `croupier.client` implements it in
Python; the browser page uses the same messages.

## Rules of the road

- One JSON object per text frame, at most {MAX_MESSAGE} characters; every object has a `type`.
- Every client message has an `id`, the client's action id (1-64 letters, digits, `_ . : -`).
  The server answers each with `ok` (applied; `duplicate: true` when that account already sent
  that id, which is then not applied again) or `error` with the same `id`. Resend after a lost
  connection with the same id: it is applied once.
- The first message is `hello` with a session token from `POST /api/login` or
  `POST /api/register`. Until then only `hello` and `ping` are answered.
- Nothing is sent before it is stored: a player hears of an action only once the database has
  committed it.
- Each seat is sent only what it may see: its own hole cards, cards face up, the board, and
  cards shown at the showdown. Other hole cards, burns and the deck never leave the server;
  spectators see no hole card at all. Hidden cards are written `??`.
- Players in events are numbered in deal order (0 is the first seat left of the button); a
  hand's `order` gives the seat of each. Seats are numbered 1..N.
- Times (`clock_end`, `bank_end`) are absolute, in seconds since the epoch: the action clock
  runs out at `clock_end`, then the time bank until `bank_end`, then the server checks or folds
  for the player. A player timed out while disconnected in `sit_out_after` hands sits out until
  they come back.
- Messages are rate-limited per connection (20 a second, bursts of 40, by default).
- A table lives in one server process. Asking another process about it gets `error` code
  `elsewhere` with the `url` of the process to connect to.

## Error codes

| code | meaning |
|---|---|
"""
    + "".join(f"| `{code}` | {text} |\n" for code, text in ERROR_CODES.items())
    + """
## HTTP

| request | body | answer |
|---|---|---|
| `POST /api/register` | `{"name", "password"}` | `{"account", "name", "role", "token"}`; a welcome cash-in |
| `POST /api/login` | `{"name", "password"}` | `{"account", "name", "role", "token"}` |
| `POST /api/logout` | | `{"ok": true}` (the token no longer works) |
| `GET /api/me` | | `{"account", "name", "role", "balance"}` |
| `GET /api/tables?game=&rulebook=&structure=&stakes=&open_seats=1` | | `{"tables": [{"table", "name", "spec", "seats_taken", "hands"}]}` |
| `POST /api/tables` | `{"name", "spec": {"game", "rulebook", "structure", "stakes", "seats", "buy_in", "rake"}, "clock", "bank", "pause", "sit_out_after"}` | `{"table", "name", "spec"}`, or 400 with the rule that refuses it |
| `GET /api/tables/{id}` | | a spectator's `state` message |
| `GET /api/ledger` | | `{"balance", "rows": [{"at", "kind", "table", "hand", "amount", "memo"}]}` |
| `GET /api/hands` | | the hands you were dealt: `{"hands": [{"hand", "table", "number", "status", "started"}]}` |
| `GET /api/hands/{id}/phh` | | the hand as PHH, as your seat saw it (`?view=house`: every card, admins only) |
| `POST /api/cashier` (dealer, admin) | `{"name", "amount"}` | `{"name", "balance"}`: chips cashed in from the cage |
| `POST /api/accounts/{name}/role` (admin) | `{"role"}` | `{"name", "role"}` |
| `GET /api/ledger/check` (dealer, admin) | | `{"balanced", "problems"}` |
| `GET /api/audit` (dealer, admin) | | the last 500 audit rows: actions, refusals, rulings |
| `GET /api/health` | | `{"ok", "server", "tables"}` |

Send the token as `Authorization: Bearer <token>`. Errors are `{"error": "..."}` with a 4xx
status.

## Messages
"""
)

CLIENT = {
    "hello": (
        "Authenticate this connection. The answer is `welcome`, then a `state` for every "
        "table you sit at (your seat, your hand intact after a reconnection).",
        {"type": "hello", "id": "a1", "token": "Jx3...token"},
    ),
    "ping": ("Keep-alive; answered with `pong`.", {"type": "ping", "id": "a2"}),
    "watch": (
        "Follow a table: a `state` now, then `events`, `hand_over` and `seats` as they "
        "happen. Spectators see no hole cards.",
        {"type": "watch", "id": "a3", "table": 1},
    ),
    "unwatch": ("Stop following a table.", {"type": "unwatch", "id": "a4", "table": 1}),
    "sit": (
        "Buy in: `chips` move from your balance to the table (a `buy_in` ledger row). The "
        "table's book decides the minimum (au 7.4, qld s19(3)(a), cardroom buy-in 1). During "
        "a hand you wait for the next one.",
        {"type": "sit", "id": "a5", "table": 1, "seat": 3, "chips": 200},
    ),
    "leave": (
        "Leave the table with your chips (a `cash_out` row). Dealt into the hand in "
        "progress, you leave when it ends (au 7.5, qld s19(4)).",
        {"type": "leave", "id": "a6", "table": 1},
    ),
    "top_up": (
        "Add chips from your balance, not while dealt into a hand (au 7.5; cardroom buy-in 2).",
        {"type": "top_up", "id": "a7", "table": 1, "chips": 100},
    ),
    "sit_out": (
        "Keep your seat but be dealt out from the next hand.",
        {"type": "sit_out", "id": "a8", "table": 1},
    ),
    "sit_in": ("Be dealt in again.", {"type": "sit_in", "id": "a9", "table": 1}),
    "act": (
        "Your move in hand number `hand`: `fold`, `check_or_call`, `bet_or_raise` (with "
        "`amount`, the total to bet or raise to this round), `bring_in` (stud), `draw` "
        "(with `cards`, the discards; none stands pat). A move the rules refuse gets "
        "`error` code `refused` with the engine's words, which name the clause.",
        {
            "type": "act",
            "id": "a10",
            "table": 1,
            "hand": 12,
            "action": "bet_or_raise",
            "amount": 60,
        },
    ),
    "add_bot": (
        "The table's owner (or a dealer) seats a bot, staked from the cage with the table's "
        "minimum buy-in (a dealer may give `chips`). The bot sees only its seat's view.",
        {"type": "add_bot", "id": "a11", "table": 1, "seat": 2},
    ),
    "void_hand": (
        "A dealer or admin voids the hand in progress: every contribution goes back "
        "(rws 5.1; cardroom irregularities 3), with a ledger row per seat and an audit "
        "ruling.",
        {"type": "void_hand", "id": "a12", "table": 1, "reason": "two cards exposed in the deal"},
    ),
}

LEGAL = {
    "can_fold": True,
    "can_check": False,
    "call": 2,
    "raise_range": [4, 200],
    "bring_in": None,
    "facing": 2,
    "unit": 1,
    "all_in": 200,
    "text": "call 2 · raise 4..200 · fold",
}
SEATS = [
    {
        "seat": 1,
        "name": "alice",
        "chips": 200,
        "status": "playing",
        "leaving": False,
        "connected": True,
        "bot": False,
        "bank": 60.0,
    },
    {
        "seat": 2,
        "name": "Bea-bot-1-2",
        "chips": 200,
        "status": "playing",
        "leaving": False,
        "connected": True,
        "bot": True,
        "bank": 60.0,
    },
]
SERVER = {
    "welcome": (
        "The answer to `hello`: who you are and where you sit.",
        {
            "type": "welcome",
            "account": 7,
            "name": "alice",
            "role": "player",
            "balance": 9800,
            "seats": [{"table": 1, "seat": 1}],
        },
    ),
    "ok": (
        "A request applied (or, with `duplicate`, already applied before).",
        {"type": "ok", "id": "a10", "duplicate": False},
    ),
    "error": (
        "A request refused, or (with `id` null) news about the connection.",
        {
            "type": "error",
            "id": "a10",
            "code": "refused",
            "message": "raise to 3 is below the minimum 4 (at least the previous bet or "
            "raise (au 11.5(d), rws 3.3)); legal: call 1 · raise 4..200 · fold",
        },
    ),
    "pong": ("The answer to `ping`.", {"type": "pong", "id": "a2"}),
    "state": (
        "Everything about a table as you may see it: after `watch`, `sit`, a reconnection "
        "and each new hand. `you` is your seat (null: watching). `legal` is present only "
        "for the seat to act.",
        {
            "type": "state",
            "table": 1,
            "name": "Demo",
            "spec": {
                "game": "holdem",
                "rulebook": "rws",
                "structure": None,
                "stakes": "1/2",
                "seats": 6,
                "buy_in": None,
                "rake": None,
            },
            "you": 1,
            "seats": SEATS,
            "hand": {
                "number": 12,
                "button": 2,
                "order": [1, 2],
                "starting": [200, 200],
                "events": [
                    {"event": "PostBlind", "player": 1, "amount": 1, "all_in": False},
                    {"event": "PostBlind", "player": 0, "amount": 2, "all_in": False},
                    {"event": "DealHole", "player": 0, "cards": ["Ah", "Kd"]},
                    {"event": "DealHole", "player": 1, "cards": ["??", "??"]},
                    {"event": "StreetStart", "index": 0},
                ],
                "pot": 3,
                "to_act": 1,
                "clock_end": 1767225630.5,
                "bank_end": 1767225690.5,
                "legal": None,
            },
        },
    ),
    "events": (
        "What happened in the hand since event number `from`, as you may see it, with "
        "whose turn it is now; `cause` is the action id that caused it.",
        {
            "type": "events",
            "table": 1,
            "hand": 12,
            "from": 5,
            "events": [{"event": "Call", "player": 1, "amount": 1, "all_in": False}],
            "pot": 4,
            "cause": "b7",
            "to_act": 1,
            "clock_end": 1767225640.5,
            "bank_end": 1767225700.5,
            "legal": LEGAL,
        },
    ),
    "hand_over": (
        "A hand ended: the stacks by seat and the commission, or void with the "
        "ruling (every contribution returned).",
        {
            "type": "hand_over",
            "table": 1,
            "hand": 12,
            "void": False,
            "reason": "",
            "stacks": {"1": 196, "2": 204},
            "commission": 0,
        },
    ),
    "seats": (
        "Who sits where, with chips and status, after any change.",
        {"type": "seats", "table": 1, "seats": SEATS},
    ),
}


def section(kind: str, direction: str, text: str, schema: object, example: object) -> str:
    return (
        f"### `{kind}` ({direction})\n\n{text}\n\nSchema:\n\n```json\n"
        f"{json.dumps(schema, indent=2, ensure_ascii=False)}\n```\n\nExample:\n\n```json\n"
        f"{json.dumps(example, ensure_ascii=False)}\n```\n\n"
    )


def document() -> str:
    parts = [HEAD, "\n### Client to server\n\n"]
    for kind, schema in CLIENT_MESSAGES.items():
        text, example = CLIENT[kind]
        parts.append(section(kind, "client → server", text, schema, example))
    parts.append("### Server to client\n\n")
    for kind, schema in SERVER_MESSAGES.items():
        text, example = SERVER[kind]
        parts.append(section(kind, "server → client", text, schema, example))
    return "".join(parts).rstrip() + "\n"


if __name__ == "__main__":
    print(document(), end="")
