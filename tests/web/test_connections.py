"""The WebSocket protocol's compression (`ludoteca.web.connections`)."""

from __future__ import annotations

import asyncio
import zlib
from typing import Any

from uvicorn.server import ServerState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

from ludoteca.web.connections import DEFLATE_LEVEL, GuardedWebSocketProtocol, uvicorn_config


def _protocol(**options: Any) -> GuardedWebSocketProtocol:
    loop = asyncio.new_event_loop()
    try:
        config = uvicorn_config(object(), **options)
        config.load()
        return GuardedWebSocketProtocol(config, ServerState(), {}, _loop=loop)
    finally:
        loop.close()


def test_websocket_messages_are_compressed_at_zlibs_fastest_level() -> None:
    extensions = _protocol().conn.available_extensions
    assert extensions is not None
    (factory,) = extensions
    assert isinstance(factory, ServerPerMessageDeflateFactory)
    assert factory.compress_settings == {"memLevel": 5, "level": DEFLATE_LEVEL}
    assert DEFLATE_LEVEL == 1
    # The same window and memory as uvicorn's own, so a client negotiates as before.
    assert (factory.server_max_window_bits, factory.client_max_window_bits) == (12, 12)
    # Level 1 still compresses a board many times over (a repetitive SVG, as boards are).
    board = "".join(f'<g class="region" data-region="a{n}"><rect x="{n}"/></g>' for n in range(99))
    packer = zlib.compressobj(DEFLATE_LEVEL, zlib.DEFLATED, -12, 5)
    packed = packer.compress(board.encode()) + packer.flush(zlib.Z_SYNC_FLUSH)
    assert 0 < len(packed) * 5 < len(board)


def test_no_compression_when_the_configuration_turns_it_off() -> None:
    assert not _protocol(ws_per_message_deflate=False).conn.available_extensions
