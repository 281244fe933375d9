"""Card room servers for the tests: in this process (uvicorn on a free loopback port) or as a
real ``croupier serve`` subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import socket
from collections.abc import AsyncIterator
from typing import Any

import uvicorn

from croupier.client import Client
from croupier.server import CardRoom, Options, create_app
from croupier.server.protocol import check_server_message

FAST = Options(clock=5.0, bank=5.0, pause=0.0, bot_delay=0.0, demo=False)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclasses.dataclass
class Running:
    room: CardRoom
    url: str
    server: uvicorn.Server


@contextlib.asynccontextmanager
async def running(db: str, options: Options = FAST, port: int | None = None) -> AsyncIterator[Running]:
    port = port or free_port()
    url = f"http://127.0.0.1:{port}"
    room = CardRoom(db, dataclasses.replace(options, public_url=url))
    config = uvicorn.Config(create_app(room), host="127.0.0.1", port=port, log_level="error",
                            ws_max_size=65536, lifespan="on")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.02)
    try:
        yield Running(room, url, server)
    finally:
        server.should_exit = True
        await task


async def player(url: str, name: str, password: str = "password-1") -> Client:
    """A registered, connected client whose every message is checked against the protocol."""
    client = await Client.register(url, name, password)
    client.listeners.append(check_server_message)
    await client.connect()
    return client


def simple_move(legal: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Check or call; stand pat at the draw; an opener who must bet bets the least."""
    if legal.get("draw"):
        return "draw", {"cards": []}
    if not legal["can_check"] and legal["call"] == 0:
        if legal["bring_in"] is not None:
            return "bring_in", {}
        return "bet_or_raise", {"amount": legal["raise_range"][0]}
    return "check_or_call", {}
