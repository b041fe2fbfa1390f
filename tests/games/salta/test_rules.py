"""Salta's rules, one named scenario per rule and option (RULES.md, section "Salta").

Positions are drawn as diagrams (see `tests.games.salta.diagrams`), rank 10 at the top, Green
(upper case) moving up the board and Red (lower case) moving down. Every position holds all 30
pieces, since the position text requires them.
"""

from __future__ import annotations

import pytest

import ludoteca
from ludoteca import IllegalMoveError, InvalidMoveError, InvalidOptionError, InvalidStateError
from ludoteca.games.salta import SaltaGame, SaltaState
from tests.games.salta import reference
from tests.games.salta.diagrams import position
from tests.support import make_game, moves, play, refused

GREEN, RED = 0, 1


def make(**options: object) -> SaltaGame:
    return make_game("salta", SaltaGame, **options)


def state_at(
    diagram: str, ply: int, counts: tuple[int, int] | None = None, **options: object
) -> SaltaState:
    """The position drawn in ``diagram`` after ``ply`` plies (``counts``: played scoring)."""
    return make(**options).parse_state(position(diagram, ply, counts))


def reference_moves(state: SaltaState) -> set[str]:
    pieces = {square: tokens[0] for square, tokens in state.pieces().items()}
    assert state.to_move is not None
    return reference.legal_moves(pieces, state.to_move)


# -- positions -------------------------------------------------------------------------------------

START = """
10 .  s5 .  s4 .  s3 .  s2 .  s1
 9 m5 .  m4 .  m3 .  m2 .  m1 .
 8 .  o5 .  o4 .  o3 .  o2 .  o1
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 O1 .  O2 .  O3 .  O4 .  O5 .
 2 .  M1 .  M2 .  M3 .  M4 .  M5
 1 S1 .  S2 .  S3 .  S4 .  S5 .
"""

# Green's Sun 3 and Red's Sun 2 stand in the open with all four diagonal neighbours empty.
OPEN_FIELD = """
10 .  s5 .  s4 .  s3 .  s2 .  s1
 9 m5 .  m4 .  m3 .  m2 .  m1 .
 8 .  o5 .  o4 .  o3 .  .  .  o1
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  o2 .  .
 5 .  .  .  .  O3 .  .  .  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 O1 .  O2 .  .  .  O4 .  O5 .
 2 .  M1 .  M2 .  M3 .  M4 .  M5
 1 S1 .  S2 .  S3 .  S4 .  S5 .
"""

# Green's Sun 3 on e5: d6 holds a Red piece (which cannot be jumped: c7 is taken), f6 a Green one.
CROWDED = """
10 .  s5 .  s4 .  s3 .  s2 .  s1
 9 m5 .  m4 .  m3 .  m2 .  m1 .
 8 .  o5 .  .  .  .  .  o2 .  o1
 7 .  .  o3 .  .  .  .  .  .  .
 6 .  .  .  o4 .  M3 .  .  .  .
 5 .  .  .  .  O3 .  .  .  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 O1 .  O2 .  .  .  O4 .  O5 .
 2 .  M1 .  M2 .  .  .  M4 .  M5
 1 S1 .  S2 .  S3 .  S4 .  S5 .
"""

# Red's Sun 4 on d4 can be jumped by Green from c3 (to e5) and from e3 (to c5). Red's Sun 3 on
# f6 would allow a second jump e5xg7 if jumps chained.
TWO_JUMPS = """
10 .  s5 .  s4 .  s3 .  s2 .  s1
 9 m5 .  m4 .  m3 .  m2 .  m1 .
 8 .  o5 .  .  .  .  .  o2 .  o1
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  o3 .  .  .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 .  .  .  o4 .  .  .  .  .  .
 3 O1 .  O2 .  O3 .  O4 .  O5 .
 2 .  M1 .  M2 .  M3 .  M4 .  M5
 1 S1 .  S2 .  S3 .  S4 .  S5 .
"""

# TWO_JUMPS turned half a turn with the colours swapped: Red must jump h8xf6 or f8xh6.
RED_TWO_JUMPS = """
10 .  s5 .  s4 .  s3 .  s2 .  s1
 9 m5 .  m4 .  m3 .  m2 .  m1 .
 8 .  o5 .  o4 .  o3 .  o2 .  o1
 7 .  .  .  .  .  .  O4 .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  O3 .  .  .  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 O1 .  O2 .  .  .  .  .  O5 .
 2 .  M1 .  M2 .  M3 .  M4 .  M5
 1 S1 .  S2 .  S3 .  S4 .  S5 .
"""

# Green's Sun 2 on e5 has Red's Sun 4 (d4) behind it with c3 empty; Red's d4 has Green's e5 behind
# it with f6 empty. Both would be backward jumps. Green's forward jump e3xc5 is available.
BACKWARD = """
10 .  s5 .  s4 .  s3 .  s2 .  s1
 9 m5 .  m4 .  m3 .  m2 .  m1 .
 8 .  o5 .  .  .  o3 .  o2 .  o1
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  O2 .  .  .  .  .
 4 .  .  .  o4 .  .  .  .  .  .
 3 O1 .  .  .  O3 .  O4 .  O5 .
 2 .  M1 .  M2 .  M3 .  M4 .  M5
 1 S1 .  S2 .  S3 .  S4 .  S5 .
"""

