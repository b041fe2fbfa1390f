"""Puzzles: positions from real games where one move is clearly best.

A puzzle is a decision (the die rolled, where the game has dice) met in the engine's self-play
where the best move's winning chance exceeds every other legal move's by at least `MARGIN`
(ten points), by the game's exact move values (`GameInfo.exact_values`). A two-player game
without exact values gets puzzles verified by deep searches instead
(`ludoteca.analysis.puzzle_search`): their chances are estimates, recorded with intervals
(``estimate``, ``intervals``), and are worded as estimates. A solitaire's puzzle is a whole turn
(`ludoteca.analysis.puzzle_turns`). Generation is `ludoteca.analysis.puzzle_generation`.


A set is a JSON file: ``{"game", "options", "seed", "margin", "puzzles": [{"id", "position",
"to_move", "solution", "chances": {move: chance}, "margin", "source"}]}`` (an estimated set also
has ``"method"``, the searches and their measured noise, and each puzzle ``"estimate"``,
``"intervals"``, ``"reply"`` and ``"reply_chance"``); a game ships its set in its own package
and declares it as `GameInfo.puzzles`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game, State
from ludoteca.core.outcome import CHANCE

#: The least lead, in winning chance, of the best move over every other move.
MARGIN: Final = 0.10
#: Values of the solved tables are exact to about 1e-9: a puzzle's lead must clear the margin
#: by more than that, so that no rounding can make it one.
SLACK: Final = 1e-6


class PuzzleError(LudotecaError):
    """A game without exact values, or a puzzle file that is unreadable or wrong."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle.

    Attributes:
        id: ``<game>-<number>``.
        position: The position text (a decision node).
        to_move: The name of the player to move.
        solution: The one clearly best move.
        chances: Each legal move's exact winning chance for the mover (a draw counts half).
        margin: The best move's lead over the second best, in winning chance.
        source: Where it was met: the self-play game and ply.
        estimate: ``None`` where ``chances`` are exact; otherwise how they were estimated
            (``ludoteca.analysis.puzzle_search``), and ``chances`` are estimates.
        intervals: With estimates, each move's half-width (``0`` where the value is exact,
            e.g. a move that wins at once).
        reply: With estimates, the opponent's expected reply after the solution (``None`` when
            no decision follows at once).
        reply_chance: The replier's estimated winning chance after that reply.
        turn: The puzzle asks for a whole turn (a solitaire's step after a roll,
            `ludoteca.analysis.puzzle_turns`): ``solution`` and the keys of ``chances`` are
            turns, their moves separated by ``", "``.
    """

    id: str
    position: str
    to_move: str
    solution: str
    chances: Mapping[str, float]
    margin: float
    source: str
    estimate: str | None = None
    intervals: Mapping[str, float] | None = None
    reply: str | None = None
    reply_chance: float | None = None
    turn: bool = False

    @property
    def solution_moves(self) -> list[str]:
        """The solution as a list of moves (one move, or a whole turn's)."""
        if not self.turn:
            return [self.solution]
        from ludoteca.analysis.puzzle_turns import split_turn

        return split_turn(self.solution)


def move_chances(state: State) -> dict[str, float]:
    """Each legal move's exact winning chance for the player to move (a draw counts half).

    Raises:
        PuzzleError: The game has no exact values.
    """
    exact = state.game.info.exact_values
    if exact is None:
        raise PuzzleError(
            f"{state.game.name} is not solved: puzzles are made only for games with exact "
            "move values so far"
        )
    values = exact(state)
    return {state.move_from_index(a).text: (v + 1.0) / 2.0 for a, v in values.items()}


def clear_best(chances: Mapping[str, float]) -> tuple[str, float] | None:
    """The best move and its lead when it leads every other by `MARGIN` (with `SLACK`)."""
    if len(chances) < 2:
        return None
    ranked = sorted(chances.items(), key=lambda item: (-item[1], item[0]))
    lead = ranked[0][1] - ranked[1][1]
    return (ranked[0][0], lead) if lead >= MARGIN + SLACK else None


@dataclass(frozen=True, slots=True)
class PuzzleSet:
    """Puzzles with what their file records besides them (the search and its noise)."""

    puzzles: list[Puzzle]
    header: dict[str, Any]


def save(
    game: Game,
    seed: int,
    puzzles: list[Puzzle],
    path: Path,
    header: Mapping[str, Any] | None = None,
) -> None:
    """Write a puzzle set as JSON (``header``: the search and its noise, from `generate_set`)."""
    data: dict[str, Any] = {
        "game": game.id,
        "options": dict(game.options),
        "seed": seed,
        "margin": MARGIN,
    }
    data |= header or {}
    data["puzzles"] = [_entry(puzzle) for puzzle in puzzles]
    try:
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        raise PuzzleError(f"cannot write {path}: {error.strerror or error}") from None


def _entry(puzzle: Puzzle) -> dict[str, Any]:
    entry = asdict(puzzle)
    if not puzzle.turn:
        del entry["turn"]
    else:
        del entry["reply"], entry["reply_chance"]
    if puzzle.estimate is None:
        for name in ("estimate", "intervals", "reply", "reply_chance"):
            del entry[name]
    return entry


def load(game: Game, path: Path) -> list[Puzzle]:
    """Read a puzzle set written by `save` for ``game`` (its positions are parsed).

    Raises:
        PuzzleError: The file is unreadable or not a puzzle set of this game.
    """
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
        if data["game"] != game.id:
            raise PuzzleError(f"{path} holds puzzles of {data['game']!r}, not {game.id!r}")
        puzzles = [Puzzle(**entry) for entry in data["puzzles"]]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise PuzzleError(f"{path} is not a readable puzzle set: {error}") from None
    for puzzle in puzzles:
        try:
            game.parse_state(puzzle.position)
        except LudotecaError as error:
            raise PuzzleError(f"puzzle {puzzle.id}: {error}") from None
    return puzzles


def load_set(game: Game, path: Path, seed: int) -> PuzzleSet:
    """An estimated set of ``seed`` written by `save` (or by ``keep``), to resume it.

    Its header gets ``games``, the self-play games that gave its puzzles: as recorded, or for a
    file that does not record it, the game of its last puzzle (a later game that found nothing
    is played again, to the same effect).

    Raises:
        PuzzleError: The file is unreadable, or not an estimated set of this game, seed and
            options.
    """
    puzzles = load(game, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("seed") != seed or data.get("options") != json.loads(json.dumps(game.options)):
        raise PuzzleError(
            f"{path} was made with seed {data.get('seed')} and options {data.get('options')}; "
            f"resuming needs seed {seed} and options {dict(game.options)}"
        )
    if data.get("method", {}).get("kind") != "estimate":
        raise PuzzleError(f"{path} is not an estimated set: only those are resumed")
    header = {k: v for k, v in data.items() if k not in ("game", "options", "seed", "puzzles")}
    if "games" not in header:
        header["games"] = max((_game_of(puzzle) for puzzle in puzzles), default=0)
    return PuzzleSet(puzzles, header)


def _game_of(puzzle: Puzzle) -> int:
    match = re.search(r"\bgame (\d+),", puzzle.source)
    if match is None:
        raise PuzzleError(f"{puzzle.id}: its source does not name its game: {puzzle.source!r}")
    return int(match.group(1))


def check(game: Game, puzzle: Puzzle) -> list[str]:
    """What is wrong with a puzzle (empty when it holds).

    A solved game's puzzle is checked against the exact values now; an estimated one against
    its own record: its moves are the position's legal moves, and the solution leads every
    other estimate by the set's margin (the deep searches are not run again).
    """
    state = game.parse_state(puzzle.position)
    if puzzle.turn:
        return _check_turn(state, puzzle)
    if puzzle.estimate is not None:
        return _check_estimate(state, puzzle)
    chances = move_chances(state)
    found = clear_best(chances)
    problems = []
    if found is None or found[0] != puzzle.solution:
        problems.append(f"{puzzle.id}: {puzzle.solution} is not the clearly best move")
    elif abs(found[1] - puzzle.margin) > SLACK:
        problems.append(f"{puzzle.id}: the lead is {found[1]:.6f}, the file says {puzzle.margin}")
    return problems


def _check_estimate(state: State, puzzle: Puzzle) -> list[str]:
    from ludoteca.analysis.puzzle_search import MIN_MARGIN

    legal = {move.text for move in state.legal_moves()}
    problems = []
    if set(puzzle.chances) != legal:
        problems.append(f"{puzzle.id}: the estimates are not of the legal moves")
    if puzzle.intervals is None or set(puzzle.intervals) != set(puzzle.chances):
        problems.append(f"{puzzle.id}: every estimate needs its interval")
    if puzzle.solution not in legal:
        problems.append(f"{puzzle.id}: {puzzle.solution} is not legal there")
        return problems
    best = puzzle.chances[puzzle.solution]
    others = [c for m, c in puzzle.chances.items() if m != puzzle.solution]
    if puzzle.margin < MIN_MARGIN or any(best - c < puzzle.margin - 1e-4 for c in others):
        problems.append(f"{puzzle.id}: {puzzle.solution} does not lead by the margin")
    return problems


def _check_turn(state: State, puzzle: Puzzle) -> list[str]:
    from ludoteca.analysis.puzzle_turns import MIN_MARGIN, TurnError, play_turn, split_turn, turns

    outcomes = turns(state)
    if outcomes is None:
        return [f"{puzzle.id}: the turns of its position are too many to list"]
    problems = []
    if {text for text, _ in outcomes.values()} != set(puzzle.chances):
        problems.append(f"{puzzle.id}: the estimates are not of the turns the roll allows")
    if puzzle.intervals is None or set(puzzle.intervals) != set(puzzle.chances):
        problems.append(f"{puzzle.id}: every estimate needs its interval")
    try:
        play_turn(state, split_turn(puzzle.solution))
    except TurnError as error:
        return [*problems, f"{puzzle.id}: its solution is not a turn there: {error}"]
    best = puzzle.chances.get(puzzle.solution, -1.0)
    others = [c for m, c in puzzle.chances.items() if m != puzzle.solution]
    if puzzle.margin < MIN_MARGIN or any(best - c < puzzle.margin - 1e-4 for c in others):
        problems.append(f"{puzzle.id}: {puzzle.solution} does not lead by the margin")
    return problems


def _judge_turn(game: Game, puzzle: Puzzle, moves: list[str]) -> tuple[bool, str]:
    """A whole turn against a turn puzzle: judged by the position it leaves."""
    from ludoteca.analysis.puzzle_turns import play_turn, split_turn, turn_text

    state = game.parse_state(puzzle.position)
    played, after = play_turn(state, moves)  # raises TurnError (a LudotecaError) with why
    left = after.to_text()
    recorded = next(
        (t for t in puzzle.chances if play_turn(state, split_turn(t))[1].to_text() == left), None
    )
    if recorded is None:  # the set lists every turn; a stale set must not crash the judge
        raise PuzzleError(f"{puzzle.id}: the turn {turn_text(played)} is not in the set")
    source = f"(the engine's estimates: {puzzle.estimate})"
    if recorded == puzzle.solution:
        others = [t for t in puzzle.chances if t != puzzle.solution]
        second = max(others, key=lambda t: (puzzle.chances[t], t))
        return True, (
            f"{turn_text(played)} leaves a position that wins {_said(puzzle, recorded)}; the "
            f"next best turn, {second}, {_said(puzzle, second)} {source}."
        )
    return False, (
        f"{turn_text(played)} leaves a position that wins {_said(puzzle, recorded)}; "
        f"{puzzle.solution} wins {_said(puzzle, puzzle.solution)} {source}."
    )


def turn_played(game: Game, puzzle: Puzzle, moves: list[str]) -> str:
    """The recorded turn that ``moves`` amount to (the same position left), for answers.

    Raises:
        LudotecaError: The moves are not a whole turn there.
    """
    from ludoteca.analysis.puzzle_turns import play_turn, split_turn

    state = game.parse_state(puzzle.position)
    left = play_turn(state, moves)[1].to_text()
    for turn in puzzle.chances:
        if play_turn(state, split_turn(turn))[1].to_text() == left:
            return turn
    raise PuzzleError(f"{puzzle.id}: that turn is not in the set")


def percent(chance: float, interval: float | None = None) -> str:
    """A chance in words: exact, an estimate, or exact among estimates.

    ``71.0%`` without an interval; ``about 71 % ± 3`` with one; ``exactly 100 %`` with an
    interval of 0 (a move that wins at once).
    """
    if interval is None:
        return f"{chance:.1%}"
    if interval == 0:
        return f"exactly {chance * 100:.0f} %"
    return f"about {chance * 100:.0f} % ± {max(1, round(interval * 100))}"


def _said(puzzle: Puzzle, move: str) -> str:
    interval = None if puzzle.intervals is None else puzzle.intervals[move]
    return percent(puzzle.chances[move], interval)


def judge(game: Game, puzzle: Puzzle, move: str | list[str]) -> tuple[bool, str]:
    """Whether ``move`` solves the puzzle, and why: its chance against the best move's.

    Exact chances are stated as such; estimates as estimates, with their interval and the
    search that made them.

    A whole-turn puzzle takes the turn's moves, separated by commas (or a list of them).

    Raises:
        LudotecaError: The move is not legal there (the engine's reason), or the moves are
            not a whole turn.
    """
    if puzzle.turn:
        from ludoteca.analysis.puzzle_turns import split_turn

        return _judge_turn(game, puzzle, split_turn(move) if isinstance(move, str) else move)
    assert isinstance(move, str)
    state = game.parse_state(puzzle.position)
    text = state.parse_move(move).text
    best = puzzle.chances[puzzle.solution]
    played = puzzle.chances[text]
    if puzzle.estimate is not None:
        source = f"(the engine's estimates: {puzzle.estimate})"
        others = [m for m in puzzle.chances if m != puzzle.solution]
        second = max(others, key=lambda m: (puzzle.chances[m], m))
        if text == puzzle.solution:
            return True, (
                f"{text} wins {_said(puzzle, text)}; the next best move, {second}, "
                f"{_said(puzzle, second)} {source}."
            )
        return False, (
            f"{text} wins {_said(puzzle, text)}; {puzzle.solution} wins "
            f"{_said(puzzle, puzzle.solution)} {source}."
        )
    if text == puzzle.solution:
        return True, (
            f"{text} wins {best:.1%} of the time with best play; the next best move "
            f"{best - puzzle.margin:.1%}."
        )
    return False, (
        f"{text} wins {played:.1%} of the time with best play; {puzzle.solution} wins {best:.1%}."
    )


@dataclass(frozen=True, slots=True)
class Reply:
    """The opponent's best reply after a move, by the exact values (`engine_line`).

    Attributes:
        roll: The chance outcome before the reply (``d4``), or ``None`` where none comes first.
        probability: The chance of that outcome (1 without one).
        player: The name of the player who replies.
        move: The best reply, or ``None`` when the game is over after the roll.
        chance: The replying player's exact winning chance after the best reply.
    """

    roll: str | None
    probability: float
    player: str
    move: str | None
    chance: float


def engine_line(game: Game, puzzle: Puzzle, move: str | None = None) -> list[Reply]:
    """The engine's line after ``move`` (default: the solution): each roll's best reply.

    After the move the opponent rolls (where the game has dice); for every outcome the line
    gives the exact best reply and the replier's winning chance. Empty when the move ends the
    game.

    Raises:
        LudotecaError: The move is not legal in the puzzle's position.
    """
    if puzzle.turn:  # a solitaire: the solution is the whole line
        return []
    state = game.parse_state(puzzle.position).apply(move or puzzle.solution)
    if state.is_over:
        return []
    if puzzle.estimate is not None:  # the reply found by search when the set was made
        played = state.game.parse_state(puzzle.position).parse_move(move).text if move else None
        if played not in (None, puzzle.solution):
            return []
        if puzzle.reply is None or state.to_move is None or state.to_move == CHANCE:
            return []
        return [
            Reply(
                roll=None,
                probability=1.0,
                player=game.player_names[state.to_move],
                move=puzzle.reply,
                chance=puzzle.reply_chance if puzzle.reply_chance is not None else float("nan"),
            )
        ]
    branches = state.chance_outcomes() if state.to_move == CHANCE else ((None, 1.0),)
    line = []
    for outcome, probability in branches:
        after = state if outcome is None else state.apply(outcome)
        roll = None if outcome is None else outcome.text
        if after.is_over or after.to_move is None or after.to_move == CHANCE:
            continue
        chances = move_chances(after)
        best = max(chances, key=lambda m: (chances[m], m))
        line.append(
            Reply(
                roll=roll,
                probability=probability,
                player=game.player_names[after.to_move],
                move=best,
                chance=chances[best],
            )
        )
    return line
