"""What a game declares about itself for the AI, the terminal and the web: `GameInfo`.

Every `ludoteca.core.game.Game` class carries one `GameInfo` as its ``info`` class attribute,
set in the game's own package. It holds everything the other layers need to know about a game
beyond its rules, so that nothing elsewhere is keyed by a game's id::

    class SaltaGame(KernelGame):
        info = GameInfo(
            rollout_plies=10,
            levels=levels_with({5: LevelSetting("strongest: MCTS 5,000 iterations", "mcts", 5000)}),
            evaluate=heuristics.evaluate,
            view=View.of(view),
            piece_styles=(PieceStyle("green", "#2f8f46", text="#fff"), ...),
        )

A game that declares nothing gets the defaults: the five default levels (MCTS searches that play
random rollouts to the end of the game), no heuristic, no expert, and a text board.
`declaration_problems` lists what is inconsistent in a declaration (an expert level without an
expert, a drawing that uses an undeclared piece style, ...); the registry refuses a class with
such problems and the conformance tests run `check_declaration` on every registered game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final, Literal

if TYPE_CHECKING:
    from ludoteca.core.game import Game
    from ludoteca.core.view import Drawing

LEVELS: Final = (1, 2, 3, 4, 5)
#: The level a game's learned player is offered as, where it is declared stronger than level 5.
NEURAL_LEVEL: Final = 6
Engine = Literal["mcts", "alphabeta", "expert", "neural"]
ExpertValue = Literal["win chance", "progress"]

#: ``evaluate(state) -> returns``: each player's estimated return in [-1, 1] (running positions).
Evaluator = Callable[[Any], tuple[float, ...]]
#: ``expert_move(state) -> (action, value)``: the game's own move at a decision node and its
#: value to the mover in [-1, 1] (see `GameInfo.expert_value`).
ExpertMove = Callable[[Any], tuple[int, float]]
#: ``exact_values(state) -> {action: value}``: the exact value to the mover, in [-1, 1], of each
#: legal action at a decision node, for a solved game (game reviews use it).
ExactValues = Callable[[Any], Mapping[int, float]]
#: ``expert_playouts(state, count, seed) -> wins``: how many of ``count`` games played from
#: ``state`` by the game's expert policy (chance drawn from ``seed``) the first player wins;
#: game reviews estimate winning chances with it where a game has no exact values.
ExpertPlayouts = Callable[[Any, int, int], int]
#: ``search_leaf(cells, *kernel_args, action, max_plies, heuristic) -> (child, player, returns)``:
#: a compiled function (numba) doing a tree search's work at a new leaf in one call: the position
#: after the legal ``action`` (a new array; ``cells`` unchanged), its player to move
#: (``player_to_move``: a player, ``CHANCE_NODE`` or ``GAME_OVER``), and each player's estimated
#: return (float64 array): the returns of the game's end if a random rollout of at most
#: ``max_plies`` plies from the child (numba's generator, not reseeded) ends it, else the
#: heuristic ``evaluate`` of the position reached, or 0 for everyone when ``heuristic`` is false.
#: It must give exactly what ``apply_action``, ``random_rollout`` with ``GOING_ON`` and
#: ``evaluate`` give one after the other (the conformance tests check it); it saves the MCTS
#: their Python calls.
SearchLeaf = Callable[..., tuple[Any, int, Any]]


@dataclass(frozen=True, slots=True)
class LevelSetting:
    """How one level plays.

    Attributes:
        summary: One line for menus and docs.
        engine: ``"mcts"``, ``"alphabeta"``, ``"expert"`` (the game's own expert move) or
            ``"neural"`` (the learned player, only as `NEURAL_LEVEL`).
        budget: MCTS or PUCT iterations, or alpha-beta positions searched, per move (0 for
            the expert).
        blunder: Chance of playing a uniformly random move instead.
    """

    summary: str
    engine: Engine
    budget: int
    blunder: float = 0.0


#: The levels of a game that declares none of its own.
DEFAULT_LEVELS: Final = (
    LevelSetting("beginner: MCTS 50 iterations, a random move one time in four", "mcts", 50, 0.25),
    LevelSetting("casual: MCTS 200 iterations", "mcts", 200),
    LevelSetting("club: MCTS 1,000 iterations", "mcts", 1000),
    LevelSetting("strong: MCTS 3,000 iterations", "mcts", 3000),
    LevelSetting("strongest: MCTS 10,000 iterations", "mcts", 10_000),
)


def levels_with(changes: Mapping[int, LevelSetting]) -> tuple[LevelSetting, ...]:
    """The five levels: `DEFAULT_LEVELS` with the settings in ``changes`` (level -> setting).

    Raises:
        ValueError: A key is not a level 1-5.
    """
    unknown = sorted(set(changes) - set(LEVELS), key=repr)
    if unknown:
        raise ValueError(f"levels are 1, 2, 3, 4 and 5; got {unknown}")
    return tuple(changes.get(level, DEFAULT_LEVELS[level - 1]) for level in LEVELS)


@dataclass(frozen=True, slots=True)
class LearnedPlayer:
    """A learned player a game ships: a policy/value network for `ludoteca.ai.neural`.

    The weights are data in the game's own package; the agent that plays them lives in the AI
    layer and reads them through this declaration.

    Attributes:
        weights: The network's weights file (``.npz``, see `ludoteca.ai.neural.network`).
        iterations: PUCT iterations per move of the ``neural`` agent and of its level.
        level: The setting of level `NEURAL_LEVEL` (engine ``"neural"``, budget the
            iterations), declared only where the learned player was measured stronger than
            level 5; ``None`` offers it as the ``neural`` agent alone.
    """

    weights: Path
    iterations: int
    level: LevelSetting | None = None


@dataclass(frozen=True, slots=True)
class View:
    """What the front ends draw; each function is optional.

    Attributes:
        drawing: ``drawing(state) -> Drawing`` for the web board (see `ludoteca.core.view`);
            without it the page shows ``str(state)`` and moves are typed or chosen from buttons.
        click_paths: ``click_paths(state) -> {move text: region ids}``, how clicks make moves.
        board_text: ``board_text(state, *, marked=frozenset()) -> str``, the terminal board;
            without it the terminal shows ``str(state)``.
        chance_text: ``chance_text(state, move, *, short=False) -> str``, a chance outcome of
            the chance node ``state`` in words (``"rolled 5"``, ``"White starts"``), or short
            for beside a numbered move (``"5"``); see `ludoteca.core.notation.chance_text`.
    """

    drawing: Callable[[Any], Drawing] | None = None
    click_paths: Callable[[Any], Mapping[str, tuple[str, ...]]] | None = None
    board_text: Callable[..., str] | None = None
    chance_text: Callable[..., str] | None = None

    @classmethod
    def of(cls, module: ModuleType) -> View:
        """The view made of a module's drawing, click paths, board text and chance text."""
        return cls(
            drawing=getattr(module, "drawing", None),
            click_paths=getattr(module, "click_paths", None),
            board_text=getattr(module, "board_text", None),
            chance_text=getattr(module, "chance_text", None),
        )


@dataclass(frozen=True, slots=True)
class PieceStyle:
    """The colours of a piece style name (a `ludoteca.core.view.Piece`'s ``style``).

    The web page gets them as the CSS classes ``piece-<name>``.

    Attributes:
        name: The style name the game's drawing uses (lower case letters, digits, ``-``, ``_``).
        fill: The colour of the piece's body (a CSS colour: ``#2f8f46``, ``white``, ``rgb(...)``);
            ring-shaped pieces use it for the ring.
        text: The colour of the text drawn on the piece; empty: the page's default (dark).
    """

    name: str
    fill: str
    text: str = ""


@dataclass(frozen=True, slots=True)
class RegionStyle:
    """The colour of a region style name of the game's own (``region-<name>`` on the page).

    The shared names (``dark``, ``light``, ``point``, ``sacred``, ``hand``, ``home``, ``hole``,
    ``space``) are styled by the page itself; an unknown name gets a neutral colour.

    Attributes:
        name: The style name the game's drawing uses for the region.
        fill: Its colour (a CSS colour).
    """

    name: str
    fill: str


@dataclass(frozen=True, slots=True)
class BenchRow:
    """A configuration of the game that ``ludoteca bench`` measures beside its defaults.

    Attributes:
        options: The game's options for the row (e.g. ``{"scoring": "simplified"}``).
        label: The row's short name in the table (e.g. ``"play phase"``).
        measures: What the row measures, in words, and why it is worth a row of its own.
    """

    options: Mapping[str, Any]
    label: str
    measures: str


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Everything the AI, the terminal and the web need about a game beyond its rules.

    Attributes:
        rollout_plies: Plies of random rollout in the MCTS searches before the heuristic
            ``evaluate`` scores the position; ``None`` plays rollouts to the end of the game.
        levels: The five strength levels, weakest first (see `levels_with`).
        evaluate: The heuristic evaluation for the searches, or ``None``.
        expert: The game's expert move (an exact solution, a planner), or ``None``.
        expert_value: What the expert's value means: ``"win chance"`` (an expected return) or
            ``"progress"`` (how far the game has come; not a chance).
        view: What the front ends draw.
        piece_styles: The colours of every piece style the drawing uses.
        region_styles: The colours of the drawing's own region style names.
        rules: The rules page in Markdown (``ludoteca rules``, the web's rules page); empty:
            ``docs/rules/<id>.md`` for Ludoteca's own games, else the game module's docstring.
        exact_values: Exact move values of a solved game (see `ExactValues`), or ``None``;
            game reviews then report exact winning chances.
        expert_playouts: Playouts of the expert's policy (see `ExpertPlayouts`), or ``None``;
            game reviews of a game without exact values then estimate winning chances by them.
            Games with neither are reviewed by MCTS searches.
        search_leaf: The compiled search leaf (see `SearchLeaf`), or ``None``: the MCTS then
            makes the same calls from Python. Needs ``evaluate``.
        learned: The game's learned player (see `LearnedPlayer`), or ``None``.
        lessons: The game's course of lessons, a TOML file in its own package (see
            `ludoteca.core.lessons`), or ``None``.
        puzzles: The game's puzzle set, a JSON file in its own package (see
            `ludoteca.analysis.puzzles`), or ``None``.
        bench_rows: Configurations ``ludoteca bench`` measures beside the default options
            (see `BenchRow`): options whose figures need a word of their own.
    """

    rollout_plies: int | None = None
    levels: tuple[LevelSetting, ...] = DEFAULT_LEVELS
    evaluate: Evaluator | None = None
    expert: ExpertMove | None = None
    expert_value: ExpertValue = "win chance"
    view: View = field(default_factory=View)
    piece_styles: tuple[PieceStyle, ...] = ()
    region_styles: tuple[RegionStyle, ...] = ()
    rules: str = ""
    exact_values: ExactValues | None = None
    expert_playouts: ExpertPlayouts | None = None
    search_leaf: SearchLeaf | None = None
    learned: LearnedPlayer | None = None
    lessons: Path | None = None
    puzzles: Path | None = None
    bench_rows: tuple[BenchRow, ...] = ()

    @property
    def level_numbers(self) -> tuple[int, ...]:
        """The levels this game offers: 1-5, and `NEURAL_LEVEL` where its learned player is one."""
        if self.learned is not None and self.learned.level is not None:
            return (*LEVELS, NEURAL_LEVEL)
        return LEVELS

    def level(self, level: int) -> LevelSetting:
        """The setting of ``level`` (1-5, or `NEURAL_LEVEL` where the game declares it).

        Raises:
            ValueError: ``level`` is not one of the game's `level_numbers`.
        """
        numbers = self.level_numbers
        if isinstance(level, bool) or level not in numbers:
            accepted = ", ".join(str(n) for n in numbers[:-1]) + f" or {numbers[-1]}"
            raise ValueError(f"level must be {accepted}; got {level!r}")
        if level == NEURAL_LEVEL:
            assert self.learned is not None and self.learned.level is not None
            return self.learned.level
        return self.levels[level - 1]


_STYLE_NAME = re.compile(r"[a-z][a-z0-9_-]*")
# CSS colours without anything that could end a declaration or a rule: ; { } < > and quotes.
_COLOUR = re.compile(
    r"#[0-9a-fA-F]{3,8}|[a-zA-Z]+|(?:rgb|rgba|hsl|hsla)\([0-9.,% /]+\)",
)
_EXPERT_VALUES: Final = ("win chance", "progress")
_ENGINES: Final = ("mcts", "alphabeta", "expert")


def declaration_problems(info: object) -> list[str]:
    """What is wrong with a declaration, checked without building the game (empty when fine)."""
    if not isinstance(info, GameInfo):
        return [f"info must be a ludoteca.core.GameInfo; got {type(info).__name__}"]
    problems: list[str] = []
    rollout = info.rollout_plies
    if rollout is not None and (isinstance(rollout, bool) or not isinstance(rollout, int)):
        problems.append(f"rollout_plies must be a whole number or None; got {rollout!r}")
    elif rollout is not None and rollout < 1:
        problems.append(f"rollout_plies must be at least 1 (None: to the end); got {rollout}")
    elif rollout is not None and info.evaluate is None:
        problems.append(
            f"rollout_plies={rollout} cuts rollouts short, but there is no evaluate to score "
            "where they stop (declare evaluate, or rollout_plies=None)"
        )
    problems.extend(_level_problems(info))
    if info.evaluate is not None and not callable(info.evaluate):
        problems.append("evaluate must be a function of a state")
    if info.expert is not None and not callable(info.expert):
        problems.append("expert must be a function of a state")
    for name in ("exact_values", "expert_playouts", "search_leaf"):
        if getattr(info, name) is not None and not callable(getattr(info, name)):
            problems.append(f"{name} must be a function")
    if info.search_leaf is not None and info.evaluate is None:
        problems.append("search_leaf scores positions with the heuristic: declare evaluate too")
    if info.expert_value not in _EXPERT_VALUES:
        problems.append(
            f"expert_value must be 'win chance' or 'progress'; got {info.expert_value!r}"
        )
    problems.extend(_learned_problems(info.learned))
    problems.extend(_view_problems(info.view))
    problems.extend(_style_problems("piece", info.piece_styles, PieceStyle))
    problems.extend(_style_problems("region", info.region_styles, RegionStyle))
    for name in ("lessons", "puzzles"):
        if getattr(info, name) is not None and not isinstance(getattr(info, name), Path):
            problems.append(
                f"{name} must be a pathlib.Path to its file; got {getattr(info, name)!r}"
            )
    if not isinstance(info.rules, str):
        problems.append("rules must be Markdown text")
    if not isinstance(info.bench_rows, tuple) or not all(
        isinstance(row, BenchRow) and isinstance(row.options, Mapping) for row in info.bench_rows
    ):
        problems.append("bench_rows must be a tuple of BenchRow values")
    return problems


def _level_problems(info: GameInfo) -> list[str]:
    if not isinstance(info.levels, tuple) or len(info.levels) != len(LEVELS):
        return ["levels must be a tuple of five LevelSetting values (see levels_with)"]
    problems = []
    for number, setting in enumerate(info.levels, start=1):
        if not isinstance(setting, LevelSetting):
            problems.append(f"level {number} must be a LevelSetting; got {setting!r}")
            continue
        if setting.engine not in _ENGINES:
            problems.append(
                f"level {number}: engine must be mcts, alphabeta or expert; got {setting.engine!r}"
            )
        elif setting.engine == "expert" and info.expert is None:
            problems.append(f"level {number} plays the expert, but the game declares no expert")
        elif setting.engine == "alphabeta" and info.evaluate is None:
            problems.append(f"level {number} plays alpha-beta, which needs evaluate; none declared")
        elif setting.engine != "expert" and not (
            isinstance(setting.budget, int) and setting.budget >= 1
        ):
            problems.append(f"level {number}: a search needs a budget of at least 1")
        if not (isinstance(setting.blunder, int | float) and 0.0 <= setting.blunder <= 1.0):
            problems.append(f"level {number}: blunder must be from 0 to 1; got {setting.blunder!r}")
    return problems


def _learned_problems(learned: object) -> list[str]:
    if learned is None:
        return []
    if not isinstance(learned, LearnedPlayer):
        return [f"learned must be a ludoteca.core.LearnedPlayer; got {type(learned).__name__}"]
    problems = []
    if not isinstance(learned.weights, Path):
        problems.append(f"learned.weights must be a pathlib.Path; got {learned.weights!r}")
    if isinstance(learned.iterations, bool) or not (
        isinstance(learned.iterations, int) and learned.iterations >= 1
    ):
        problems.append(f"learned.iterations must be at least 1; got {learned.iterations!r}")
    level = learned.level
    if level is not None and not (
        isinstance(level, LevelSetting)
        and level.engine == "neural"
        and level.budget == learned.iterations
    ):
        problems.append(
            f"learned.level must be a LevelSetting with engine 'neural' and budget "
            f"{learned.iterations!r} (the iterations); got {level!r}"
        )
    return problems


def _view_problems(view: object) -> list[str]:
    if not isinstance(view, View):
        return [f"view must be a ludoteca.core.View; got {type(view).__name__}"]
    problems = [
        f"view.{name} must be a function"
        for name in ("drawing", "click_paths", "board_text", "chance_text")
        if getattr(view, name) is not None and not callable(getattr(view, name))
    ]
    if view.click_paths is not None and view.drawing is None:
        problems.append("view.click_paths needs view.drawing: clicks are on the drawn regions")
    return problems


def _style_problems(
    kind: str, styles: object, style_type: type[PieceStyle] | type[RegionStyle]
) -> list[str]:
    if not isinstance(styles, tuple):
        return [f"{kind}_styles must be a tuple of {style_type.__name__} values"]
    problems: list[str] = []
    seen: set[str] = set()
    for style in styles:
        if not isinstance(style, PieceStyle | RegionStyle) or not isinstance(style, style_type):
            problems.append(f"{kind}_styles holds {style!r}, not a {style_type.__name__}")
            continue
        if not isinstance(style.name, str) or not _STYLE_NAME.fullmatch(style.name):
            problems.append(
                f"{kind} style name {style.name!r}: use lower-case letters, digits, - and _"
            )
        elif style.name in seen:
            problems.append(f"{kind} style {style.name!r} is declared twice")
        seen.add(style.name)
        colours = [("fill", style.fill)]
        if isinstance(style, PieceStyle) and style.text:
            colours.append(("text", style.text))
        problems.extend(
            f"{kind} style {style.name!r}: {what} {colour!r} is not a CSS colour "
            "(#rrggbb, a colour name, or rgb(...))"
            for what, colour in colours
            if not isinstance(colour, str) or not _COLOUR.fullmatch(colour)
        )
    return problems


class DeclarationError(AssertionError):
    """A game's declaration is inconsistent; the message lists every problem."""


def check_declaration(game: Game) -> None:
    """Check ``game``'s declaration, and that its drawing uses only declared piece styles.

    Raises:
        DeclarationError: Every problem found, one per line.
    """
    info = getattr(type(game), "info", None)
    problems = declaration_problems(info)
    if not problems and isinstance(info, GameInfo) and info.view.drawing is not None:
        state = game.initial_state()
        drawing = info.view.drawing(state)
        declared = {style.name for style in info.piece_styles}
        used = sorted({piece.style for piece in drawing.pieces if piece.style} - declared)
        if used:
            problems.append(
                f"the drawing uses piece styles {used} that piece_styles does not declare"
            )
        if info.view.click_paths is not None and not state.is_over:
            regions = {region.id for region in drawing.regions}
            for move, path in info.view.click_paths(state).items():
                missing = [region for region in path if region not in regions]
                if missing:
                    problems.append(f"the click path of {move} names unknown regions {missing}")
                    break
    if problems:
        lines = "\n".join(f"- {problem}" for problem in problems)
        raise DeclarationError(f"{type(game).__name__} ({game.id}) declares:\n{lines}")
