"""The lobby: open challenges, running games to watch, and a browser's own games."""

from __future__ import annotations

from typing import Any

from ludoteca.core.errors import LudotecaError
from ludoteca.core.registry import game_class
from ludoteca.web.challenges import with_poster_ratings
from ludoteca.web.clocks import spec_from_json
from ludoteca.web.core import GameCore
from ludoteca.web.storage import GameSummary

PER_PAGE = 50
#: How many running games the lobby lists to watch, and how many of a browser's own games.
LISTED = 20


class Lobby:
    """What the lobby page shows, read from the store."""

    def __init__(self, core: GameCore) -> None:
        self._core = core

    async def list_games(self, page: int = 1, per_page: int = PER_PAGE) -> dict[str, Any]:
        """A page of games, most recently changed first, with their state and result."""
        core = self._core
        summaries, total = await core.read(
            core.store.list_games, offset=(page - 1) * per_page, limit=per_page
        )
        return {
            "games": [summary_dict(summary) for summary in summaries],
            "page": page,
            "per_page": per_page,
            "total": total,
            "pages": max(1, -(-total // per_page)),
        }

    async def lobby(self, session: str | None) -> dict[str, Any]:
        """Open challenges, running games to watch, and this browser's own games."""
        core = self._core
        challenges = await core.read(core.store.open_challenges)
        running, _ = await core.read(core.store.list_games, running=True, limit=LISTED)
        mine: list[GameSummary] = []
        if session is not None:
            mine, _ = await core.read(core.store.list_games, session=session, limit=LISTED)
        return {
            "challenges": await with_poster_ratings(core, challenges, session),
            "playing": [summary_dict(s) for s in running],
            "mine": [summary_dict(s) for s in mine],
            **core.readiness.summary(),
        }


def summary_dict(summary: GameSummary) -> dict[str, Any]:
    """A game of a list, for the API (read without replaying it)."""
    try:
        cls = game_class(summary.game)
        name, players = cls.name, cls.player_names
    except LudotecaError:
        name, players = summary.game, tuple(str(s.seat) for s in summary.seats)
    return {
        "id": summary.id,
        "game": summary.game,
        "name": name,
        "players": [
            f"{players[s.seat] if s.seat < len(players) else s.seat}: {s.name or s.agent or s.kind}"
            for s in summary.seats
        ],
        "names": [s.name for s in summary.seats],
        "ply": summary.move_count,
        "status": "over" if summary.result is not None else "running",
        "result": summary.result,
        "created": summary.created,
        "updated": summary.updated,
        "clock": _clock_words(summary.clock),
    }


def _clock_words(stored: str | None) -> str | None:
    spec = spec_from_json(stored)
    return None if spec is None else spec.describe()
