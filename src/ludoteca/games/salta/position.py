"""Salta position text, and the board diagram.

Position text: the ten ranks from 10 down to 1, separated by ``/``, each written as ten cells
(``.`` for an empty square, else a piece: ``S``tar, ``M``oon or Sun ``O`` with its number 1-5,
upper case Green, lower case Red; in the played scoring phase a square may hold one piece of each
side, written ``S1+s3``), then the side to move (``g`` or ``r``), the plies played, and in the
played scoring phase ``scoring <green moves> <red moves>``::

    .s5.s4.s3.s2.s1/m5.m4.m3.m2.m1./.o5.o4.o3.o2.o1/........../........../
    ........../........../O1.O2.O3.O4.O5./.M1.M2.M3.M4.M5/S1.S2.S3.S4.S5. g 0

(one line in reality).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import TYPE_CHECKING

import numpy as np

from ludoteca.core.array_state import Cells
from ludoteca.core.errors import InvalidStateError
from ludoteca.core.grids import square_name
from ludoteca.core.view import join_marked
from ludoteca.games.salta import kernels as k

if TYPE_CHECKING:
    from ludoteca.games.salta import SaltaGame
    from ludoteca.games.salta.state import SaltaState

SIDE_NAMES = ("Green", "Red")
SIDE_LETTERS = ("g", "r")
KIND_LETTERS = "SMO"  # Star, Moon, Sun
KIND_NAMES = ("Star", "Moon", "Sun")


def piece_token(side: int, piece: int) -> str:
    """The two-letter token of piece ``piece`` (0..14) of ``side``, e.g. ``"S1"`` or ``"o5"``."""
    letter = KIND_LETTERS[piece // 5]
    return f"{letter if side == k.GREEN else letter.lower()}{piece % 5 + 1}"


def piece_name(side: int, piece: int) -> str:
    """A piece's name for people, e.g. ``"Green Star 1"``."""
    return f"{SIDE_NAMES[side]} {KIND_NAMES[piece // 5]} {piece % 5 + 1}"


_TOKEN = re.compile(r"([SMOsmo])([1-5])")
_CELL = re.compile(r"\.|[SMOsmo][1-5](?:\+[SMOsmo][1-5])?")


def position_text(state: SaltaState) -> str:
    """The canonical one-line position text (see the module docstring)."""
    occupants = state.pieces()
    ranks = []
    for rank in range(k.WIDTH, 0, -1):
        cells = []
        for file in range(k.WIDTH):
            tokens = occupants.get(square_name((rank - 1) * k.WIDTH + file, k.WIDTH), [])
            cells.append("+".join(tokens) if tokens else ".")
        ranks.append("".join(cells))
    text = f"{'/'.join(ranks)} {SIDE_LETTERS[state.ply % 2]} {state.ply}"
    if bool(k.in_scoring_phase(state.cells, state.game.params)) and (
        state.game.options["scoring"] == "played"
    ):
        green, red = state.scoring_moves
        text += f" scoring {green} {red}"
    return text


