"""The back rank, going home, forfeited turns and the end (RULES.md, Salt 'n' Pepper).

Salt's back rank is rank 1 and Pepper's the top rank; pieces not drawn in a diagram are home.
"""

from __future__ import annotations

import numpy as np
import pytest

import ludoteca
from ludoteca import InvalidStateError
from ludoteca.games.salt_n_pepper import SaltNPepperState
from ludoteca.games.salt_n_pepper import kernels as k
from ludoteca.games.salt_n_pepper.position import build_cells
from tests.games.salt_n_pepper.diagrams import position
from tests.games.salt_n_pepper.helpers import PEPPER, SALT, make, state_at
from tests.support import moves, play, refused

# -- the back rank and the move home ------------------------------------------------------------

# Salt's c2 is one step from its back rank; Salt's h5 and Pepper's a3 are elsewhere.
NEAR_HOME = """
10 .  .  .  .  .  .  .  .  .  .
 9 .  .  .  .  .  .  .  .  .  .
 8 .  .  .  .  .  .  .  .  .  .
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  S  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 P  .  .  .  .  .  .  .  .  .
 2 .  .  S  .  .  .  .  .  .  .
 1 .  .  .  .  .  .  .  .  .  .
"""


def test_a_piece_on_its_back_rank_is_still_on_the_board() -> None:
    state = play(state_at(NEAR_HOME, "s"), "c2-d1")
    assert state.squares(SALT) == ("d1", "h5")
    assert state.pieces_home(SALT) == 13
    assert not state.is_over


def test_moving_home_from_the_back_rank_takes_a_turn_of_its_own() -> None:
    state = play(state_at(NEAR_HOME, "s"), "c2-d1", "a3-a4")
    assert moves(state) == {"d1-home"}
    home = state.apply("d1-home")
    assert home.squares(SALT) == ("h5",)
    assert home.pieces_home(SALT) == 14
    assert home.to_move == PEPPER


# Two Salt pieces on rank 1 (only a set-up position can hold two: one arrives per turn and must
# go home on the next), with Salt's h5 free to move.
TWO_ON_THE_BACK_RANK = """
10 .  .  .  .  .  .  .  .  .  .
 9 .  .  .  .  .  .  .  .  .  .
 8 .  .  .  .  .  .  .  .  .  .
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  S  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 P  .  .  .  .  .  .  .  .  .
 2 .  .  .  .  .  .  .  .  .  .
 1 .  S  .  .  .  S  .  .  .  .
"""


def test_the_forced_move_home_with_a_choice_between_several_back_rank_pieces() -> None:
    state = state_at(TWO_ON_THE_BACK_RANK, "s")
    assert moves(state) == {"b1-home", "f1-home"}
    assert state.apply("f1-home").squares(SALT) == ("b1", "h5")
    assert state.apply("b1-home").squares(SALT) == ("f1", "h5")


def test_the_forced_move_home_refuses_every_other_move_with_the_reason() -> None:
    message = refused(state_at(TWO_ON_THE_BACK_RANK, "s"), "h5-g4")
    assert "Salt has a piece on its back rank (rank 1), so it must move a piece home" in message
    assert "b1-home, f1-home" in message


def test_the_forced_move_home_binds_only_the_side_that_owns_the_piece() -> None:
    assert moves(state_at(TWO_ON_THE_BACK_RANK, "p")) == {"a3-a4"}


# Salt's b1 waits on its back rank while Salt's c2 could leap home over Pepper's d1.
WAITING_AND_A_LEAP_HOME = """
10 .  .  .  .  .  .  .  .  .  .
 9 .  .  .  .  .  .  .  .  .  .
 8 .  .  .  .  .  .  .  .  .  .
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  S  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 P  .  .  .  .  .  .  .  .  .
 2 .  .  S  .  .  .  .  .  .  .
 1 .  S  .  P  .  .  .  .  .  .
"""


def test_home_first_is_strict_and_bars_a_leap_home_by_another_piece() -> None:
    state = state_at(WAITING_AND_A_LEAP_HOME, "s")
    assert moves(state) == {"b1-home"}
    assert "so it must move a piece home from there: b1-home" in refused(state, "c2xhome")
    assert "c2xhome" in moves(play(state, "b1-home", "a3-a4"))