# Green's Moon 2 on d4 in front of Green's Sun 2 on c3, with e5 empty beyond.
OWN_PIECE_AHEAD = """
10 .  s5 .  s4 .  s3 .  s2 .  s1
 9 m5 .  m4 .  m3 .  m2 .  m1 .
 8 .  o5 .  o4 .  o3 .  o2 .  o1
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 .  .  .  M2 .  .  .  .  .  .
 3 O1 .  O2 .  O3 .  O4 .  O5 .
 2 .  M1 .  .  .  M3 .  M4 .  M5
 1 S1 .  S2 .  S3 .  S4 .  S5 .
"""

# Red is walled in by Green's ranks 7 and 6 except for j6: its only move is o2 h8xj6 over S5.
# Green's O5 i5-j6 would take that away (a block); S5 i7-j6 would not (h8 and j8 could then step
# to i7).
ONE_RED_MOVE = """
10 .  s5 .  s4 .  s3 .  s2 .  s1
 9 m5 .  m4 .  m3 .  m2 .  m1 .
 8 .  o5 .  o4 .  o3 .  o2 .  o1
 7 S1 .  S2 .  S3 .  S4 .  S5 .
 6 .  M1 .  M2 .  M3 .  M4 .  .
 5 .  .  .  .  .  .  .  .  O5 .
 4 .  .  .  .  .  .  .  .  .  .
 3 .  .  .  .  .  .  .  .  .  .
 2 .  .  .  .  .  .  .  .  .  .
 1 O1 .  O2 .  O3 .  O4 .  M5 .
"""

# Red is walled in completely and so is most of Green: Green's only moves are its rank-5 Suns
# stepping down, and none of them gives Red a move.
WALLED_IN = """
10 .  s5 .  s4 .  s3 .  s2 .  s1
 9 m5 .  m4 .  m3 .  m2 .  m1 .
 8 .  o5 .  o4 .  o3 .  o2 .  o1
 7 S1 .  S2 .  S3 .  S4 .  S5 .
 6 .  M1 .  M2 .  M3 .  M4 .  M5
 5 O1 .  O2 .  O3 .  O4 .  O5 .
 4 .  .  .  .  .  .  .  .  .  .
 3 .  .  .  .  .  .  .  .  .  .
 2 .  .  .  .  .  .  .  .  .  .
 1 .  .  .  .  .  .  .  .  .  .
"""

# Both sides one step from home: Green's S1 a7-b8 and Red's s5 b4-a3.
BOTH_ONE_STEP_AWAY = """
10 .  O1 .  O2 .  O3 .  O4 .  O5
 9 M1 .  M2 .  M3 .  M4 .  M5 .
 8 .  .  .  S2 .  S3 .  S4 .  S5
 7 S1 .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 .  s5 .  .  .  .  .  .  .  .
 3 .  .  s4 .  s3 .  s2 .  s1 .
 2 .  m5 .  m4 .  m3 .  m2 .  m1
 1 o5 .  o4 .  o3 .  o2 .  o1 .
"""

# Green one step from home (S1 a7-b8); Red's s5 is two steps away (c5-b4-a3).
RED_TWO_STEPS_AWAY = """
10 .  O1 .  O2 .  O3 .  O4 .  O5
 9 M1 .  M2 .  M3 .  M4 .  M5 .
 8 .  .  .  S2 .  S3 .  S4 .  S5
 7 S1 .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  s5 .  .  .  .  .  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 .  .  s4 .  s3 .  s2 .  s1 .
 2 .  m5 .  m4 .  m3 .  m2 .  m1
 1 o5 .  o4 .  o3 .  o2 .  o1 .
"""

# Green one step from home, but with Stars 1 and 2 swapped: S1 c7-d8 fills the last goal square
# with the wrong piece.
SWAPPED_STARS = """
10 .  O1 .  O2 .  O3 .  O4 .  O5
 9 M1 .  M2 .  M3 .  M4 .  M5 .
 8 .  S2 .  .  .  S3 .  S4 .  S5
 7 .  .  S1 .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 .  s5 .  .  .  .  .  .  .  .
 3 .  .  s4 .  s3 .  s2 .  s1 .
 2 .  m5 .  m4 .  m3 .  m2 .  m1
 1 o5 .  o4 .  o3 .  o2 .  o1 .
"""

# Green home. Red to make its extra move: Green's only steps go to i7, and Red's s1 h6-i7
# would take it (a block).
GREEN_HOME_ONE_HOLE = """
10 .  O1 .  O2 .  O3 .  O4 .  O5
 9 M1 .  M2 .  M3 .  M4 .  M5 .
 8 .  S1 .  S2 .  S3 .  S4 .  S5
 7 s5 .  s4 .  s3 .  s2 .  .  .
 6 .  .  .  .  .  .  .  s1 .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 .  .  .  .  .  .  .  .  .  .
 2 .  m5 .  m4 .  m3 .  m2 .  m1
 1 o5 .  o4 .  o3 .  o2 .  o1 .
"""

# Green one step from its "ludii" goal, the start squares of Red's pieces (O5 a7-b8), and Red one
# step from its own, Green's start squares (o1 b4-a3).
LUDII_ONE_STEP_AWAY = """
10 .  S5 .  S4 .  S3 .  S2 .  S1
 9 M5 .  M4 .  M3 .  M2 .  M1 .
 8 .  .  .  O4 .  O3 .  O2 .  O1
 7 O5 .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 .  o1 .  .  .  .  .  .  .  .
 3 .  .  o2 .  o3 .  o4 .  o5 .
 2 .  m1 .  m2 .  m3 .  m4 .  m5
 1 s1 .  s2 .  s3 .  s4 .  s5 .
"""

