# ruff: noqa: E501  (the document's tables are long lines of Markdown)
"""Write docs/protocol.md from the protocol's schemas (croupier.server.web.protocol) and the
descriptions and examples below: ``python tools/protocol_doc.py > docs/protocol.md``.
tests/test_server_protocol.py checks the document against the code."""

from __future__ import annotations

import json

from croupier.server.web.protocol import CLIENT_MESSAGES, ERROR_CODES, MAX_MESSAGE, SERVER_MESSAGES

HEAD = (
    f"""# The card room protocol

`croupier serve` speaks JSON over one WebSocket per client, at `/ws`, and plain HTTP for the
rest (accounts, the lobby, the ledger, hand histories). `croupier.client` implements it in
Python; the browser page uses the same messages.

## Rules of the road

- One JSON object per text frame, at most {MAX_MESSAGE} characters; every object has a `type`. A
  longer message is answered with `too_large`; a frame over 64 KiB is not read at all, and the
  server closes the connection (WebSocket close code 1009). Binary frames are `malformed`. A
  text frame that is not UTF-8 closes the connection (1007; the server logs one line).
- Every client message has an `id`, the client's action id (1-64 letters, digits, `_ . : -`).
  The server answers each with `ok` (applied; `duplicate: true` when that account already sent
  that id, which is then not applied again) or `error` with the same `id`. Resend after a lost
  connection with the same id: it is applied once. A resend repeats the request exactly: the
  same id with a different request (of the account's last 64) is refused, `id_reused`. `watch`
  and `unwatch` follow the rule too (their ids are kept by the server process in memory, as
  they store nothing: after a restart a resend is applied again, which changes nothing). As
  following a table belongs to a connection, a `watch` resent on a new connection still makes
  that one follow the table (its `state` first), then `ok` with `duplicate: true`.
- An `act` from a connection that watches the table (it sat, or sent `watch`) is answered by
  the `events` message whose `cause` is its `id`: the action stored and broadcast, with no `ok`
  after it (one message fewer for every action). A refused `act` gets its `error`, a resent one
  `ok` with `duplicate: true`, and one from a connection that does not watch the table `ok`.
- The first message is `hello` with a session token from `POST /api/login` or
  `POST /api/register`. Until then only `hello` and `ping` are served; anything else is
  answered with `error` code `unauthorised`. A connection that has not said hello within 5
  seconds (`croupier serve --hello-seconds`) is closed (close code 4002); an address holds at
  most 64 connections that have not said hello (`--sockets-before-hello`), and one more is
  closed at once (4003).
- Every message after `hello` (but `ping`) is checked against the token's validity and the
  account's role as they are now. A logout (`POST /api/logout`) closes every connection that
  said hello with that token at once (close code 4001) in the process that logged it out; a
  role given (`POST /api/accounts/{{name}}/role`) is the connections' role from their next
  message (a dealer made a player is refused `unauthorised` at the next `void_hand`). Another
  server process on the same database learns either within 2 seconds
  (`--session-seconds`: each process reads all its connections' tokens again that often, in
  one query; 0: it checks the database at every message instead): then the logged-out token's
  connections are closed (4001), idle or not, and its next message is refused
  `unauthorised`. A token past its expiry is treated as logged out.
- Nothing is sent before it is stored: a player hears of an action only once the database has
  committed it, and a `state` (the answer to `watch`, the tables heard after `hello`, and
  `GET /api/tables/{id}`), whenever it is asked for, holds the hand exactly as stored: a deal or
  an action being written is not in it, and the `events` that follow go on where it ends.
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
- A client must read what it is sent: once 5,000 messages wait to be sent to a connection, the
  server drops them and closes it (WebSocket close code 1008, sent at once behind what the
  connection has buffered, even while a send to it waits). Reconnect and `watch` again.
- The close codes the server chooses: 1007 (a text frame not UTF-8), 1008 (a client that does
  not read), 1009 (a frame over 64 KiB), 4001 (logged out), 4002 (no hello in time), 4003 (too
  many connections before hello from one address).
- A table (or tournament) lives in one server process. Asking another process about it over
  the WebSocket gets `error` code `elsewhere` with the `url` of the process to connect to. Over
  HTTP any process answers: a request about it is passed to the process that runs it, whose
  answer comes back as is (once: a request passed on already gets 409 with that `url`).

## Error codes

| code | meaning |
|---|---|
"""
    + "".join(f"| `{code}` | {text} |\n" for code, text in ERROR_CODES.items())
    + """
## HTTP

| request | body | answer |
|---|---|---|
| `POST /api/register` | `{"name", "password"}`: a name of 2-24 letters, digits, `_ . -` (not of the form of the house's bots' names, such as `Ada-bot-3-1` or `t2-bot1`), a password of 8-200 characters | `{"account", "name", "role", "token"}`; a welcome cash-in (`croupier serve --welcome`, 10,000 chips by default); 429 past the house's number of new accounts an address may make in an hour (`--registrations-per-hour`, 20) |
| `POST /api/login` | `{"name", "password"}` | `{"account", "name", "role", "token"}`; 401 for a wrong name or password; 429 once an address has failed the house's number of times in 10 minutes (`--login-failures`, 30), or a name from any addresses (`--name-login-failures`, 100), the right password then refused too until the oldest failure is 10 minutes old (so guesses at a name can keep its owner out for that long: the house sets the limit); 503 while too many logins wait for a password check |
| `POST /api/logout` | | `{"ok": true}` (the token no longer works: this process's connections that said hello with it are closed, 4001; other processes' within `--session-seconds`) |
| `GET /api/me` | | `{"account", "name", "role", "balance", "seats", "transfers", "waits"}`; `seats`, `transfers` and `waits` as in `welcome` (the page's lobby reads it again every few seconds) |
| `GET /api/tables?game=&rulebook=&structure=&stakes=&open_seats=1` | | `{"tables": [{"table", "name", "spec", "seats_taken", "waiting", "hands", "closing"}]}`: open tables (`waiting`: how many are on the waiting list), and those closing after their hand (`closing` true) |
| `POST /api/tables` | `{"name", "spec": {"game", "rulebook", "structure", "stakes", "seats", "buy_in", "rake", "rake_cap", "short_buy_in"}, "clock", "bank", "pause", "sit_out_after"}`: every key optional, no other key; `rake_cap` the most commission a hand pays and `short_buy_in` the one short buy-in's size, where the book leaves them to the house (a cardroom table's is half the full buy-in unless given); house rules without a structure deal the game's usual one; `name` at most 60 printable characters; `clock` 1-3600 seconds, `bank` and `pause` 0-3600 seconds, `sit_out_after` 0-100 hands; a buy-in (given, or the book's for the stakes) of at most 10^9 chips | `{"table", "name", "spec"}`, or 400 with the rule that refuses it; 409 when a player already owns the house's number of open tables (`croupier serve --tables-per-player`, 20 by default; dealers and admins: any) |
| `GET /api/tables/{id}` | | a spectator's `state` message (404; 410 once closed) |
| `GET /api/tables/{id}/rules` | | the table's `spec`, `minimum_buy_in`, `big_blind`, `structure` and its book's settings for its game, each with its clause (`rulebook`; null for house rules); a setting the house chose at this table has the table's `value` and `"chosen": true` |
| `GET /api/rulebooks` | | `{"rulebooks": [{"name", "title", "games": [{"game", "structures"}]}], "games", "structures"}`: the shipped books, and every game and structure of croupier's house rules |
| `GET /api/rulebooks/{name}?game=&structure=` | | the book's `name`, `title`, `citation`, `games` and its settings, each with its clause: all of them, or those that apply to `game` (and `structure`); 400 for a game the book does not deal |
| `GET /api/ledger` | | `{"balance", "rows": [{"at", "kind", "table", "hand", "amount", "memo"}]}`: your last 500 ledger rows, oldest first |
| `GET /api/hands` | | the hands you were dealt, oldest first: `{"hands": [{"hand", "table", "table_name", "game", "rulebook", "stakes", "number", "status", "started", "finished", "net"}]}` (`net`: your result in the hand, in chips) |
| `GET /api/hands/{id}/phh` | | the hand as PHH, as your seat saw it (`?view=house`: every card, admins only), with its identity: `hand` (this id), `table`, `seat_count`, `seats`, the start (`year` .. `time`, `time_zone = "UTC"`) |
| `GET /api/hands/{id}/pokerstars` | | the hand as PokerStars text, as your seat saw it (`?view=house`: every card, admins only): `PokerStars Hand #{id}`, the start in UTC and ET, the table's name and size, the real seats; every game PokerStars deals (else 422 with the reason: PHH covers it) |
| `GET /api/hands/{id}/events` | | a finished hand you were dealt into, as your seat saw it, to replay step by step: `{"hand", "table", "table_name", "number", "spec", "button", "order", "names", ...}` with its events |
| `POST /api/cashier` (dealer, admin) | `{"name", "amount"}`: a player's, dealer's or admin's name, 1-10^9 chips | `{"name", "balance"}`: chips cashed in from the cage |
| `POST /api/accounts/{name}/role` (admin) | `{"role"}` | `{"name", "role"}`; the account's open connections have the role from their next message (other processes': within `--session-seconds`) |
| `GET /api/ledger/check` (dealer, admin) | | `{"balanced", "problems"}` |
| `GET /api/audit` (dealer, admin) | | `{"rows": [{"at", "account", "name", "table", "hand", "request", "kind", "outcome", "detail"}]}`: the last 500 audit rows, newest first: actions, refusals, rulings, cash-ins and roles given |
| `GET /api/health` | | `{"ok", "server", "tables", "stats"}`: the process's name, the tables it runs, and its counters (the load bench reads them) |
| `GET /api/tournaments` | | the lobby: `{"tournaments": [{"tournament", "name", "status", "starts_at", "buy_in", "registered", "clock"}]}` |
| `POST /api/tournaments` (dealer, admin) | `{"name", "settings": {a tournament file's fields} or "file": "<TOML>", "starts_at", "seed", "clock", "pause", "bot"}` | the tournament's details, or 400 naming the key and the rule |
| `GET /api/tournaments/{id}` | | details: the lobby's row, `tables` (each with its `size` and the number of its `hand` in play, or null), `players` (status, chips, table, seat, entries, `penalty_hands`, `penalty_seconds`), `standings`, `prizes`, `controls` (each of the director's controls and the clause it applies) |
| `POST /api/tournaments/{id}/register` | | `{"tournament", "name", "done"}`: the buy-in leaves your balance (`buy_in` rows: the pool, the house's `fee`); after the start, a late entry or a re-entry while the library allows it (league 19), else 409 naming the clause |
| `POST /api/tournaments/{id}/rebuy`, `/add_on` | | `{"tournament", "name", "done"}`: a rebuy or the add-on (house options) between your hands, when the settings offer them; its price as a buy-in's |
| `POST /api/tournaments/{id}/unregister` | | before the start only: the whole price back (`refund` rows) |
| `GET /api/tournaments/{id}/hands` | | the finished hands of the tournament you were dealt into: `{"hands": [{"hand", "table", "number", "started"}]}` |
| `GET /api/tournaments/{id}/hands/{hand}/phh` | | the hand as PHH, as your seat saw it (`?view=house`: every card, admins only) |
| `GET /api/tournaments/{id}/hands/{hand}/pokerstars` | | the hand as PokerStars text with the tournament's header and level, as your seat saw it (`?view=house`: every card, admins only) |
| `GET /api/tournaments/{id}/hands/{hand}/log` | | the hand as croupier's event log (one JSON line: every event, as your seat saw it, with the hand's number, table, seats, start, tournament and level; `?view=house`: every card, admins only) |
| `POST /api/tournaments/{id}/bots` (dealer, admin) | `{"count"}` | `{"tournament", "bots"}`: the house enters bots, staked from the cage |
| `POST /api/tournaments/{id}/director` (dealer, admin) | `{"action", "player", "table", "seat", "seconds", "orbits", "minutes"}`; action: `start`, `pause`, `resume`, `add_time` (seconds), `close_registration`, `move` (player, table, seat), `penalty` (player, orbits or minutes), `disqualify`, `absent`, `present` (player), `void` (table, reason: the hand in play there, every seat back to what it was dealt with, rws 5.1) | `{"tournament", "done", "clock"}`; audited, applied or refused; 403 for a player, 409 with the clause when the rules refuse it |
| `GET /api/tournament_templates` | | `{"denominations", "levels": {name: {"title", "chips", "levels"}}, "payouts": {name: {"title", "plan"}}}`: the level structures and payout plans the director's console starts from (`croupier.tournament.templates`) |
| `POST /api/tournament_check` (dealer, admin) | `{"settings": {a tournament file's fields}, "entries"}` | `{"entries", "pool", "prizes", "schedule"}`: the settings checked by the library without making a tournament, and the prizes a field of `entries` would share; else 400 naming the key and the rule (payouts must sum to 100) |
| `GET /api/tournaments/{id}/clock` | `?key=` for a private screen | the room's clock screen (`/clock/{id}`, no sign-in): `{"tournament", "name", "status", "starts_at", "clock", "stage", "next" (the next two stages), "prizes", "leader" (null unless the director shows it), "private"}`; 403 for a private screen without its key |
| `GET /api/tournaments/{id}/console` (dealer, admin) | | the details, and `registrants`, `prizes` (as the field stands), `buy_in`, `stage`, `schedule`, `draw` (the seat draw, league 2), `slips` (each move: `from_table`, `from_seat`, `table`, `seat`, `reason`, `text`), `log` (every event a line, in the log's order), `screen` (`private`, `leader`, `link`) |
| `POST /api/tournaments/{id}/screen` (dealer, admin) | `{"private", "leader"}` | `{"private", "leader", "link"}`: the clock screen kept to its link's key, the chip leader shown; audited, the last one stands |
| `POST /api/live` (dealer, admin) | `{"name", "book", "game", "structure", "stakes": 10 or "5/10", "options", "denominations", "seats": [{"name", "chips"}]}` (seats in seat order, seat 1 on the dealer's left: the book places the first button, or draws cards for it) | a live table (real cards, croupier as the dealer's assistant): its view, below, its number `live`; 400 with the book's clause for what it does not deal. Each applied step is stored in the table's journal before it is answered; after a restart, or in another process, the table is made again from it |
| `GET /api/live` (dealer, admin) | | `{"live": [{"live", "name", "book", "game", "players", "hand"}]}`: your live tables (an admin: everyone's), newest first; `hand` where this process holds the table |
| `GET /api/live/{id}` (its dealer, admin) | | the view: `seats` (`p`, `name`, `stack`, `bet`, `folded`, `all_in`, `hole`, `up`, `to_act`, `button`, `seat`), `chairs` (every seat: `seat`, `name`, `chips`, `state` dealt/out/away/empty, `owes` the missed blinds), `button_seat` (`seat`, `name`, `dead`, `blinds`), `table_rules` (the book's `first_button` and `blind_policy`: `clause`, `value`), `draw` (the cards drawn for the first button), `house` (`missed_blinds`, `new_player`: no book rules them), `board`, `prompt`, `step` (the dealer step due: `kind`, `player`, `count`, `up`), `show_first`, `legal` (`call`, `raise_range`, `can_check`, `can_fold`, `bring_in`, `facing`, `text`, `presets`: half the pot and the pot as raise-to amounts), `drawing` (the player to discard and the most cards), `posts` (who posted what, and why where it is no positional blind: a missed blind, a newcomer's post), `pending` (a ruling's choices), `pots` (`amount`, `eligible`), `results` (each pot's `amount`, `commission`, `winners`, `hands`), `pushed` (chips to push), `over`, `void`, `record` (this hand's steps and rulings), `hands` |
| `POST /api/live/{id}/step` (its dealer, admin) | `{"kind": "action", "player", "action", "amount"}` · `{"kind": "cards", "street": "hole"/"burn"/"flop"/"turn"/"river"/"board", "player", "cards"}` · `{"kind": "deal"}` · `{"kind": "show", "player", "cards"}` · `{"kind": "muck", "player"}` · `{"kind": "push"}` · `{"kind": "choose", "key", "player"}` · `{"kind": "report", "report", "answers"}` · `{"kind": "undo"}` (players from 0) | `{"done": {"input", "text", "rulings"}, "table": the view}`: the step as `croupier dealer`'s input line (docs/dealer.md), each ruling with its clause; 409 with the rule and what is legal, nothing changed |
| `POST /api/live/{id}/next` (its dealer, admin) | | the next hand's view, as the library's table deals it: the button and blinds by the book's policy (au's dead button, rws's and qld's moving button), missed blinds owed, who may play (a void hand: the same button and forced bets) |
| `POST /api/live/{id}/seat` (its dealer, admin) | `{"action": "sit", "seat", "name", "chips"}` · `{"action": "leave"/"away"/"back", "seat"}` | `{"done", "table": the view}`: a player sits down or leaves between hands, sits out or comes back, as the book allows (au 7.5, qld s19, rws 3.4); 409 with the rule |
| `GET /api/live/{id}/hands/{n}/phh`, `/log` (its dealer, admin) | | a finished hand as PHH, or as the event log (every event, the rulings and the dealer's inputs) |
| `GET /api/live_reports` (dealer, admin) | | `{"groups": [{"group", "reports": [{"verb", "usage", "about", "fields": [{"name", "kind", "required"}]}]}]}`: the irregularity reports as the page's dialog asks them |

Send the token as `Authorization: Bearer <token>`. Errors are `{"error": "..."}` with a 4xx
status (a tournament's refusals also carry the rule's `code`, and a table or tournament run by
another process the `url` to ask), also for a path that is no route (404) or a method a route
does not take (405). A body is a JSON object of at most 16,384 bytes (413 beyond). Logins and
registrations hash passwords on threads of their own; when 64 already wait, another gets 503.
The per-address limits count the connection's address: X-Forwarded-For is read only from the
proxies `croupier serve --forwarded-allow-ips` names (none by default, not even the loopback).

Every answer carries `Content-Security-Policy: default-src 'none'; script-src 'self';
style-src 'self'; img-src 'self' data:; connect-src 'self' ws://...; base-uri 'none';
form-action 'self'; frame-ancestors 'none'` (`connect-src` names the WebSocket address of each
server process of the room, to which the page follows a table), `X-Frame-Options: DENY`,
`X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer`.

The admin account `croupier serve --admin NAME` makes (or gives the role to) takes its password
from `--admin-password-file`, else the environment variable `CROUPIER_ADMIN_PASSWORD`, else a
prompt: never from the command line, which the process list shows.

## Tournaments

The rules are the tournament library's (`croupier.tournament`, docs/tournament.md): the seat
draw, the levels, balancing and breaking tables (league 14), late registration (league 19),
penalties (league 35) and disqualification (league 36), the prizes. The server deals each hand
the library sets up (its level's blinds and antes, its button and blinds due, league 12) and
stores the library's event log, each hand's setup and every move before telling anyone; after a
restart the tournament is rebuilt from its log (the clock's levels and pauses are absolute
times) and a hand in play is dealt again from its setup and stored moves.

A player follows their tournament with `tournament_watch` (also done for them on `hello`): a
`tournament_state` for their table, then `tournament_events` and `tournament_hand_over` as the
hand goes, and a new `tournament_state` after anything that changes the tournament (a level, a
pause, a move, an elimination). When the tournament moves a player (balancing, a broken table,
the final table, the director), their connection is sent `tournament_move` and then follows
the new table by itself; `croupier.client.TournamentView` does the same. Tournament tables are
numbered within their tournament. Tournaments run in the server process that loads them.

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
        "progress, your chips stay on the table until it ends (au 7.5, qld s19(4)) and then "
        "leave with you; meanwhile your hand folds, or checks when checking is free, as soon "
        "as it is your turn (an audit `left` ruling), without waiting for your clock.",
        {"type": "leave", "id": "a6", "table": 1},
    ),
    "wait": (
        "Join the table's waiting list: not seated, for a seat at a full table (refused while "
        "a seat is free and everyone on the list has a seat held: sit down); seated, for a "
        "seat change to `seat` (free now, or when it comes free), or without it to the next "
        "seat that comes free. A free seat goes by the book's priority (au 11.1(a): players "
        "seated first; qld s16(2): players in the game since it started, then the others, "
        "then newcomers), equals drawing cards for it (qld s16(3)-(4)); the draw's cards are "
        "in the audit log. A seated winner moves between hands and comes in there as a new "
        "player; a newcomer has the seat held (`offer` in the list) for two minutes (`croupier "
        "serve --seat-hold`) and takes it with `sit`. While anyone waits without a held seat, nobody else sits in a free "
        "one; and people come before bots: between hands a bot leaves, with its chips, for "
        "each newcomer no seat is free for. You hear the table while on the list.",
        {"type": "wait", "id": "a15", "table": 1, "seat": 4},
    ),
    "unwait": (
        "Leave the waiting list, giving up a seat held for you. Leaving the table also ends "
        "a seat change asked.",
        {"type": "unwait", "id": "a16", "table": 1},
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
        "`error` code `refused` with the engine's words, which name the clause. Applied, it "
        "is answered by the `events` it caused (their `cause` is this `id`), not by `ok`, "
        "when this connection watches the table.",
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
    "remove_bot": (
        "The table's owner (or a dealer or an admin) takes the bot in `seat` off the table, "
        "with its chips: at once between hands, else when the hand it is dealt into ends "
        "(its seat shows `leaving`).",
        {"type": "remove_bot", "id": "a17", "table": 1, "seat": 2},
    ),
    "void_hand": (
        "A dealer or admin voids the hand in progress: every contribution goes back "
        "(rws 5.1; cardroom irregularities 3), with a ledger row per seat and an audit "
        "ruling.",
        {"type": "void_hand", "id": "a12", "table": 1, "reason": "two cards exposed in the deal"},
    ),
    "close_table": (
        "The table's owner, a dealer or an admin closes the table: it deals no more hands and "
        "takes no new seats or chips (error `closed`). A hand in play ends as usual; then "
        "every seat is cashed out with its chips, and everyone watching is sent "
        "`table_closed`. A restart in between keeps it closing.",
        {"type": "close_table", "id": "a14", "table": 1, "reason": "the room closes at 2am"},
    ),
    "chat": (
        "Say a line in the table's chat (a player seated there, a dealer or an admin; "
        "watchers read it). The line is plain text: control characters are dropped and "
        "spaces run together; at most 200 characters (`invalid` beyond), at most 3 lines in 5 "
        "seconds an account (`rate_limited`). Refused while the floor has silenced you, and, "
        "while a hand is in play, a line naming one of your own hole cards (a house rule: one "
        "player to a hand). It is stored in the audit log (kind `chat`) before it is sent to "
        "everyone watching as `chat`. Muting another player is the page's own.",
        {"type": "chat", "id": "a21", "table": 1, "text": "nice hand"},
    ),
    "chat_silence": (
        "A dealer or an admin silences the player in `seat` at the table's chat (`silenced`: "
        "true), or lets them chat again (false). Audited (kind `chat_silence`) and said to "
        "the table as a `chat` line from the floor.",
        {"type": "chat_silence", "id": "a22", "table": 1, "seat": 3, "silenced": True},
    ),
    "tournament_watch": (
        "Follow a tournament: your own table while you play in it (the server moves you with "
        "it), else the `table` you name, else its first table. The answer is a "
        "`tournament_state`.",
        {"type": "tournament_watch", "id": "a13", "tournament": 3},
    ),
    "tournament_act": (
        "Your move at your tournament table in hand number `hand` (no-limit hold'em): `fold`, "
        "`check_or_call`, `bet_or_raise` with `amount`, the total to bet or raise to. Refused "
        "with the engine's words, naming the clause; while you are absent or sit out a "
        "penalty your hand is dead (league 27, 35).",
        {
            "type": "tournament_act",
            "id": "a14",
            "tournament": 3,
            "table": 2,
            "hand": 7,
            "action": "bet_or_raise",
            "amount": 60,
        },
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
CLOCK = {
    "level": 3,
    "on_break": False,
    "paused": False,
    "small_blind": 25,
    "big_blind": 50,
    "ante": 0,
    "big_blind_ante": 50,
    "remaining": 734.5,
    "next_break": 734.5,
    "players_left": 14,
    "entries": 18,
    "average_stack": 12857,
    "prize_pool": 90000,
    "registration_open": True,
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
WAITING = [
    {"name": "alice", "seat": 1, "wanted": 4, "since": 1796399010.0, "offer": None,
     "offer_until": None, "priority": 1, "group": "seated players (au 11.1(a))"},
    {"name": "carol", "seat": None, "wanted": None, "since": 1796399000.0, "offer": 3,
     "offer_until": 1796399120.0, "priority": 2, "group": "people joining (au 11.1(a))"},
]  # fmt: skip
SERVER = {
    "welcome": (
        "The answer to `hello`: who you are and where you sit. `transfers`: your rights, "
        "still open, to sit with the stack you had at a table the house closed (cardroom "
        "buy-in 3; `table_closed`'s `moved_stack` told you, if you were connected), each "
        "with the closed table, the chips, the limit it holds at (book, null for house "
        "rules; game, structure, stakes), the rule that gives it and when it ends (seconds "
        "since the epoch). `waits`: the waiting lists you are on (`wait`), each with the seat "
        "held for you there, if any, and until when; you hear those tables again, as the "
        "ones you sit at.",
        {
            "type": "welcome",
            "account": 7,
            "name": "alice",
            "role": "player",
            "balance": 9800,
            "seats": [{"table": 1, "seat": 1}],
            "waits": [{"table": 2, "offer": 4, "offer_until": 1796399120.0}],
            "transfers": [
                {
                    "from_table": 4,
                    "chips": 150,
                    "rulebook": "cardroom",
                    "game": "holdem",
                    "structure": "no_limit",
                    "stakes": "5/10",
                    "clause": "cardroom buy-in 3",
                    "expires": 1796400000.0,
                }
            ],
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
            "message": "raise to 3 is below the minimum 4: at least the previous bet or "
            "raise (au 11.5(d), rws 3.3); legal: call 1 · raise 4..200 · fold",
        },
    ),
    "pong": ("The answer to `ping`.", {"type": "pong", "id": "a2"}),
    "state": (
        "Everything about a table as you may see it: after `watch`, `sit`, a reconnection "
        "and each new hand. `you` is your seat (null: watching). `legal` is present only "
        "for the seat to act. `owner` is the account that made the table; `closing` says "
        "why the table is closing (null while it is open). `waiting` is the waiting list "
        "(public, like a card room's board) in the book's order for a seat that comes free: "
        "each name, the `seat` they sit in (a seat change asked, to the seat `wanted` or, "
        "null, to any; null: waiting to join), since when, the seat held for them "
        "(`offer`) with when the hold lapses (`offer_until`, seconds since the epoch), and "
        "their `priority` (1 comes first) with its `group` (au 11.1(a): players seated, then "
        "newcomers; qld s16(2): players in the game since it started, then other players, "
        "then newcomers). Within a group the list is in the order asked, but a draw of cards "
        "decides among them (qld s16(3)-(4)).",
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
            "owner": "alice",
            "closing": None,
            "you": 1,
            "seats": SEATS,
            "waiting": WAITING,
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
        "whose turn it is now; `cause` is the action id that caused it (null: the clock or "
        "a bot). To the player whose `act` it was, it is also that action's answer.",
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
        "Who sits where, with chips and status, and the waiting list, after any change.",
        {"type": "seats", "table": 1, "seats": SEATS, "waiting": WAITING},
    ),
    "seat_offer": (
        "A seat came free at a table whose waiting list you are on, and it is yours to take "
        "(`sit` there with a buy-in) until `until` (seconds since the epoch): sent to each of "
        "your connections, wherever they are, and shown in the table's `waiting` list.",
        {"type": "seat_offer", "table": 2, "name": "Friday 1/2", "seat": 4, "until": 1796399120.0},
    ),
    "table_closed": (
        "The table closed (`close_table`): every seat was cashed out to its account's "
        "balance. The table is gone from the lobby; its hands stay in the players' histories. "
        "`moved_stack`: where the book lets a player moved from a broken game keep their stack "
        "(cardroom buy-in 3), the chips you may sit with, once within the hour, at a table of "
        "the same book, game, structure and stakes, even below its minimum buy-in; else null.",
        {
            "type": "table_closed",
            "table": 1,
            "reason": "the room closes at 2am",
            "moved_stack": 150,
        },
    ),
    "chat": (
        "A line of the table's chat, sent to everyone watching the table once it is in the "
        "audit log; a viewer who starts watching is sent the table's last 50 lines. `seat`: "
        "the speaker's seat (null for a dealer or an admin not seated there); `floor`: a line "
        "the floor wrote (a player silenced, or let speak again). `text` is plain text: show "
        "it as text, never as markup.",
        {
            "type": "chat",
            "table": 1,
            "name": "bob",
            "seat": 2,
            "text": "nice hand",
            "at": 1796399100.5,
            "floor": False,
        },
    ),
    "tournament_state": (
        "Your tournament table as you may see it, with the clock: the level and its blinds "
        "and antes, the seconds `remaining` in it (null in the last level), the seconds to "
        "the `next_break`, players left, entries, the average stack and the prize pool. "
        "`you` is null once you are out (you then watch a table); `absent`: the seat's hand is dead (league 25, 27, "
        "35).",
        {
            "type": "tournament_state",
            "tournament": 3,
            "name": "Thursday league",
            "status": "running",
            "table": 2,
            "you": 4,
            "seats": [
                {
                    "seat": 1,
                    "name": "t3-bot1",
                    "chips": 1450,
                    "bot": True,
                    "connected": True,
                    "absent": False,
                },
                {
                    "seat": 4,
                    "name": "alice",
                    "chips": 980,
                    "bot": False,
                    "connected": True,
                    "absent": False,
                },
            ],
            "hand": None,
            "clock": CLOCK,
        },
    ),
    "tournament_events": (
        "What happened in the hand at your tournament table since event number `from`, as "
        "you may see it, and whose turn it is (`legal` only for you, on your turn).",
        {
            "type": "tournament_events",
            "tournament": 3,
            "table": 2,
            "hand": 7,
            "from": 5,
            "events": [{"event": "Call", "player": 1, "amount": 20, "all_in": False}],
            "pot": 60,
            "cause": None,
            "to_act": 4,
            "clock_end": 1767225640.5,
            "bank_end": None,
            "legal": LEGAL,
        },
    ),
    "tournament_hand_over": (
        "A hand at your tournament table ended: the stacks by seat (void: the ruling, every "
        "seat back to what it was dealt with).",
        {
            "type": "tournament_hand_over",
            "tournament": 3,
            "table": 2,
            "hand": 7,
            "void": False,
            "reason": "",
            "stacks": {"1": 1510, "4": 920},
        },
    ),
    "tournament_move": (
        "The tournament moved you: `reason` is `balance` (league 14), `break` (your table "
        "broke), `final` (the final-table draw), `director`, or `late` (a late entry seated). "
        "Your connection follows the new table at once: its `tournament_state` comes next.",
        {
            "type": "tournament_move",
            "tournament": 3,
            "player": "alice",
            "from_table": 2,
            "from_seat": 4,
            "table": 1,
            "seat": 6,
            "reason": "balance",
        },
    ),
    "tournament_over": (
        "The tournament ended: the places and the prizes, paid into the winners' balances.",
        {
            "type": "tournament_over",
            "tournament": 3,
            "standings": [
                {"place": 1, "name": "alice", "prize": 5400},
                {"place": 2, "name": "t3-bot1", "prize": 1800},
            ],
        },
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
