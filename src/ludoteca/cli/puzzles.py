"""``ludoteca puzzles``: make a puzzle set from self-play, and solve puzzles in the terminal.

- ``ludoteca puzzles generate GAME --count N --seed S --out FILE --jobs J``: puzzles from
  self-play, proved by the game's solved table where it has one (`ludoteca.analysis.puzzles`),
  otherwise verified by deep searches (`ludoteca.analysis.puzzle_search`, in ``J`` processes),
  with progress on standard error. The same seed gives the same set, whatever ``J``.
- ``ludoteca puzzles noise GAME --positions N``: the deep search's seed noise on sample
  positions, and the acceptance margin it calls for.
- ``ludoteca puzzles play GAME [--file FILE]``: the game's shipped set (``GameInfo.puzzles``)
  or a file: each puzzle's board, your move (or whole turn, its moves separated by commas),
  and why it is right or wrong (its winning chance against the best one's). ``skip`` shows
  the solution and goes on, ``q`` quits.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from ludoteca.analysis.puzzle_generation import generate_set
from ludoteca.analysis.puzzles import PuzzleError, judge, load, load_set, save
from ludoteca.cli.play import ReadLine
from ludoteca.cli.screen import board_text
from ludoteca.core.errors import LudotecaError
from ludoteca.core.registry import make


def add_puzzles_parser(commands: Any) -> None:
    """Add ``ludoteca puzzles`` and its two subcommands."""
    puzzles = commands.add_parser("puzzles", help="puzzles from real games: make a set, or solve")
    actions = puzzles.add_subparsers(title="actions", required=True, metavar="ACTION")
    making = actions.add_parser("generate", help="make a puzzle set by self-play")
    making.add_argument("game", help="game id, e.g. salta")
    making.add_argument("--count", type=int, default=100, help="how many puzzles (default 100)")
    making.add_argument("--seed", type=int, default=1, help="seed of the self-play (default 1)")
    making.add_argument(
        "--out", type=Path, default=None, help="the JSON file (default: GAME-puzzles.json)"
    )
    making.add_argument(
        "--jobs", type=int, default=1, help="processes searching at once (default 1)"
    )
    making.add_argument(
        "--keep",
        action="store_true",
        help="write the file after every game that found puzzles (an interrupted run leaves "
        "the puzzles found so far)",
    )
    making.add_argument(
        "--resume",
        action="store_true",
        help="go on with the set in --out that a run of the same seed left (with --keep), "
        "from the game after its last",
    )
    making.set_defaults(handler=run_generate)
    noise = actions.add_parser("noise", help="measure the deep search's noise (unsolved games)")
    noise.add_argument("game", help="game id, e.g. salta")
    noise.add_argument("--positions", type=int, default=12, help="sample positions (default 12)")
    noise.add_argument("--seed", type=int, default=1000, help="seed of the self-play")
    noise.set_defaults(handler=run_noise)
    playing = actions.add_parser("play", help="solve puzzles in the terminal")
    playing.add_argument("game", help="game id, e.g. pente_grammai")
    playing.add_argument("--file", type=Path, default=None, help="a puzzle set (JSON)")
    playing.add_argument("--start", type=int, default=1, help="the first puzzle's number")
    playing.set_defaults(handler=run_play)


def run_generate(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    """Make the set and write it; report its cost."""
    if arguments.count < 1:
        raise PuzzleError(f"--count must be at least 1; got {arguments.count}")
    if not 1 <= arguments.jobs <= 64:
        raise PuzzleError(f"--jobs must be from 1 to 64; got {arguments.jobs}")
    game = make(arguments.game)
    errors = Console(stderr=True, highlight=False)
    out: Path = arguments.out or Path(f"{game.id}-puzzles.json")
    wall, cpu = time.perf_counter(), _cpu_seconds()

    def progress(found: int, games: int) -> None:
        line = f"{found}/{arguments.count} puzzles · {games} games"
        if errors.is_terminal:  # one line, rewritten
            errors.print(f"\r{line}", end="")
        else:
            errors.print(line)

    resume = None
    if arguments.resume:
        if game.info.exact_values is not None:
            raise PuzzleError(f"{game.name} is solved: its sets are made afresh in seconds")
        resume = load_set(game, out, arguments.seed)
        errors.print(
            f"resuming {escape(str(out))}: {len(resume.puzzles)} puzzles from "
            f"{resume.header['games']} games"
        )
    elif game.info.exact_values is None and game.num_players == 2:
        errors.print("measuring the deep search's noise (sets the margin) ...")
    made = generate_set(
        game,
        arguments.count,
        arguments.seed,
        progress=progress,
        jobs=arguments.jobs,
        keep=(lambda so_far: save(game, arguments.seed, so_far.puzzles, out, so_far.header))
        if arguments.keep
        else None,
        resume=resume,
    )
    puzzles = made.puzzles
    if errors.is_terminal:
        errors.print()
    save(game, arguments.seed, puzzles, out, made.header)
    console.print(
        f"{len(puzzles)} puzzles written to {escape(str(out))} "
        f"({time.perf_counter() - wall:.1f} s, CPU {_cpu_seconds() - cpu:.1f} s)"
    )
    return 0


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished worker processes."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def run_noise(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    """Measure the deep search's noise on sample positions; print the figures and the margin."""
    from ludoteca.analysis.puzzle_search import measure_noise

    if not 2 <= arguments.positions <= 1000:
        raise PuzzleError(f"--positions must be from 2 to 1000; got {arguments.positions}")
    game = make(arguments.game)
    if game.info.exact_values is not None:
        raise PuzzleError(f"{game.name} is solved: its puzzles are exact, without noise")
    noise = measure_noise(game, arguments.positions, arguments.seed)
    figures = noise.summary()
    console.print(
        f"{game.name}: {figures['positions']} positions x {figures['seeds']} seeds; standard "
        f"deviation of the best move's lead: largest {figures['lead_sd_largest']:.4f}, median "
        f"{figures['lead_sd_median']:.4f}; of one move's estimate: median "
        f"{figures['move_sd_median']:.4f}, 95th percentile {figures['move_sd_p95']:.4f}; "
        f"margin called for: {noise.margin():.2f}"
    )
    return 0