# Two Pepper pieces on the top rank, Pepper's back rank; Pepper's a3 could otherwise step.
TWO_PEPPER_PIECES_ON_TOP = """
10 P  .  .  .  P  .  .  .  .  .
 9 .  .  .  .  .  .  .  .  .  .
 8 .  .  .  .  .  .  .  .  .  .
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  S  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 P  .  .  .  .  .  .  .  .  .
 2 .  .  .  .  .  .  .  .  .  .
 1 .  .  .  .  .  .  .  .  .  .
"""


def test_pepper_too_must_move_home_first_choosing_among_its_top_rank_pieces() -> None:
    state = state_at(TWO_PEPPER_PIECES_ON_TOP, "p")
    assert moves(state) == {"a10-home", "e10-home"}
    assert "must move a piece home from there: a10-home, e10-home" in refused(state, "a3-a4")
    assert state.apply("e10-home").squares(PEPPER) == ("a3", "a10")


# Salt's d3 can leap over Pepper's c2 onto b1; Pepper's f8 can leap over Salt's f9 onto f10.
LEAPS_ONTO_THE_BACK_RANK = """
10 .  .  .  .  .  .  .  .  .  .
 9 .  .  .  .  .  S  .  .  .  .
 8 .  .  .  .  .  P  .  .  .  .
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  S  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 .  .  .  S  .  .  .  .  .  .
 2 .  .  P  .  .  .  .  .  .  .
 1 .  .  .  .  .  .  .  .  .  .
"""


def test_a_leap_onto_the_back_rank_stops_there_and_goes_home_next_turn() -> None:
    salt = state_at(LEAPS_ONTO_THE_BACK_RANK, "s").apply("d3xb1")
    assert salt.squares(SALT) == ("b1", "h5", "f9") and salt.pieces_home(SALT) == 12
    assert moves(play(salt, "c2-c3")) == {"b1-home"}
    pepper = state_at(LEAPS_ONTO_THE_BACK_RANK, "p")
    assert "f8xf10" in moves(pepper) and "f8xhome" not in moves(pepper)
    pepper = pepper.apply("f8xf10")
    assert pepper.squares(PEPPER) == ("c2", "f10") and pepper.pieces_home(PEPPER) == 13
    assert moves(play(pepper, "h5-g4")) == {"f10-home"}


def test_pepper_moves_home_from_the_top_rank() -> None:
    top = NEAR_HOME.replace("10 .  .  .", "10 .  .  P")
    assert moves(state_at(top, "p")) == {"c10-home"}


def test_only_a_piece_on_the_back_rank_moves_home() -> None:
    assert "only a piece on Salt's back rank (rank 1) can move home" in refused(
        state_at(NEAR_HOME, "s"), "c2-home"
    )
    assert "only a piece on Pepper's back rank (rank 10) can move home" in refused(
        state_at(NEAR_HOME, "p"), "a3-home"
    )


# -- the leap home ---------------------------------------------------------------------------

# Salt's c2 has Pepper pieces on both b1 and d1 (Pepper reaches rank 1's dark squares only by
# sideways moves, or in a set-up position); Salt's i2 has Pepper's j1 at the edge. Pepper's c9
# stands under Salt's c10.
LEAPS_HOME = """
10 .  .  S  .  .  .  .  .  .  .
 9 .  .  P  .  .  .  .  .  .  .
 8 .  .  .  .  .  .  .  .  .  .
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 .  .  .  .  .  .  .  .  .  .
 2 .  .  S  .  .  .  .  .  S  .
 1 .  P  .  P  .  .  .  .  .  P
"""


def test_two_leaps_home_of_the_same_piece_are_one_move() -> None:
    state = state_at(LEAPS_HOME, "s")
    assert moves(state) == {"c2xhome", "i2xhome", "i2-h1", "c10-b9", "c10-d9"}
    after = state.apply("c2xhome")
    assert after.squares(SALT) == ("i2", "c10")
    assert after.squares(PEPPER) == ("b1", "d1", "j1", "c9")  # nothing is captured
    assert after.pieces_home(SALT) == 13


def test_the_leap_home_lands_off_the_board_whatever_its_file() -> None:
    # i2 over j1 would land beyond file j as well as below rank 1: it is home all the same.
    after = state_at(LEAPS_HOME, "s").apply("i2xhome")
    assert after.squares(SALT) == ("c2", "c10")


