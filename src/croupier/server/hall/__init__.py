"""The hall floor: the process's card room (its tables, tournaments, connections and
sessions, and the leases that say which process runs what)."""

from croupier.server.hall.card_room import CardRoom, Options

__all__ = ["CardRoom", "Options"]
