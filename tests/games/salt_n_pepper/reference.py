"""A slow, plain-Python reading of the rules, written apart from the kernels, to compare with.

Squares are ``(file, rank)`` pairs counted from 1 (a1 = ``(1, 1)``); a board is a dict from
square to ``"S"`` or ``"P"``. Only what RULES.md says is used: no tables, no action codes.
"""

from __future__ import annotations

Square = tuple[int, int]
Board = dict[Square, str]
FILES = "abcdefghij"


def name(square: Square) -> str:
    return f"{FILES[square[0] - 1]}{square[1]}"


def read_board(text: str) -> Board:
    """The board of a position text (its first field)."""
    rows = text.split()[0].split("/")
    board: Board = {}
    for row, cells in enumerate(rows):
        for file, cell in enumerate(cells, start=1):
            if cell != ".":
                board[(file, len(rows) - row)] = cell
    return board


def legal_moves(board: Board, side: int, ranks: int, sideways: bool) -> set[str]:
    """Every legal move text of ``side`` (0 Salt, 1 Pepper) on ``board``."""
    me, them = ("S", "P") if side == 0 else ("P", "S")
    back = 1 if side == 0 else ranks
    mine = [square for square, piece in board.items() if piece == me]
    on_back_rank = [square for square in mine if square[1] == back]
    if on_back_rank:  # forced home
        return {f"{name(square)}-home" for square in on_back_rank}
    if side == 0:
        directions = [(-1, -1), (1, -1)]
    else:
        directions = [(0, 1)] + ([(-1, 0), (1, 0)] if sideways else [])

    def on_board(square: Square) -> bool:
        return 1 <= square[0] <= 10 and 1 <= square[1] <= ranks

    moves = set()
    for file, rank in mine:
        for df, dr in directions:
            over = (file + df, rank + dr)
            if not on_board(over):
                continue
            if over not in board:
                moves.add(f"{name((file, rank))}-{name(over)}")
            elif board[over] == them:
                if dr != 0 and over[1] == back:
                    moves.add(f"{name((file, rank))}xhome")
                    continue
                land = (file + 2 * df, rank + 2 * dr)
                if on_board(land) and land not in board:
                    moves.add(f"{name((file, rank))}x{name(land)}")
    return moves or {"pass"}


def played(board: Board, side: int, move: str) -> Board:
    """The board after ``side`` plays the legal ``move``."""
    if move == "pass":
        return dict(board)
    after = dict(board)
    origin_text, destination_text = move.replace("x", "-").split("-")
    origin = (FILES.index(origin_text[0]) + 1, int(origin_text[1:]))
    piece = after.pop(origin)
    if destination_text != "home":
        after[(FILES.index(destination_text[0]) + 1, int(destination_text[1:]))] = piece
    return after