def test_pepper_leaps_home_over_a_salt_piece_on_the_top_rank() -> None:
    state = state_at(LEAPS_HOME, "p")
    assert "c9xhome" in moves(state)
    assert state.apply("c9xhome").pieces_home(PEPPER) == 12


def test_the_leap_home_starts_one_rank_before_the_back_rank() -> None:
    state = state_at(LEAPS_HOME, "s")
    assert "a leap home starts on rank 2, one rank before Salt's back rank" in refused(
        state, "c10xhome"
    )


def test_the_leap_home_needs_an_opponent_piece_on_the_back_rank() -> None:
    state = state_at(NEAR_HOME, "s")
    assert "a leap home goes over an opponent piece on b1 or d1, and there is none" in refused(
        state, "c2xhome"
    )


# -- the forfeited turn ---------------------------------------------------------------------------

# Salt's last piece, a4, is stuck: its only forward square b3 holds Pepper, and c2 beyond it is
# taken too.
SALT_STUCK = """
10 .  .  .  .  .  .  .  .  .  .
 9 .  .  .  .  .  .  .  .  .  .
 8 .  .  .  .  .  .  .  .  .  .
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 S  .  .  .  .  .  .  .  .  .
 3 .  P  .  .  .  .  .  .  .  .
 2 .  .  P  .  .  .  .  .  .  .
 1 .  .  .  .  .  .  .  .  .  .
"""


def test_a_side_without_a_move_forfeits_its_turn() -> None:
    state = state_at(SALT_STUCK, "s")
    assert moves(state) == {"pass"}
    assert "no move, so the turn is forfeited (pass)" in str(state)
    after = state.apply("pass")
    assert after.to_move == PEPPER
    assert after.passes_in_a_row == 1
    assert after.cells[k.BOARD_AT :].tolist() == state.cells[k.BOARD_AT :].tolist()
    assert "(Salt passed)" in str(after)


def test_the_turn_after_a_forfeit_is_an_ordinary_one() -> None:
    after = play(state_at(SALT_STUCK, "s"), "pass", "b3-b4")
    assert after.passes_in_a_row == 0
    assert moves(after) == {"a4-b3"}


def test_a_forfeited_turn_counts_as_a_ply_towards_max_plies() -> None:
    state = state_at(SALT_STUCK, "s", ply=10)
    assert state.apply("pass").ply == 11
    capped = state_at(SALT_STUCK, "s", ply=10, max_plies=11).apply("pass")
    assert capped.outcome == ludoteca.Outcome.draw(2, "engine safeguard: 11 plies without a result")


def test_pass_is_refused_while_there_is_a_move() -> None:
    assert "pass is only allowed when Salt has no move" in refused(state_at(NEAR_HOME, "s"), "pass")


def test_pepper_always_has_a_move_so_only_salt_ever_forfeits() -> None:
    # The highest Pepper piece of a file can always step up, leap a Salt piece (the square
    # beyond is light, so no Salt piece stands there), leap home, or move home.
    crowded = """
10 S  .  S  .  S  .  S  .  S  .
 9 P  S  P  S  P  S  P  S  P  S
 8 S  P  S  P  S  P  S  P  S  P
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 .  .  .  .  .  .  .  .  .  .
 2 .  .  .  .  .  .  .  .  .  .
 1 .  .  .  .  .  .  .  .  .  .
"""
    state = state_at(crowded, "p")
    assert moves(state) == {
        "a9xhome", "c9xhome", "e9xhome", "g9xhome", "i9xhome",
        "b8xb10", "d8xd10", "f8xf10", "h8xh10", "j8xj10",
    }  # fmt: skip


# -- the end -------------------------------------------------------------------------------------

# Salt's last piece is on its back rank; Pepper has two pieces left.
LAST_SALT_PIECE = """
10 .  .  .  .  .  .  .  .  .  .
 9 .  .  P  .  .  .  .  .  .  .
 8 .  .  .  .  .  .  .  .  .  .
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 .  .  .  .  .  .  .  .  .  .
 2 .  .  .  .  .  .  .  .  .  .
 1 .  .  .  S  .  .  .  .  .  P
"""


