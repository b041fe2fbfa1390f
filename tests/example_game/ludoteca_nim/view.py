"""What Nim looks like: a row of counters; clicking one takes it and every counter right of it."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from ludoteca.core.view import Drawing, Piece, Region

if TYPE_CHECKING:
    from ludoteca_nim.state import NimState


def _start(state: NimState) -> int:
    return int(state.game.options["pile"])  # type: ignore[call-overload]


def drawing(state: NimState) -> Drawing:
    """One slot per counter of the starting pile; the counters left stand on the first ones."""
    slots = _start(state)
    regions = tuple(
        Region(f"c{n}", float(n - 1), 0.0, 1.0, 1.0, f"counter {n}", style="slot")
        for n in range(1, slots + 1)
    )
    pieces = tuple(
        Piece(f"c{n}", None, "disc", "", f"counter {n}", style="amber")
        for n in range(1, state.pile + 1)
    )
    if state.outcome is not None:
        status = state.outcome.reason
    else:
        most = min(state.pile, int(state.game.options["max_take"]))  # type: ignore[call-overload]
        status = f"{state.game.player_names[state.to_move or 0]} to take 1 to {most} counters"
    return Drawing(float(slots), 1.0, regions, pieces, status=status)


def click_paths(state: NimState) -> dict[str, tuple[str, ...]]:
    """Take ``n`` counters by clicking the ``n``-th counter from the right."""
    return {move.text: (f"c{state.pile - int(move.text[1:]) + 1}",) for move in state.legal_moves()}


def board_text(state: NimState, *, marked: Collection[str] = frozenset()) -> str:
    """The pile as a row of ``o``, the slots of the last move as ``[.]``."""
    cells = [
        ("o" if n <= state.pile else ".") if f"c{n}" not in marked else "[.]"
        for n in range(1, _start(state) + 1)
    ]
    return " ".join(cells) + f"   ({state.pile} left)"