# Played scoring: Red's s5 stands on b8, the goal square of Green's S1 (one step away on a7).
SHARING_A_SQUARE = """
10 .  O1 .  O2 .  O3 .  O4 .  O5
 9 M1 .  M2 .  M3 .  M4 .  M5 .
 8 .  s5 .  S2 .  S3 .  S4 .  S5
 7 S1 .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 .  .  s4 .  s3 .  s2 .  s1 .
 2 .  m5 .  m4 .  m3 .  m2 .  m1
 1 o5 .  o4 .  o3 .  o2 .  o1 .
"""

# Played scoring with a cap of 1: Green's S1 on a5 is three steps from b8.
GREEN_THREE_STEPS_AWAY = """
10 .  O1 .  O2 .  O3 .  O4 .  O5
 9 M1 .  M2 .  M3 .  M4 .  M5 .
 8 .  .  .  S2 .  S3 .  S4 .  S5
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 S1 .  .  .  .  .  .  .  .  .
 4 .  s5 .  .  .  .  .  .  .  .
 3 .  .  s4 .  s3 .  s2 .  s1 .
 2 .  m5 .  m4 .  m3 .  m2 .  m1
 1 o5 .  o4 .  o3 .  o2 .  o1 .
"""


def test_the_diagram_of_the_start_position_is_the_start_position() -> None:
    game = make()
    assert game.parse_state(position(START, 0)) == game.initial_state()
    assert game.initial_state().to_text() == position(START, 0)


# -- steps -----------------------------------------------------------------------------------------


def test_a_green_piece_steps_diagonally_in_all_four_directions() -> None:
    state = state_at(OPEN_FIELD, 20)
    from_e5 = {m for m in moves(state) if m.startswith("e5")}
    assert from_e5 == {"e5-d6", "e5-f6", "e5-d4", "e5-f4"}


def test_a_red_piece_steps_diagonally_in_all_four_directions() -> None:
    state = state_at(OPEN_FIELD, 21)
    from_h6 = {m for m in moves(state) if m.startswith("h6")}
    assert from_h6 == {"h6-g7", "h6-i7", "h6-g5", "h6-i5"}


def test_a_step_goes_only_to_an_empty_square() -> None:
    state = state_at(CROWDED, 20)
    assert {m for m in moves(state) if m.startswith("e5")} == {"e5-d4", "e5-f4"}
    assert "d6 is occupied" in refused(state, "e5-d6")
    assert "f6 is occupied" in refused(state, "e5-f6")


def test_a_step_moves_exactly_one_square_diagonally() -> None:
    state = make().initial_state()
    assert "exactly 1 square" in refused(state, "c3-c4")
    assert "exactly 1 square" in refused(state, "c3-e5")


def test_the_first_moves_are_the_nine_steps_of_the_front_suns() -> None:
    state = make().initial_state()
    assert moves(state) == {
        "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4", "i3-h4", "i3-j4",
    }  # fmt: skip


# -- jumps -----------------------------------------------------------------------------------------


def test_a_jump_is_compulsory() -> None:
    state = state_at(TWO_JUMPS, 10)
    assert moves(state) == {"c3xe5", "e3xc5"}
    message = refused(state, "c3-b4")
    assert "a jump is compulsory" in message
    assert "c3xe5" in message and "e3xc5" in message


def test_a_jump_is_compulsory_for_red_too() -> None:
    state = state_at(RED_TWO_JUMPS, 11)
    assert moves(state) == {"h8xf6", "f8xh6"}
    assert moves(state) == reference_moves(state)
    assert "a jump is compulsory; legal jumps: f8xh6, h8xf6" in refused(state, "b8-a7")


def test_the_mover_chooses_freely_among_jumps() -> None:
    state = state_at(TWO_JUMPS, 10)
    after_one, after_other = state.apply("c3xe5"), state.apply("e3xc5")
    assert after_one.pieces()["e5"] == ["O2"]
    assert after_other.pieces()["c5"] == ["O3"]


def test_a_jump_captures_nothing() -> None:
    state = state_at(TWO_JUMPS, 10).apply("c3xe5")
    pieces = state.pieces()
    assert pieces["d4"] == ["o4"]
    assert "c3" not in pieces
    assert sum(len(tokens) for tokens in pieces.values()) == 30


def test_a_jump_lands_only_on_an_empty_square() -> None:
    blocked = state_at(CROWDED, 20)  # e5 faces Red's o4 on d6, but c7 beyond holds Red's o3
    assert not any("x" in m for m in moves(blocked))
    assert "e5xc7: c7 is occupied" in refused(blocked, "e5xc7")
    landing_free = CROWDED.replace(" 7 .  .  o3", " 7 .  .  . ").replace(
        " 8 .  o5 .  .  .  .  .", " 8 .  o5 .  .  .  o3 ."
    )  # o3 goes back from c7 to f8
    assert moves(state_at(landing_free, 20)) == {"e5xc7"}


def test_no_chained_jumps() -> None:
    state = state_at(TWO_JUMPS, 10)
    with pytest.raises(InvalidMoveError, match="not a move in Salta notation"):
        state.apply("c3xe5xg7")
    after = state.apply("c3xe5")
    assert after.to_move == RED  # the turn ends after one jump, with e5xg7 still open
    assert "e5xg7" not in moves(after)
    assert "no Red piece on e5" in refused(after, "e5xg7")


