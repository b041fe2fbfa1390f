"""`ludoteca.core.notation`: plies from 1, moves numbered by the players' moves, rolls beside."""

from __future__ import annotations

import ludoteca
from ludoteca.core.notation import numbered_line, numbered_plies


def test_rolls_and_the_draw_are_beside_the_move_not_numbered() -> None:
    state = ludoteca.make("pente_grammai").initial_state()
    moves = ["first-0", "d5", "hand-W5", "d3", "hand-B3"]
    states = [state]
    for text in moves:
        states.append(states[-1].apply(text))
    plies = numbered_plies(states, moves)
    assert [ply.ply for ply in plies] == [1, 2, 3, 4, 5]
    assert [ply.number for ply in plies] == [None, None, 1, None, 2]
    assert [ply.label for ply in plies] == [
        "White starts",
        "rolled 5",
        "1. hand-W5 (White starts, 5)",
        "rolled 3",
        "2. hand-B3 (3)",
    ]
    assert numbered_line(states, moves) == ["1. hand-W5 (White starts, 5)", "2. hand-B3 (3)"]


def test_a_game_without_chance_numbers_every_ply() -> None:
    state = ludoteca.make("salta").initial_state()
    moves = ["c3-d4", "h8-g7"]
    states = [state, state.apply(moves[0])]
    assert numbered_line(states, moves) == ["1. c3-d4", "2. h8-g7"]
