"""The ``ludoteca`` command: games, rules, play, learn, replay, review, analyse, arena, study, ...

Every command reports bad input (an unknown game, option, agent or file) as one clear line on
standard error with exit status 2, never a traceback.

A command's module is imported only when that command runs (`COMMANDS`): ``ludoteca --version``
and ``ludoteca --help`` import neither numba nor the web stack.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ludoteca import __version__
from ludoteca.core.errors import LudotecaError
from ludoteca.core.registry import PluginWarning, load_plugins

if TYPE_CHECKING:
    from rich.console import Console

    from ludoteca.cli.play import ReadLine
    from ludoteca.core.game import Game

USAGE_ERROR = 2
PIPE_WIDTH = 120
#: Commands whose every line is wrapped to the terminal's width, even in a pipe.
SESSION_COMMANDS = ("play", "replay", "analyse", "learn", "puzzles")


@dataclass(frozen=True, slots=True)
class Command:
    """A subcommand as ``ludoteca --help`` lists it, and how to build its whole parser.

    Attributes:
        help: The line ``ludoteca --help`` shows (the same as the parser's own).
        add: Adds the command's parser, with every argument and its handler, to the
            subcommands; it imports the command's module, so it runs only for that command.
    """

    help: str
    add: Callable[[Any], None]


def main(argv: Sequence[str] | None = None, *, read_line: ReadLine | None = None) -> int:
    """Run the ``ludoteca`` command; return its exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    parser = _parser(_command_in(words))
    arguments = parser.parse_args(words)
    arguments.argv = list(argv) if argv is not None else None
    # Imported once parsed: --version and --help have answered and exited by now.
    from rich.console import Console
    from rich.markup import escape

    # Soft wrap: long messages and move lists stay whole lines, for people and for pipes.
    console = Console(highlight=False, soft_wrap=True)
    if not console.is_terminal:
        # A pipe or a file: room for whole tables; the sessions of play, replay and analyse
        # keep to the terminal's width ($COLUMNS, else 80), as they would on the screen.
        from ludoteca.cli.text import terminal_width

        session = _command_in(words) in SESSION_COMMANDS
        width = terminal_width() if session else PIPE_WIDTH
        console = Console(highlight=False, soft_wrap=True, width=width)
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
    from rich.markup import escape

    def read_line(prompt: str) -> str:
        return console.input(escape(prompt))

    return read_line


def _command_in(words: Sequence[str]) -> str | None:
    """The subcommand the words name: the first that is not an option, if it is a command."""
    for word in words:
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser, complete for ``command``; the other commands only listed (see `COMMANDS`)."""
    parser = argparse.ArgumentParser(
        prog="ludoteca",
        description="Play and study Salta and other board games in the terminal.",
    )
    parser.add_argument("--version", action="version", version=f"ludoteca {__version__}")
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    for name, entry in COMMANDS.items():
        if name == command:
            entry.add(commands)
        else:
            commands.add_parser(name, help=entry.help)
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
    from ludoteca.core.options import parse_option_assignments
    from ludoteca.core.registry import make

    return make(game_id, **parse_option_assignments(option_texts))


# -- commands ------------------------------------------------------------------------------


def _add_games(commands: Any) -> None:
    games = commands.add_parser("games", help=COMMANDS["games"].help)
    games.set_defaults(handler=_games)


def _games(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    from rich.table import Table

    from ludoteca.core.options import format_option_value
    from ludoteca.core.registry import game_class, game_ids

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


def _add_rules(commands: Any) -> None:
    rules = commands.add_parser("rules", help=COMMANDS["rules"].help)
    rules.add_argument("game", help="game id, e.g. salta")
    rules.set_defaults(handler=_rules)


def _rules(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    from rich.markdown import Markdown

    from ludoteca.core.rules_pages import rules_text

    text = rules_text(arguments.game)
    if not console.is_terminal:  # a pipe or a file: the Markdown text as it is
        console.print(text, soft_wrap=True)
        return 0
    os.environ.setdefault("LESS", "-R")  # let less show the colours of the formatted text
    with console.pager(styles=True):
        console.print(Markdown(text), soft_wrap=False)
    return 0


def _add_play(commands: Any) -> None:
    from ludoteca.cli.play_command import add_play_parser, run_play

    _option_argument(add_play_parser(commands, run_play))


def _add_learn(commands: Any) -> None:
    from ludoteca.cli.learn import add_learn_parser

    add_learn_parser(commands)


def _add_puzzles(commands: Any) -> None:
    from ludoteca.cli.puzzles import add_puzzles_parser

    add_puzzles_parser(commands)


def _add_replay(commands: Any) -> None:
    replay = commands.add_parser("replay", help=COMMANDS["replay"].help)
    replay.add_argument("file", help="a saved game (JSON)")
    replay.add_argument("--all", action="store_true", help="print every position, no prompts")
    replay.set_defaults(handler=_replay)


def _replay(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    from rich.markup import escape

    from ludoteca.cli.replay import run_replay
    from ludoteca.cli.review import saved_review
    from ludoteca.core import records

    record = records.load(arguments.file)
    try:
        review = saved_review(record, arguments.file)
    except LudotecaError as error:  # a stale or damaged review: the game still replays
        console.print(f"[yellow]Review not shown: {escape(str(error))}[/yellow]")
        review = None
    return run_replay(
        record, console=console, read_line=read_line, all_at_once=arguments.all, review=review
    )


def _add_review(commands: Any) -> None:
    from ludoteca.cli.review import add_review_command, run_review_command

    def review(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
        return run_review_command(arguments, console)

    add_review_command(commands, review)


def _add_analyse(commands: Any) -> None:
    from ludoteca.cli.analyse import add_analyse_parser

    add_analyse_parser(commands, _option_argument)


def _add_bench(commands: Any) -> None:
    from ludoteca.cli.bench import add_bench_parser

    add_bench_parser(commands, _option_argument)


def _add_arena(commands: Any) -> None:
    from ludoteca.cli.arena import add_arena_command, run_arena

    def arena(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
        return run_arena(arguments, console, _make_game(arguments.game, arguments.option))

    _option_argument(add_arena_command(commands, arena))


def _add_study(commands: Any) -> None:
    from ludoteca.cli.study import add_study_command, run_study_command

    def study(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
        return run_study_command(arguments, console, arguments.argv)

    _option_argument(add_study_command(commands, study))


def _add_serve(commands: Any) -> None:
    from ludoteca.cli.serve import add_serve_parser

    add_serve_parser(commands)


def _add_warmup(commands: Any) -> None:
    from ludoteca.cli.warmup import add_warmup_parser

    add_warmup_parser(commands)


def _add_loadtest(commands: Any) -> None:
    from ludoteca.cli.loadtest import add_loadtest_parser

    add_loadtest_parser(commands)


#: Every subcommand, in the order ``ludoteca --help`` lists them. The help lines are the ones
#: each command's own parser gives (a test compares them).
COMMANDS: dict[str, Command] = {
    "games": Command("list the games and their options", _add_games),
    "rules": Command("show the rules of a game", _add_rules),
    "play": Command("play a game in the terminal", _add_play),
    "replay": Command("step through a saved game", _add_replay),
    "learn": Command("learn a game step by step: short lessons", _add_learn),
    "puzzles": Command("puzzles from real games: make a set, or solve", _add_puzzles),
    "review": Command(
        "judge every move of a saved game: labels, better moves, accuracy", _add_review
    ),
    "analyse": Command("an analysis board: try moves and variations, ask the engine", _add_analyse),
    "bench": Command("measure the speed of the rules engines and of the search", _add_bench),
    "arena": Command("a round-robin tournament between computer players", _add_arena),
    "study": Command(
        "a balance report of a game's variants, or a search for the best one", _add_study
    ),
    "serve": Command("play in the browser: start the web UI", _add_serve),
    "warmup": Command(
        "compile every game's kernels now (later starts load them from the cache)", _add_warmup
    ),
    "loadtest": Command(
        "play many games at once against a running server and measure it", _add_loadtest
    ),
}
