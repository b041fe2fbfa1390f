"""Browser sessions: display names, the seats a browser holds, the secret that signs them."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from ludoteca.web.core import GameCore
from ludoteca.web.errors import BadRequestError

#: The longest display name, in characters.
MAX_NAME = 24


def clean_name(name: object) -> str:
    """A display name as kept: spaces trimmed and joined, 1 to `MAX_NAME` printable characters.

    Raises:
        BadRequestError: Empty, too long, or with control or invisible characters.
    """
    if not isinstance(name, str):
        raise BadRequestError("a name is a text")
    cleaned = " ".join(name.split())
    if not cleaned:
        raise BadRequestError("a name needs at least one visible character")
    if len(cleaned) > MAX_NAME:
        raise BadRequestError(f"a name has at most {MAX_NAME} characters; got {len(cleaned)}")
    if any(unicodedata.category(c).startswith("C") for c in cleaned):
        raise BadRequestError("a name cannot contain control or invisible characters")
    return cleaned


def required_name(name: str | None) -> str:
    """A display name that must be given (a challenge's poster or accepter)."""
    if name is None:
        raise BadRequestError(
            "choose a display name first (POST /api/session/name, or name in the request)"
        )
    return clean_name(name)


class BrowserSessions:
    """The browser sessions, over the core's store."""

    def __init__(self, core: GameCore) -> None:
        self._core = core

    async def set_name(self, session: str, name: str) -> str:
        """Set the display name of a browser session; answers the name as kept."""
        cleaned = clean_name(name)
        await self._core.write(self._core.store.set_session_name, session, cleaned)
        return cleaned

    async def name_of(self, session: str | None) -> str | None:
        """The display name of a browser session, if it chose one."""
        if session is None:
            return None
        return await self._core.read(self._core.store.session_name, session)

    async def secret(self) -> str:
        """The secret that signs browser sessions (shared by every server process)."""
        return await self._core.write(self._core.store.secret, "session")

    async def add_seats(self, session: str, game_id: str, seats: Sequence[int]) -> None:
        """Remember that the browser ``session`` plays these seats of the game."""
        await self._core.write(self._core.store.add_session_seats, session, game_id, seats)

    async def seats(self, session: str, game_id: str) -> list[int]:
        """The seats of the game that the browser ``session`` plays."""
        return await self._core.read(self._core.store.session_seats, session, game_id)
