"""Alembic's environment for the card room: run on the connection the server hands over
(``config.attributes["connection"]``), so migrations apply at start without an alembic.ini."""

from __future__ import annotations

from alembic import context

from croupier.server.store.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
