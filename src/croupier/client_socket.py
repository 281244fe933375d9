"""The client's WebSocket: the websockets library's Sans-I/O protocol on an asyncio transport
(the integration its documentation describes: docs "Integrate the Sans-I/O layer").

Each message is handed to a callback as soon as its frame is parsed, in the transport's own
callback: no task switch, queue or lock for every message, as websockets' asyncio connection
has. A player hears every other player's move, several messages for each of its own, so that
is most of what a client does: the 200 clients of bench/server.py, in one process, spent about
a fifth less CPU an action this way (0.43-0.52 ms before, 0.34-0.39 ms after).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from websockets.client import ClientProtocol
from websockets.exceptions import InvalidState
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri

__all__ = ["BytesLike", "ClientSocket"]

BytesLike = bytes | bytearray | memoryview  # a frame's data (websockets 13 names no such type)

log = logging.getLogger(__name__)

_CLOSE_TIMEOUT = 10.0  # seconds to wait for the server to end the TCP connection after a close


class ClientSocket(asyncio.Protocol):
    """One open WebSocket connection: :meth:`send` text; each text message received goes to
    ``on_text`` (the message's UTF-8 bytes); ``on_close`` is called (with this socket) once
    when the connection ends, whoever ended it. Open with :meth:`connect`."""

    def __init__(
        self,
        protocol: ClientProtocol,
        on_text: Callable[[BytesLike], None],
        on_close: Callable[[ClientSocket], None],
    ) -> None:
        self.protocol = protocol
        self._on_text, self._on_close = on_text, on_close
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.ended: asyncio.Future[None] = loop.create_future()
        self._transport: asyncio.Transport | None = None
        self._parts: list[BytesLike] = []  # a fragmented text message, so far
        self._writable = asyncio.Event()
        self._writable.set()
        self._closer: asyncio.TimerHandle | None = None
        self._eof = False

    @classmethod
    async def connect(
        cls,
        address: str,
        on_text: Callable[[BytesLike], None],
        on_close: Callable[[ClientSocket], None],
        *,
        max_size: int = 2**24,
        timeout: float = 10.0,
    ) -> ClientSocket:
        """Open a TCP (TLS for wss://) connection and make the WebSocket handshake; raises
        OSError, TimeoutError, or the handshake's error (a websockets.InvalidHandshake)."""
        uri = parse_uri(address)
        loop = asyncio.get_running_loop()
        made: ClientSocket | None = None

        def factory() -> ClientSocket:
            nonlocal made
            made = cls(ClientProtocol(uri, max_size=max_size), on_text, on_close)
            return made

        try:
            async with asyncio.timeout(timeout):
                await loop.create_connection(
                    factory, uri.host, uri.port, ssl=True if uri.secure else None
                )
                assert made is not None
                await made.opened
        except BaseException:
            if made is not None:
                made.abort()
            raise
        return made

    @property
    def open(self) -> bool:
        return self.protocol.state is State.OPEN

    async def send(self, text: str) -> None:
        """Send a text message; raises websockets.ConnectionClosed once the connection is
        closing or closed. Waits while the server reads slower than this client writes."""
        if not self._writable.is_set():
            await self._writable.wait()
        try:
            self.protocol.send_text(text.encode())
        except InvalidState:
            raise self.protocol.close_exc from None
        self._write()

    async def close(self) -> None:
        """The closing handshake, then the end of the TCP connection (at most 10 s)."""
        if self._transport is None or self.ended.done():
            return
        if self.protocol.state is State.OPEN:
            self.protocol.send_close(1000)
            self._write()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(_CLOSE_TIMEOUT):
                await asyncio.shield(self.ended)
        self.abort()

    def abort(self) -> None:
        if self._transport is not None:
            self._transport.abort()

    # --- asyncio.Protocol ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport  # type: ignore[assignment]  # uvloop's: not a subclass
        self.protocol.send_request(self.protocol.connect())
        self._write()

    def data_received(self, data: bytes) -> None:
        protocol = self.protocol
        protocol.receive_data(data)
        self._write()  # pongs, and the answer to a close
        for event in protocol.events_received():
            if isinstance(event, Response):  # the handshake's answer: open, or its error
                _settle(self.opened, protocol.handshake_exc)
            elif isinstance(event, Frame):
                self._frame(event)
        if protocol.close_expected() and self._closer is None and self._transport is not None:
            # The server ends the TCP connection after a close; if it does not, this does.
            loop = asyncio.get_running_loop()
            self._closer = loop.call_later(_CLOSE_TIMEOUT, self._transport.abort)

    def eof_received(self) -> bool | None:
        self._receive_eof()
        self._write()
        return None  # the transport closes

    def connection_lost(self, exc: Exception | None) -> None:
        self._receive_eof()  # the protocol's state becomes CLOSED
        if self._closer is not None:
            self._closer.cancel()
        self._writable.set()  # a sender waiting to write finds the connection closed
        _settle(self.opened, exc or self.protocol.close_exc)
        _settle(self.ended, None)
        self._on_close(self)

    def pause_writing(self) -> None:
        self._writable.clear()

    def resume_writing(self) -> None:
        self._writable.set()

    # --- inside ------------------------------------------------------------------------------

    def _frame(self, frame: Frame) -> None:
        if frame.opcode is Opcode.TEXT:
            if frame.fin:
                self._deliver(frame.data)
            else:
                self._parts = [frame.data]
        elif frame.opcode is Opcode.CONT and self._parts:
            self._parts.append(frame.data)
            if frame.fin:
                data, self._parts = b"".join(self._parts), []
                self._deliver(data)
        # Binary frames carry nothing of this protocol; pings are answered by the protocol.

    def _deliver(self, data: BytesLike) -> None:
        if self._transport is None or self._transport.is_closing():
            return  # aborted: the rest of what arrived is not read
        try:
            self._on_text(data)
        except Exception:  # a message the client cannot follow: the connection is lost
            log.exception("a message from the server could not be read; closing")
            self.abort()

    def _receive_eof(self) -> None:
        if not self._eof:
            self._eof = True
            self.protocol.receive_eof()

    def _write(self) -> None:
        transport = self._transport
        if transport is None:
            return
        for data in self.protocol.data_to_send():
            if data:
                transport.write(data)
            elif transport.can_write_eof():  # websockets asks to end the stream (SEND_EOF)
                transport.write_eof()


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
        future.exception()  # retrieved: a connection nobody waits on is no error to log
