"""The card room's tables in the database (SQLAlchemy Core). The migrations under
``migrations/versions`` create exactly these; a test compares the two.

Money is whole chips (``BigInteger``); times are seconds since the epoch (``Float``), so clocks
are absolute deadlines that survive a restart. The ledger is one row per wallet change: a wallet
is an account's balance (``table_id`` null) or its chips at one table, and every event writes rows
that add up to zero (the cage, an account of its own, is where cash-ins come from).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)

metadata = MetaData()

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(40), nullable=False, unique=True),
    Column("password_hash", String(200), nullable=False),
    Column("role", String(10), nullable=False),  # player, dealer, admin; house, cage, bot
    Column("balance", BigInteger, nullable=False, server_default="0"),
    Column("created", Float, nullable=False),
)

tokens = Table(
    "tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # sha256 of the token: never the token
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

tables = Table(
    "tables",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(60), nullable=False),
    Column("owner_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("spec", Text, nullable=False),  # TableSpec as JSON
    Column("status", String(10), nullable=False),  # open, closing, closed
    Column("created", Float, nullable=False),
    Column("hands", Integer, nullable=False, server_default="0"),
    Column("clock", Float, nullable=False),  # seconds to act
    Column("bank", Float, nullable=False),  # each seat's time bank, seconds
    Column("sit_out_after", Integer, nullable=False),  # hands timed out while away
    Column("pause", Float, nullable=False),  # seconds between hands
    Column("lease_owner", String(64)),  # the server process the table lives in
    Column("lease_until", Float, nullable=False, server_default="0"),
)

LIVE = ("open", "closing")  # the statuses of a table a process runs (closing: no more deals)

table_events = Table(
    "table_events",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("event", Text, nullable=False),  # a croupier.table_events event (server.table_log)
    Column("at", Float, nullable=False),
)
"""Every change the engine's table made, in order: ``Table.restore`` rebuilds it from them
(who sits, the button, the blinds owed and passed) after a restart."""

seats = Table(
    "seats",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("chips", BigInteger, nullable=False),  # as of the last hand's end
    Column("status", String(12), nullable=False),  # playing, waiting, sitting_out
    Column("bank", Float, nullable=False),  # time bank left, seconds
    Column("away", Integer, nullable=False, server_default="0"),  # hands timed out while away
    Column("leaving", Boolean, nullable=False, server_default=text("false")),
    Column("bot", String(20)),  # the bot kind playing this seat, if any
    # The chips are a buy-in the engine's table has not recorded yet (until the next deal).
    Column("fresh", Boolean, nullable=False, server_default=text("false")),
    UniqueConstraint("table_id", "account_id", name="one_seat_per_table"),
)

transfers = Table(
    "transfers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("from_table", Integer, ForeignKey("tables.id"), nullable=False),
    Column("limit_key", String(200), nullable=False),  # seating.limit_key: book, structure, stakes
    Column("chips", BigInteger, nullable=False),  # the stack the player had when it closed
    Column("expires", Float, nullable=False),
)
"""A player whose table the house closed may sit, until ``expires``, with the stack they had
at a game of the same limit, even below its minimum buy-in (cardroom buy-in 3); used once."""
Index("transfers_by_account", transfers.c.account_id)

waits = Table(
    "waits",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("since", Float, nullable=False),  # when they asked: the list's order
    Column("wanted", Integer),  # the seat a seated player asks to move to (null: any)
    Column("offer", Integer),  # the seat held for them, won by priority or a draw
    Column("offer_until", Float),  # when that hold lapses
)
"""The waiting list of each table: people waiting to join, and seated players asking for a seat
change. A vacated seat goes by the book's priority (au 11.1(a), qld s16(2)-(4))."""

hands = Table(
    "hands",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("table_id", Integer, ForeignKey("tables.id")),  # a cash table's (else null)
    Column("number", Integer, nullable=False),
    Column("status", String(10), nullable=False),  # playing, finished, void
    Column("spec", Text, nullable=False),  # the table's rules when dealt
    # A cash table's deal: the deck order dealt from (a house secret), the seed of reshuffles of
    # burns and discards (secret). A tournament's hand is dealt from its setup's seed: null.
    Column("deck", Text),
    Column("seed", BigInteger),
    Column("button", Integer, nullable=False),
    Column("seats", Text, nullable=False),  # [[seat, account_id, name, chips before], ...]
    Column("events", Text),  # house records of the deal (null: a tournament's hand stored
    # before revision 0007, which kept none)
    Column("forced", Text),  # the hand's forced bets (server.table_log), as the table gave them
    Column("to_act", Integer),
    Column("clock_end", Float),  # the first turn's action clock runs out (later: in moves)
    Column("bank_end", Float),  # then its time bank
    Column("started", Float, nullable=False),
    Column("finished", Float),
    Column("commission", BigInteger),
    Column("result", Text),  # {seat: chips after}
    # A tournament's hand: the tournament, its table number (a table reopened for the final
    # table counts its hands again from 1), the library's HandSetup as JSON (seeded deal).
    Column("tournament_id", Integer, ForeignKey("tournaments.id", name="hands_tournament")),
    Column("table_no", Integer),
    Column("setup", Text),
    UniqueConstraint("table_id", "number", name="hand_number"),
)
Index("hands_playing", hands.c.table_id, hands.c.status)
Index("hands_of_tournament", hands.c.tournament_id, hands.c.status)

