"""What the page shows of a position: the game's declared view, or a text fallback.

Each game declares how it is drawn (``GameInfo.view``: ``drawing(state)`` and
``click_paths(state)``, see `ludoteca.core.view`); a game that declares no drawing is shown as
its text diagram, and moves are typed or chosen from buttons.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from ludoteca.core.game import State
from ludoteca.core.view import Drawing
from ludoteca.drawing.svg import die_faces, render_svg

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Board:
    """A position as the page draws it.

    Attributes:
        svg: The board as SVG markup, or ``None`` when the game has no drawing yet.
        text: The text diagram (``str(state)``) when there is no SVG, else ``None`` (the page
            shows one or the other; drawing both cost a fifth of a board).
        status: One line: whose turn, or the result.
        notes: Further lines shown beside the board.
        dice: The dice as dictionaries (see `ludoteca.drawing.svg.die_faces`).
        click_paths: Legal move text -> the region ids to click, in order.
    """

    svg: str | None
    text: str | None
    status: str
    notes: tuple[str, ...] = ()
    dice: list[dict[str, object]] = field(default_factory=list)
    click_paths: dict[str, list[str]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form sent to the page."""
        return {
            "svg": self.svg,
            "text": self.text,
            "status": self.status,
            "notes": list(self.notes),
            "dice": self.dice,
            "click_paths": self.click_paths,
        }


def drawing_of(state: State) -> Drawing | None:
    """The game's drawing of ``state``, or ``None`` when its view cannot draw it."""
    function = state.game.info.view.drawing
    if function is None:
        return None
    try:
        drawing = function(state)
    except Exception:  # a bug in a view must not take the page down: fall back to text
        log.exception("the %s view failed to draw %s", state.game.id, state.to_text())
        return None
    return drawing if isinstance(drawing, Drawing) else None


def click_paths_of(state: State) -> dict[str, list[str]]:
    """Legal move text -> region ids, from the game's view (empty when it has none)."""
    function = state.game.info.view.click_paths
    if function is None or state.is_over:
        return {}
    try:
        paths = function(state)
        return {str(move): [str(region) for region in path] for move, path in paths.items()}
    except Exception:
        log.exception("the %s view failed to give click paths", state.game.id)
        return {}


def board_of(
    state: State,
    *,
    previous: State | None = None,
    last_move: str | None = None,
    status: str = "",
    with_clicks: bool = True,
    previous_paths: dict[str, list[str]] | None = None,
) -> Board:
    """The board of ``state``, the last move (played from ``previous``) highlighted.

    Args:
        state: The position to show.
        previous: The position before the last move, whose click path marks that move.
        last_move: The text of the last move.
        status: A status line that replaces the drawing's (a resignation, say).
        with_clicks: Whether to compute the click paths (only when a person is to move).
        previous_paths: ``previous``'s click paths if the caller has them already.
    """
    drawing = drawing_of(state)
    highlight: list[str] = []
    if previous is not None and last_move is not None:
        if previous_paths is None:
            previous_paths = click_paths_of(previous)
        highlight = previous_paths.get(last_move, [])
    paths = click_paths_of(state) if with_clicks else {}
    if drawing is None:
        return Board(svg=None, text=str(state), status=status, click_paths=paths)
    return Board(
        svg=render_svg(
            drawing,
            highlight=highlight,
            title=f"{state.game.name} board",
            game_id=state.game.id,
        ),
        text=None,
        status=status or drawing.status,
        notes=tuple(drawing.notes),
        dice=die_faces(drawing.dice),
        click_paths=paths,
    )


def thumbnail(state: State) -> str | None:
    """A small non-interactive SVG of ``state`` for the lobby, or ``None``."""
    drawing = drawing_of(state)
    if drawing is None:
        return None
    return render_svg(
        drawing,
        interactive=False,
        title=f"{state.game.name}: start position",
        game_id=state.game.id,
    )
