"""Splinter's rules, one named scenario per rule (RULES.md, section "Splinter").

Most positions are drawn on a 9x10 board (option ``size="9x10"``, files a-i, ranks 1-10) so the
diagrams stay small; the rules do not depend on the size. Upper case is Blue, lower case Red;
S square, X cross, O circle. Unless a test says otherwise, Blue is to move.
"""

from __future__ import annotations

import numpy as np

import ludoteca
from ludoteca import Outcome
from ludoteca.games.splinter import SplinterGame, SplinterState
from ludoteca.games.splinter import kernels as k
from tests.games.splinter.diagrams import position
from tests.support import make_game, moves, play, refused

BLUE, RED = 0, 1


def make(**options: object) -> SplinterGame:
    return make_game("splinter", SplinterGame, **options)


def small(diagram: str, ply: int = 0, record: str = "-") -> SplinterState:
    """The position drawn on the 9x10 board after ``ply`` turns (Blue moved first)."""
    return make(size="9x10").parse_state(position(diagram, ply, record))


def board(state: SplinterState) -> str:
    """The diagram lines of the board (without the coordinates and the status lines)."""
    lines = str(state).splitlines()
    return "\n".join(lines[: state.game.height])


# -- positions ----------------------------------------------------------------------------------

EMPTY_RANKS = "\n".join(f"{rank} . . . . . . . . ." for rank in range(10, 0, -1)).splitlines()


def drawn(**ranks: str) -> str:
    """A 9x10 diagram, empty but for the given ranks, e.g. ``drawn(r5="S o X ...")``."""
    lines = list(EMPTY_RANKS)
    for name, cells in ranks.items():
        lines[10 - int(name[1:])] = f"{name[1:]} {cells}"
    return "\n".join(lines)


# A line of eight pieces of both colours along rank 5, a5 to h5; i5 is free.
LINE = drawn(
    r6=". . . S x O s . .",
    r5="O o X o O x X o .",
)

# The line from d5 westward reaches the edge: c5, b5 and a5 stand ahead of d5.
EDGE = drawn(
    r5="o O x X . . . . .",
    r4="S s O o . . . . .",
)

# The seed's picture: the Blue cross on d5 holds the three circles of rank 4 to the rest.
CROSS_HOLDS_CIRCLES = drawn(
    r7=". . o s x O . . .",
    r6=". . S . X . . . .",
    r5=". . . X . . . . .",
    r4=". . o O o . . . .",
)

# Two blocks of six (b3-d4 and f6-h7) held together only by the Blue circle on e5, through
# the corners d4 and f6. Moving it NW or SE leaves it alone and the blocks tied.
TWO_BLOCKS = drawn(
    r7=". . . . . s X o .",
    r6=". . . . . O x S .",
    r5=". . . . O . . . .",
    r4=". S x O . . . . .",
    r3=". o X s . . . . .",
)

# Three pairs held together only by the Blue cross on e5 (through d4, f4 and f6); moving it NW
# leaves it alone and the three pairs tied.
THREE_PAIRS = drawn(
    r7=". . . . . . o . .",
    r6=". . . . . x . . .",
    r5=". . . . X . . . .",
    r4=". . . o . O . . .",
    r3=". . S . . . s . .",
)

# Four lines of four held together only by the Blue cross on e5, each touching it at a corner
# (d6, f6, d4, f4) and running diagonally to the edge. Moving it diagonally pushes one line one
# square on, so its far piece falls off and the mover takes its place: four groups of four.
FOUR_LINES = drawn(
    r9="O . . . . . . . x",
    r8=". o . . . . . X .",
    r7=". . O . . . o . .",
    r6=". . . x . O . . .",
    r5=". . . . X . . . .",
    r4=". . . o . S . . .",
    r3=". . O . . . s . .",
    r2=". X . . . . . o .",
    r1="o . . . . . . . O",
)

# Blue's square c5 can step east onto the empty d5; Red's cross on e5 stands behind d5.
STEP_EAST = drawn(
    r5=". . S . x o . . .",
    r4=". . X s O o . . .",
)

