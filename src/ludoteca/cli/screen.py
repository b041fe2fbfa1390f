"""What the terminal shows of a position: the game's own board text with the last move marked.

Each game may declare ``board_text(state, *, marked=...)`` in its view (``GameInfo.view``, see
`ludoteca.core.view`); games without it are shown with ``str(state)``. The squares of the last
move are found from the game's declared drawing and click paths too: the regions clicked to
make it (its origin first) and the regions whose pieces changed, so every game gets its origin
and target marked without the terminal knowing any rules.
"""

from __future__ import annotations

from ludoteca.core.game import Move, State
from ludoteca.core.info import View

#: Lines the terminal keeps for itself under the board: the last moves and the prompt.
LINES_UNDER_THE_BOARD = 2


def board_text(state: State, marked: frozenset[str] = frozenset()) -> str:
    """The board as the terminal shows it, with the squares in ``marked`` marked."""
    render = state.game.info.view.board_text
    if render is None:
        return str(state)
    text: str = render(state, marked=marked)
    return text


def moved_regions(before: State, move: Move, after: State) -> frozenset[str]:
    """The regions (squares, points) a move went from and to, for marking on the board."""
    view = before.game.info.view
    if view.drawing is None:
        return frozenset()
    regions: set[str] = set()
    click_paths = view.click_paths
    if click_paths is not None:
        regions.update(click_paths(before).get(move.text, ()))
    old, new = _pieces_by_region(view, before), _pieces_by_region(view, after)
    regions.update(
        region for region in old.keys() | new.keys() if old.get(region) != new.get(region)
    )
    return frozenset(regions)


def _pieces_by_region(view: View, state: State) -> dict[str, tuple[str, ...]]:
    """What stands on each region that holds pieces, in a comparable form."""
    contents: dict[str, list[str]] = {}
    assert view.drawing is not None
    for piece in view.drawing(state).pieces:
        contents.setdefault(piece.region, []).append(f"{piece.owner}:{piece.shape}:{piece.text}")
    return {region: tuple(sorted(items)) for region, items in contents.items()}
