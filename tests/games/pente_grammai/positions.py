"""Building Pente Grammai test positions from the counters on each point.

``at({"W4": "w", "B3": "wwb"}, side="w", die=4)`` is the position with those counters, White to
move with a 4 rolled, and every other counter in hand (or stored, with ``stored=``). The ply
count is filled in to agree with the ``first`` option, so any option can be given.
"""

from __future__ import annotations

from ludoteca.games.pente_grammai import PenteGrammaiGame, PenteGrammaiState
from tests.support import make_game

POINTS = ("W1", "W2", "W3", "W4", "W5", "B1", "B2", "B3", "B4", "B5")
WHITE, BLUE = 0, 1


def make(**options: object) -> PenteGrammaiGame:
    return make_game("pente_grammai", PenteGrammaiGame, **options)


def position_text(
    points: dict[str, str],
    *,
    side: str = "w",
    die: int | None = 4,
    stored: tuple[int, int] = (0, 0),
    first: object = "random",
) -> str:
    """The position text; counters not on a point or stored are in hand."""
    cells = [points.get(name, "") or "." for name in POINTS]
    on_board = "".join(points.values())
    hand = (5 - on_board.count("w") - stored[0], 5 - on_board.count("b") - stored[1])
    rolled = 0 if die is None else 1
    if first == "random":
        ply = 1 + rolled
    else:
        turn = ("wb".index(side) - int(str(first))) % 2
        ply = 2 * turn + rolled
    return (
        f"{'/'.join(cells)} {hand[0]} {hand[1]} {stored[0]} {stored[1]} {side} "
        f"{'-' if die is None else die} {ply}"
    )


def at(
    points: dict[str, str] | None = None,
    *,
    side: str = "w",
    die: int | None = 4,
    stored: tuple[int, int] = (0, 0),
    **options: object,
) -> PenteGrammaiState:
    """The position with these counters, ``side`` to move with ``die`` rolled (None: to roll)."""
    game = make(**options)
    text = position_text(
        points or {}, side=side, die=die, stored=stored, first=game.options["first"]
    )
    return game.parse_state(text)


def board(state: PenteGrammaiState) -> dict[str, str]:
    """The occupied points, as ``{"W4": "w", "B3": "wwb"}``."""
    result = {}
    for name in POINTS:
        white, blue = state.counters(name)
        if white or blue:
            result[name] = "w" * white + "b" * blue
    return result