# Blue's cross b5 pushes Red's square c5 east onto the empty d5.
PUSH_EAST = drawn(
    r5=". X s . o . . . .",
    r4=". . O x S o . . .",
)

# Red to move after Blue's square went c5-E (record E:d5). Pushing it back from e5 would also
# splinter it away, with the cross that pushed it.
PUSH_BACK_THEN_SPLINTER = drawn(
    r5=". . . S x o O . .",
    r4=". . . . . . X s .",
)

# c5-W pushes Red's square on a5 off the board, and leaves Blue's only circle (d6) alone.
BOTH_RUN_OUT = drawn(
    r6=". . . O . . . . .",
    r5="s x X . . . . . .",
    r4="S o X . . . . . .",
)
# As BOTH_RUN_OUT, with two more Red circles on b3 and c3: Red ends with more pieces.
BOTH_RUN_OUT_RED_MORE = drawn(
    r6=". . . O . . . . .",
    r5="s x X . . . . . .",
    r4="S o X . . . . . .",
    r3=". o o . . . . . .",
)
BOTH_RUN_OUT_EVEN = drawn(
    r6=". . . O . . . . .",
    r5="s x X . . . . . .",
    r4="S o . . . . . . .",
)


# -- the start ------------------------------------------------------------------------------------

START_TEXT = (
    "15/15/15/15/15/15/5oOoOo5/5OxXxO5/5oXsSo5/5OsSxO5/5oXxXo5/5OoOoO5/15/15/15/15/15/15 b 0 -"
)


def test_the_start_is_a_checkerboard_block_of_5_by_6_in_the_middle_of_15_by_18() -> None:
    state = make().initial_state()
    assert state.to_text() == START_TEXT
    pieces = state.pieces()
    assert {square[0] for square in pieces} == set("fghij")
    assert {int(square[1:]) for square in pieces} == set(range(7, 13))
    for square, letter in pieces.items():
        c, r = "fghij".index(square[0]), int(square[1:]) - 7
        assert letter.isupper() == ((c + r) % 2 == 0)


def test_each_side_starts_with_two_squares_four_crosses_and_nine_circles() -> None:
    state = make().initial_state()
    assert state.counts(BLUE) == state.counts(RED) == (2, 4, 9)


def test_reds_layout_is_blues_turned_half_round_about_the_block_centre() -> None:
    pieces = make().initial_state().pieces()
    for square, letter in pieces.items():
        c, r = "fghij".index(square[0]), int(square[1:]) - 7
        turned = f"{'fghij'[4 - c]}{5 - r + 7}"
        assert pieces[turned] == letter.swapcase()


def test_blues_squares_crosses_and_circles_stand_where_the_layout_says() -> None:
    pieces = make().initial_state().pieces()
    assert sorted(sq for sq, letter in pieces.items() if letter == "S") == ["h9", "i10"]
    assert sorted(sq for sq, letter in pieces.items() if letter == "X") == [
        "g10", "g8", "h11", "i8",
    ]  # fmt: skip


def test_120_legal_moves_per_side_at_the_start() -> None:
    blue_start = make().initial_state()
    red_start = make(first=1).initial_state()
    assert blue_start.to_move == BLUE and red_start.to_move == RED
    assert len(blue_start.legal_moves()) == 120  # 15 pieces x 8 directions
    assert len(red_start.legal_moves()) == 120
    assert all("/" not in move.text for move in blue_start.legal_moves())


def test_blue_moves_first_by_default_and_turns_alternate() -> None:
    state = make().initial_state()
    assert state.to_move == BLUE
    assert play(state, "h9-N").to_move == RED
    assert play(state, "h9-N", "f12-N").to_move == BLUE


def test_option_first_random_draws_the_first_player_at_a_chance_node() -> None:
    state = make(first="random").initial_state()
    assert state.to_move == ludoteca.CHANCE
    assert [(m.text, p) for m, p in state.chance_outcomes()] == [("first-0", 0.5), ("first-1", 0.5)]
    assert state.to_text().endswith(" ? 0 -")
    red_starts = state.apply("first-1")
    assert red_starts.to_move == RED and red_starts.ply == 0
    assert len(red_starts.legal_moves()) == 120
    assert state.apply("first-0").to_move == BLUE


