"""What a Pente Grammai position looks like: the terminal diagram and the front ends' drawing.

`render_board` is what the terminal prints (it lives with the state, whose ``str`` it is, and is
exported here for the game's `ludoteca.core.view.View`); `drawing` and `click_paths` are what the
web page draws and how clicks make moves (see `ludoteca.core.view`).

The board is drawn as White sees it, sitting below it: the five lines run across, White's points
W1..W5 are their right-hand ends (W1 nearest White) and Blue's B1..B5 their left-hand ends (B1
nearest Blue). The middle line is the sacred line::

                             Blue
      B1 [    .     ]----------------------[    .     ] W5
      B2 [    .     ]----------------------[    .     ] W4
      B3 [    .     ]==== sacred line =====[    .     ] W3
      B4 [    .     ]----------------------[    .     ] W2
      B5 [    .     ]----------------------[    .     ] W1
                            White

Each point shows its counters, ``w`` for White and ``b`` for Blue.

The drawing has the same orientation: Blue's points at the left ends of the lines, White's at the
right, Blue's hand above the board and White's below it (with ``sacred="storage"`` each side's
store beside its hand). Every point is a circle region named as in the notation (``"W4"``);
the hands are ``"hand-white"`` and ``"hand-blue"``, the stores ``"store-white"`` and
``"store-blue"``. Every counter is a ``disc`` piece on its point, in its hand or in its store.

A move takes one click: the point whose counter moves (``W4-B2``: ``W4``), or the hand to enter
a counter (``hand-W4``: ``hand-white``); the die decides where it goes. ``pass`` has no click.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ludoteca.core.view import Die, Drawing, Mark, Piece, Region
from ludoteca.games.pente_grammai import kernels as k
from ludoteca.games.pente_grammai.position import (
    POINT_NAMES,
    SIDE_NAMES,
    side_summary,
    status_line,
)
from ludoteca.games.pente_grammai.position import (
    board_text as board_text,  # the game's View takes it from this module
)
from ludoteca.games.pente_grammai.position import (
    render_board as render_board,
)
from ludoteca.games.pente_grammai.state import PenteGrammaiMove

if TYPE_CHECKING:
    from ludoteca.core.game import Move
    from ludoteca.games.pente_grammai.state import PenteGrammaiState

# -- the front ends' drawing ----------------------------------------------------------------------

SIDE_STYLES: Final = ("white", "blue")
HAND_IDS: Final = ("hand-white", "hand-blue")
STORE_IDS: Final = ("store-white", "store-blue")
WIDTH: Final = 10.0
HEIGHT: Final = 11.0
POINT_SIZE: Final = 1.2
LEFT_X: Final = 2.0  # centre of Blue's points, the left ends of the lines
RIGHT_X: Final = 8.0  # centre of White's points, the right ends
TOP_LINE_Y: Final = 2.2  # centre of line 5 (nearest Blue); the lines are LINE_GAP apart
LINE_GAP: Final = 1.6


def _point_centre(index: int) -> tuple[float, float]:
    """The centre of point ``index`` (circuit order): W1..W5 at the right, B1..B5 at the left."""
    if index < 5:  # W1 is on line 1 (the bottom), W5 on line 5 (the top)
        return RIGHT_X, round(TOP_LINE_Y + (4 - index) * LINE_GAP, 3)
    return LEFT_X, round(TOP_LINE_Y + (index - 5) * LINE_GAP, 3)


def _counters_phrase(white: int, blue: int) -> str:
    parts = [
        f"{n} {SIDE_NAMES[side]} counter{'s' if n != 1 else ''}"
        for side, n in ((k.WHITE, white), (k.BLUE, blue))
        if n
    ]
    return " and ".join(parts) or "empty"


def drawing(state: PenteGrammaiState) -> Drawing:
    """The whole position: ten points, the hands (and stores), every counter, the die."""
    storage = state.game.options["sacred"] == "storage"
    regions: list[Region] = []
    pieces: list[Piece] = []

    def add_counters(region: str, side: int, count: int) -> None:
        pieces.extend(
            Piece(region, side, "disc", "", f"{SIDE_NAMES[side]} counter", SIDE_STYLES[side])
            for _ in range(count)
        )

    for index, name in enumerate(POINT_NAMES):
        x, y = _point_centre(index)
        white, blue = state.counters(name)
        kind = "ordinary point"
        if index in (k.W3, k.B3):
            owner = k.BLUE if index == int(k.GOAL[k.BLUE]) else k.WHITE
            kind = f"sacred point, {SIDE_NAMES[owner]}'s goal"
        half = POINT_SIZE / 2
        regions.append(
            Region(
                id=name,
                x=round(x - half, 3),
                y=round(y - half, 3),
                width=POINT_SIZE,
                height=POINT_SIZE,
                label=f"{name}, {kind}, {_counters_phrase(white, blue)}",
                style="sacred" if index in (k.W3, k.B3) else "point",
                shape="circle",
            )
        )
        add_counters(name, k.WHITE, white)
        add_counters(name, k.BLUE, blue)
    for side, y in ((k.BLUE, 0.0), (k.WHITE, HEIGHT - POINT_SIZE)):
        in_hand = state.hand(side)
        regions.append(
            Region(
                id=HAND_IDS[side],
                x=3.5,
                y=y,
                width=3.0,
                height=POINT_SIZE,
                label=f"{SIDE_NAMES[side]}'s hand, {in_hand} counter{'s' if in_hand != 1 else ''}",
                style="hand",
            )
        )
        add_counters(HAND_IDS[side], side, in_hand)
        if storage:
            stored = state.stored(side)
            goal = POINT_NAMES[int(k.GOAL[side])]
            regions.append(
                Region(
                    id=STORE_IDS[side],
                    x=7.0 if side == k.BLUE else 0.5,
                    y=y,
                    width=2.5,
                    height=POINT_SIZE,
                    label=f"{SIDE_NAMES[side]}'s store (counters stored from {goal}), {stored}",
                    style="store",
                )
            )
            add_counters(STORE_IDS[side], side, stored)
    return Drawing(
        width=WIDTH,
        height=HEIGHT,
        regions=tuple(regions),
        pieces=tuple(pieces),
        marks=_marks(),
        dice=(_die(state),),
        status=status_line(state),
        notes=tuple(side_summary(state, side) + "." for side in (k.WHITE, k.BLUE)),
    )


def _marks() -> tuple[Mark, ...]:
    """The five lines, the sacred line's caption and the point names beside the points."""
    marks = []
    half = POINT_SIZE / 2
    for line in range(5):  # from line 5 (nearest Blue, at the top) down to line 1
        y = round(TOP_LINE_Y + line * LINE_GAP, 3)
        style = "sacred" if line == 2 else "line"
        marks.append(Mark("line", LEFT_X + half, y, x2=RIGHT_X - half, y2=y, style=style))
    sacred_y = round(TOP_LINE_Y + 2 * LINE_GAP, 3)
    marks.append(Mark("text", WIDTH / 2, sacred_y - 0.35, "sacred line", style="caption"))
    for index, name in enumerate(POINT_NAMES):
        x, y = _point_centre(index)
        marks.append(Mark("text", 0.7 if x < WIDTH / 2 else WIDTH - 0.7, y, name, style="point"))
    return tuple(marks)


