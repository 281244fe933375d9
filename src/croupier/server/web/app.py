"""The card room's ASGI app: Starlette on uvicorn, the HTTP API (:mod:`croupier.server.web.http`)
and the WebSocket at /ws (:mod:`croupier.server.web.socket`), around the process's card room
(:class:`croupier.server.hall.CardRoom`), started and stopped with the app."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import WebSocketRoute

from croupier.server.hall import CardRoom
from croupier.server.web.http import HttpApi, HTTPError, SecurityHeaders, http_error
from croupier.server.web.socket import Sockets

__all__ = ["create_app"]


def create_app(room: CardRoom) -> Starlette:
    """The ASGI app: the HTTP API and the WebSocket at /ws."""
    api = HttpApi(room)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await room.start()
        try:
            yield
        finally:
            api.close()
            await room.stop()

    sockets = Sockets(room)
    routes = [*api.routes(), WebSocketRoute("/ws", sockets.serve_socket)]
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        HTTPError: http_error,
        StarletteHTTPException: http_error,
    }
    middleware = [Middleware(SecurityHeaders, room=room)]
    return Starlette(
        routes=routes, lifespan=lifespan, exception_handlers=handlers, middleware=middleware
    )