# -- moves and pushes -------------------------------------------------------------------------


def test_a_piece_moves_one_square_in_any_of_eight_directions() -> None:
    state = small(STEP_EAST)
    assert {m for m in moves(state) if m.startswith("c5-")} == {
        f"c5-{d}" for d in ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    }
    assert state.apply("c5-E").pieces()["d5"] == "S"


def test_a_long_push_moves_the_whole_unbroken_line_of_any_colours() -> None:
    after = play(small(LINE), "a5-E")  # a long push: seven pieces ahead of the mover
    assert board(after).splitlines()[5] == " 5 . O o X o O x X o"
    assert after.counts(BLUE) == (1, 2, 3) and after.counts(RED) == (1, 2, 3)


def test_a_diagonal_push_moves_the_whole_diagonal_line() -> None:
    after = play(make().initial_state(), "f7-NE")  # f7 g8 h9 i10 j11 all move; k12 was free
    pieces = after.pieces()
    assert "f7" not in pieces
    assert [pieces[sq] for sq in ("g8", "h9", "i10", "j11", "k12")] == ["O", "X", "S", "S", "O"]
    assert len(pieces) == 30
    assert after.no_return == ("NE", ("g8", "h9", "i10", "j11", "k12"))


def test_the_push_stops_at_the_first_empty_square() -> None:
    state = small(LINE)
    after = play(state, "f6-E")  # pushes g6 onto h6; nothing beyond moves
    assert after.pieces()["g6"] == "O" and after.pieces()["h6"] == "s"
    assert after.pieces()["h5"] == "o"


def test_a_piece_pushed_past_the_edge_is_removed() -> None:
    after = play(small(EDGE), "d5-W")  # c5, b5 and a5 are pushed; a5's circle falls off
    assert board(after).splitlines()[5] == " 5 O x X . . . . . ."
    assert after.counts(RED) == (1, 1, 1)  # one circle fewer
    assert not after.is_over


def test_the_moving_piece_may_not_leave_the_board() -> None:
    state = small(EDGE)
    assert "a4-W" not in moves(state) and "a4-SW" not in moves(state)
    assert "may not leave the board" in refused(state, "a4-W")


def test_only_your_own_pieces_move() -> None:
    assert "the piece on b4 is Red's; Blue moves only its own" in refused(small(EDGE), "b4-N")


# -- the no-return rule ------------------------------------------------------------------------


def test_no_return_for_a_pushed_opponent_piece_moved_back() -> None:
    state = play(small(PUSH_EAST), "b5-E")  # Red's square goes from c5 to d5
    assert state.no_return == ("E", ("c5", "d5"))
    assert "d5-W" not in moves(state)
    message = refused(state, "d5-W")
    assert "the Red square on d5 would go back to c5, the square it left on Blue's last turn" in (
        message
    )
    assert "d5-N" in moves(state)  # other directions stay open


def test_no_return_for_a_pushed_opponent_piece_pushed_back_by_another() -> None:
    state = play(small(PUSH_EAST), "b5-E")
    assert "the Red square on d5 would go back to c5" in refused(state, "e5-W")


def test_no_return_for_the_mover_pushed_back_onto_its_square() -> None:
    state = play(small(STEP_EAST), "c5-E")  # Blue's square steps from c5 to d5
    assert state.no_return == ("E", ("d5",))
    message = refused(state, "e5-W")
    assert "the Blue square on d5 would go back to c5" in message
    assert "e5-N" in moves(state)


def test_no_return_follows_the_piece_not_the_square() -> None:
    # Blue's square left c5; Red's square on d4 may still step onto c5: it is another piece.
    state = play(small(STEP_EAST), "c5-E")
    assert "d4-NW" in moves(state)
    assert play(state, "d4-NW").pieces()["c5"] == "s"


