"""What the database keeps of a tournament, and the money it moves
(croupier.server.tournaments.run).

A tournament's row holds its settings and seed; its event log (``tournament_events``, one
:mod:`croupier.tournament.log` line each) is everything that happened since the start, from
which ``Tournament.rebuild`` makes it again; registrations before the start are rows of their
own (a player may unregister then). Each hand in play is a row of ``hands`` (marked with the
tournament and its table number, holding the library's setup) and its ``moves``, as a cash
table's.

Money moves as ledger rows that add up to zero, on balances only: a buy-in is the player's
price split between the tournament's prize pool (an account of its own) and the house's fee;
the house stakes its bots from the cage; an unregistration is refunded in full; at the end the
pool pays each prize, which leaves it empty.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Connection, delete, insert, or_, select, update

from croupier.server.store import schema as s
from croupier.server.store.database import (
    CAGE,
    HOUSE,
    LEASE_SECONDS,
    InsufficientChipsError,
    LeaseLost,
    post_ledger,
)
from croupier.server.store.rooms import audit
from croupier.tournament import Purchase, Standing
from croupier.tournament import events as ev
from croupier.tournament.log import dump_log
from croupier.wire import loads

__all__ = [
    "Job",
    "Member",
    "Payout",
    "Snapshot",
    "balance",
    "buy_in",
    "claim",
    "end_hand",
    "fence",
    "insert_hand",
    "insert_move",
    "not_started",
    "pay",
    "pay_prizes",
    "read_snapshot",
    "refund",
    "register",
    "save",
    "store_events",
    "unregister",
]

T = TypeVar("T")
Job = Callable[[Connection], T]  # what a tournament writes in one transaction


@dataclass(frozen=True)
class Member:
    """An account in a tournament: a person, or one of the house's bots."""

    account: int
    name: str
    bot: bool


@dataclass
class Snapshot:
    row: Any
    entries: list[Member]  # registered before the start, in order
    events: list[str]  # the log's lines
    members: dict[str, Member]  # every account named in the entries or the log
    hands: list[tuple[Any, list[Any]]]  # hands in play, with their moves in order


def read_snapshot(conn: Connection, tournament: int) -> Snapshot:
    row = conn.execute(select(s.tournaments).where(s.tournaments.c.id == tournament)).one()
    events = list(
        conn.scalars(
            select(s.tournament_events.c.event)
            .where(s.tournament_events.c.tournament_id == tournament)
            .order_by(s.tournament_events.c.seq)
        )
    )
    entry_rows = conn.execute(
        select(s.accounts.c.id, s.accounts.c.name, s.accounts.c.role)
        .join(s.tournament_entries, s.tournament_entries.c.account_id == s.accounts.c.id)
        .where(s.tournament_entries.c.tournament_id == tournament)
        .order_by(s.tournament_entries.c.at, s.accounts.c.id)
    )
    entries = [Member(r.id, r.name, r.role == "bot") for r in entry_rows]
    names = {m.name for m in entries}
    for line in events:
        record = loads(line)
        if record.get("type") == "Registered":
            names.add(str(record["player"]))
    members = {m.name: m for m in entries}
    if names - set(members):
        for r in conn.execute(
            select(s.accounts.c.id, s.accounts.c.name, s.accounts.c.role).where(
                s.accounts.c.name.in_(sorted(names - set(members)))
            )
        ):
            members[r.name] = Member(r.id, r.name, r.role == "bot")
    hands = []
    for hand in conn.execute(
        select(s.hands)
        .where(s.hands.c.tournament_id == tournament, s.hands.c.status == "playing")
        .order_by(s.hands.c.id)
    ):
        moves = list(
            conn.execute(
                select(s.moves).where(s.moves.c.hand_id == hand.id).order_by(s.moves.c.seq)
            )
        )
        hands.append((hand, moves))
    return Snapshot(row, entries, events, members, hands)


def store_events(
    conn: Connection, tournament: int, start: int, events: Sequence[ev.TournamentEvent]
) -> None:
    """The log's events from number ``start`` on."""
    if not events:
        return
    lines = dump_log(events).splitlines()
    now = time.time()
    conn.execute(
        insert(s.tournament_events),
        [
            {"tournament_id": tournament, "seq": start + i, "event": line, "at": now}
            for i, line in enumerate(lines)
        ],
    )