def _die(state: PenteGrammaiState) -> Die:
    """The die, with what it can do: where a counter enters, which counters can move, or pass."""
    side, die = state.side, state.die
    if state.is_over:
        return Die(0, 6, "die: the game is over", used=True)
    if side is None:
        return Die(0, 6, "die: not rolled yet; first who starts is drawn")
    name = SIDE_NAMES[side]
    if die is None:
        return Die(0, 6, f"die: to be rolled by {name}")
    moves = [move.text for move in state.legal_moves()]
    if moves == ["pass"]:
        return Die(die, 6, f"die {die}: {name} can neither enter nor move a counter, so passes")
    if moves[0].startswith("hand-"):
        return Die(die, 6, f"die {die}: {name} must enter a counter on {moves[0][5:]}")
    points = f"{die} point{'s' if die != 1 else ''}"
    return Die(die, 6, f"die {die}: {name} moves one counter {points}: {', '.join(moves)}")


def click_paths(state: PenteGrammaiState) -> dict[str, tuple[str, ...]]:
    """Legal move text -> the one region clicked: the moving counter's point, or the hand.

    ``pass`` has the empty path; at a chance node (a roll, the draw of who starts) there are no
    paths.
    """
    side = state.side
    if state.to_move != side or side is None:
        return {}
    paths: dict[str, tuple[str, ...]] = {}
    for move in state.legal_moves():
        assert isinstance(move, PenteGrammaiMove)
        if move.is_entry:
            paths[move.text] = (HAND_IDS[side],)
        else:
            origin = move.origin
            paths[move.text] = () if origin is None else (origin,)
    return paths


def chance_text(state: PenteGrammaiState, move: Move, *, short: bool = False) -> str:
    """A roll or the draw of who starts in words: ``"rolled 5"`` (short ``"5"``)."""
    text = move.text
    if text.startswith("first-"):
        return f"{SIDE_NAMES[int(text[len('first-') :])]} starts"
    return text[1:] if short else f"rolled {text[1:]}"