def test_no_return_does_not_cover_the_movers_own_last_turn() -> None:
    # Red's circle left e5 on Red's own last turn (e5-N); it may go straight back.
    state = play(small(PUSH_EAST), "b5-E", "e5-N", "c5-N")
    assert state.no_return == ("N", ("c6",))
    assert "e6-S" in moves(state)
    assert play(state, "e6-S").pieces()["e5"] == "o"


def test_no_return_is_judged_before_splinters_are_removed() -> None:
    # e5-W would push Blue's square back to c5 and then the pair c5-d5 would splinter away:
    # the move is still refused.
    state = small(PUSH_BACK_THEN_SPLINTER, ply=1, record="E:d5")
    assert "no-return rule" in refused(state, "e5-W")


def test_no_return_lets_a_displaced_piece_move_on_in_other_directions() -> None:
    state = play(small(PUSH_EAST), "b5-E")
    directions = {m.split("-")[1] for m in moves(state) if m.startswith("d5-")}
    assert directions == {"N", "NE", "E", "SE", "S", "SW", "NW"}  # all but back west


def test_no_return_covers_only_the_opponents_last_turn() -> None:
    state = play(small(PUSH_EAST), "b5-E", "e5-N", "e4-S")
    assert state.no_return == ("S", ("e3",))
    assert "d5-W" in moves(state)  # two turns later the square may go back to c5


def test_a_pass_leaves_nothing_restricted() -> None:
    state = play(small(PUSH_EAST), "b5-E")
    # No reachable position lets a side pass (see test_a_side_without_a_move_passes), so the
    # kernel plays the pass directly.
    cells = k.apply_action(state.cells, state.game.params, state.game.nbr, k.PASS)
    assert cells[k.LAST_COUNT_AT] == cells[k.LAST_DIRECTION_AT] == cells[k.LAST_FIRST_AT] == 0
    assert cells[k.TO_MOVE_AT] == BLUE


def test_pieces_pushed_off_the_board_are_not_in_the_no_return_record() -> None:
    state = play(small(EDGE), "d5-W")
    assert state.no_return == ("W", ("c5", "b5", "a5"))  # the mover and the two still on board


def test_nothing_is_restricted_when_the_moved_line_splinters_away() -> None:
    state = play(make().initial_state(), "f7-SW")  # the corner circle leaves the block alone
    assert state.no_return is None
    assert state.to_text().endswith(" r 1 -")


# -- splinters ---------------------------------------------------------------------------------


def test_a_splinter_leaves_only_the_largest_group() -> None:
    state = small(CROSS_HOLDS_CIRCLES)
    after = play(state, "d5-N")  # the cross moves up; the three circles below are cut off
    assert "c4" not in after.pieces() and "d4" not in after.pieces() and "e4" not in after.pieces()
    assert len(after.pieces()) == 7
    assert after.counts(BLUE) == (1, 2, 1) and after.counts(RED) == (1, 1, 1)


def test_groups_hang_together_through_corners() -> None:
    after = play(make().initial_state(), "f7-W")  # e7 touches the block only at f8's corner
    assert after.pieces()["e7"] == "O"
    assert len(after.pieces()) == 30


def test_a_self_splinter_removes_the_moving_piece() -> None:
    after = play(make().initial_state(), "f7-SW")  # e6 touches nothing: a group of one
    assert "e6" not in after.pieces() and "f7" not in after.pieces()
    assert after.counts(BLUE) == (2, 4, 8)


def test_a_tie_is_two_distinct_moves_naming_the_group_that_stays() -> None:
    state = small(TWO_BLOCKS)
    ties = {m for m in moves(state) if "/" in m}
    assert ties == {"e5-NW/b3", "e5-NW/f6", "e5-SE/b3", "e5-SE/f6"}
    keep_low = play(state, "e5-NW/b3")
    keep_high = play(state, "e5-NW/f6")
    assert set(keep_low.pieces()) == {"b3", "c3", "d3", "b4", "c4", "d4"}
    assert set(keep_high.pieces()) == {"f6", "g6", "h6", "f7", "g7", "h7"}
    assert keep_low.legal_moves() != keep_high.legal_moves()
    assert state.parse_move("e5-NW/b3").index != state.parse_move("e5-NW/f6").index