def run_play(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    """Pose each puzzle in turn; return 0."""
    game = make(arguments.game)
    path = arguments.file or game.info.puzzles
    if path is None:
        raise PuzzleError(f"{game.name} ships no puzzles; give a set with --file")
    puzzles = load(game, Path(path))
    if not 1 <= arguments.start <= len(puzzles):
        raise PuzzleError(f"--start must be from 1 to {len(puzzles)}; got {arguments.start}")
    console.print(f"[bold]{escape(game.name)} puzzles[/bold] · {len(puzzles)} in the set")
    if any(puzzle.turn for puzzle in puzzles):
        console.print(
            "Find the clearly best whole turn for the roll: type its moves in order, separated "
            "by commas, end included (e.g. SP:e4-e6, end). skip: show the solution · q: quit"
        )
    else:
        console.print("Find the clearly best move. skip: show the solution · q: quit")
    solved = tried = 0
    for number in range(arguments.start, len(puzzles) + 1):
        puzzle = puzzles[number - 1]
        console.print()
        what = "to play the roll" if puzzle.turn else "to move"
        console.print(f"[bold]Puzzle {number}[/bold]: {escape(puzzle.to_move)} {what}.")
        console.print(board_text(game.parse_state(puzzle.position)))
        while True:
            try:
                line = read_line("your turn> " if puzzle.turn else "your move> ").strip()
            except (EOFError, KeyboardInterrupt):
                console.print()
                line = "q"
            if line.lower() in ("q", "quit"):
                console.print(f"Solved {solved} of {tried}.")
                return 0
            if line.lower() == "skip":
                console.print(f"The solution: {escape(puzzle.solution)}.")
                break
            try:
                right, why = judge(game, puzzle, line)
            except LudotecaError as error:
                console.print(f"[red]{escape(str(error))}[/red]")
                continue
            tried += 1
            solved += right
            verdict = "[green]Right![/green]" if right else "[red]Not the best.[/red]"
            console.print(f"{verdict} {escape(why)}")
            break
    console.print(f"Solved {solved} of {tried}.")
    return 0