def _house(conn: Connection) -> tuple[int, int]:
    ids = {
        r.name: int(r.id)
        for r in conn.execute(
            select(s.accounts.c.id, s.accounts.c.name).where(s.accounts.c.name.in_((HOUSE, CAGE)))
        )
    }
    return ids[HOUSE], ids[CAGE]


def buy_in(conn: Connection, member: Member, pool: int, purchase: Purchase, memo: str) -> None:
    """The entry's price from the player's balance (a bot's from the cage): the prize pool
    takes the price less the fee, the house the fee. Raises :class:`InsufficientChipsError`
    (nothing written) when the player cannot pay."""
    house, cage = _house(conn)
    rows: list[tuple[str, int, int | None, int]] = []
    if member.bot:  # the house stakes its bot
        rows += [
            ("cash_in", cage, None, -purchase.price),
            ("cash_in", member.account, None, purchase.price),
        ]
    rows += [
        ("buy_in", member.account, None, -purchase.price),
        ("buy_in", pool, None, purchase.to_pool),
    ]
    if purchase.fee:
        rows.append(("fee", house, None, purchase.fee))
    try:
        post_ledger(conn, rows, memo=memo)
    except InsufficientChipsError:
        raise InsufficientChipsError(
            f"{member.name} has fewer than the {purchase.price} chips the buy-in costs"
        ) from None


def refund(conn: Connection, member: Member, pool: int, purchase: Purchase, memo: str) -> None:
    """An unregistration before the start: the whole price back, the fee too."""
    house, _ = _house(conn)
    rows: list[tuple[str, int, int | None, int]] = [
        ("refund", member.account, None, purchase.price),
        ("refund", pool, None, -purchase.to_pool),
    ]
    if purchase.fee:
        rows.append(("refund", house, None, -purchase.fee))
    post_ledger(conn, rows, memo=memo)


def pay_prizes(
    conn: Connection,
    standings: Iterable[Standing],
    members: dict[str, Member],
    pool: int,
    memo: str,
) -> list[tuple[str, int]]:
    """Each prize from the pool to its winner's balance; the (name, prize) paid."""
    paid = [(st.player, st.prize) for st in standings if st.prize > 0]
    rows: list[tuple[str, int, int | None, int]] = []
    for name, prize in paid:
        rows += [("prize", pool, None, -prize), ("prize", members[name].account, None, prize)]
    if rows:
        post_ledger(conn, rows, memo=memo)
    return paid


def claim(conn: Connection, tournament: int, owner: str, dead: str | None) -> bool:
    """Take the lease of a tournament that is free, ours, expired, or held by ``dead``."""
    now = time.time()
    holders = [
        s.tournaments.c.lease_owner.is_(None),
        s.tournaments.c.lease_until < now,
        s.tournaments.c.lease_owner == owner,
    ]
    if dead is not None:
        holders.append(s.tournaments.c.lease_owner == dead)
    done = conn.execute(
        update(s.tournaments)
        .where(s.tournaments.c.id == tournament, or_(*holders))
        .values(lease_owner=owner, lease_until=now + LEASE_SECONDS)
    )
    return done.rowcount == 1


def fence(conn: Connection, tournament: int, owner: str) -> None:
    """In a write's transaction: the tournament is still this process's, or nothing is written
    (a process that lost it to another writes nothing more about it)."""
    done = conn.execute(
        update(s.tournaments)
        .where(s.tournaments.c.id == tournament, s.tournaments.c.lease_owner == owner)
        .values(lease_until=time.time() + LEASE_SECONDS)
    )
    if done.rowcount != 1:
        raise LeaseLost(f"tournament {tournament} is no longer run by this process")


# --- a tournament's writes, each in the transaction of its run's change ----------------------


def save(
    conn: Connection,
    tournament: int,
    owner: str,
    start: int,
    events: Sequence[ev.TournamentEvent],
    job: Job[T] | None,
) -> T | None:
    """One change of a tournament: the lease checked (:func:`fence`), the log's new events from
    number ``start`` on, the status ``running`` when they start it, then ``job``'s rows."""
    fence(conn, tournament, owner)
    store_events(conn, tournament, start, events)
    if any(isinstance(e, ev.Started) for e in events):
        conn.execute(
            update(s.tournaments).where(s.tournaments.c.id == tournament).values(status="running")
        )
    return job(conn) if job is not None else None


