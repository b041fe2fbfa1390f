"""What games declare about themselves (`ludoteca.core.GameInfo`), and its checks."""

from __future__ import annotations

import ast
import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

import ludoteca
from ludoteca.ai import level_setting
from ludoteca.ai.evaluation import evaluator_for, expert_for, expert_value_kind
from ludoteca.ai.levels import LevelSetting as LevelSettingFromAI
from ludoteca.ai.levels import rollout_plies
from ludoteca.core import (
    DEFAULT_LEVELS,
    BenchRow,
    GameInfo,
    LevelSetting,
    PieceStyle,
    View,
    check_declaration,
    levels_with,
)
from ludoteca.core.conformance import ConformanceError, check_game
from ludoteca.core.info import DeclarationError, declaration_problems
from ludoteca.core.view import Drawing, Piece, Region
from tests.core.toy_games import ToyDiceGame


@pytest.mark.parametrize("game_id", ludoteca.game_ids())
def test_every_registered_game_declares_itself_consistently(game_id: str) -> None:
    check_declaration(ludoteca.make(game_id))


def test_the_declarations_hold_what_the_levels_used_to_key_by_game_id() -> None:
    salta, splinter = ludoteca.make("salta"), ludoteca.make("splinter")
    assert rollout_plies(salta) == 10 and rollout_plies(splinter) == 4
    assert level_setting(salta, 5) == LevelSetting("strongest: MCTS 5,000 iterations", "mcts", 5000)
    assert level_setting(salta, 2) == DEFAULT_LEVELS[1]
    assert level_setting(splinter, 5).engine == "alphabeta"
    assert expert_for(salta) is None and evaluator_for(salta) is not None
    assert expert_value_kind(ludoteca.make("steppin_stones")) == "progress"
    assert expert_value_kind(ludoteca.make("pente_grammai")) == "win chance"
    assert LevelSettingFromAI is LevelSetting  # still importable from its old home


def test_a_game_that_declares_nothing_gets_the_defaults() -> None:
    game = ToyDiceGame()
    assert game.info == GameInfo()
    assert rollout_plies(game) is None  # rollouts to the end: there is no heuristic
    assert [level_setting(game, n) for n in (1, 2, 3, 4, 5)] == list(DEFAULT_LEVELS)
    assert evaluator_for(game) is None and expert_for(game) is None
    check_declaration(game)


def test_levels_with_refuses_a_level_outside_1_to_5() -> None:
    with pytest.raises(ValueError, match="levels are 1, 2, 3, 4 and 5; got \\[6\\]"):
        levels_with({6: DEFAULT_LEVELS[0]})


def test_inconsistent_declarations_are_listed() -> None:
    problems = declaration_problems(
        GameInfo(
            rollout_plies=0,
            levels=(*DEFAULT_LEVELS[:4], LevelSetting("x", "alphabeta", 100)),
            expert_value="chance",  # type: ignore[arg-type]
            piece_styles=(PieceStyle("Red", "#c00"), PieceStyle("blue", "url(x)")),
        )
    )
    assert problems == [
        "rollout_plies must be at least 1 (None: to the end); got 0",
        "level 5 plays alpha-beta, which needs evaluate; none declared",
        "expert_value must be 'win chance' or 'progress'; got 'chance'",
        "piece style name 'Red': use lower-case letters, digits, - and _",
        "piece style 'blue': fill 'url(x)' is not a CSS colour "
        "(#rrggbb, a colour name, or rgb(...))",
    ]
    assert declaration_problems(GameInfo(levels=DEFAULT_LEVELS[:3])) == [
        "levels must be a tuple of five LevelSetting values (see levels_with)"
    ]
    assert declaration_problems("levels") == ["info must be a ludoteca.core.GameInfo; got str"]


@pytest.mark.parametrize("game_id", ludoteca.game_ids())
def test_each_declared_bench_row_makes_a_game(game_id: str) -> None:
    for row in ludoteca.make(game_id).info.bench_rows:
        assert ludoteca.make(game_id, **row.options).options != ludoteca.make(game_id).options
        assert row.label and row.measures


