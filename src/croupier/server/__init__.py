"""The card room server: accounts, a lobby, tables of people and bots over WebSockets, a chip
ledger, and hands that survive restarts (``croupier serve``; docs/protocol.md)."""

from __future__ import annotations

import errno
import socket
from urllib.parse import urlsplit

from croupier.server.hall import CardRoom, Options
from croupier.server.rooms.game_table import GameTable, Move
from croupier.server.rooms.table_spec import TableSpec
from croupier.server.store.database import Store, check_ledger
from croupier.server.web.app import create_app

__all__ = [
    "CardRoom",
    "GameTable",
    "Move",
    "Options",
    "Store",
    "TableSpec",
    "check_ledger",
    "check_port",
    "create_app",
    "public_address",
    "serve",
]


def public_address(host: str, port: int, given: str | None = None) -> str:
    """How clients and the other server processes reach this one: ``given`` (checked: an
    http or https address with no path), else ``http://HOST:PORT``, the machine's name standing
    for a host that means every address (0.0.0.0, ::). ValueError says what is wrong."""
    if given is None:
        name = socket.getfqdn() if host in ("0.0.0.0", "::", "") else host
        return f"http://[{name}]:{port}" if ":" in name else f"http://{name}:{port}"
    parts = urlsplit(given.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
        raise ValueError(
            f"--public-url is the address people and the other server processes open this one "
            f"at, such as http://cards.example:8000; got {given!r}"
        )
    if parts.path not in ("", "/") or parts.fragment:
        raise ValueError(f"--public-url has no path: the card room is at its root; got {given!r}")
    return f"{parts.scheme}://{parts.netloc}"


def check_port(host: str, port: int) -> None:
    """Whether the card room could listen at ``host``:``port``: ValueError, one line, when
    another program holds the port (or the address is not this machine's)."""
    try:
        infos = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except OSError as error:
        raise ValueError(f"--host {host!r} is not an address of this machine: {error}") from None
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        # As uvicorn binds: a port left in TIME_WAIT by a server just stopped is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            taken = error.errno in (errno.EADDRINUSE, errno.EACCES)
            why = (
                "another program is listening there"
                if error.errno == errno.EADDRINUSE
                else (error.strerror or str(error))
            )
            hint = " (stop it, or give another --port)" if taken else ""
            raise ValueError(f"cannot listen at {host}:{port}: {why}{hint}") from None


def serve(
    db: str,
    host: str = "127.0.0.1",
    port: int = 8000,
    options: Options | None = None,
    *,
    log_level: str = "warning",
    forwarded_allow_ips: str = "",
) -> None:
    """Run the card room until Ctrl-C (or SIGTERM), then stop cleanly. ``forwarded_allow_ips``:
    the proxies whose X-Forwarded-For header names the client (its address throttles); none by
    default, so that no client (not even a local process) chooses the address it is counted
    under."""
    import dataclasses
    import gc
    import logging

    import uvicorn

    from croupier.server.web.socket_protocol import CardRoomWebSocket

    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    options = options or Options()
    if not options.public_url:
        options = dataclasses.replace(options, public_url=public_address(host, port))
    room = CardRoom(db, options)
    app = create_app(room)
    # Play makes many short-lived objects (messages, records) and few reference cycles: with
    # a young-generation collection every 700 allocations (the default) the server spent
    # 1.2 s collecting in a 30 s round of bench/server.py, with one every 20,000 0.14 s. What
    # starting up made is never collected: frozen, later full collections skip it.
    gc.freeze()
    gc.set_threshold(20_000)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=65536,
        ws_per_message_deflate=False,
        ws=CardRoomWebSocket,
        lifespan="on",
        proxy_headers=bool(forwarded_allow_ips.strip()),
        forwarded_allow_ips=forwarded_allow_ips.strip() or None,
    )
