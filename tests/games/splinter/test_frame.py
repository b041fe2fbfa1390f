"""The kernels find groups in a two-word frame of the pieces' box, and search the board square by
square when the box does not fit: both ways agree with the plain-Python referee."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ludoteca
from ludoteca.games.splinter import SplinterState
from ludoteca.games.splinter import kernels as k
from tests.games.splinter.test_properties import check_against_the_referee

BLUE_TYPES = "SSXXXX" + "O" * 9
RED_TYPES = "ssxxxx" + "o" * 8


def snake_text(width: int, height: int, rising: int) -> str:
    """A position text: a line along rank 1 from file a to the last file, then ``rising`` more
    pieces up the last file, colours alternating along the line (Blue first)."""
    path = [(file, 0) for file in range(width)] + [(width - 1, r) for r in range(1, rising + 1)]
    blue, red = list(BLUE_TYPES), list(RED_TYPES)
    board = [["" for _ in range(width)] for _ in range(height)]
    for i, (file, rank) in enumerate(path):
        board[rank][file] = (blue if i % 2 == 0 else red).pop(0)
    rows = []
    for rank in range(height - 1, -1, -1):
        text, empty = "", 0
        for file in range(width):
            if board[rank][file]:
                text += (str(empty) if empty else "") + board[rank][file]
                empty = 0
            else:
                empty += 1
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows) + " b 0 -"


def frame_width(state: SplinterState) -> int:
    """The width of the frame of the state's pieces (0: the box does not fit)."""
    cells = state.cells
    board = cells[k.BOARD_AT :]
    square = int(np.flatnonzero(board)[0])
    width = state.game.width
    frame = k.make_frame(cells, state.game.height, square // width, square % width)
    return int(frame[4])


@pytest.mark.parametrize(("size", "rising", "fits"), [("25x26", 4, False), ("15x18", 3, True)])
def test_a_long_line_plays_by_the_rules_in_and_out_of_the_frame(
    size: str, rising: int, fits: bool
) -> None:
    # 25 files by 5 ranks is too large for the frame (2 ranks of 25 in a word); 15 by 4 fits.
    game = ludoteca.make("splinter", size=size)
    width, height = (int(x) for x in size.split("x"))
    state = game.parse_state(snake_text(width, height, rising))
    assert isinstance(state, SplinterState)
    assert (frame_width(state) > 0) == fits
    rng = random.Random(3)
    for _ in range(8):
        if state.is_over:
            break
        check_against_the_referee(state, every_move=True)
        after = state.apply(rng.choice(state.legal_moves()))
        assert isinstance(after, SplinterState)
        state = after


def test_the_frame_packs_the_box_rank_by_rank() -> None:
    game = ludoteca.make("splinter")
    state = game.initial_state()
    assert isinstance(state, SplinterState)
    below, above, low, left, w, rows, _, _ = k.make_frame(state.cells, game.height, 6, 5)
    # The start block: files f-j (left 5), ranks 7-12 (low 6), all 30 squares occupied.
    assert (low, left, w, rows) == (6, 5, 5, 6)
    assert below == (1 << 30) - 1 and above == 0
    assert k.popcount_64(below) == 30
    assert k.lowest_bit_64(1 << 61) == 61 and k.highest_bit(0b1011000) == 6
