"""Limits on connections that hold without a reverse proxy in front of the server.

uvicorn closes a keep-alive connection that stays idle after an answer, but it lets a connection
that never sends a request, or sends one byte by byte, or promises a body it never sends, stay
open for ever, and it reads request heads of any size. A WebSocket whose client stops reading is
closed by a failed ping only once its unsent data has drained, which it then never does. The two
protocol classes here add what is missing:

- `GuardedHttpProtocol`: a request must arrive whole (head and body) within
  `ConnectionLimits.request_timeout` seconds of the connection opening or of the previous answer,
  else the connection is closed; a request head over `ConnectionLimits.max_head_bytes` is
  answered 431 and the connection closed.
- `GuardedWebSocketProtocol`: a message that cannot be handed to the network within
  `ConnectionLimits.ws_send_timeout` seconds (the client does not read) drops the connection, and
  so does a ping left unanswered for ``ws_ping_timeout`` seconds, however much is still unsent.

`uvicorn_config` builds a uvicorn configuration that uses both (``ludoteca serve`` and the tests'
servers). The limits travel on the configuration, so the worker processes of ``serve --workers``
get them too.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from dataclasses import dataclass
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

#: zlib's compression level of WebSocket messages (`deflate_factory`).
DEFLATE_LEVEL = 1
#: Attribute of the uvicorn configuration that carries the limits.
LIMITS_ATTRIBUTE = "ludoteca_limits"


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """How long and how large a client's requests and sockets may be.

    Attributes:
        request_timeout: Seconds a connection may take to send a whole request, counted from
            the connection opening or the previous answer.
        keep_alive: Seconds an idle connection is kept after an answer (at most
            ``request_timeout``).
        max_head_bytes: The largest request head (request line and headers) read.
        ws_ping_interval: Seconds between the server's pings on a WebSocket.
        ws_ping_timeout: Seconds a WebSocket client has to answer a ping.
        ws_send_timeout: Seconds a message to a WebSocket client may wait because the client
            does not read.
    """

    request_timeout: float = 20.0
    keep_alive: float = 20.0
    max_head_bytes: int = 16 * 1024
    ws_ping_interval: float = 20.0
    ws_ping_timeout: float = 20.0
    ws_send_timeout: float = 20.0


def limits_of(config: uvicorn.Config) -> ConnectionLimits:
    """The limits a configuration carries (the defaults if it carries none)."""
    limits = getattr(config, LIMITS_ATTRIBUTE, None)
    return limits if isinstance(limits, ConnectionLimits) else ConnectionLimits()


def uvicorn_config(
    app: Any, limits: ConnectionLimits | None = None, **options: Any
) -> uvicorn.Config:
    """A uvicorn configuration for ``app`` whose connections keep ``limits``.

    ``options`` are passed to `uvicorn.Config` as they are.
    """
    limits = limits or ConnectionLimits()
    config = uvicorn.Config(
        app,
        http=GuardedHttpProtocol,
        ws=GuardedWebSocketProtocol,
        timeout_keep_alive=max(1, round(min(limits.keep_alive, limits.request_timeout))),
        ws_ping_interval=limits.ws_ping_interval,
        ws_ping_timeout=limits.ws_ping_timeout,
        **options,
    )
    setattr(config, LIMITS_ATTRIBUTE, limits)
    return config


_HEAD_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
    b"content-type: application/json\r\n"
    b"content-length: %d\r\n"
    b"connection: close\r\n\r\n%s"
)


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol with a deadline for each request and a limit on its head."""

    def __init__(
        self,
        config: uvicorn.Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.limits = limits_of(config)
        self._deadline: asyncio.TimerHandle | None = None
        self._head_bytes = 0
        self._head_done = False
        self._tail = b""  # the last bytes of the head so far (its end may straddle two reads)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the first request's deadline."""
        super().connection_made(transport)
        self._await_request()

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the deadline."""
        self._cancel_deadline()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Count the head's bytes (not the body's that may come with it); refuse a large head."""
        if not self._head_done:
            window = self._tail + data
            end = window.find(b"\r\n\r\n")
            head = len(data) if end < 0 else max(0, end + 4 - len(self._tail))
            self._head_bytes += head
            self._tail = window[-3:]
            if self._head_bytes > self.limits.max_head_bytes:
                self._refuse_head()
                return
        super().data_received(data)

    def on_headers_complete(self) -> None:
        """The head has arrived."""
        self._head_done = True
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        """The whole request has arrived: no deadline while the app answers."""
        self._cancel_deadline()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        """Answered: the next request has its own deadline."""
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_request()

    def handle_websocket_upgrade(self) -> None:
        """A WebSocket takes the connection over (with limits of its own)."""
        self._cancel_deadline()
        super().handle_websocket_upgrade()

    def _await_request(self) -> None:
        self._cancel_deadline()
        self._head_bytes = 0
        self._head_done = False
        self._tail = b""
        self._deadline = self.loop.call_later(self.limits.request_timeout, self._too_slow)

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        """The request did not arrive whole in time: close the connection."""
        self._deadline = None
        if self.cycle is not None and not self.cycle.response_complete and not self.cycle.more_body:
            return  # the request is whole and being answered
        self.transport.close()  # a handler waiting for the rest of the body hears of it

    def _refuse_head(self) -> None:
        self._cancel_deadline()
        body = (
            b'{"error":"the request head is larger than '
            + str(self.limits.max_head_bytes // 1024).encode()
            + b' KiB"}'
        )
        self.transport.write(_HEAD_TOO_LARGE % (len(body), body))
        self.transport.close()


def deflate_factory() -> ServerPerMessageDeflateFactory:
    """The WebSockets' compression: uvicorn's settings, at zlib's fastest level.

    A watcher's message is mostly the board's SVG (7 to 60 KB). At zlib's default level 6,
    compressing it cost 0.45 ms of CPU per message and watcher (Salta's board: 38 KB to 4.1 KB);
    level 1 costs 0.28 ms for 5.4 KB, still a seventh of the text (measured with zlib on 30
    positions of each game).
    """
    return ServerPerMessageDeflateFactory(
        server_max_window_bits=12,
        client_max_window_bits=12,
        compress_settings={"memLevel": 5, "level": DEFLATE_LEVEL},
    )


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol that drops a client which does not read or answer pings."""

    def __init__(
        self,
        config: uvicorn.Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.limits = limits_of(config)
        if config.ws_per_message_deflate:
            self.conn.available_extensions = [deflate_factory()]

    async def send(self, message: Any) -> None:
        """Send, but drop the connection if the client has not read for too long."""
        if not self.writable.is_set():
            try:
                await asyncio.wait_for(self.writable.wait(), self.limits.ws_send_timeout)
            except TimeoutError:
                self._drop()
                raise ClientDisconnected() from None
        await super().send(message)

    def keepalive_timeout(self) -> None:
        """No answer to a ping: close, and drop what the client never read."""
        super().keepalive_timeout()
        if not self.disconnected:
            self._drop()

    def _drop(self) -> None:
        """Close the connection at once, with a reset.

        What the client has not read is thrown away, here and in the kernel's buffers, where a
        close would wait for the client to read it all.
        """
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()