def test_the_bench_rows_are_declared_by_their_games() -> None:
    labels = {g: [r.label for r in ludoteca.make(g).info.bench_rows] for g in ludoteca.game_ids()}
    assert labels == {
        "pente_grammai": ["storage"],
        "salt_n_pepper": [],
        "salta": ["play phase"],
        "splinter": [],
        "steppin_stones": [],
    }
    assert ludoteca.make("salta").info.bench_rows[0].options == {"scoring": "simplified"}
    assert declaration_problems(GameInfo(bench_rows=[BenchRow({}, "x", "y")])) == [  # type: ignore[arg-type]
        "bench_rows must be a tuple of BenchRow values"
    ]


def test_a_search_leaf_must_be_a_function() -> None:
    def evaluate(state: object) -> tuple[float, float]:
        return 0.0, 0.0

    info = GameInfo(evaluate=evaluate, search_leaf="compiled")  # type: ignore[arg-type]
    assert declaration_problems(info) == ["search_leaf must be a function"]


def test_a_search_leaf_needs_evaluate() -> None:
    leaf = ludoteca.make("salta").info.search_leaf
    assert leaf is not None
    assert declaration_problems(GameInfo(search_leaf=leaf)) == [
        "search_leaf scores positions with the heuristic: declare evaluate too"
    ]

    class LeafWithoutHeuristicGame(ToyDiceGame):
        info = GameInfo(search_leaf=leaf)

    with pytest.raises(DeclarationError, match="search_leaf scores positions with the heuristic"):
        check_declaration(LeafWithoutHeuristicGame())


def test_a_drawing_with_an_undeclared_piece_style_fails_the_check() -> None:
    def drawing(state: object) -> Drawing:
        square = Region("a1", 0, 0, 1, 1, "a1")
        return Drawing(1, 1, (square,), (Piece("a1", 0, "disc", "", "x", style="purple"),))

    class ForgetfulGame(ToyDiceGame):
        info = GameInfo(view=View(drawing=drawing), piece_styles=(PieceStyle("green", "green"),))

    with pytest.raises(DeclarationError, match=r"piece styles \['purple'\] that piece_styles"):
        check_declaration(ForgetfulGame())
    fixed = dataclasses.replace(ForgetfulGame.info, piece_styles=(PieceStyle("purple", "#808"),))
    ForgetfulGame.info = fixed
    check_declaration(ForgetfulGame())


def test_the_conformance_check_fails_a_game_with_an_undeclared_piece_style() -> None:
    def drawing(state: object) -> Drawing:
        square = Region("a1", 0, 0, 1, 1, "a1")
        return Drawing(1, 1, (square,), (Piece("a1", 0, "disc", "", "x", style="purple"),))

    class UndeclaredStyleGame(ToyDiceGame):
        info = GameInfo(view=View(drawing=drawing))

    with pytest.raises(ConformanceError, match=r"(?s)declaration is inconsistent:.*'purple'"):
        check_game(UndeclaredStyleGame(), games=1)
    check_game(ToyDiceGame(), games=1)  # the same game without the drawing passes


def test_importing_ludoteca_loads_no_game_and_no_compiler() -> None:
    script = (
        "import sys, ludoteca; ludoteca.game_ids(); "
        "print(sorted(m for m in sys.modules if m.startswith('ludoteca.games.') or m == 'numba'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"


def test_game_packages_import_nothing_from_the_layers_above() -> None:
    root = Path(__file__).resolve().parents[2]
    forbidden = ("ludoteca.ai", "ludoteca.analysis", "ludoteca.cli", "ludoteca.web", "ludoteca.rl")
    files = [
        *(root / "src" / "ludoteca" / "games").rglob("*.py"),
        *(root / "tests" / "example_game").rglob("*.py"),
    ]
    offenders = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            offenders += [
                f"{path.relative_to(root)}: {name}" for name in names if name.startswith(forbidden)
            ]
    assert len(files) > 40
    assert offenders == []
