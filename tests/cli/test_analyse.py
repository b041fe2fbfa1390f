"""``ludoteca analyse``: the tree of variations, the engine's view, saving a line, bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ludoteca
from ludoteca.analysis.position import evaluate
from ludoteca.cli.analyse import HELP, AnalysisTree, start_position
from ludoteca.cli.text import wrap
from ludoteca.core import records
from ludoteca.core.errors import LudotecaError
from ludoteca.core.notation import numbered_plies
from ludoteca.games.pente_grammai import kernels as k
from ludoteca.games.pente_grammai.solver import exact_move_values, solve
from tests.support import flat, run_combined


def _play(tree: AnalysisTree, *texts: str) -> None:
    for text in texts:
        tree.play(tree.state.parse_move(text))


def test_two_branches_back_and_forward() -> None:
    tree = AnalysisTree(ludoteca.make("salta").initial_state())
    _play(tree, "c3-d4", "h8-g7", "d4-e5")
    assert tree.back(2) == 2 and [n.move.text for n in tree.line()[1:] if n.move] == [
        "c3-d4",
        "h8-g7",
        "d4-e5",
    ]
    _play(tree, "j8-i7")  # a second branch after c3-d4
    first = tree.root.children[0]
    assert [child.move.text for child in first.children if child.move] == ["h8-g7", "j8-i7"]
    assert tree.back() == 1 and tree.state == first.state
    assert tree.forward() == 1 and tree.current.move is not None
    assert tree.current.move.text == "j8-i7"  # forward follows the branch last visited
    tree.back()
    tree.follow(1)
    assert tree.forward() == 1 and tree.current.move is not None
    assert tree.current.move.text == "d4-e5"  # the first branch, on to its end
    tree.goto(1)
    assert tree.state == first.state
    _play(tree, "h8-g7")  # the move of an existing branch follows it, adds nothing
    assert len(first.children) == 2
    text = tree.tree_text().split("\n")
    assert text[0] == "start 1. c3-d4 [2. h8-g7] 3. d4-e5"
    assert text[1] == "  2. j8-i7"
    assert tree.back(10) == 2 and tree.current is tree.root
    with pytest.raises(LudotecaError, match="plies 0 to 3"):
        tree.goto(4)


def test_chance_outcomes_are_played_by_hand_and_branch_too() -> None:
    tree = AnalysisTree(ludoteca.make("pente_grammai").initial_state())
    _play(tree, "first-0", "d5", "hand-W5")
    tree.back(2)
    _play(tree, "d3", "hand-W3")
    rows = tree.tree_text().split("\n")
    assert rows == ["start 1. hand-W5 (White starts, 5)", "  [1. hand-W3 (White starts, 3)]"]


def test_pente_grammai_evaluation_is_the_solved_tables_value() -> None:
    game = ludoteca.make("pente_grammai", first=0)
    table = solve(game.params)
    state = game.initial_state()
    for text in ("d4", "hand-W4", "d2"):
        before = state
        state = state.apply(text)
        if before.to_move == ludoteca.CHANCE:
            continue
        # A roll to come: the table's value before the roll, for the side to roll.
        cells = np.array(state.cells, dtype=np.int32)
        side = int(cells[k.SIDE_AT])
        value = table.value_before_roll(cells)
        white = value if side == 0 else -value
        assert evaluate(state).chances[0] == pytest.approx((white + 1) / 2, abs=1e-9)
    # A decision: the best move's exact value, and the best line starts with it.
    values = exact_move_values(state)
    best = max(values.values())
    found = evaluate(state)
    mover = state.to_move
    white = best if mover == 0 else -best
    assert found.method == "exact" and found.interval is None
    assert found.chances[0] == pytest.approx((white + 1) / 2, abs=1e-9)
    assert values[state.parse_move(found.best_line[0]).index] == best


def test_a_searched_evaluation_gives_an_interval_and_a_legal_line() -> None:
    state = ludoteca.make("salta").initial_state()
    found = evaluate(state, budget=60, seed=1)
    assert found.method == "search" and found.budget == 60
    assert found.interval is not None
    low, high = found.interval
    assert low <= found.chances[0] <= high and sum(found.chances) == pytest.approx(1.0)
    for text in found.best_line:
        state = state.apply(text)


def test_the_analyse_command_plays_saves_and_replay_numbers_the_line_alike(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "line.json"
    status, out = run_combined(
        capsys,
        ["analyse", "pente_grammai"],
        "first-0", "5", "hand-W5", "back", "back", "3", "hand-W3", "tree", "var",
        "back", "back", "var", "forward", "moves", "hello", "W9-B9", f"save {saved}", "eval",
        "quit",
    )  # fmt: skip
    assert status == 0, out
    text = flat(out)
    assert "A new variation." in text
    assert "No move has been tried here yet." in text  # at ply 3: nothing after it
    assert "Moves tried here (2): 1) rolled 5 2) rolled 3 (forward follows it)" in text
    assert "start 1. hand-W5 (White starts, 5)\n  [1. hand-W3 (White starts, 3)]" in out
    assert "Unknown command: hello" in text
    assert "'W9-B9' is not a move in Pente Grammai notation" in text
    assert "chances of winning: White" in text and "exact, from the solved game" in text
    record = records.load(saved)
    assert record.moves == ("first-0", "d3", "hand-W3")
    status, replayed = run_combined(capsys, ["replay", str(saved), "--all"])
    plies = numbered_plies(record.states, record.moves)
    assert "Ply 3 · 1. hand-W3 (White starts, 3)" in replayed
    assert plies[2].label in text  # analyse names the ply as replay does
    assert all(len(line) <= 80 for line in out.split("\n") if ">" not in line), out


def test_eval_of_a_searched_game_says_how_and_how_sure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out = run_combined(capsys, ["analyse", "salta"], "c3-d4", "eval 40", "eval x", "quit")
    assert status == 0
    text = flat(out)
    assert "MCTS, 40 iterations" in text and "95 % interval of Green's:" in text
    assert "Best line:" in text
    assert "expected a whole number of at least 1; got 'x'" in text


def test_a_saved_game_opens_at_its_end_with_its_moves_as_the_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "g.json"
    records.save(records.create(ludoteca.make("salta"), ["c3-d4", "h8-g7"]), saved)
    status, out = run_combined(capsys, ["analyse", "--load", str(saved)], "line", "back", "quit")
    assert status == 0
    assert "start 1. c3-d4 [2. h8-g7]" in out
    assert "analyse (after ply 1, Red to move)>" in out
    status, out = run_combined(capsys, ["analyse", "salta", "--load", str(saved)])
    assert status == 2 and "--load FILE brings its own game" in out


def test_a_bad_position_is_refused_with_what_is_accepted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out = run_combined(capsys, ["analyse", "salta", "--position", "nonsense"])
    assert status == 2
    assert "--position 'nonsense' is not a Salta position" in out
    assert "The start is written" in out and "Traceback" not in out
    assert out.count("\n") <= 3


def test_a_position_text_starts_the_board_there() -> None:
    game = ludoteca.make("salta")
    after = game.initial_state().apply("c3-d4")
    assert start_position(game, after.to_text()) == after
    assert start_position(game, None) == game.initial_state()


@pytest.mark.parametrize("width", [40, 80])
def test_the_analyse_help_fits(width: int) -> None:
    lines = wrap(HELP, width).split("\n")
    assert all(len(line) <= width for line in lines)
    assert flat("\n".join(lines)) == flat(HELP)