def read_position(game: SaltaGame, text: str) -> Cells:
    """Read position text (see the module docstring) and check that it is a reachable kind.

    Returns the position array, settled; `SaltaGame.parse_state` makes the state of it.

    Raises:
        InvalidStateError: What is wrong with the text, and the expected form.
    """
    if not isinstance(text, str):
        raise InvalidStateError(f"Salta position text must be a string; got {text!r}")
    fields = text.split()
    form = "'<10 ranks separated by /> <g|r> <plies>' (+ ' scoring <n> <n>' when scoring)"
    if len(fields) not in (3, 6):
        raise InvalidStateError(f"Salta position text has {len(fields)} fields; expected {form}")
    board, side_letter, ply_text = fields[:3]
    cells = np.zeros(k.CELLS_SIZE, dtype=np.int32)
    seen: dict[tuple[int, int], str] = {}
    ranks = board.split("/")
    if len(ranks) != k.WIDTH:
        raise InvalidStateError(f"the board has {len(ranks)} ranks; expected 10 separated by '/'")
    for row, rank_text in enumerate(ranks):
        rank = k.WIDTH - 1 - row
        cell_texts = _CELL.findall(rank_text)
        if "".join(cell_texts) != rank_text or len(cell_texts) != k.WIDTH:
            raise InvalidStateError(
                f"rank {rank + 1} ({rank_text!r}) must be 10 cells, each '.', a piece such as "
                "S1, m3 or O5, or (when scoring) two pieces such as S1+s3"
            )
        for file, cell in enumerate(cell_texts):
            square = rank * k.WIDTH + file
            tokens = _TOKEN.findall(cell)
            if tokens and (file + rank) % 2:
                raise InvalidStateError(f"{square_name(square, 10)} is a light square")
            if len(tokens) == 2 and tokens[0][0].isupper() == tokens[1][0].isupper():
                raise InvalidStateError(
                    f"{square_name(square, 10)}: a shared square holds one piece of each side"
                )
            for letter, number in tokens:
                side = k.GREEN if letter.isupper() else k.RED
                piece = KIND_LETTERS.index(letter.upper()) * 5 + int(number) - 1
                if (side, piece) in seen:
                    raise InvalidStateError(f"{letter}{number} stands on two squares")
                seen[(side, piece)] = square_name(square, 10)
                k.put_piece(cells, side, piece, square)
    if len(seen) != 2 * k.PIECES_PER_SIDE:
        missing = [
            piece_token(side, piece)
            for side in (0, 1)
            for piece in range(k.PIECES_PER_SIDE)
            if (side, piece) not in seen
        ]
        raise InvalidStateError(f"every piece must be on the board; missing: {' '.join(missing)}")
    if not (ply_text.isascii() and ply_text.isdigit()):
        raise InvalidStateError(f"plies played must be a whole number; got {ply_text!r}")
    ply = int(ply_text)
    if side_letter not in SIDE_LETTERS or SIDE_LETTERS.index(side_letter) != ply % 2:
        raise InvalidStateError(
            f"side to move must be 'g' on an even ply count and 'r' on an odd one; "
            f"got {side_letter!r} after {ply} plies"
        )
    cells[k.PLY_AT] = ply
    scoring_start = int(game.params[k.P_SCORING_START])
    in_played_scoring = (
        scoring_start >= 0 and ply >= scoring_start and game.options["scoring"] == "played"
    )
    if len(fields) == 6:
        counts = fields[4] + fields[5]
        if fields[3] != "scoring" or not (
            counts.isascii() and fields[4].isdigit() and fields[5].isdigit()
        ):
            raise InvalidStateError(f"expected 'scoring <green moves> <red moves>'; got {text!r}")
        if not in_played_scoring:
            raise InvalidStateError(
                "scoring counts are only allowed in the played scoring phase "
                f"(from ply {scoring_start} with scoring=played)"
            )
        k.set_scoring_moves(cells, k.GREEN, int(fields[4]))
        k.set_scoring_moves(cells, k.RED, int(fields[5]))
    elif in_played_scoring:
        raise InvalidStateError(f"after {ply} plies the position needs 'scoring <n> <n>'")
    if not in_played_scoring and any("+" in r for r in ranks):
        raise InvalidStateError("two pieces share a square outside the played scoring phase")
    if scoring_start >= 0 and ply > scoring_start and not in_played_scoring:
        raise InvalidStateError(f"simplified scoring ends the game after {scoring_start} plies")
    k.settle(cells, game.params, game.goals)
    return cells


def render_board(state: SaltaState, *, marked: Collection[str] = frozenset()) -> str:
    """A readable diagram: ranks 10 to 1 with coordinates, then whose turn or the result.

    Cells are two characters wide, or five in the played scoring phase when a square holds one
    piece of each side (``S1+s3``). The squares named in ``marked`` are bracketed (``[ .]``).
    """
    occupants = state.pieces()
    rows = []
    for rank in range(k.WIDTH, 0, -1):
        cells = []
        for file in range(k.WIDTH):
            tokens = occupants.get(square_name((rank - 1) * k.WIDTH + file, k.WIDTH), [])
            is_dark = (file + 1 + rank) % 2 == 0
            cells.append("+".join(tokens) if tokens else "." if is_dark else "")
        rows.append((rank, cells))
    width = max(2, *(len(cell) for _, cells in rows for cell in cells))
    lines = [
        (
            f"{rank:>2}"
            + join_marked(
                [c.rjust(width) for c in cells],
                [square_name((rank - 1) * k.WIDTH + f, k.WIDTH) in marked for f in range(k.WIDTH)],
            )
        ).rstrip()
        for rank, cells in rows
    ]
    lines.append("   " + " ".join(letter.rjust(width) for letter in "abcdefghij"))
    lines.append(status_line(state))
    return "\n".join(lines)


def moves_left_line(state: SaltaState) -> str | None:
    """How many moves each side has before the 120-move rule, or ``None`` when it cannot strike."""
    limit = state.game.options["move_limit"]
    if limit is None or state.is_over or state.in_scoring_phase:
        return None
    assert isinstance(limit, int)
    green_made, red_made = (state.ply + 1) // 2, state.ply // 2
    return (
        f"Moves left before the {limit}-move rule: Green {limit - green_made}, "
        f"Red {limit - red_made}."
    )


def status_line(state: SaltaState) -> str:
    """One line: whose turn (and phase) or the result."""
    outcome = state.outcome
    if outcome is not None:
        winner = "Draw" if outcome.winner is None else f"{SIDE_NAMES[outcome.winner]} wins"
        return f"{winner}: {outcome.reason}."
    side = SIDE_NAMES[state.ply % 2]
    phase = ""
    if state.awaiting_extra_move:
        phase = " (Red's extra move)"
    elif state.in_scoring_phase:
        green, red = state.scoring_moves
        phase = f" (scoring phase: Green {_moves(green)}, Red {_moves(red)})"
    return f"{side} to move, ply {state.ply + 1}{phase}."


def _moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"
