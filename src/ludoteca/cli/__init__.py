"""The ``ludoteca`` command: games, rules, play, replay, arena, study and bench.

Every command reports bad input (an unknown game, option, agent or file) as one clear line on
standard error with exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import warnings
from collections.abc import Sequence

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

from ludoteca import __version__
from ludoteca.analysis.bench import bench_game, machine_info
from ludoteca.cli.arena import add_arena_command, run_arena
from ludoteca.cli.loadtest import add_loadtest_parser
from ludoteca.cli.play import ReadLine
from ludoteca.cli.play_command import add_play_parser, run_play
from ludoteca.cli.replay import run_replay
from ludoteca.cli.serve import add_serve_parser
from ludoteca.cli.study import add_study_command, run_study_command
from ludoteca.core import records
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game
from ludoteca.core.options import format_option_value, parse_option_assignments
from ludoteca.core.registry import PluginWarning, game_class, game_ids, load_plugins, make
from ludoteca.core.rules_pages import rules_text

USAGE_ERROR = 2
MAX_BENCH_SECONDS = 86_400
PIPE_WIDTH = 120


def main(argv: Sequence[str] | None = None, *, read_line: ReadLine | None = None) -> int:
    """Run the ``ludoteca`` command; return its exit status."""
    parser = _parser()
    arguments = parser.parse_args(argv)
    arguments.argv = list(argv) if argv is not None else None
    # Soft wrap: long messages and move lists stay whole lines, for people and for pipes.
    console = Console(highlight=False, soft_wrap=True)
    if not console.is_terminal:  # a pipe or a file: room for whole tables, not 80 columns
        console = Console(highlight=False, soft_wrap=True, width=PIPE_WIDTH)
    errors = Console(stderr=True, highlight=False, soft_wrap=True)
    reader = read_line or _terminal_reader(console)
    with warnings.catch_warnings():  # shown as one line each, not as Python warnings
        warnings.simplefilter("ignore", PluginWarning)
        for problem in load_plugins():
            errors.print(f"[yellow]ludoteca: warning: {escape(problem)}[/yellow]")
    try:
        status: int = arguments.handler(arguments, console, reader)
        return status
    except LudotecaError as error:
        errors.print(f"[red]ludoteca: {escape(str(error))}[/red]")
        return USAGE_ERROR
    except KeyboardInterrupt:
        errors.print("\nInterrupted.")
        return 130


def _terminal_reader(console: Console) -> ReadLine:
    def read_line(prompt: str) -> str:
        return console.input(escape(prompt))

    return read_line


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ludoteca",
        description="Play and study Salta and other board games in the terminal.",
    )
    parser.add_argument("--version", action="version", version=f"ludoteca {__version__}")
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")

    games = commands.add_parser("games", help="list the games and their options")
    games.set_defaults(handler=_games)

    rules = commands.add_parser("rules", help="show the rules of a game")
    rules.add_argument("game", help="game id, e.g. salta")
    rules.set_defaults(handler=_rules)

    _option_argument(add_play_parser(commands, run_play))

    replay = commands.add_parser("replay", help="step through a saved game")
    replay.add_argument("file", help="a saved game (JSON)")
    replay.add_argument("--all", action="store_true", help="print every position, no prompts")
    replay.set_defaults(handler=_replay)

    bench = commands.add_parser("bench", help="measure the speed of the rules engines")
    bench.add_argument("game", nargs="?", help="one game id (default: every game)")
    bench.add_argument("--seconds", type=float, default=3.0, help="time per game (default 3)")
    bench.add_argument("--seed", type=int, default=0, help="seed of the random playouts")
    bench.add_argument("--json", action="store_true", help="print JSON instead of a table")
    _option_argument(bench)
    bench.set_defaults(handler=_bench)

    _option_argument(add_arena_command(commands, _arena))
    _option_argument(add_study_command(commands, _study))
    add_serve_parser(commands)
    add_loadtest_parser(commands)
    return parser


def _option_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, e.g. --option scoring=simplified (repeatable)",
    )


def _make_game(game_id: str, option_texts: list[str]) -> Game:
    return make(game_id, **parse_option_assignments(option_texts))


# -- commands ------------------------------------------------------------------------------


def _games(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    table = Table(title="Ludoteca games")
    for column in ("id", "name", "players", "options (default)"):
        table.add_column(column)
    for game_id in game_ids():
        cls = game_class(game_id)
        options = ", ".join(
            f"{spec.name}={format_option_value(spec.default)}" for spec in cls.option_specs
        )
        table.add_row(game_id, cls.name, " / ".join(cls.player_names), options)
    console.print(table)
    return 0


def _rules(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    text = rules_text(arguments.game)
    if not console.is_terminal:  # a pipe or a file: the Markdown text as it is
        console.print(text, soft_wrap=True)
        return 0
    os.environ.setdefault("LESS", "-R")  # let less show the colours of the formatted text
    with console.pager(styles=True):
        console.print(Markdown(text), soft_wrap=False)
    return 0


def _replay(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    record = records.load(arguments.file)
    return run_replay(record, console=console, read_line=read_line, all_at_once=arguments.all)


def _arena(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    return run_arena(arguments, console, _make_game(arguments.game, arguments.option))


def _study(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    return run_study_command(arguments, console, arguments.argv)


def _bench(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    if not 0 < arguments.seconds < MAX_BENCH_SECONDS:  # also refuses nan and inf
        raise LudotecaError(
            f"--seconds must be a number of seconds above 0 and below {MAX_BENCH_SECONDS:,}; "
            f"got {arguments.seconds}"
        )
    if arguments.option and arguments.game is None:
        raise LudotecaError("--option needs a game id: options differ between games")
    ids = [arguments.game] if arguments.game else list(game_ids())
    games = [_make_game(game_id, arguments.option) for game_id in ids]
    results = []
    for game in games:
        if not arguments.json:
            console.print(f"Measuring {game.name} for {arguments.seconds:g} s ...")
        results.append(bench_game(game, seconds=arguments.seconds, seed=arguments.seed))
    machine = machine_info()
    if arguments.json:
        payload = {"machine": machine, "results": [r.to_dict() for r in results]}
        console.print_json(json.dumps(payload))
        return 0
    table = Table(title="Random playouts and MCTS, single-threaded")
    columns = ("game", "playouts/s", "plies/s", "plies/game", "moves/state", "MCTS iters/s")
    for column in columns:
        table.add_column(column, justify="right" if column != "game" else "left", no_wrap=True)
    for result in results:
        table.add_row(
            result.game,
            f"{result.playouts_per_second:,.0f}",
            f"{result.plies_per_second:,.0f}",
            f"{result.mean_plies:,.1f}",
            f"{result.mean_legal_moves:,.2f}",
            f"{result.mcts_iterations_per_second:,.0f}",
        )
    console.print(table)
    console.print(
        f"{machine['cpu']} ({machine['cores']} cores) · Python {machine['python']} · "
        f"numpy {machine['numpy']} · numba {machine['numba']} · ludoteca {machine['ludoteca']}"
    )
    return 0
