"""``ludoteca learn GAME``: a game's course of lessons in the terminal.

Each step shows its rule section, its text and the board; the learner types moves, which the
rules engine checks (`ludoteca.core.lessons.Lesson`). A refused move gets the engine's reason
and the step's hint; a legal move that is not the one asked for is told so. A watch step plays
its sequence one Enter at a time, each move with its sentence. ``hint`` repeats the hint,
``skip`` goes on to the next step, ``q`` quits.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.markup import escape

from ludoteca.cli.play import ReadLine
from ludoteca.cli.screen import board_text
from ludoteca.cli.text import say
from ludoteca.core.lessons import Lesson, Step, course

LEARN_HELP = "Type a move · hint: the hint again · skip: next step · q: quit"


def add_learn_parser(commands: Any) -> None:
    """Add ``ludoteca learn`` to the subcommands."""
    learn = commands.add_parser("learn", help="learn a game step by step: short lessons")
    learn.add_argument("game", help="game id, e.g. salta")
    learn.add_argument(
        "--step", default=None, metavar="ID", help="start at this step (its id, or its number)"
    )
    learn.set_defaults(handler=run_learn)


def run_learn(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    """Play the course step by step; return the exit status (0, or 2 for an unknown step)."""
    lessons = course(arguments.game)
    steps = list(lessons.steps)
    start = _start_index(steps, arguments.step)
    if start is None:
        ids = ", ".join(step.id for step in steps)
        console.print(
            f"[red]ludoteca: no step {escape(str(arguments.step))!s} in this course; "
            f"steps: 1 to {len(steps)}, or one of {escape(ids)}[/red]"
        )
        return 2
    say(console, f"{lessons.title} · {len(steps)} steps", style="bold")
    say(console, LEARN_HELP)
    done = 0
    for number, step in enumerate(steps[start:], start=start + 1):
        console.print()
        say(console, f"Step {number}/{len(steps)}: {step.title} (rule: {step.rule})", style="bold")
        say(console, step.text)
        finished = (
            _watch(step, lessons.game_id, console, read_line)
            if (step.task.kind == "watch")
            else _practise(step, lessons.game_id, console, read_line)
        )
        if finished is None:
            console.print(f"Stopped at step {number}: {done} done.")
            return 0
        done += finished
    console.print()
    console.print(f"[green]Course complete: {done} of {len(steps) - start} steps done.[/green]")
    return 0


def _start_index(steps: list[Step], wanted: str | None) -> int | None:
    if wanted is None:
        return 0
    if wanted.isdigit() and 1 <= int(wanted) <= len(steps):
        return int(wanted) - 1
    return next((i for i, step in enumerate(steps) if step.id == wanted), None)


def _read(read_line: ReadLine, prompt: str, console: Console) -> str | None:
    try:
        return read_line(prompt).strip()
    except (EOFError, KeyboardInterrupt):
        console.print()
        return None


def _watch(step: Step, game_id: str, console: Console, read_line: ReadLine) -> int | None:
    lesson = Lesson.of(game_id, step)
    say(console, board_text(lesson.state))
    (sequence,) = step.task.solutions
    for move, sentence in zip(sequence, step.task.explain, strict=True):
        line = _read(read_line, "Enter: next move · q: quit > ", console)
        if line is None or line.lower() in ("q", "quit"):
            return None
        lesson.answer(move)
        say(console, f"{move}: {sentence}")
        say(console, board_text(lesson.state))
    return 1


def _practise(step: Step, game_id: str, console: Console, read_line: ReadLine) -> int | None:
    lesson = Lesson.of(game_id, step)
    say(console, board_text(lesson.state))
    while True:
        line = _read(read_line, "your move> ", console)
        if line is None or line.lower() in ("q", "quit", "exit"):
            return None
        if line.lower() == "hint":
            say(console, f"Hint: {step.task.hint}")
            continue
        if line.lower() == "skip":
            console.print("Skipped.")
            return 0
        if not line:
            console.print(LEARN_HELP)
            continue
        answer = lesson.answer(line)
        if answer.verdict in ("refused", "not-asked"):
            say(console, answer.message, style="red")
            continue
        if answer.verdict == "done":
            say(console, board_text(lesson.state))
            console.print("[green]Right![/green]")
            return 1
        replies = " ".join(answer.replies)
        say(console, f"Right. Then: {replies or 'nothing'}", style="green")
        say(console, board_text(lesson.state))