def test_a_later_turn_may_jump_again_with_the_same_piece() -> None:
    state = state_at(TWO_JUMPS, 10).apply("c3xe5").apply("j8-i7")
    assert "e5xg7" in moves(state)


def test_no_jump_backward() -> None:
    green = state_at(BACKWARD, 10)
    assert moves(green) == {"e3xc5"}
    assert "jumps go forward only" in refused(green, "e5xc3")
    red = state_at(BACKWARD, 11)
    assert not any("x" in m for m in moves(red))
    assert "jumps go forward only" in refused(red, "d4xf6")


def test_no_jump_over_an_own_piece() -> None:
    state = state_at(OWN_PIECE_AHEAD, 10)
    assert not any("x" in m for m in moves(state))
    assert "a jump goes over an opponent piece, and d4 holds none" in refused(state, "c3xe5")


def test_the_example_from_the_rules_page_forces_a_jump() -> None:
    state = play(make().initial_state(), "e3-d4", "f8-e7", "d4-e5", "e7-f6")
    assert moves(state) == {"e5xg7"}
    assert "a jump is compulsory" in refused(state, "c3-b4")
    assert "f6-e5" in moves(state.apply("e5xg7"))


# -- the no-block rule and passing -----------------------------------------------------------------


def test_a_step_that_leaves_the_opponent_without_a_move_is_refused() -> None:
    state = state_at(ONE_RED_MOVE, 30)
    assert moves(state_at(ONE_RED_MOVE, 31)) == {"h8xj6"}
    legal = moves(state)
    assert "i5-j6" not in legal
    assert {"i7-j6", "i5-h4", "i5-j4", "h6-g5", "a1-b2"} <= legal
    message = refused(state, "i5-j6")
    assert "would leave Red without a move (the no-block rule)" in message
    assert legal == reference_moves(state)


def test_a_step_that_opens_a_new_move_for_the_opponent_is_not_a_block() -> None:
    after = state_at(ONE_RED_MOVE, 30).apply("i7-j6")
    assert moves(after) == {"h8-i7", "j8-i7"}


def test_when_every_step_blocks_all_steps_are_allowed() -> None:
    state = state_at(WALLED_IN, 40)
    assert moves(state_at(WALLED_IN, 41)) == {"pass"}  # Red has no move already
    assert moves(state) == {
        "a5-b4", "c5-b4", "c5-d4", "e5-d4", "e5-f4", "g5-f4", "g5-h4", "i5-h4", "i5-j4",
    }  # fmt: skip
    assert moves(state) == reference_moves(state)


def test_pass_only_when_there_is_no_move_at_all() -> None:
    state = state_at(WALLED_IN, 40)
    assert "pass is only allowed when Green has no move" in refused(state, "pass")
    after = state.apply("a5-b4")
    assert after.to_move == RED
    assert moves(after) == {"pass"}
    passed = after.apply("pass")
    assert passed.to_move == GREEN
    assert passed.ply == after.ply + 1
    assert passed.pieces() == after.pieces()


def test_the_no_block_rule_applies_to_reds_extra_move() -> None:
    state = state_at(GREEN_HOME_ONE_HOLE, 101)
    assert state.awaiting_extra_move
    assert "h6-i7" not in moves(state)
    assert "would leave Green without a move (the no-block rule)" in refused(state, "h6-i7")
    assert moves(state) == reference_moves(state)
    assert state.apply("h6-g5").outcome == ludoteca.Outcome.win(
        GREEN, 2, "Green reached its goal and Red's extra move did not reach Red's goal"
    )


def test_the_goal_completing_move_is_an_ordinary_candidate() -> None:
    # The no-block rule covers the completing move too, but such a move can never block: after
    # it the mover's army fills the opponent's three home ranks, so the opponent's 15 pieces
    # stand on the other 35 dark squares, which form one connected region of diagonal steps; 15
    # pieces cannot fill it, so one of them has an empty neighbour to step to. The completing
    # move is therefore legal whenever the ordinary rules allow it, as the reference (which knows
    # nothing of goals) agrees.
    green = state_at(BOTH_ONE_STEP_AWAY, 100)
    assert "a7-b8" in moves(green)
    assert moves(green) == reference_moves(green)
    red = state_at(BOTH_ONE_STEP_AWAY, 101)
    assert "b4-a3" in moves(red)
    assert moves(red) == reference_moves(red)


# -- goals and the end of the game -----------------------------------------------------------------


def test_red_completing_its_goal_first_wins_at_once() -> None:
    state = state_at(BOTH_ONE_STEP_AWAY, 101).apply("b4-a3")
    assert state.is_over
    assert state.to_move is None
    assert state.legal_moves() == ()
    assert state.outcome == ludoteca.Outcome.win(RED, 2, "Red reached its goal first")


def test_green_completing_its_goal_gives_red_one_extra_move() -> None:
    state = state_at(BOTH_ONE_STEP_AWAY, 100).apply("a7-b8")
    assert state.goal_complete(GREEN)
    assert not state.is_over
    assert state.to_move == RED
    assert state.awaiting_extra_move


def test_the_extra_red_move_can_draw() -> None:
    state = play(state_at(BOTH_ONE_STEP_AWAY, 100), "a7-b8", "b4-a3")
    assert state.outcome == ludoteca.Outcome.draw(
        2, "Green reached its goal and Red reached its own with the extra move: a draw"
    )
    assert state.outcome.returns == (0.0, 0.0)


