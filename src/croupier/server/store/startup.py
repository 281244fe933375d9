"""What ``croupier serve`` checks of its database before it says where to open the card room:
that it opens (a SQLite file that can be made or read, a PostgreSQL server that answers) and
whether any admin account exists yet. Every failure is one line (:class:`StoreError`)."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from sqlalchemy import Connection, func, select
from sqlalchemy.exc import SQLAlchemyError

from croupier.server.store import schema as s
from croupier.server.store.database import Store, StoreError

__all__ = ["check_database", "has_admin", "shown_database"]


def shown_database(db: str) -> str:
    """``db`` as it may be printed: a URL without its password."""
    if "://" not in db:
        return db
    parts = urlsplit(db)
    if parts.password is None:
        return db
    where = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{where}"))


def has_admin(conn: Connection) -> bool:
    """Whether an account has the admin role."""
    found = select(func.count()).select_from(s.accounts).where(s.accounts.c.role == "admin")
    return bool(conn.scalar(found))


def _reason(error: BaseException) -> str:
    """The driver's own words for ``error``, on one line, without SQLAlchemy's link."""
    orig = getattr(error, "orig", None) or error
    lines = [line.strip() for line in str(orig).splitlines() if line.strip()]
    lines = [line for line in lines if not line.startswith("(Background on this error")]
    return "; ".join(lines) or type(orig).__name__


def check_database(db: str) -> bool:
    """Open ``db`` (bringing its schema to the newest migration, as the server would) and say
    whether an admin account exists; StoreError, one line, when it cannot be opened."""
    remote = "://" in db and not db.startswith("sqlite")
    try:
        store = Store(db)
    except (SQLAlchemyError, OSError) as error:
        if remote:
            raise StoreError(
                f"cannot reach the database {shown_database(db)}: {_reason(error)}"
            ) from None
        reason = _reason(error)
        hint = (
            "does its folder exist, and may this user write there? Or give another with --db"
            if "unable to open" in reason
            else "give another with --db"
        )
        raise StoreError(f"cannot open the database file {db}: {reason} ({hint})") from None
    try:
        return store.read(has_admin)
    finally:
        store.close()