moves = Table(
    "moves",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("hand_id", Integer, ForeignKey("hands.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("request_id", String(64)),  # the client's action id; null for the clock's moves
    Column("move", Text, nullable=False),
    Column("events", Text),  # house records the move caused (null: a tournament's move
    # stored before revision 0007, which kept none)
    Column("by", String(10)),  # who decided: player, bot, clock, left, absent (null: not kept)
    Column("at", Float, nullable=False),
    Column("clock_end", Float),  # the next turn's deadlines, stored with the move that began it
    Column("bank_end", Float),
    UniqueConstraint("hand_id", "seq", name="move_order"),
    UniqueConstraint("account_id", "request_id", name="move_once"),
)

ledger = Table(
    "ledger",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("at", Float, nullable=False),
    Column("kind", String(12), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("table_id", Integer, ForeignKey("tables.id")),  # null: the account's balance
    Column("hand_id", Integer, ForeignKey("hands.id")),
    Column("amount", BigInteger, nullable=False),
    Column("memo", Text, nullable=False, server_default=""),
)
Index("ledger_wallet", ledger.c.account_id, ledger.c.table_id)

audit = Table(
    "audit",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("at", Float, nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id")),
    Column("table_id", Integer, ForeignKey("tables.id")),
    Column("hand_id", Integer, ForeignKey("hands.id")),
    Column("request_id", String(64)),
    Column("kind", String(20), nullable=False),
    Column("outcome", String(10), nullable=False),  # applied, refused, ruling
    Column("detail", Text, nullable=False),
)
Index(
    "audit_once",
    audit.c.account_id,
    audit.c.request_id,
    unique=True,
    sqlite_where=text("outcome = 'applied'"),
    postgresql_where=text("outcome = 'applied'"),
)

servers = Table(
    "servers",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("url", String(200), nullable=False),
    Column("heartbeat", Float, nullable=False),
)

# --- live tables (croupier.server.live) ----------------------------------------------------------

live_tables = Table(
    "live_tables",
    metadata,
    Column("id", Integer, primary_key=True),  # the table's number
    Column("owner_id", Integer, ForeignKey("accounts.id"), nullable=False),  # who opened it
    Column("setup", Text, nullable=False),  # LiveSetup as JSON
    Column("opened", Float, nullable=False),
    Column("status", String(12), nullable=False),  # open
)
"""A live table (real cards, croupier as the dealer's assistant): what it was opened with."""

live_steps = Table(
    "live_steps",
    metadata,
    Column("live_id", Integer, ForeignKey("live_tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),  # 1, 2, ... per table: one writer wins a number
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("line", Text, nullable=False),  # a dealer's input, a seat's change, or next
    Column("at", Float, nullable=False),
)
"""A live table's journal: every line it applied, in order (the audit log says who, too)."""

# --- tournaments (croupier.server.tournaments.run) ---------------------------------------------

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(60), nullable=False),
    Column("owner_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("settings", Text, nullable=False),  # the tournament file's fields, as JSON
    Column("seed", BigInteger, nullable=False),  # the library's draws: a house secret
    Column("status", String(12), nullable=False),  # registering, running, finished
    Column("starts_at", Float),  # started by the server then, if not by the director before
    Column("pool_id", Integer, ForeignKey("accounts.id"), nullable=False),  # the prize pool
    Column("clock", Float, nullable=False),  # seconds a player has to act
    Column("pause", Float, nullable=False),  # seconds between hands at a table
    Column("bot", String(20), nullable=False),  # the kind of bot the house enters
    Column("created", Float, nullable=False),
    Column("lease_owner", String(64)),  # the server process that runs it (as tables' leases)
    Column("lease_until", Float, nullable=False, server_default="0"),
)
"""A tournament: its settings and seed; what happened since is its event log."""

clock_screens = Table(
    "clock_screens",
    metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), primary_key=True),
    Column("private", Boolean, nullable=False),  # shown only with the link's key
    Column("leader", Boolean, nullable=False),  # the chip leader named on the screen
    Column("account_id", Integer, ForeignKey("accounts.id")),  # the director who chose
    Column("at", Float, nullable=False),
)
"""A tournament's clock screen settings, as its director last chose them (none: public, no
leader)."""

tournament_entries = Table(
    "tournament_entries",
    metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("at", Float, nullable=False),
)
"""Registrations before the start (one may unregister then, refunded); they enter the
tournament's own log when it starts. Entries after the start go to the log at once."""

tournament_events = Table(
    "tournament_events",
    metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("event", Text, nullable=False),  # one croupier.tournament.log JSON line
    Column("at", Float, nullable=False),
)
"""The tournament's event log: ``Tournament.rebuild`` makes it again after a restart."""