def test_green_wins_when_the_extra_red_move_misses_the_goal() -> None:
    state = play(state_at(BOTH_ONE_STEP_AWAY, 100), "a7-b8", "b4-c5")
    assert state.outcome is not None
    assert state.outcome.winner == GREEN
    assert state.outcome.returns == (1.0, -1.0)
    assert "Red's extra move did not reach Red's goal" in state.outcome.reason


def test_red_gets_exactly_one_extra_move() -> None:
    state = play(state_at(BOTH_ONE_STEP_AWAY, 100), "a7-b8", "b4-c5")
    assert state.is_over
    assert state.legal_moves() == ()
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.apply("c5-b4")


def test_swapped_pieces_are_not_a_goal() -> None:
    state = state_at(SWAPPED_STARS, 100).apply("c7-d8")
    occupied = set(state.pieces())
    assert {"b8", "d8", "f8", "h8", "j8", "a9", "c9", "e9", "g9", "i9"} <= occupied
    assert {"b10", "d10", "f10", "h10", "j10"} <= occupied
    assert not state.goal_complete(GREEN)
    assert not state.awaiting_extra_move
    assert not state.is_over


def test_swapped_red_pieces_are_not_a_goal() -> None:
    # Red's Stars 4 and 5 swapped: s4 b4-a3 fills Red's last goal square with the wrong Star.
    swapped = BOTH_ONE_STEP_AWAY.replace(" 4 .  s5", " 4 .  s4").replace(
        " 3 .  .  s4", " 3 .  .  s5"
    )
    state = state_at(swapped, 101).apply("b4-a3")
    assert {"a3", "c3", "e3", "g3", "i3"} <= set(state.pieces())
    assert state.pieces()["a3"] == ["s4"]
    assert not state.goal_complete(RED)
    assert not state.is_over


def test_ludii_goal_is_the_start_squares_of_the_opposite_pieces() -> None:
    seed = state_at(LUDII_ONE_STEP_AWAY, 100).apply("a7-b8")
    assert not seed.goal_complete(GREEN)
    assert not seed.awaiting_extra_move
    ludii = state_at(LUDII_ONE_STEP_AWAY, 100, goal="ludii").apply("a7-b8")
    assert ludii.goal_complete(GREEN)
    assert ludii.awaiting_extra_move
    assert ludii.goal_complete(RED) is False
    assert make(goal="ludii").initial_state().goal_distance(GREEN) == 113


def test_ludii_goal_extra_red_move_can_draw() -> None:
    state = state_at(LUDII_ONE_STEP_AWAY, 100, goal="ludii")
    assert play(state, "a7-b8", "b4-a3").outcome == ludoteca.Outcome.draw(
        2, "Green reached its goal and Red reached its own with the extra move: a draw"
    )
    assert state_at(LUDII_ONE_STEP_AWAY, 101, goal="ludii").apply("b4-a3").outcome == (
        ludoteca.Outcome.win(RED, 2, "Red reached its goal first")
    )


def test_seed_goal_is_not_the_ludii_goal() -> None:
    state = state_at(BOTH_ONE_STEP_AWAY, 100, goal="ludii").apply("a7-b8")
    assert not state.goal_complete(GREEN)
    assert not state.awaiting_extra_move


# -- the 120-move rule -----------------------------------------------------------------------------


def test_the_move_limit_is_120_moves_each_by_default() -> None:
    game = make()
    assert game.options["move_limit"] == 120
    before = game.parse_state(position(OPEN_FIELD, 239))
    assert not before.in_scoring_phase
    after = before.apply("h6-g7")
    assert after.ply == 240
    assert after.in_scoring_phase
    assert after.to_text().endswith(" g 240 scoring 0 0")


def test_the_move_limit_starts_the_scoring_phase_after_twice_as_many_plies() -> None:
    state = make(move_limit=2).initial_state()
    state = play(state, "c3-d4", "h8-g7", "d4-e5")
    assert not state.in_scoring_phase
    state = state.apply("g7-h6")
    assert state.in_scoring_phase
    assert not state.is_over
    assert state.to_move == GREEN  # Green first after the last ply of the play phase
    assert state.scoring_moves == (0, 0)


def test_move_limit_none_disables_the_120_move_rule() -> None:
    game = make(move_limit=None)
    assert game.options["move_limit"] is None
    assert make(move_limit="none") == game
    state = game.parse_state(position(TWO_JUMPS, 500))
    assert not state.in_scoring_phase
    assert moves(state) == {"c3xe5", "e3xc5"}  # the play-phase rules still hold
    after = state.apply("c3xe5")
    assert after.ply == 501
    assert not after.is_over
    with pytest.raises(InvalidStateError):
        game.parse_state(position(TWO_JUMPS, 500, scoring=(0, 0)))


def test_a_goal_on_the_last_ply_before_the_limit_still_ends_the_game() -> None:
    for scoring in ("played", "simplified"):
        state = state_at(BOTH_ONE_STEP_AWAY, 2, move_limit=2, scoring=scoring)
        assert play(state, "a7-b8", "b4-c5").outcome == ludoteca.Outcome.win(
            GREEN, 2, "Green reached its goal and Red's extra move did not reach Red's goal"
        )
        assert play(state, "a7-b8", "b4-a3").outcome == ludoteca.Outcome.draw(
            2, "Green reached its goal and Red reached its own with the extra move: a draw"
        )
        red_first = state_at(BOTH_ONE_STEP_AWAY, 3, move_limit=2, scoring=scoring)
        assert red_first.apply("b4-a3").outcome == ludoteca.Outcome.win(
            RED, 2, "Red reached its goal first"
        )


