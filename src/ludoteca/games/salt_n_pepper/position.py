"""Salt 'n' Pepper's position text and board diagram.

Position text: four fields separated by spaces,

1. the ranks from the top (10 by default) down to 1, separated by ``/``, each ten cells from
   file a to file j: ``S`` a Salt piece, ``P`` a Pepper piece, ``.`` an empty square (pieces
   not on the board are home);
2. the side to move: ``s`` (Salt) or ``p`` (Pepper), or ``-`` before the bag draw;
3. the plies played since the bag draw, passes included;
4. how many passes were just played in a row (``0``, ``1``, or ``2`` when both sides were
   stuck, which ends the game).

The start position before the bag draw (one line in reality)::

    S.S.S.S.S./.S.S.S.S.S/S.S.S.S.S./........../........../
    ........../........../P.P.P.P.P./.P.P.P.P.P/P.P.P.P.P. - 0 0
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING

import numpy as np

from ludoteca.core.array_state import Cells
from ludoteca.core.errors import InvalidStateError
from ludoteca.core.grids import square_name
from ludoteca.core.view import join_marked
from ludoteca.games.salt_n_pepper import kernels as k

if TYPE_CHECKING:
    from ludoteca.games.salt_n_pepper import SaltNPepperGame
    from ludoteca.games.salt_n_pepper.state import SaltNPepperState

SIDE_NAMES = ("Salt", "Pepper")
SIDE_LETTERS = ("s", "p")
CELL_LETTERS = ".SP"  # by cell value: EMPTY, SALT_CELL, PEPPER_CELL


def is_dark(square: int) -> bool:
    """Whether ``square`` is dark: file + rank odd, counting a = 1 and rank 1 = 1 (a1 is light)."""
    rank, file = divmod(square, int(k.WIDTH))
    return (file + rank) % 2 == 1


def start_squares(ranks: int) -> tuple[list[int], list[int]]:
    """The start squares of Salt and of Pepper, each in index order.

    Salt starts on the dark squares of the top three ranks, Pepper on the light squares of ranks
    1 to 3.
    """
    salt = [q for q in range(k.WIDTH * (ranks - 3), k.WIDTH * ranks) if is_dark(q)]
    pepper = [q for q in range(k.WIDTH * 3) if not is_dark(q)]
    return salt, pepper


def build_cells(
    ranks: int,
    squares: tuple[Iterable[int], Iterable[int]],
    *,
    first: int | None,
    ply: int = 0,
    passes: int = 0,
) -> Cells:
    """A position array (not yet settled) with the pieces of each side on ``squares``."""
    cells = np.zeros(k.cells_size(ranks), dtype=np.int32)
    cells[k.FIRST_AT] = k.UNDRAWN if first is None else first
    cells[k.PLY_AT] = ply
    cells[k.PASSES_AT] = passes
    for side in (k.SALT, k.PEPPER):
        on_board = sorted(squares[side])
        k.set_pieces_on_board(cells, side, len(on_board))
        slots = k.piece_slots(cells, side)
        slots[:] = k.NO_SQUARE
        slots[: len(on_board)] = on_board
        for square in on_board:
            k.set_board_cell(cells, square, side + 1)
    return cells


def position_text(cells: Cells, ranks: int) -> str:
    """The canonical position text of the array ``cells`` (see the module docstring)."""
    board = k.board_cells(cells)
    rows = []
    for rank in range(ranks - 1, -1, -1):
        start = rank * k.WIDTH
        rows.append("".join(CELL_LETTERS[int(c)] for c in board[start : start + k.WIDTH]))
    first = int(cells[k.FIRST_AT])
    ply = int(cells[k.PLY_AT])
    side = "-" if first == k.UNDRAWN else SIDE_LETTERS[(first + ply) % 2]
    return f"{'/'.join(rows)} {side} {ply} {int(cells[k.PASSES_AT])}"


FORM = "'<ranks from the top, '/' between them> <s|p|-> <plies> <passes in a row>'"


def parse_cells(game: SaltNPepperGame, text: str) -> Cells:
    """Read position text into a settled position array, checking it can arise in play.

    Raises:
        InvalidStateError: What is wrong with the text, and the expected form.
    """
    if not isinstance(text, str):
        raise InvalidStateError(f"Salt 'n' Pepper position text must be a string; got {text!r}")
    fields = text.split()
    if len(fields) != 4:
        raise InvalidStateError(f"the position text has {len(fields)} fields; expected {FORM}")
    board, side_letter, ply_text, passes_text = fields
    ranks = int(game.params[k.P_RANKS])
    squares = _read_board(board, ranks)
    for side in (k.SALT, k.PEPPER):
        if len(squares[side]) > k.PIECES_PER_SIDE:
            raise InvalidStateError(
                f"{SIDE_NAMES[side]} has {len(squares[side])} pieces on the board; at most 15"
            )
    if not squares[k.SALT] and not squares[k.PEPPER]:
        raise InvalidStateError("both sides cannot have every piece home: the first one ends it")
    if not (ply_text.isascii() and ply_text.isdigit()):
        raise InvalidStateError(f"plies played must be a whole number; got {ply_text!r}")
    if passes_text not in ("0", "1", "2"):
        raise InvalidStateError(f"passes in a row must be 0, 1 or 2; got {passes_text!r}")
    ply, passes = int(ply_text), int(passes_text)
    first = _first_player(game, side_letter, ply, passes)
    max_plies = int(game.params[k.P_MAX_PLIES])
    if ply > max_plies:
        raise InvalidStateError(f"the game ends after {max_plies} plies (max_plies); got {ply}")
    if passes > ply:
        raise InvalidStateError(f"{passes} passes in a row cannot follow {ply} plies")
    cells = build_cells(ranks, squares, first=first, ply=ply, passes=passes)
    if first is not None:
        _check_history(game, cells, (first + ply) % 2, passes)
    elif not (squares[k.SALT] and squares[k.PEPPER]):
        raise InvalidStateError("before the bag draw both sides need pieces on the board")
    k.settle(cells, game.params)
    return cells


def _read_board(board: str, ranks: int) -> tuple[list[int], list[int]]:
    rows = board.split("/")
    if len(rows) != ranks:
        raise InvalidStateError(
            f"the board has {len(rows)} ranks; expected {ranks} (option ranks) separated by '/'"
        )
    squares: tuple[list[int], list[int]] = ([], [])
    for row, rank_text in enumerate(rows):
        rank = ranks - 1 - row
        if len(rank_text) != k.WIDTH or any(c not in CELL_LETTERS for c in rank_text):
            raise InvalidStateError(
                f"rank {rank + 1} ({rank_text!r}) must be 10 cells, each '.' (empty), "
                "'S' (Salt) or 'P' (Pepper)"
            )
        for file, letter in enumerate(rank_text):
            square = rank * k.WIDTH + file
            if letter == "S" and not is_dark(square):
                raise InvalidStateError(
                    f"Salt on {square_name(square, k.WIDTH)}: Salt stays on the dark squares "
                    "(file + rank odd, a1 light)"
                )
            if letter != ".":
                squares[CELL_LETTERS.index(letter) - 1].append(square)
    return squares


def _first_player(game: SaltNPepperGame, side_letter: str, ply: int, passes: int) -> int | None:
    """The side that moved first, from the side to move, the ply count and the option."""
    option = game.first
    if side_letter == "-":
        if option is not None:
            raise InvalidStateError(
                f"'-' (before the bag draw) needs the option first=random; here first={option}"
            )
        if ply or passes:
            raise InvalidStateError("the bag draw comes before any ply: '-' needs '0 0'")
        return None
    if side_letter not in SIDE_LETTERS:
        raise InvalidStateError(
            f"the side to move must be 's' (Salt), 'p' (Pepper) or '-' (before the bag draw); "
            f"got {side_letter!r}"
        )
    side = SIDE_LETTERS.index(side_letter)
    first = (side - ply) % 2
    if option is not None and first != option:
        expected = SIDE_LETTERS[(option + ply) % 2]
        raise InvalidStateError(
            f"with first={option}, after {ply} plies the side to move is {expected!r}; "
            f"got {side_letter!r}"
        )
    return first


def _check_history(game: SaltNPepperGame, cells: Cells, side: int, passes: int) -> None:
    """Refuse what the last plies cannot have left: a finished side to move, a false pass."""
    for player in (k.SALT, k.PEPPER):
        if k.pieces_on_board(cells, player) == 0 and (player == side or passes):
            raise InvalidStateError(
                f"{SIDE_NAMES[player]} has every piece home, so the last ply was its move home "
                f"and {SIDE_NAMES[1 - player]} is to move; got {SIDE_NAMES[side]} to move"
                + (f" after {passes} pass(es)" if passes else "")
            )
    passed = [1 - side, side][:passes]
    for player in passed:
        if k.has_a_move(cells, player, game.params, game.targets):
            raise InvalidStateError(
                f"{passes} pass(es) in a row, but {SIDE_NAMES[player]} has a move here, so it "
                "could not have passed"
            )


def render_board(state: SaltNPepperState, *, marked: Collection[str] = frozenset()) -> str:
    """A readable diagram: the pieces home, the ranks with coordinates, whose turn or the result.

    ``S`` is Salt, ``P`` Pepper; an empty dark square shows ``.``, an empty light square blank.
    The squares named in ``marked`` are bracketed (``[.]``).
    """
    ranks = int(state.game.params[k.P_RANKS])
    board = k.board_cells(state.cells)
    lines = [f"   Salt (S) home: {state.pieces_home(k.SALT)}/15, moving down to below rank 1"]
    for rank in range(ranks - 1, -1, -1):
        row, row_marks = [], []
        for file in range(k.WIDTH):
            square = rank * k.WIDTH + file
            cell = int(board[square])
            row.append(CELL_LETTERS[cell] if cell else ("." if is_dark(square) else " "))
            row_marks.append(square_name(square, k.WIDTH) in marked)
        lines.append(f"{rank + 1:>2}" + join_marked(row, row_marks, "  "))
    lines.append("    " + "  ".join("abcdefghij"))
    lines.append(
        f"   Pepper (P) home: {state.pieces_home(k.PEPPER)}/15, moving up to above rank {ranks}"
    )
    lines.append(status_line(state))
    return "\n".join(line.rstrip() for line in lines)


def status_line(state: SaltNPepperState) -> str:
    """One line: the result, the bag draw, or whose turn it is and what it must do."""
    outcome = state.outcome
    if outcome is not None:
        winner = "Draw" if outcome.winner is None else f"{SIDE_NAMES[outcome.winner]} wins"
        return f"{winner}: {outcome.reason}."
    side = state.side
    if side is None:
        return "Bag draw: who moves first? (first-0: Salt, first-1: Pepper)"
    line = f"{SIDE_NAMES[side]} to move, ply {state.ply + 1}"
    waiting = state.back_rank_pieces(side)
    if waiting:
        line += f"; must move a piece home from {', '.join(waiting)}"
    elif not state.has_a_move(side):
        line += "; no move, so the turn is forfeited (pass)"
    if state.passes_in_a_row:
        line += f" ({SIDE_NAMES[1 - side]} passed)"
    return line + "."
