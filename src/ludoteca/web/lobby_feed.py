"""The lobby's WebSocket: open challenges and games to watch, pushed as they change.

A subscriber of the core's events (`ludoteca.web.events`): a challenge posted, accepted or
withdrawn, a game created or ended, here or in another process (`LobbyChanged`, heard on the
change feed), makes the lobby be read once (`ludoteca.web.lobby.Lobby.lobby`, once per browser
session watching) and put in each lobby socket's mailbox as
``{"type": "lobby", "lobby": <the answer of GET /api/lobby>}``. Changes arriving together are
pushed once (`DEBOUNCE_SECONDS`). The mailbox keeps only the newest lobby for a socket that
reads slowly, and a socket that stops reading is dropped (`ludoteca.web.connections`).
"""

from __future__ import annotations

import asyncio
import logging

from ludoteca.core.errors import LudotecaError
from ludoteca.web.core import GameCore
from ludoteca.web.events import (
    ChallengeEvent,
    Event,
    GameChanged,
    GameCreated,
    GameRefreshed,
    LobbyChanged,
)
from ludoteca.web.lobby import Lobby
from ludoteca.web.mailbox import Mailbox
from ludoteca.web.messages import to_json

log = logging.getLogger(__name__)

#: Changes within this time of each other are pushed as one lobby.
DEBOUNCE_SECONDS = 0.1


class LobbyFeed:
    """The lobby sockets of one server process."""

    def __init__(self, core: GameCore, lobby: Lobby) -> None:
        self._core = core
        self._lobby = lobby
        self._sockets: dict[Mailbox, str | None] = {}
        self._pending: asyncio.Task[None] | None = None
        core.events.subscribe(self._heard, ChallengeEvent, LobbyChanged, GameChanged)

    def __len__(self) -> int:
        """How many lobby sockets this process serves."""
        return len(self._sockets)

    def subscribe(self, session: str | None) -> Mailbox:
        """A mailbox that receives the lobby of ``session`` after every change."""
        mailbox = Mailbox()
        self._sockets[mailbox] = session
        return mailbox

    def unsubscribe(self, mailbox: Mailbox) -> None:
        """Stop sending to ``mailbox``."""
        self._sockets.pop(mailbox, None)

    def close(self) -> None:
        """Stop a push under way."""
        if self._pending is not None:
            self._pending.cancel()

    def _heard(self, event: Event) -> None:
        if isinstance(event, GameChanged) and not (isinstance(event, GameCreated) or event.ended):
            return  # a move in a running game leaves the lobby as it is
        if isinstance(event, GameRefreshed) and not event.ended:
            return
        self.changed()

    def changed(self) -> None:
        """Push the lobby to every socket soon (once for changes arriving together)."""
        if not self._sockets or self._core.closing:
            return
        if self._pending is None or self._pending.done():
            self._pending = asyncio.get_running_loop().create_task(self._push())

    async def _push(self) -> None:
        await asyncio.sleep(DEBOUNCE_SECONDS)
        self._pending = None
        messages: dict[str | None, str] = {}
        for mailbox, session in list(self._sockets.items()):
            if session not in messages:
                try:
                    messages[session] = await self.message(session)
                except LudotecaError as error:
                    log.warning("could not read the lobby: %s", error)
                    return
            mailbox.put(messages[session])

    async def message(self, session: str | None) -> str:
        """The lobby message for a browser session."""
        return to_json({"type": "lobby", "lobby": await self._lobby.lobby(session)})
