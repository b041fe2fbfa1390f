"""Live updates over WebSocket: a game's state as it changes, and the lobby's.

``/ws/games/{id}`` sends the game's state at once and after every change (and a review's
progress); ``/ws/lobby`` sends the lobby at once and after every change of it. Each socket has a
mailbox (`ludoteca.web.mailbox`) that keeps only the newest message of each type, and a client
that stops reading is dropped (`ludoteca.web.connections`). Another site's page is refused.
"""

from __future__ import annotations

import asyncio
from asyncio import FIRST_COMPLETED

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ludoteca.core.errors import LudotecaError
from ludoteca.web.guards import origin_allowed, session_of
from ludoteca.web.mailbox import Mailbox
from ludoteca.web.messages import with_now
from ludoteca.web.service import GameService


def service_of(websocket: WebSocket) -> GameService:
    """The app's game service."""
    service: GameService = websocket.app.state.service
    return service


router = APIRouter()


@router.websocket("/ws/games/{game_id}")
async def game_updates(websocket: WebSocket, game_id: str) -> None:
    """Send the game's state at once and after every change, until the client leaves."""
    service = service_of(websocket)
    if not origin_allowed(websocket):  # another site's page must not watch through a browser
        await websocket.close(code=4403, reason="this socket is for the site's own pages")
        return
    try:
        live = await service.current(game_id)
    except LudotecaError as error:
        await websocket.close(code=4404, reason=str(error)[:120])
        return
    await websocket.accept()
    mailbox = service.subscribe(game_id)
    try:
        await _pump(websocket, mailbox, service.message(live))
    finally:
        service.unsubscribe(game_id, mailbox)


@router.websocket("/ws/lobby")
async def lobby_updates(websocket: WebSocket) -> None:
    """Send the lobby at once and after every change of it, until the client leaves.

    Each message is ``{"type": "lobby", "lobby": ...}``, the answer of ``GET /api/lobby`` for
    the browser's session: a challenge posted, accepted or withdrawn, a game created or ended
    (by any server process) sends it again.
    """
    service = service_of(websocket)
    if not origin_allowed(websocket):
        await websocket.close(code=4403, reason="this socket is for the site's own pages")
        return
    session = session_of(websocket)
    try:
        first = await service.lobby_feed.message(session)
    except LudotecaError as error:
        await websocket.close(code=1011, reason=str(error)[:120])
        return
    await websocket.accept()
    mailbox = service.lobby_feed.subscribe(session)
    try:
        await _pump(websocket, mailbox, first)
    finally:
        service.lobby_feed.unsubscribe(mailbox)


async def _pump(websocket: WebSocket, mailbox: Mailbox, first: str) -> None:
    """Send ``first``, then what arrives in ``mailbox``, until the client leaves."""
    listener = asyncio.create_task(_until_closed(websocket))
    try:
        await websocket.send_text(with_now(first))
        while True:
            # A slow reader gets the newest message of each type, not a backlog.
            update = asyncio.create_task(mailbox.take())
            done, _ = await asyncio.wait({update, listener}, return_when=FIRST_COMPLETED)
            if listener in done:
                update.cancel()
                break
            for message in update.result():
                await websocket.send_text(with_now(message))
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass  # the client went away (or was dropped for not reading) while we were sending
    finally:
        listener.cancel()


async def _until_closed(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends until it disconnects."""
    try:
        while True:
            await websocket.receive_text()
    except (WebSocketDisconnect, RuntimeError):
        return
