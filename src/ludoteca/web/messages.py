"""What the server sends: a game's JSON serialised once per version, with the server's time."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass


@dataclass(slots=True)
class Snapshot:
    """A game's JSON at one version, serialised once and sent to everyone who asks.

    The board (SVG, dice, click paths) is drawn only when someone needs it: a WebSocket
    subscriber, a page, ``GET .../board``; API clients that only play get the game alone.

    Attributes:
        version: The game's version.
        game: `LiveGame.to_dict` as JSON text.
        board: The board now (`ludoteca.web.service.GameService.board`) as JSON text, once drawn.
    """

    version: int
    game: str
    board: str | None = None

    def message(self, board: str) -> str:
        """The WebSocket message: ``{"type": "state", "game": ..., "board": ...}``."""
        return f'{{"type":"state","game":{self.game},"board":{board}}}'

    def reply(self, board: str | None) -> str:
        """The answer to a change: the game, with its ``board`` added when given."""
        return self.game if board is None else f'{self.game[:-1]},"board":{board}}}'


def with_now(message: str) -> str:
    """A JSON object's text with ``"now"``, the server's time (epoch seconds), added.

    Pages show the clocks in the server's time: they take the difference from their own.
    """
    return f'{message[:-1]},"now":{time.time():.3f}}}'


def to_json(value: object) -> str:
    """Compact JSON, as every snapshot is written."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
