"""uvicorn's WebSocket protocol (websockets' sans-I/O implementation) with two changes the card
room's promises need (docs/protocol.md, "Rules of the road"):

- A text frame that is not UTF-8 closes the connection with 1007, as uvicorn does, but is
  counted and logged in one line (uvicorn logs an ERROR with a traceback: any client could
  grow the log by repeating it).
- A close sent while the connection's writing is paused (a client that does not read: the
  transport's buffer is full) is written at once, behind what is already buffered, instead of
  waiting for the buffer to drain, which never happens: uvicorn's keepalive would then close
  the connection with 1011 instead of the code the server chose. The transport is aborted if
  the client has not read it all within the close timeout.

``croupier serve`` and the tests' servers run uvicorn with ``ws=CardRoomWebSocket``; under a
plain uvicorn the card room works the same, without these two.
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["CardRoomWebSocket", "counts"]

log = logging.getLogger("croupier.server")
CLOSE_LINGER = 30.0  # seconds a client that does not read has to read up to the close
counts: dict[str, int] = {"invalid_utf8": 0, "closed_unread": 0}  # seen in /api/health


class CardRoomWebSocket(WebSocketsSansIOProtocol):
    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
            try:
                bytes(data).decode()
            except UnicodeDecodeError:
                self.frames = []
                counts["invalid_utf8"] += 1
                client = f"{self.client[0]}:{self.client[1]}" if self.client else "?"
                log.warning("a text frame from %s was not UTF-8: closed (1007)", client)
                self.conn.send_close(1007, "text frames are UTF-8")
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()

    async def send(self, message: Any) -> None:
        if (
            message.get("type") == "websocket.close"
            and not self.writable.is_set()
            and self.handshake_complete
            and self.initial_response is None
            and not self.close_sent
            and not self.disconnected
            and not self.transport.is_closing()
        ):
            code, reason = message.get("code", 1000), message.get("reason", "") or ""
            counts["closed_unread"] += 1
            self.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
            self.conn.send_close(code, reason)
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            self.stop_keepalive()
            # Read on (and drop) until the client's close answers ours, as uvicorn does: a
            # socket closed with data unread is reset, and the client may never see the code.
            # A client that has not read it all within CLOSE_LINGER is cut off.
            if self.read_paused:
                self.read_paused = False
                self.transport.resume_reading()
            self.close_timer = self.loop.call_later(CLOSE_LINGER, self.transport.abort)
            return
        await super().send(message)
