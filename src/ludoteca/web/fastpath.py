"""The hot path: ``POST /api/games/{id}/moves`` answered without FastAPI's per-request work.

A move is what a busy server does most. Measured with py-spy under ``ludoteca loadtest``, FastAPI's
routing, dependency solving, validation and response wrapping took about a third of the
server's time per move, more than the move itself. `MoveFastPath` answers a well-formed move
request directly: the same checks as `ludoteca.web.api_models.MoveRequest` (a JSON object with a
``move`` text, a ``token`` text, an optional whole ``ply``; ``?board=true`` or nothing), the same
service call, the same answer and the same error bodies. Anything it does not recognise as
well formed is passed on unchanged to the FastAPI route, which stays the documented endpoint and
words every validation error.
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from ludoteca.core.errors import LudotecaError
from ludoteca.web.api_models import ID_PATTERN, MAX_MOVE_TEXT, MAX_PLY, MAX_TOKEN_TEXT
from ludoteca.web.errors import RetryLaterError, http_error
from ludoteca.web.guards import replay_body
from ludoteca.web.messages import with_now

_MOVES_PATH = re.compile(r"/api/games/(" + ID_PATTERN.strip("^$") + ")/moves")
_QUERIES = {b"": False, b"board=true": True, b"board=false": False}
#: Longer error messages are cut (never echo a huge input back).
MAX_MESSAGE = 500


def error_json(message: str) -> bytes:
    """The body of every error answer: ``{"error": "..."}``, the message cut if long."""
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + "…"
    return json.dumps({"error": message}).encode()


def _well_formed(body: bytes) -> tuple[str, str, int | None] | None:
    """The move, token and ply of a request body the API accepts as it is, else ``None``."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # nested too deeply: the API answers it (400)
        return None
    if not isinstance(data, dict) or not {"move", "token"} <= data.keys() <= {
        "move",
        "token",
        "ply",
    }:
        return None
    move, token, ply = data["move"], data["token"], data.get("ply")
    if not isinstance(move, str) or not isinstance(token, str):
        return None
    if len(move) > MAX_MOVE_TEXT or len(token) > MAX_TOKEN_TEXT:
        return None
    if ply is not None and (type(ply) is not int or not 0 <= ply <= MAX_PLY):
        return None
    return move, token, ply


class MoveFastPath:
    """Answer well-formed move requests directly; pass everything else on."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Play the move if the request is one this path recognises, else pass it on."""
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        match = _MOVES_PATH.fullmatch(scope["path"])
        with_board = _QUERIES.get(scope.get("query_string", b""))
        if match is None or with_board is None:
            await self.app(scope, receive, send)
            return
        body = await _read_body(receive)
        if body is None:
            return  # the client went away
        request = _well_formed(body)
        if request is None:
            await self.app(scope, replay_body(body, receive), send)
            return
        move, token, ply = request
        service = scope["app"].state.service
        try:
            live = await service.play(match.group(1), move, token, ply=ply)
        except LudotecaError as error:
            web_error = http_error(error)
            headers = []
            if isinstance(web_error, RetryLaterError):
                headers.append((b"retry-after", str(web_error.retry_after).encode()))
            await _send_json(send, web_error.status, error_json(str(web_error)), headers)
            return
        board = service.board_json(live) if with_board else None
        await _send_json(send, 200, with_now(service.snapshot(live).reply(board)).encode(), [])


async def _read_body(receive: Receive) -> bytes | None:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _send_json(
    send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]
) -> None:
    start: dict[str, Any] = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *headers,
        ],
    }
    await send(start)
    await send({"type": "http.response.body", "body": body})