def test_passes_count_toward_the_move_limit() -> None:
    state = state_at(WALLED_IN, 2, move_limit=2).apply("a5-b4")
    assert moves(state) == {"pass"}  # Red is walled in
    after = state.apply("pass")
    assert after.ply == 4
    assert after.in_scoring_phase
    assert after.to_text().endswith(" g 4 scoring 0 0")


# -- played scoring --------------------------------------------------------------------------------


def test_played_scoring_ignores_opponent_pieces() -> None:
    state = state_at(SHARING_A_SQUARE, 4, (0, 0), move_limit=2)
    assert "a7-b8" in moves(state)
    after = state.apply("a7-b8")
    assert after.pieces()["b8"] == ["S1", "s5"]
    assert "S1+s5" in after.to_text()
    assert after.game.parse_state(after.to_text()) == after


def test_played_scoring_own_pieces_still_block() -> None:
    state = state_at(START, 4, (0, 0), move_limit=2)
    assert "b2-c3" not in moves(state)
    assert "c3 is occupied" in refused(state, "b2-c3")
    own_only = {sq: t[0] for sq, t in state.pieces().items() if t[0].isupper()}
    assert moves(state) == reference.played_steps(own_only, GREEN)


def test_played_scoring_has_no_jumps_and_no_compulsion() -> None:
    state = state_at(TWO_JUMPS, 4, (0, 0), move_limit=2)
    legal = moves(state)
    assert not any("x" in m for m in legal)
    assert {"c3-b4", "c3-d4", "e3-d4", "e3-f4"} <= legal  # d4 holds Red's o4, which is ignored
    assert "no jumps in the scoring phase" in refused(state, "c3xe5")


def test_played_scoring_has_no_no_block_rule() -> None:
    assert "i5-j6" not in moves(state_at(ONE_RED_MOVE, 30))
    assert "i5-j6" in moves(state_at(ONE_RED_MOVE, 4, (0, 0), move_limit=2))


def test_played_scoring_equal_counts_draw() -> None:
    state = state_at(BOTH_ONE_STEP_AWAY, 4, (0, 0), move_limit=2)
    state = play(state, "a7-b8")
    assert state.scoring_moves == (1, 0)
    assert not state.is_over  # Green's goal does not end the game in the scoring phase
    state = state.apply("b4-a3")
    assert state.outcome == ludoteca.Outcome.draw(
        2, "120-move rule, played scoring: Green 1 moves, Red 1 moves"
    )


def test_there_is_no_extra_move_in_the_played_scoring_phase() -> None:
    state = state_at(SHARING_A_SQUARE, 4, (50, 0), move_limit=2).apply("a7-b8")
    assert state.goal_complete(GREEN)
    assert state.to_move == RED
    assert not state.awaiting_extra_move
    assert str(state).splitlines()[-1] == (
        "Red to move, ply 6 (scoring phase: Green 51 moves, Red 0 moves)."
    )


def test_played_scoring_a_finished_side_passes_and_its_passes_do_not_count() -> None:
    # Green finishes in 2; Red, 2 steps from home, can still tie, so the race goes on.
    state = play(state_at(RED_TWO_STEPS_AWAY, 4, (1, 0), move_limit=2), "a7-b8", "c5-b4")
    assert state.to_move == GREEN
    assert moves(state) == {"pass"}
    state = state.apply("pass")
    assert state.scoring_moves == (2, 1)  # the pass of a finished side is not counted
    state = state.apply("b4-a3")
    assert state.scoring_moves == (2, 2)
    assert state.outcome == ludoteca.Outcome.draw(
        2, "120-move rule, played scoring: Green 2 moves, Red 2 moves"
    )


def test_played_scoring_ends_once_the_other_side_cannot_match_the_finished_one() -> None:
    # Green finishes in 1 move; Red needs at least 2 more (its goal distance): Red cannot tie.
    state = state_at(RED_TWO_STEPS_AWAY, 4, (0, 0), move_limit=2).apply("a7-b8")
    assert state.outcome == ludoteca.Outcome.win(
        GREEN,
        2,
        "120-move rule, played scoring: Green finished in 1 moves, "
        "Red cannot finish in fewer than 2",
    )
    open_race = state_at(RED_TWO_STEPS_AWAY, 4, (1, 0), move_limit=2).apply("a7-b8")
    assert not open_race.is_over  # 2 against at least 2: Red can still tie


def test_a_finished_side_is_told_it_can_only_pass() -> None:
    state = play(state_at(RED_TWO_STEPS_AWAY, 4, (1, 0), move_limit=2), "a7-b8", "c5-b4")
    message = refused(state, "b8-a7")
    assert "Green has finished the scoring phase" in message
    assert "can only pass" in message


def test_played_scoring_red_can_win_with_fewer_moves() -> None:
    state = state_at(RED_TWO_STEPS_AWAY, 4, (3, 0), move_limit=2)
    state = play(state, "a7-b8", "c5-b4", "pass", "b4-a3")
    assert state.outcome == ludoteca.Outcome.win(
        RED, 2, "120-move rule, played scoring: Green 4 moves, Red 2 moves"
    )


