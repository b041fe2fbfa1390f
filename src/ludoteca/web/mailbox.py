"""What waits to be sent to one WebSocket subscriber: the newest message of each type.

A subscriber that reads slowly (or not at all) must not make the server keep every change it
missed: the browser only ever needs the game's latest state and the latest review progress. A
`Mailbox` keeps one message per type (``{"type": "state", ...}``, ``{"type": "review", ...}``),
each replacing the one before, so its size is bounded whatever the number of changes.
"""

from __future__ import annotations

import asyncio


def message_type(message: str) -> str:
    """The ``type`` of a pushed message (each starts ``{"type":"...",``)."""
    return message[: message.find(",")]


class Mailbox:
    """The newest unsent message of each type, for one subscriber."""

    def __init__(self) -> None:
        self._newest: dict[str, str] = {}
        self._ready = asyncio.Event()

    def __len__(self) -> int:
        """How many messages wait (at most one per type)."""
        return len(self._newest)

    def put(self, message: str) -> None:
        """Keep ``message`` in place of any unsent one of its type."""
        self._newest[message_type(message)] = message
        self._ready.set()

    async def take(self) -> list[str]:
        """Wait for messages; return every waiting one (oldest type first) and forget them."""
        await self._ready.wait()
        self._ready.clear()
        messages = list(self._newest.values())
        self._newest.clear()
        return messages
