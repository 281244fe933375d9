"""croupier.client's WebSocket (websockets' Sans-I/O protocol on an asyncio transport) against
another implementation: websockets' own asyncio server, on the loopback address."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from http import HTTPStatus
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed, InvalidStatus

from croupier.client_socket import ClientSocket
from croupier.wire import loads


@asynccontextmanager
async def server(
    handler: Callable[[ServerConnection], Awaitable[None]], **options: Any
) -> AsyncIterator[str]:
    async with serve(handler, "127.0.0.1", 0, **options) as running:
        port = next(iter(running.sockets)).getsockname()[1]
        yield f"ws://127.0.0.1:{port}/ws"


class Heard:
    """What a socket's callbacks were given."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.closed: list[ClientSocket] = []
        self.got = asyncio.Event()

    def text(self, data: Any) -> None:
        self.texts.append(bytes(data).decode())
        self.got.set()

    def close(self, socket: ClientSocket) -> None:
        self.closed.append(socket)


def test_messages_both_ways_and_a_fragmented_message_arrives_whole() -> None:
    async def echo(ws: ServerConnection) -> None:
        async for message in ws:
            assert isinstance(message, str)
            await ws.send(f"echo {message}")
            await ws.send(["frag", "ment", "ed"])  # three frames, one message

    async def main() -> None:
        heard = Heard()
        async with server(echo) as address:
            sock = await ClientSocket.connect(address, heard.text, heard.close)
            await sock.send('{"a": 1}')
            while len(heard.texts) < 2:
                heard.got.clear()
                await asyncio.wait_for(heard.got.wait(), 5)
            await sock.close()
        assert heard.texts == ['echo {"a": 1}', "fragmented"]
        assert heard.closed == [sock]

    asyncio.run(main())


def test_the_servers_ping_is_answered() -> None:
    answered: list[float] = []

    async def pinger(ws: ServerConnection) -> None:
        pong = await ws.ping()
        answered.append(await asyncio.wait_for(pong, 5))
        await ws.send("done")

    async def main() -> None:
        heard = Heard()
        async with server(pinger) as address:
            sock = await ClientSocket.connect(address, heard.text, heard.close)
            await asyncio.wait_for(heard.got.wait(), 5)
            await sock.close()
        assert heard.texts == ["done"] and len(answered) == 1

    asyncio.run(main())


def test_when_the_server_closes_the_socket_says_so_once_and_refuses_to_send() -> None:
    async def closer(ws: ServerConnection) -> None:
        await ws.close(1001, "going away")

    async def main() -> None:
        heard = Heard()
        async with server(closer) as address:
            sock = await ClientSocket.connect(address, heard.text, heard.close)
            await asyncio.wait_for(asyncio.shield(sock.ended), 5)
            assert not sock.open
            with pytest.raises(ConnectionClosed) as raised:
                await sock.send("too late")
            assert raised.value.rcvd is not None and raised.value.rcvd.code == 1001
            await sock.close()  # closing a closed socket is nothing
        assert heard.closed == [sock]

    asyncio.run(main())


def test_a_refused_handshake_raises_the_servers_status() -> None:
    async def never(ws: ServerConnection) -> None:
        raise AssertionError("the handshake was refused: no connection")

    def refuse(connection: ServerConnection, request: Any) -> Any:
        return connection.respond(HTTPStatus.FORBIDDEN, "no\n")

    async def main() -> None:
        heard = Heard()
        async with server(never, process_request=refuse) as address:
            with pytest.raises(InvalidStatus) as raised:
                await ClientSocket.connect(address, heard.text, heard.close)
        assert raised.value.response.status_code == 403
        assert heard.texts == []

    asyncio.run(main())


def test_no_server_at_the_address_raises_an_os_error() -> None:
    async def main() -> None:
        heard = Heard()
        async with server(lambda ws: ws.wait_closed()) as address:
            pass  # closed: nothing listens at that port now
        with pytest.raises(OSError):
            await ClientSocket.connect(address, heard.text, heard.close, timeout=5)

    asyncio.run(main())


def test_a_message_the_client_cannot_read_ends_the_connection() -> None:
    async def talker(ws: ServerConnection) -> None:
        await ws.send("not json")
        await ws.send('{"after": true}')
        await ws.wait_closed()

    async def main() -> None:
        read: list[Any] = []
        heard = Heard()
        async with server(talker) as address:
            sock = await ClientSocket.connect(
                address, lambda data: read.append(loads(data)), heard.close
            )
            await asyncio.wait_for(asyncio.shield(sock.ended), 5)
        assert read == [] and heard.closed == [sock]

    asyncio.run(main())