def test_the_scoring_cap_adds_the_remaining_distance() -> None:
    state = state_at(GREEN_THREE_STEPS_AWAY, 4, (0, 0), move_limit=2, scoring_cap=1)
    assert state.goal_distance(GREEN) == 3
    state = state.apply("a5-b6")  # one move, two still to go: the count becomes 1 + 2
    assert state.scoring_moves == (3, 0)
    state = state.apply("b4-a3")
    assert state.outcome == ludoteca.Outcome.win(
        RED, 2, "120-move rule, played scoring: Green 3 moves, Red 1 moves"
    )


def test_a_side_at_the_scoring_cap_only_passes() -> None:
    state = state_at(GREEN_THREE_STEPS_AWAY, 4, (1, 0), move_limit=2, scoring_cap=2)
    state = play(state, "a5-b6", "b4-c5")
    assert state.scoring_moves == (4, 1)  # Green: 2 moves + 2 still to go
    assert moves(state) == {"pass"}
    state = play(state, "pass", "c5-b4")
    assert state.outcome == ludoteca.Outcome.win(
        RED, 2, "120-move rule, played scoring: Green 4 moves, Red 3 moves"
    )


def test_the_scoring_cap_defaults_to_400() -> None:
    assert make().options["scoring_cap"] == 400


# -- simplified scoring ----------------------------------------------------------------------------


def test_simplified_scores_are_105_each_at_the_start() -> None:
    state = make(scoring="simplified").initial_state()
    pieces = {square: tokens[0] for square, tokens in state.pieces().items()}
    assert state.goal_distance(GREEN) == state.goal_distance(RED) == 105
    assert reference.simplified_score(pieces, GREEN) == 105


def test_simplified_scoring_equal_scores_draw() -> None:
    state = play(
        make(move_limit=2, scoring="simplified").initial_state(),
        "c3-d4", "h8-g7", "d4-e5", "g7-f6",
    )  # fmt: skip
    assert state.legal_moves() == ()
    assert state.outcome == ludoteca.Outcome.draw(
        2, "120-move rule, simplified scoring: Green 103, Red 103"
    )


def test_simplified_scoring_lower_score_wins() -> None:
    state = play(
        make(move_limit=2, scoring="simplified").initial_state(),
        "c3-d4", "h8-g7", "d4-e5", "g7-h8",
    )  # fmt: skip
    assert state.outcome == ludoteca.Outcome.win(
        GREEN, 2, "120-move rule, simplified scoring: Green 103, Red 105"
    )


def test_simplified_scoring_red_wins_with_the_lower_score() -> None:
    state = play(
        make(move_limit=2, scoring="simplified").initial_state(),
        "c3-d4", "h8-g7", "d4-c3", "g7-f6",
    )  # fmt: skip
    assert state.outcome == ludoteca.Outcome.win(
        RED, 2, "120-move rule, simplified scoring: Green 105, Red 103"
    )


def test_simplified_score_is_the_sum_of_chebyshev_distances() -> None:
    state = state_at(GREEN_THREE_STEPS_AWAY, 30, scoring="simplified")
    # S1 on a5 is 3 from b8 (max of 1 file and 3 ranks); s5 on b4 is 1 from a3.
    assert state.goal_distance(GREEN) == 3
    assert state.goal_distance(RED) == 1


# -- the engine's ply safeguard --------------------------------------------------------------------


def test_max_plies_ends_an_unlimited_game_in_a_draw() -> None:
    game = make(move_limit=None, max_plies=4)
    state = play(game.initial_state(), "c3-d4", "h8-g7", "d4-e5")
    assert not state.is_over
    state = state.apply("g7-h6")
    assert state.outcome == ludoteca.Outcome.draw(2, "engine safeguard: 4 plies without a result")


def test_max_plies_must_leave_room_for_the_move_limit() -> None:
    with pytest.raises(InvalidOptionError, match="max_plies .* at least twice move_limit"):
        make(max_plies=100)
    assert make(move_limit=50, max_plies=100).options["max_plies"] == 100


# -- options ---------------------------------------------------------------------------------------


def test_default_options() -> None:
    assert make().options == {
        "goal": "seed",
        "move_limit": 120,
        "scoring": "played",
        "scoring_cap": 400,
        "max_plies": 10_000,
    }


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"goal": "mirror"}, "accepted: one of seed, ludii"),
        ({"goal": 1}, "accepted: one of seed, ludii"),
        ({"scoring": "counted"}, "accepted: one of played, simplified"),
        ({"move_limit": 0}, "accepted: an integer from 1 to 1000000 or none"),
        ({"move_limit": "many"}, "accepted: an integer from 1 to 1000000 or none"),
        ({"move_limit": True}, "accepted: an integer from 1 to 1000000 or none"),
        ({"scoring_cap": 0}, "accepted: an integer from 1 to 1000000"),
        ({"scoring_cap": None}, "accepted: an integer from 1 to 1000000"),
        ({"max_plies": -5}, "accepted: an integer from 1 to 1000000"),
        ({"colour": "green"}, "accepted options: goal, move_limit, scoring, scoring_cap"),
    ],
)
def test_bad_options_are_refused_with_the_accepted_values(
    options: dict[str, object], expected: str
) -> None:
    with pytest.raises(InvalidOptionError) as caught:
        ludoteca.make("salta", **options)
    assert expected in str(caught.value)


