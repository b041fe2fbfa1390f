"""Lessons: a game's course of short steps, each teaching one section of its rules page.

A game ships its course as data in its own package (a TOML file) and declares it in its
`GameInfo` (``lessons=Path(__file__).with_name("lessons.toml")``), so a plug-in game ships its
own the same way. `course` reads and checks the file against the rules engine:

- every step names a section (a ``##`` or ``###`` heading) of the game's rules page, and every
  section is taught by a step or listed under ``[untaught]`` with the reason;
- every position parses (it is given as position text, or as moves played from the start with
  ``after``), with the step's options;
- every solution is legal move by move (with the scripted ``replies`` in between) and every
  ``wrong`` move is refused by the engine, whose reason the learner is shown.

The file's shape (see docs/learn.md)::

    title = "Learn Salta"
    [untaught]
    "History and credit" = "background: no rule to practise"
    [[step]]
    id = "jump"
    rule = "Moves"
    title = "Jumps are compulsory"
    text = "..."
    position = "..."            # or: after = ["c3-d4", "h8-g7"]
    options = { goal = "ludii" } # optional
    [step.task]
    kind = "move"               # move | any | sequence | watch
    solutions = [["e5xg7"]]
    wrong = [{ move = "a1-b2", says = "jump" }, "c3-d4"]
    hint = "..."
    replies = [["h8-g7"]]       # sequence: scripted answers after each but the last move
    explain = ["...", "..."]    # watch: one sentence per move

`Lesson` checks the learner's answers: `Lesson.answer` says whether a move is right, wrong
(with the engine's refusal and the hint) or legal but not the one asked for.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final, Literal

from ludoteca.core.errors import IllegalMoveError, InvalidMoveError, LudotecaError
from ludoteca.core.game import Game, State
from ludoteca.core.options import OptionValue

Kind = Literal["move", "any", "sequence", "watch"]
KINDS: Final = ("move", "any", "sequence", "watch")
_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
_HEADING = re.compile(r"^(#{2,3})\s+(.+?)\s*#*\s*$")


class LessonError(LudotecaError):
    """A course file that is unreadable or disagrees with the rules engine or the rules page."""


class NoCourseError(LudotecaError):
    """A game that declares no course."""


@dataclass(frozen=True, slots=True)
class WrongMove:
    """A move the step lists as wrong, and the engine's refusal of it at the step's position."""

    move: str
    reason: str


@dataclass(frozen=True, slots=True)
class Task:
    """What a step asks for.

    Attributes:
        kind: ``move`` (one right move), ``any`` (any of several moves), ``sequence`` (several
            moves, with scripted ``replies`` in between) or ``watch`` (a sequence shown, with
            ``explain`` for each move).
        solutions: The accepted answers, each a sequence of the learner's moves (canonical text).
        wrong: Moves the engine refuses here, each with its refusal.
        hint: Shown with every wrong answer.
        replies: For a sequence: the moves played after each of the learner's moves but the
            last (the opponent's answer, dice), one list per learner's move.
        explain: For a watch step: one sentence per move of its sequence.
    """

    kind: Kind
    solutions: tuple[tuple[str, ...], ...]
    wrong: tuple[WrongMove, ...] = ()
    hint: str = ""
    replies: tuple[tuple[str, ...], ...] = ()
    explain: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a course: a position, a few sentences, and a task."""

    id: str
    rule: str
    title: str
    text: str
    position: str
    options: Mapping[str, OptionValue]
    task: Task

    def public(self) -> dict[str, Any]:
        """The step as the API gives it."""
        return {
            "id": self.id,
            "rule": self.rule,
            "title": self.title,
            "text": self.text,
            "position": self.position,
            "options": dict(self.options),
            "task": {
                "kind": self.task.kind,
                "solutions": [list(solution) for solution in self.task.solutions],
                "hint": self.task.hint,
                "replies": [list(reply) for reply in self.task.replies],
                "explain": list(self.task.explain),
                "wrong": [{"move": w.move, "reason": w.reason} for w in self.task.wrong],
            },
        }


@dataclass(frozen=True, slots=True)
class Course:
    """A game's checked course.

    Attributes:
        game_id: The game it teaches.
        title: Its heading.
        steps: The steps, in order.
        untaught: The rules page's sections no step teaches, each with the reason.
        sections: Every section of the rules page (headings of levels 2 and 3), in order.
    """

    game_id: str
    title: str
    steps: tuple[Step, ...]
    untaught: Mapping[str, str] = field(default_factory=dict)
    sections: tuple[str, ...] = ()

    def public(self) -> dict[str, Any]:
        """The course as the API gives it."""
        return {
            "game": self.game_id,
            "title": self.title,
            "steps": [step.public() for step in self.steps],
        }


def rule_sections(markdown: str) -> tuple[str, ...]:
    """The headings of levels 2 and 3 of a rules page, outside code blocks, in order."""
    sections: list[str] = []
    fenced = False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        match = None if fenced else _HEADING.match(line)
        if match:
            sections.append(match.group(2))
    return tuple(sections)


def has_course(game_id: str) -> bool:
    """Whether the game declares a course (raises `UnknownGameError` for an unknown id)."""
    from ludoteca.core.registry import game_class

    return game_class(game_id).info.lessons is not None


def course(game_id: str) -> Course:
    """The game's course, read from the file its `GameInfo` declares and checked (cached).

    Raises:
        UnknownGameError: No such game.
        NoCourseError: The game declares no course.
        LessonError: The file is unreadable or disagrees with the engine or the rules page.
    """
    from ludoteca.core.registry import game_class

    cls = game_class(game_id)
    path = cls.info.lessons
    if path is None:
        raise NoCourseError(f"{cls.name} has no course of lessons yet")
    return _cached_course(cls.id, path)


@cache
def _cached_course(game_id: str, path: Path) -> Course:
    from ludoteca.core.rules_pages import rules_text

    return load_course(game_id, path.read_text(encoding="utf-8"), rules_text(game_id), str(path))


def load_course(game_id: str, text: str, rules: str, source: str = "lessons") -> Course:
    """Read and check a course file's text against the game's engine and rules page.

    Raises:
        LessonError: Every problem found, one per line, naming the step.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LessonError(f"{source} is not valid TOML: {error}") from None
    sections = rule_sections(rules)
    problems: list[str] = []
    steps: list[Step] = []
    seen: set[str] = set()
    raw_steps = data.get("step", [])
    if not isinstance(raw_steps, list) or not raw_steps:
        problems.append("the course has no [[step]] tables")
        raw_steps = []
    for number, raw in enumerate(raw_steps, start=1):
        label = f"step {number} ({raw.get('id', '?')})" if isinstance(raw, dict) else str(number)
        try:
            step = _read_step(game_id, raw, sections)
        except LessonError as error:
            problems.append(f"{label}: {error}")
            continue
        if step.id in seen:
            problems.append(f"{label}: the id {step.id!r} is used twice")
        seen.add(step.id)
        steps.append(step)
    untaught = data.get("untaught", {})
    if not isinstance(untaught, dict) or not all(
        isinstance(reason, str) and reason.strip() for reason in untaught.values()
    ):
        problems.append("[untaught] must map section headings to the reason they are not taught")
        untaught = {}
    for heading in untaught:
        if heading not in sections:
            problems.append(f"[untaught] names {heading!r}, not a section of the rules page")
    taught = {step.rule for step in steps}
    for heading in taught & set(untaught):
        problems.append(f"{heading!r} is both taught and listed under [untaught]")
    for heading in sections:
        if heading not in taught and heading not in untaught:
            problems.append(f"no step teaches the section {heading!r} (nor is it under [untaught])")
    if problems:
        lines = "\n".join(f"- {problem}" for problem in problems)
        raise LessonError(f"the course in {source} has problems:\n{lines}")
    title = data.get("title", f"Learn {game_id}")
    return Course(game_id, str(title), tuple(steps), dict(untaught), sections)


def _text(raw: Mapping[str, Any], key: str, *, required: bool = True) -> str:
    value = raw.get(key, "")
    if not isinstance(value, str) or (required and not value.strip()):
        raise LessonError(f"{key} must be non-empty text; got {value!r}")
    return " ".join(value.split()) if key != "position" else value.strip()


def _moves(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(move, str) for move in value):
        raise LessonError(f"{what} must be a list of move texts; got {value!r}")
    return tuple(value)


def _read_step(game_id: str, raw: object, sections: Sequence[str]) -> Step:
    from ludoteca.core.registry import make

    if not isinstance(raw, dict):
        raise LessonError("a step must be a table")
    step_id = _text(raw, "id")
    if not _ID.fullmatch(step_id):
        raise LessonError(f"id must be lower-case letters, digits and -; got {step_id!r}")
    rule = _text(raw, "rule")
    if rule not in sections:
        raise LessonError(f"rule {rule!r} is not a section of the rules page")
    options = raw.get("options", {})
    if not isinstance(options, dict):
        raise LessonError(f"options must be a table; got {options!r}")
    try:
        game = make(game_id, **options)
    except LudotecaError as error:
        raise LessonError(f"options: {error}") from None
    start = _start(game, raw)
    task = _read_task(raw.get("task"), start)
    return Step(
        id=step_id,
        rule=rule,
        title=_text(raw, "title"),
        text=_text(raw, "text"),
        position=start.to_text(),
        options=dict(game.options),
        task=task,
    )


def _start(game: Game, raw: Mapping[str, Any]) -> State:
    position = raw.get("position")
    after = raw.get("after")
    if position is None and after is None:
        raise LessonError("give a position (position text) or after (moves from the start)")
    state: State | None = None
    if position is not None:
        if not isinstance(position, str):
            raise LessonError(f"position must be position text; got {position!r}")
        try:
            state = game.parse_state(position.strip())
        except LudotecaError as error:
            raise LessonError(f"position does not parse: {error}") from None
    if after is not None:
        reached = _play(game.initial_state(), _moves(after, "after"), "after")
        if state is not None and reached != state:
            raise LessonError(f"position and after disagree: after reaches {reached.to_text()!r}")
        state = reached
    assert state is not None
    return state


def _play(state: State, moves: Sequence[str], what: str) -> State:
    for number, move in enumerate(moves, start=1):
        try:
            state = state.apply(move)
        except LudotecaError as error:
            raise LessonError(f"{what}: move {number}, {move!r}, is refused: {error}") from None
    return state


def _read_task(raw: object, start: State) -> Task:
    if not isinstance(raw, dict):
        raise LessonError("every step needs a [step.task] table")
    kind = raw.get("kind")
    if kind not in KINDS:
        raise LessonError(f"task.kind must be one of {', '.join(KINDS)}; got {kind!r}")
    solutions_raw = raw.get("solutions")
    if not isinstance(solutions_raw, list) or not solutions_raw:
        raise LessonError("task.solutions must be a non-empty list of move lists")
    solutions = tuple(_moves(solution, "each solution") for solution in solutions_raw)
    replies = tuple(_moves(reply, "each reply") for reply in raw.get("replies", []))
    explain = tuple(" ".join(str(line).split()) for line in raw.get("explain", []))
    hint = raw.get("hint", "")
    if not isinstance(hint, str) or (kind != "watch" and not hint.strip()):
        raise LessonError("task.hint must be text (every step but a watch step needs one)")
    if kind in ("move", "any") and any(len(solution) != 1 for solution in solutions):
        raise LessonError(f"a {kind} task's solutions are single moves")
    if kind == "move" and len(solutions) != 1:
        raise LessonError("a move task has exactly one solution (use kind any for several)")
    if kind == "watch" and (len(solutions) != 1 or len(explain) != len(solutions[0])):
        raise LessonError("a watch task has one solution and one explain sentence per move")
    if kind != "watch" and (start.to_move is None or start.to_move < 0):
        raise LessonError("the position must wait for a player's move (not a chance node)")
    canonical: list[tuple[str, ...]] = []
    for solution in solutions:
        if kind != "sequence" and replies:
            raise LessonError("only a sequence task has replies")
        if kind == "sequence" and len(replies) != len(solution) - 1:
            raise LessonError("a sequence needs one list of replies between each two moves")
        canonical.append(_check_solution(start, solution, replies))
    wrong = tuple(_check_wrong(start, entry) for entry in raw.get("wrong", []))
    if kind != "watch" and not wrong:
        raise LessonError("list at least one wrong move the engine refuses (task.wrong)")
    return Task(kind, tuple(canonical), wrong, " ".join(hint.split()), replies, explain)


def _check_solution(
    start: State, solution: Sequence[str], replies: Sequence[Sequence[str]]
) -> tuple[str, ...]:
    state = start
    texts: list[str] = []
    for number, move in enumerate(solution):
        try:
            parsed = state.parse_move(move)
        except LudotecaError as error:
            raise LessonError(f"solution move {move!r} is refused: {error}") from None
        texts.append(parsed.text)
        state = state.apply(parsed)
        if number < len(replies):
            state = _play(state, replies[number], "replies")
    return tuple(texts)


def _check_wrong(start: State, entry: object) -> WrongMove:
    if isinstance(entry, str):
        move, says = entry, ""
    elif isinstance(entry, dict) and isinstance(entry.get("move"), str):
        move, says = entry["move"], str(entry.get("says", ""))
    else:
        raise LessonError(f"a wrong move is move text or {{move, says}}; got {entry!r}")
    try:
        start.parse_move(move)
    except (IllegalMoveError, InvalidMoveError) as error:
        reason = str(error)
    else:
        raise LessonError(f"wrong move {move!r} is legal here; the engine does not refuse it")
    if says and says.lower() not in reason.lower():
        raise LessonError(f"wrong move {move!r} is refused, but not with {says!r}: {reason}")
    return WrongMove(move, reason)


# -- playing a step -----------------------------------------------------------------------

Verdict = Literal["right", "done", "refused", "not-asked"]


@dataclass(frozen=True, slots=True)
class Answer:
    """What the lesson says about one move.

    Attributes:
        verdict: ``right`` (go on with the sequence), ``done`` (the step is complete),
            ``refused`` (the engine refuses the move) or ``not-asked`` (legal, but not what the
            step asks).
        message: The engine's refusal, or why the move is not the one asked for, with the hint.
        replies: The scripted moves played after a right move.
    """

    verdict: Verdict
    message: str = ""
    replies: tuple[str, ...] = ()


class Lesson:
    """A learner working through one step: the position so far and the moves made."""

    def __init__(self, game: Game, step: Step) -> None:
        self.step = step
        self.game = game
        self.state: State = game.parse_state(step.position)
        self.made: list[str] = []

    @classmethod
    def of(cls, game_id: str, step: Step) -> Lesson:
        """A lesson on ``step`` of ``game_id``'s course."""
        from ludoteca.core.registry import make

        return cls(make(game_id, **step.options), step)

    def answer(self, text: str) -> Answer:
        """Check the learner's next move; a right move is played (with the scripted replies)."""
        hint = self.step.task.hint
        try:
            move = self.state.parse_move(text)
        except LudotecaError as error:
            return Answer("refused", f"{error}. Hint: {hint}")
        made = [*self.made, move.text]
        matching = [s for s in self.step.task.solutions if list(s[: len(made)]) == made]
        if not matching:
            return Answer(
                "not-asked", f"{move.text} is legal, but not what this step asks. Hint: {hint}"
            )
        self.state = self.state.apply(move)
        self.made = made
        if any(len(solution) == len(made) for solution in matching):
            return Answer("done")
        replies = self.step.task.replies[len(made) - 1] if self.step.task.replies else ()
        for reply in replies:
            self.state = self.state.apply(reply)
        return Answer("right", replies=tuple(replies))