def test_a_tie_of_three_groups_gives_three_moves() -> None:
    state = small(THREE_PAIRS)
    assert {m for m in moves(state) if "/" in m} == {"e5-NW/c3", "e5-NW/g3", "e5-NW/f6"}
    assert set(play(state, "e5-NW/c3").pieces()) == {"c3", "d4"}
    assert set(play(state, "e5-NW/g3").pieces()) == {"f4", "g3"}
    assert set(play(state, "e5-NW/f6").pieces()) == {"f6", "g7"}


def test_a_tie_of_four_groups_gives_four_moves() -> None:
    state = small(FOUR_LINES)
    assert moves(state, "e5-NW") == {"e5-NW/a1", "e5-NW/i1", "e5-NW/d6", "e5-NW/f6"}
    assert "e5-N" in moves(state)  # e6 touches d6 and f6: one largest group, of nine
    assert not moves(state, "e5-N/")
    kept = {keep: set(play(state, f"e5-NW/{keep}").pieces()) for keep in ("a1", "i1", "d6", "f6")}
    assert kept == {
        "a1": {"a1", "b2", "c3", "d4"},
        "i1": {"f4", "g3", "h2", "i1"},
        "d6": {"d6", "c7", "b8", "a9"},  # the mover's line; a9's circle fell off
        "f6": {"f6", "g7", "h8", "i9"},
    }


def test_a_move_without_a_tie_names_no_group() -> None:
    state = small(TWO_BLOCKS)
    assert "e5-N" in moves(state)  # joins f6's block: 7 against 6
    assert "no choice; play e5-N" in refused(state, "e5-N/f6")


def test_a_tie_must_name_the_group_that_stays() -> None:
    state = small(TWO_BLOCKS)
    message = refused(state, "e5-NW")
    assert "splits the pieces into 2 largest groups of 6; say which stays: e5-NW/b3, e5-NW/f6" in (
        message
    )
    assert "c3 is not the first square of one of the 2 tied largest groups" in refused(
        state, "e5-NW/c3"
    )


# -- the end ----------------------------------------------------------------------------------


def test_a_side_without_squares_loses() -> None:
    state = small(drawn(r5="s O x X . . . . .", r4="S o O o . . . . ."))
    after = play(state, "d5-W")  # Red's only square, on a5, falls off the board
    assert after.outcome == Outcome.win(BLUE, 2, "Red has no squares left")
    assert after.legal_moves() == () and after.to_move is None


def test_a_move_that_costs_the_mover_its_own_last_cross_loses() -> None:
    state = small(drawn(r5="X O x O . . . . .", r4="S s O o . . . . ."))
    assert state.counts(BLUE) == (1, 1, 3)
    after = play(state, "d5-W")  # Blue pushes its own only cross off the board at a5
    assert after.outcome == Outcome.win(RED, 2, "Blue has no crosses left")


def test_a_move_that_splinters_away_the_movers_own_last_cross_loses() -> None:
    state = small(drawn(r5=". . S o X . . . .", r4=". . s O x o . . ."))
    after = play(state, "e5-NE")  # Blue's only cross steps to f6, alone, and is removed
    assert "f6" not in after.pieces()
    assert after.outcome == Outcome.win(RED, 2, "Blue has no crosses left")


def test_a_side_without_circles_loses() -> None:
    state = small(drawn(r5="O X x . . . . . .", r4="S o s . . . . . ."), ply=1)
    after = play(state, "c5-W")  # Red pushes Blue's only circle off at a5
    assert after.outcome == Outcome.win(RED, 2, "Blue has no circles left")


def test_when_both_run_out_in_one_move_more_pieces_wins() -> None:
    after = play(small(BOTH_RUN_OUT), "c5-W")
    assert after.outcome == Outcome.win(
        BLUE,
        2,
        "both sides ran out of a type in the same move (Blue has no circles, Red no squares); "
        "Blue has more pieces on the board, 3 to 2",
    )