def test_options_given_as_text_are_read() -> None:
    game = make(goal="ludii", move_limit="30", scoring="simplified", max_plies="60")
    assert game.options["move_limit"] == 30
    assert game == make(goal="ludii", move_limit=30, scoring="simplified", max_plies=60)


# -- illegal and malformed moves -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("d4-e5", "there is no Green piece on d4"),
        ("h8-g7", "there is no Green piece on h8"),
        ("c3-c5", "a step goes exactly 1 square diagonally"),
        ("c3xe6", "a jump goes exactly 2 squares diagonally"),
        ("a1-b2", "b2 is occupied"),
        ("c3xe5", "a jump goes over an opponent piece, and d4 holds none"),
        ("k1-j2", "squares run from a1 to j10"),
        ("pass", "pass is only allowed when Green has no move"),
    ],
)
def test_an_illegal_move_is_refused_with_the_reason(text: str, expected: str) -> None:
    assert expected in refused(make().initial_state(), text)


@pytest.mark.parametrize("text", ["", "c3", "c3-", "c3=d4", "c3xe5xg7", "resign", "3c-4d"])
def test_malformed_move_text_is_refused_with_the_accepted_forms(text: str) -> None:
    state = make().initial_state()
    with pytest.raises(InvalidMoveError, match=r"accepted forms: c3-d4 \(a step\)"):
        state.apply(text)
    assert state == make().initial_state()


def test_move_text_is_read_regardless_of_case_and_spacing() -> None:
    state = make().initial_state()
    assert state.parse_move(" C3 - D4 ") == state.parse_move("c3-d4")


def test_a_move_object_from_another_position_is_refused_with_the_reason() -> None:
    jump = state_at(TWO_JUMPS, 10).parse_move("c3xe5")
    message = refused(make().initial_state(), jump)  # type: ignore[arg-type]
    assert "d4 holds none" in message


# -- position text ---------------------------------------------------------------------------------

START_TEXT = position(START, 0)
START_RANKS = START_TEXT.split()[0].split("/")


def _with_ranks(**changes: str) -> str:
    """The start position text with some ranks replaced, e.g. ``_with_ranks(r4="..........")``."""
    ranks = list(START_RANKS)
    for name, text in changes.items():
        ranks[10 - int(name[1:])] = text
    return "/".join(ranks) + " g 0"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "has 0 fields"),
        (START_TEXT + " extra", "has 4 fields"),
        ("/".join(START_RANKS[:9]) + " g 0", "the board has 9 ranks"),
        (_with_ranks(r4="..........."), "rank 4 ('...........') must be 10 cells"),
        (_with_ranks(r4="........."), "must be 10 cells"),
        (_with_ranks(r3="O1.O2.O3.O4.X5."), "must be 10 cells"),
        (_with_ranks(r3="O1.O2.O3.O4.O6."), "must be 10 cells"),
        (_with_ranks(r3=".O1.O2.O3.O4.O5"), "b3 is a light square"),
        (_with_ranks(r4=".O1........"), "O1 stands on two squares"),
        (_with_ranks(r3="O1.O2.O3.O4..."), "every piece must be on the board; missing: O5"),
        (
            _with_ranks(r10=".s5.s4.s3.s2..", r4=".S1+s1........", r1="..S2.S3.S4.S5."),
            "two pieces share a square outside the played scoring phase",
        ),
        (_with_ranks(r4=".S1+S2........"), "b4: a shared square holds one piece of each side"),
        (START_TEXT.replace(" g 0", " g x"), "plies played must be a whole number"),
        (START_TEXT.replace(" g 0", " g -2"), "plies played must be a whole number"),
        (START_TEXT.replace(" g 0", " g ²"), "plies played must be a whole number"),
        (START_TEXT.replace(" g 0", " r 0"), "side to move must be 'g' on an even ply count"),
        (START_TEXT.replace(" g 0", " b 0"), "side to move must be 'g' on an even ply count"),
        (START_TEXT.replace(" g 0", " g 2 scoring 0 0"), "scoring counts are only allowed"),
        (START_TEXT.replace(" g 0", " g 240"), "after 240 plies the position needs 'scoring"),
        (START_TEXT.replace(" g 0", " g 240 scores 0 0"), "expected 'scoring <green moves>"),
        (START_TEXT.replace(" g 0", " g 240 scoring a 0"), "expected 'scoring <green moves>"),
    ],
)
def test_bad_position_text_is_refused_with_the_reason(text: str, expected: str) -> None:
    with pytest.raises(InvalidStateError) as caught:
        make().parse_state(text)
    assert expected in str(caught.value)


def test_simplified_scoring_refuses_positions_past_the_move_limit() -> None:
    game = make(scoring="simplified", move_limit=2)
    assert game.parse_state(START_TEXT.replace(" g 0", " g 4")).is_over
    with pytest.raises(InvalidStateError, match="simplified scoring ends the game after 4 plies"):
        game.parse_state(START_TEXT.replace(" g 0", " g 6"))


def test_position_text_must_be_a_string() -> None:
    with pytest.raises(InvalidStateError, match="must be a string"):
        make().parse_state(None)  # type: ignore[arg-type]


def test_position_text_round_trips_in_the_scoring_phase() -> None:
    game = make(move_limit=2)
    text = position(SHARING_A_SQUARE, 9, (2, 3))
    assert game.parse_state(text).to_text() == text
