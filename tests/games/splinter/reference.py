"""A slow, plain-Python Splinter referee, written straight from RULES.md, to check the kernels.

It knows nothing of the kernels' shortcuts (the ring test, groups found from the vacated square):
every candidate move is played out on a dictionary board, every group is found by a search over
all pieces, and the no-return rule follows each piece by identity.

A position is ``(pieces, moved)``: ``pieces`` maps ``(file, rank)`` (0-based) to a piece letter
(``S X O`` Blue, ``s x o`` Red); ``moved`` maps the squares of the pieces the opponent's last move
displaced to the squares they came from.
"""

from __future__ import annotations

STEPS = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
FILES = "abcdefghijklmnopqrstuvwxyz"

Square = tuple[int, int]


def name(square: Square) -> str:
    return f"{FILES[square[0]]}{square[1] + 1}"


def groups(squares: set[Square]) -> list[set[Square]]:
    """The groups of ``squares``, touching through sides and corners."""
    left = set(squares)
    found = []
    while left:
        todo = [left.pop()]
        group = set(todo)
        while todo:
            x, y = todo.pop()
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    neighbour = (x + dx, y + dy)
                    if neighbour in left:
                        left.remove(neighbour)
                        group.add(neighbour)
                        todo.append(neighbour)
        found.append(group)
    return found


def first_square(group: set[Square]) -> Square:
    """The group's first square in the order a1 b1 ... a2 b2 ..."""
    return min(group, key=lambda square: (square[1], square[0]))


def play(
    pieces: dict[Square, str],
    moved: dict[Square, Square],
    origin: Square,
    direction: str,
    width: int,
    height: int,
) -> list[tuple[str | None, dict[Square, str], dict[Square, Square]]] | None:
    """Every outcome of moving the piece on ``origin``: ``(kept group's first square name or
    None, pieces after, displaced pieces after)``; ``None`` when the move is illegal."""
    dx, dy = STEPS[direction]

    def on_board(square: Square) -> bool:
        return 0 <= square[0] < width and 0 <= square[1] < height

    line = [origin]
    while (ahead := (line[-1][0] + dx, line[-1][1] + dy)) in pieces:
        line.append(ahead)
    if not on_board((origin[0] + dx, origin[1] + dy)):
        return None
    after = {sq: letter for sq, letter in pieces.items() if sq not in line}
    displaced: dict[Square, Square] = {}
    for square in line:
        target = (square[0] + dx, square[1] + dy)
        if on_board(target):
            if moved.get(square) == target:
                return None  # the no-return rule
            after[target] = pieces[square]
            displaced[target] = square
    found = groups(set(after))
    largest = max((len(group) for group in found), default=0)
    tied = sorted((g for g in found if len(g) == largest), key=first_square)
    outcomes = []
    for group in tied:
        kept = {sq: letter for sq, letter in after.items() if sq in group}
        still = {sq: came for sq, came in displaced.items() if sq in group}
        label = name(first_square(group)) if len(tied) > 1 else None
        outcomes.append((label, kept, still))
    return outcomes


def legal_moves(
    pieces: dict[Square, str], moved: dict[Square, Square], side: int, width: int, height: int
) -> set[str]:
    """The notation of every legal move of ``side`` (0 Blue, 1 Red)."""
    texts = set()
    for origin, letter in pieces.items():
        if letter.isupper() != (side == 0):
            continue
        for direction in STEPS:
            outcomes = play(pieces, moved, origin, direction, width, height)
            for label, _, _ in outcomes or []:
                text = f"{name(origin)}-{direction}"
                texts.add(text if label is None else f"{text}/{label}")
    return texts or {"pass"}
