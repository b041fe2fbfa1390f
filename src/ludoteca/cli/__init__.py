"""The ``ludoteca`` command: games, rules, play, replay, review, arena, study, bench, warmup, serve.

Every command reports bad input (an unknown game, option, agent or file) as one clear line on
standard error with exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import warnings
from collections.abc import Sequence

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

from ludoteca import __version__
from ludoteca.cli.arena import add_arena_command, run_arena
from ludoteca.cli.bench import add_bench_parser
from ludoteca.cli.loadtest import add_loadtest_parser
from ludoteca.cli.play import ReadLine
from ludoteca.cli.play_command import add_play_parser, run_play
from ludoteca.cli.replay import run_replay
from ludoteca.cli.review import add_review_command, run_review_command, saved_review
from ludoteca.cli.serve import add_serve_parser
from ludoteca.cli.study import add_study_command, run_study_command
from ludoteca.cli.warmup import add_warmup_parser
from ludoteca.core import records
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game
from ludoteca.core.options import format_option_value, parse_option_assignments
from ludoteca.core.registry import PluginWarning, game_class, game_ids, load_plugins, make
from ludoteca.core.rules_pages import rules_text

USAGE_ERROR = 2
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
    add_review_command(commands, _review)

    add_bench_parser(commands, _option_argument)
    _option_argument(add_arena_command(commands, _arena))
    _option_argument(add_study_command(commands, _study))
    add_serve_parser(commands)
    add_warmup_parser(commands)
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
    try:
        review = saved_review(record, arguments.file)
    except LudotecaError as error:  # a stale or damaged review: the game still replays
        console.print(f"[yellow]Review not shown: {escape(str(error))}[/yellow]")
        review = None
    return run_replay(
        record, console=console, read_line=read_line, all_at_once=arguments.all, review=review
    )


def _review(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    return run_review_command(arguments, console)


def _arena(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    return run_arena(arguments, console, _make_game(arguments.game, arguments.option))


def _study(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    return run_study_command(arguments, console, arguments.argv)