def test_when_both_run_out_the_side_with_more_pieces_wins_even_against_the_mover() -> None:
    after = play(small(BOTH_RUN_OUT_RED_MORE), "c5-W")  # Blue moves; Red keeps 4 to 3
    assert after.outcome == Outcome.win(
        RED,
        2,
        "both sides ran out of a type in the same move (Blue has no circles, Red no squares); "
        "Red has more pieces on the board, 4 to 3",
    )


def test_when_both_run_out_in_one_move_with_equal_pieces_it_is_a_tie() -> None:
    after = play(small(BOTH_RUN_OUT_EVEN), "c5-W")
    assert after.outcome == Outcome.draw(
        2,
        "both sides ran out of a type in the same move (Blue has no circles, Red no squares) "
        "and both have 2 pieces on the board: a tie",
    )


def test_the_engine_cap_ends_a_long_game_in_a_tie() -> None:
    state = play(make(max_plies=2).initial_state(), "h9-N")
    assert not state.is_over
    after = state.apply("f12-N")
    assert after.outcome == Outcome.draw(2, "engine safeguard: 2 turns without a result")


def test_a_win_on_the_last_turn_before_the_cap_is_a_win() -> None:
    game = make(size="9x10", max_plies=1)
    state = game.parse_state(position(drawn(r5="s O x X . . . . .", r4="S o O o . . . . .")))
    after = play(state, "d5-W")  # the cap's turn, but Red's only square falls off
    assert after.outcome == Outcome.win(BLUE, 2, "Red has no squares left")


def test_a_side_without_a_move_passes() -> None:
    # No reachable position has it (a side with a piece always has one of its 8 directions
    # open), so the kernel is asked directly about a side with no pieces left.
    game = make(size="9x10")
    cells = small(EDGE).cells.copy()
    board_cells = cells[k.BOARD_AT :]
    board_cells[(board_cells >= 1) & (board_cells <= 3)] = 0  # Blue's pieces gone
    k.recount(cells, game.params)
    assert list(k.legal_actions(cells, game.params, game.nbr)) == [k.PASS]


def test_a_pass_counts_as_a_turn() -> None:
    state = small(EDGE, ply=2)
    cells = k.apply_action(state.cells, state.game.params, state.game.nbr, k.PASS)
    assert cells[k.PLY_AT] == 3 and cells[k.TO_MOVE_AT] == RED


def test_pass_is_refused_while_a_move_exists() -> None:
    assert "pass is only allowed when Blue has no move" in refused(small(EDGE), "pass")


# -- options ---------------------------------------------------------------------------------


def test_option_size_changes_the_board_and_keeps_the_block_centred() -> None:
    state = make(size="9x10").initial_state()
    assert {square[0] for square in state.pieces()} == set("cdefg")
    assert {int(square[1:]) for square in state.pieces()} == set(range(3, 9))
    tight = make(size="5x6").initial_state()
    assert len(tight.pieces()) == 30 and len(tight.legal_moves()) < 120


def test_option_layout_changes_the_piece_types() -> None:
    state = make(layout="SXO/XO/SOO/XO/XOO/OO").initial_state()
    assert state.pieces()["f7"] == "S" and state.pieces()["g8"] == "X"
    assert state.pieces()["j12"] == "s"  # Red's layout is Blue's turned half round
    assert state.counts(BLUE) == state.counts(RED) == (2, 4, 9)


def test_the_game_is_the_same_whatever_the_case_of_the_layout() -> None:
    assert make(layout="ooo/xx/oso/xs/oxo/oo") == make()


def test_random_playouts_add_up() -> None:
    stats = make(size="9x10").random_playouts(50, seed=3)
    assert stats.games == 50 == sum(stats.wins) + stats.draws
    assert stats.plies >= stats.decisions >= 50
    assert stats == make(size="9x10").random_playouts(50, seed=3)
    drawn_first = make(first="random").random_playouts(20, seed=1)
    assert drawn_first.plies == drawn_first.decisions + 20  # the draw counts as a ply


def test_a_move_of_the_kernel_and_of_the_state_agree() -> None:
    state = make().initial_state()
    move = state.parse_move("h9-N")
    after = k.apply_action(state.cells, state.game.params, state.game.nbr, move.index)
    assert np.array_equal(after, state.apply(move).cells)
