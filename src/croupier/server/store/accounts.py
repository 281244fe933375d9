"""Accounts: argon2 password hashes, session tokens (stored as their SHA-256 only), roles:
registering (:func:`open_account`), logging in and out, who a token is, an admin setting a
role (:func:`set_role`)."""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
import time
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, delete, func, insert, select, update

from croupier.server.store import schema as s
from croupier.server.store.database import CAGE, post_ledger
from croupier.server.store.rooms import audit

__all__ = [
    "BOT_NAME",
    "ROLES",
    "Account",
    "AuthError",
    "account_of_digest",
    "account_of_token",
    "digest",
    "login_of",
    "new_token",
    "open_account",
    "register",
    "sessions_of",
    "set_role",
]

ROLES = ("player", "dealer", "admin")
TOKEN_SECONDS = 30 * 24 * 3600
_NAME = re.compile(r"[A-Za-z0-9_.-]{2,24}")  # matched whole (fullmatch: no "\n" at the end)
# The names the house gives its bots (seating.add_bot: "Ada-bot-3-1", tourney_http.bots:
# "t2-bot1"): a player may not take one, or a bot seated later would play with their account.
BOT_NAME = re.compile(r"[A-Za-z]+-bot-[0-9]+-[0-9]+|t[0-9]+-bot[0-9]+")
_HASHER = PasswordHasher()


class AuthError(ValueError):
    """A registration or login refused: the message says why."""


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    role: str
    balance: int


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def check_new(name: str, password: str) -> None:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise AuthError("a name is 2 to 24 letters, digits, '_', '.' or '-'")
    if BOT_NAME.fullmatch(name):
        raise AuthError(f"the name {name!r} has the form of the house's bots' names")
    if not isinstance(password, str) or not 8 <= len(password) <= 200:
        raise AuthError("a password is 8 to 200 characters")


def register(
    conn: Connection, name: str, password_hash: str, role: str = "player", welcome: int = 0
) -> int:
    """Create an account (``password_hash`` from :func:`hash_password`, made outside the
    transaction: it is slow on purpose); ``welcome`` chips are cashed in from the cage."""
    # Names differ by more than case: "Alice" beside "alice" could pass for her.
    same = select(s.accounts.c.name).where(func.lower(s.accounts.c.name) == name.lower())
    taken = conn.scalar(same)
    if taken is not None:
        raise AuthError(f"the name {name!r} is taken ({taken!r}: names differ by more than case)")
    account = conn.execute(
        insert(s.accounts).values(
            name=name, password_hash=password_hash, role=role, balance=0, created=time.time()
        )
    ).inserted_primary_key
    assert account is not None
    account_id = int(account[0])
    if welcome:
        cage = conn.scalar(select(s.accounts.c.id).where(s.accounts.c.name == CAGE))
        assert cage is not None
        post_ledger(
            conn,
            [("cash_in", cage, None, -welcome), ("cash_in", account_id, None, welcome)],
            memo="welcome",
        )
    return account_id


def open_account(conn: Connection, name: str, password_hash: str, welcome: int) -> tuple[int, str]:
    """A new player's account (:func:`register`) and its first token: the account's id and
    the token."""
    account = register(conn, name, password_hash, "player", welcome)
    return account, new_token(conn, account)


def password_matches(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` hashes; with no hash (no such login), False
    after as long a check."""
    try:
        return _HASHER.verify(stored or _unknown_hash(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


@functools.cache
def _unknown_hash() -> str:
    """A hash no password matches, checked for a name with no login: an unknown name then
    takes as long to refuse as a wrong password, and does not tell itself apart."""
    return _HASHER.hash(secrets.token_urlsafe(32))


def login_of(conn: Connection, name: str) -> tuple[Account | None, str | None]:
    """The account ``name`` logs in to (a player, dealer or admin) and its password's hash;
    (None, None) when there is none."""
    row = conn.execute(select(s.accounts).where(s.accounts.c.name == name)).first()
    if row is None or row.role not in ROLES:
        return None, None
    return Account(row.id, row.name, row.role, row.balance), row.password_hash


def new_token(conn: Connection, account_id: int) -> str:
    token = secrets.token_urlsafe(32)
    now = time.time()
    conn.execute(
        insert(s.tokens).values(
            token_hash=digest(token),
            account_id=account_id,
            created=now,
            expires=now + TOKEN_SECONDS,
        )
    )
    return token


def forget_token(conn: Connection, token: str) -> None:
    conn.execute(delete(s.tokens).where(s.tokens.c.token_hash == digest(token)))


def account_of_token(conn: Connection, token: str) -> Account | None:
    if not isinstance(token, str) or len(token) > 200:
        return None
    return account_of_digest(conn, digest(token))


def account_of_digest(conn: Connection, token_hash: str) -> Account | None:
    """The account a token (given by its :func:`digest`) logs in to while it is valid (not
    logged out, not expired; a player, dealer or admin); None otherwise."""
    row = conn.execute(
        select(s.accounts.c.id, s.accounts.c.name, s.accounts.c.role, s.accounts.c.balance)
        .join(s.tokens, s.tokens.c.account_id == s.accounts.c.id)
        .where(s.tokens.c.token_hash == token_hash, s.tokens.c.expires > time.time())
    ).first()
    if row is None or row.role not in ROLES:
        return None
    return Account(row.id, row.name, row.role, row.balance)


def sessions_of(conn: Connection, token_hashes: list[str]) -> dict[str, tuple[int, str]]:
    """Of the tokens given by their digests, those still valid (as :func:`account_of_digest`):
    each one's account and role. One read for every connection of a process (Sessions.sweep)."""
    found: dict[str, tuple[int, str]] = {}
    now = time.time()
    for start in range(0, len(token_hashes), 500):
        rows = conn.execute(
            select(s.tokens.c.token_hash, s.accounts.c.id, s.accounts.c.role)
            .join(s.accounts, s.tokens.c.account_id == s.accounts.c.id)
            .where(s.tokens.c.token_hash.in_(token_hashes[start : start + 500]))
            .where(s.tokens.c.expires > now)
        )
        found.update({row.token_hash: (row.id, row.role) for row in rows if row.role in ROLES})
    return found


def digest(token: str) -> str:
    """How a token is stored and known (its SHA-256): a connection keeps this, not the token."""
    return hashlib.sha256(token.encode()).hexdigest()


def make_admin(conn: Connection, name: str, password_hash: str) -> int:
    """An admin account (made, or an existing one given the role and this password)."""
    found = conn.execute(
        select(s.accounts.c.id, s.accounts.c.role).where(s.accounts.c.name == name)
    ).first()
    if found is None:
        return register(conn, name, password_hash, "admin")
    if found.role not in ROLES:  # the house, the cage or a bot: never a person's login
        raise AuthError(f"the name {name!r} is the house's ({found.role}), not a player's")
    conn.execute(
        update(s.accounts)
        .where(s.accounts.c.id == found.id)
        .values(role="admin", password_hash=password_hash)
    )
    return int(found.id)


def set_role(conn: Connection, name: str, role: str, by: int) -> int | None:
    """Give the account ``name`` logs in to (a player, dealer or admin) ``role``, audited as
    done by account ``by``; the account's id, or None when there is no such account."""
    found = conn.scalar(
        select(s.accounts.c.id).where(s.accounts.c.name == name, s.accounts.c.role.in_(ROLES))
    )
    if found is None:
        return None
    conn.execute(update(s.accounts).where(s.accounts.c.id == found).values(role=role))
    audit(conn, by, None, None, None, "role", "applied", f"{name} is made {role}")
    return int(found)