def test_the_side_that_brings_its_fifteenth_piece_home_wins_at_once() -> None:
    state = state_at(LAST_SALT_PIECE, "s")
    assert not state.is_over and state.pieces_home(SALT) == 14
    won = state.apply("d1-home")
    assert won.outcome == ludoteca.Outcome.win(SALT, 2, "Salt brought all 15 pieces home")
    assert won.to_move is None and won.legal_moves() == ()
    assert "Salt wins: Salt brought all 15 pieces home." in str(won)


def test_a_leap_home_can_win_the_game() -> None:
    last_pepper = """
10 .  .  S  .  .  .  .  .  .  .
 9 .  .  P  .  .  .  .  .  .  .
 8 .  .  .  .  .  .  .  .  .  .
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 .  .  .  .  .  .  .  .  .  .
 2 .  .  .  .  .  .  .  .  .  .
 1 .  .  .  .  .  .  .  .  .  .
"""
    won = state_at(last_pepper, "p").apply("c9xhome")
    assert won.outcome == ludoteca.Outcome.win(PEPPER, 2, "Pepper brought all 15 pieces home")


def test_a_finished_position_reads_back_as_finished() -> None:
    won = state_at(LAST_SALT_PIECE, "s").apply("d1-home")
    assert make().parse_state(won.to_text()) == won
    assert won.to_text().endswith(" p 11 0")


# -- engine safeguards --------------------------------------------------------------------------


def test_two_passes_in_a_row_end_the_game_in_a_draw() -> None:
    # Engine safeguard. Pepper always has a move (see above), so no legal position gets here:
    # the array is built directly, as it would stand after Salt and then Pepper had passed.
    game = make()
    cells = build_cells(10, ([30], [23]), first=SALT, ply=12, passes=2)
    k.settle(cells, game.params)
    state = SaltNPepperState(game, cells)
    assert state.outcome == ludoteca.Outcome.draw(
        2, "engine safeguard: both sides forfeited their turn in a row (neither can move)"
    )
    cells[k.PASSES_AT] = 1
    k.settle(cells, game.params)
    assert not SaltNPepperState(game, cells).is_over


def test_a_pass_count_the_position_cannot_have_is_refused() -> None:
    with pytest.raises(InvalidStateError, match="but Salt has a move here, so it could not"):
        make().parse_state(position(NEAR_HOME, "p", 10, 1))
    with pytest.raises(InvalidStateError, match="but Pepper has a move here"):
        make().parse_state(position(SALT_STUCK, "s", 10, 2))
    assert make().parse_state(position(SALT_STUCK, "p", 10, 1)).passes_in_a_row == 1


def test_max_plies_ends_the_game_in_a_draw() -> None:
    state = play(make(first=0, max_plies=3).initial_state(), "a8-b7", "a3-a4")
    assert not state.is_over
    state = state.apply("c8-d7")
    assert state.outcome == ludoteca.Outcome.draw(2, "engine safeguard: 3 plies without a result")


def test_a_win_on_the_last_ply_before_the_cap_is_a_win() -> None:
    won = state_at(LAST_SALT_PIECE, "s", ply=10, max_plies=11).apply("d1-home")
    assert won.ply == 11
    assert won.outcome == ludoteca.Outcome.win(SALT, 2, "Salt brought all 15 pieces home")


def test_the_bag_draw_does_not_count_towards_max_plies() -> None:
    state = play(make(max_plies=1).initial_state(), "first-1")
    assert not state.is_over and state.ply == 0
    assert play(state, "a3-a4").is_over


def test_the_kernel_totals_agree_with_the_rules() -> None:
    totals = make().playout_totals(200, seed=4)
    assert totals["salt_wins"] + totals["pepper_wins"] + totals["draws"] == 200
    assert totals["draws"] == totals["stuck_draws"] + totals["cap_draws"]
    assert totals["stuck_draws"] == 0  # Pepper always has a move
    assert totals["plies"] == totals["decisions"] + 200  # one bag draw per game
    assert np.isclose(totals["salt_first"] / 200, 0.5, atol=0.1)


def test_without_sideways_moves_no_game_comes_near_the_cap() -> None:
    # docs/rules: each side needs at most 135 moves on ten ranks and Salt gets at most one turn
    # more than Pepper, so a game ends within 271 plies and max_plies never fires.
    totals = make(first=0).playout_totals(2000, seed=11)
    assert totals["longest"] <= 271
    assert totals["cap_draws"] == 0 and totals["stuck_draws"] == 0