def insert_hand(
    conn: Connection,
    tournament: int,
    table: int,
    number: int,
    setup: str,
    spec: str,
    button: int,
    seats: str,
    events: str,
    started: float,
) -> int:
    """A hand dealt at the tournament's ``table``, in ``hands`` with the cash tables' (its
    setup as JSON: the deal is made again from its seed; ``seats``: [[seat, account, name,
    chips], ...]; ``events``: the deal's house records): its id."""
    key = conn.execute(
        insert(s.hands).values(
            tournament_id=tournament,
            table_no=table,
            number=number,
            setup=setup,
            spec=spec,
            button=button,
            seats=seats,
            events=events,
            status="playing",
            started=started,
        )
    ).inserted_primary_key
    assert key is not None
    return int(key[0])


def insert_move(
    conn: Connection,
    hand: int,
    seq: int,
    seat: int,
    account: int,
    request: str | None,
    move: str,
    events: str,
    by: str,
    at: float,
) -> None:
    """The hand's move number ``seq`` (as JSON, with the house records of the events it
    caused), made by ``by``: player, bot, absent, clock."""
    conn.execute(
        insert(s.moves).values(
            hand_id=hand,
            seq=seq,
            seat=seat,
            account_id=account,
            request_id=request,
            move=move,
            events=events,
            by=by,
            at=at,
        )
    )


@dataclass(frozen=True)
class Payout:
    """The end of a tournament: its standings, who its players are, its prize pool."""

    standings: Sequence[Standing]
    members: dict[str, Member]
    pool: int


def end_hand(
    conn: Connection,
    tournament: int,
    hand: int,
    table: int,
    number: int,
    result: str,
    void: str,
    payout: Payout | None = None,
) -> None:
    """A hand over (``result``: each seat's chips, as JSON), or void (``void`` says why, and is
    audited as the floor's ruling); when it ends the tournament, the ``payout``."""
    conn.execute(
        update(s.hands)
        .where(s.hands.c.id == hand)
        .values(status="void" if void else "finished", finished=time.time(), result=result)
    )
    if void:
        audit(conn, None, None, None, None, "tournament", "ruling",
              f"tournament {tournament} table {table} hand {number}: {void}")  # fmt: skip
    if payout is not None:
        pay(conn, tournament, payout.standings, payout.members, payout.pool)


def pay(
    conn: Connection,
    tournament: int,
    standings: Iterable[Standing],
    members: dict[str, Member],
    pool: int,
) -> None:
    """The end: the prizes paid from the pool, the tournament finished."""
    pay_prizes(conn, standings, members, pool, f"tournament {tournament} prizes")
    conn.execute(
        update(s.tournaments).where(s.tournaments.c.id == tournament).values(status="finished")
    )


def register(
    conn: Connection, tournament: int, member: Member, pool: int, purchase: Purchase, memo: str
) -> None:
    """A registration before the start: the entry's row and its buy-in."""
    conn.execute(
        insert(s.tournament_entries).values(
            tournament_id=tournament, account_id=member.account, at=time.time()
        )
    )
    buy_in(conn, member, pool, purchase, memo)


def unregister(
    conn: Connection, tournament: int, member: Member, pool: int, purchase: Purchase, memo: str
) -> None:
    """An unregistration before the start: the entry's row gone, the buy-in refunded."""
    conn.execute(
        delete(s.tournament_entries).where(
            s.tournament_entries.c.tournament_id == tournament,
            s.tournament_entries.c.account_id == member.account,
        )
    )
    refund(conn, member, pool, purchase, memo)


def not_started(conn: Connection, tournament: int, actor: int | None, detail: str) -> None:
    """The start at its time refused: audited, and the tournament waits for its director."""
    audit(conn, actor, None, None, None, "tournament", "ruling", detail)
    conn.execute(
        update(s.tournaments).where(s.tournaments.c.id == tournament).values(starts_at=None)
    )


def balance(conn: Connection, account: int) -> int:
    """An account's balance (0 for one that is gone)."""
    return int(conn.scalar(select(s.accounts.c.balance).where(s.accounts.c.id == account)) or 0)
