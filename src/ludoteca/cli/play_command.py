"""``ludoteca play``: the arguments, checked before the game starts, and the session they set up.

Everything that can be wrong with the arguments is found before the first move: a game id or
options that contradict a loaded file, options that do not apply (``--dice manual`` for a game
without dice, ``--p1`` for a solitaire), a ``--save`` file that cannot be written or is not a
saved game (``--force`` replaces it anyway). Errors are `LudotecaError` (one line, status 2).
"""

from __future__ import annotations

import argparse
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from rich.console import Console

from ludoteca.ai import ALL_AGENT_SPECS, agent_from_spec
from ludoteca.ai.specs import is_agent_spec
from ludoteca.cli import autosave
from ludoteca.cli.picker import has_chance_nodes, pick_game
from ludoteca.cli.play import (
    EXIT_INTERRUPTED,
    EXIT_SAVE_FAILED,
    PlaySession,
    ReadLine,
    Seat,
    Terminated,
)
from ludoteca.cli.text import say
from ludoteca.core import records
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game
from ludoteca.core.options import format_option_value, parse_option_assignments
from ludoteca.core.registry import game_ids, make

HUMAN = "human"
#: Seat names in saved games that mean a person (the web writes ``invite`` for a guest).
PEOPLE = (HUMAN, "invite")

#: Signals that end a session like Ctrl+C: ``kill`` and the terminal window closing.
HANDLED_SIGNALS = (signal.SIGTERM, signal.SIGHUP)

Handler = Callable[[argparse.Namespace, Console, ReadLine], int]


def add_play_parser(commands: Any, handler: Handler) -> argparse.ArgumentParser:
    """Add ``play`` to the subcommands; return its parser (for the shared ``--option``)."""
    play: argparse.ArgumentParser = commands.add_parser(
        "play",
        help="play a game in the terminal",
        description=(
            "Play a game. Without a game id, asks which game, who plays, the options and the "
            "dice. Every game is autosaved after each move; --resume continues one."
        ),
    )
    play.add_argument("game", nargs="?", help="game id (omit to pick from a list)")
    play.add_argument("--p0", help=f"first player: human (default) or {ALL_AGENT_SPECS}")
    play.add_argument("--p1", help="second player: human (default) or a computer, as --p0")
    play.add_argument("--seed", type=int, default=None, help="seed for dice and computer players")
    play.add_argument(
        "--dice",
        choices=("auto", "manual"),
        default=None,
        help="auto (default): the program rolls; manual: type the results of real dice",
    )
    play.add_argument("--load", metavar="FILE", help="continue a saved game, with its players")
    play.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="N",
        help="continue an autosaved unfinished game: lists them, or N picks the Nth",
    )
    play.add_argument(
        "--save",
        metavar="FILE",
        help="save the game to FILE when the session ends (checked before the game starts)",
    )
    play.add_argument(
        "--force",
        action="store_true",
        help="let --save replace a file that is not a Ludoteca saved game",
    )
    play.set_defaults(handler=handler)
    return play


def run_play(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    """Set up the session from the arguments, play it, save it if asked; return the status."""
    _refuse_contradictions(arguments)
    if arguments.save:
        check_save_target(arguments.save, force=arguments.force)
    loaded: records.GameRecord | None = None
    autosave_path: Path | None = None
    save_path: str | None = None
    manual_dice = arguments.dice == "manual"
    specs: list[str | None] = [arguments.p0, arguments.p1]
    if arguments.resume is not None:
        saved = _pick_unfinished(console, read_line, arguments.resume)
        if saved is None:
            return 0
        loaded, autosave_path = saved.record, saved.path
    elif arguments.load:
        loaded = records.load(arguments.load)
        save_path = arguments.load
        _check_against_file(loaded, arguments)
    elif arguments.game is None:
        try:
            choices = pick_game(console, read_line, game_ids(), ask_dice=arguments.dice is None)
        except (EOFError, KeyboardInterrupt):
            console.print("\nGoodbye.")
            return 0
        game = make(choices.game_id, **choices.options)
        specs = [*choices.players, None][:2]
        manual_dice = manual_dice or choices.manual_dice
    if loaded is not None:
        game = loaded.game
        if loaded.outcome is not None:
            raise LudotecaError(
                f"that game is over ({loaded.outcome.reason}); ludoteca replay shows it"
            )
    elif arguments.game is not None:
        game = make(arguments.game, **parse_option_assignments(arguments.option))
    start = loaded.start if loaded is not None else None
    seats = make_seats(game, specs, loaded, seed=arguments.seed)
    if manual_dice and not has_chance_nodes(game, loaded.final_state if loaded else None):
        raise LudotecaError(
            f"{game.name} has no dice or other chance here, so --dice manual does not apply"
        )
    session = PlaySession(
        game,
        seats,
        console=console,
        read_line=read_line,
        seed=arguments.seed,
        manual_dice=manual_dice,
        start=start,
        moves=loaded.moves if loaded is not None else (),
        autosave_path=autosave_path or autosave.new_path(game),
        save_path=save_path,
        created=loaded.created if loaded is not None and autosave_path is not None else None,
    )
    players = ", ".join(
        f"{name}: {seat.spec}" for name, seat in zip(game.player_names, seats, strict=True)
    )
    say(console, f"{game.name} — {players}. Type help for commands.", style="bold")
    with _sigterm_ends_the_session():
        status = session.run()
        if arguments.save and not session.save(arguments.save, force=True):
            return EXIT_SAVE_FAILED if status != EXIT_INTERRUPTED else status
    autosave.prune_finished()
    return status


def _refuse_contradictions(arguments: argparse.Namespace) -> None:
    sources = [
        name
        for name, given in (("--load", arguments.load), ("--resume", arguments.resume is not None))
        if given
    ]
    if len(sources) > 1:
        raise LudotecaError("--load and --resume both name a game to continue; give one")
    if arguments.resume is not None and (arguments.game or arguments.option):
        raise LudotecaError(
            "--resume continues a game with its own rules; leave out the game id and --option"
        )
    if arguments.force and not arguments.save:
        raise LudotecaError("--force only applies to --save FILE")
    picking = arguments.game is None and not arguments.load and arguments.resume is None
    settings = {"--option": arguments.option, "--p0": arguments.p0, "--p1": arguments.p1}
    given = [name for name, value in settings.items() if value]
    if picking and given:
        raise LudotecaError(
            f"{' and '.join(given)} need a game id (the list of games asks for the rest), "
            "e.g. ludoteca play salta " + " ".join(f"{name} ..." for name in given)
        )


def _check_against_file(record: records.GameRecord, arguments: argparse.Namespace) -> None:
    """A game id or options given with ``--load`` must agree with the file."""
    game = record.game
    if arguments.game is not None and arguments.game != game.id:
        raise LudotecaError(
            f"{arguments.load} is a game of {game.name} ({game.id}), not {arguments.game}; "
            "leave out the game id to continue it"
        )
    if not arguments.option:
        return
    given = make(game.id, **parse_option_assignments(arguments.option)).options
    named = parse_option_assignments(arguments.option)
    differing = [name for name in named if given[name] != game.options[name]]
    if differing:
        played = ", ".join(f"{n}={format_option_value(game.options[n])}" for n in differing)
        raise LudotecaError(
            f"{arguments.load} was played with {played}; options cannot change during a game "
            "(leave out --option to continue it)"
        )


def make_seats(
    game: Game,
    specs: Sequence[str | None],
    loaded: records.GameRecord | None,
    *,
    seed: int | None,
) -> list[Seat]:
    """The seats: ``--p0``/``--p1`` where given, else the loaded file's players, else people.

    Raises:
        LudotecaError: A seat the game does not have, or a player that is not a person or a
            computer player this Ludoteca knows.
    """
    for index, spec in enumerate(specs):
        if spec is not None and index >= game.num_players:
            raise LudotecaError(
                f"{game.name} has {game.num_players} player(s) "
                f"({', '.join(game.player_names)}), so --p{index} does not apply"
            )
    seats = []
    for index in range(game.num_players):
        given = specs[index] if index < len(specs) else None
        spec = given if given is not None else loaded.players[index] if loaded else HUMAN
        if spec.strip().lower() in PEOPLE or (given is None and not is_agent_spec(spec)):
            seats.append(Seat(spec.strip() if given is None else HUMAN))  # a person, or a name
            continue
        try:
            agent = agent_from_spec(spec, game, seed=None if seed is None else seed * 1000 + index)
        except LudotecaError as error:
            if given is not None:
                raise
            raise LudotecaError(
                f"the saved game's {game.player_names[index]} player {spec!r} is not a computer "
                f"player this Ludoteca knows ({error}); choose one with --p{index}"
            ) from None
        seats.append(Seat(spec.strip(), agent))
    return seats


def check_save_target(path: str, *, force: bool) -> None:
    """Check that ``--save`` can write ``path``, before the game starts.

    Raises:
        LudotecaError: A folder, a missing or unwritable folder, or a file that is not a
            Ludoteca saved game (unless ``force``).
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise LudotecaError(f"--save {path}: that is a folder; give a file name")
    if not folder.is_dir():
        raise LudotecaError(f"--save {path}: the folder {folder} does not exist")
    if target.exists() and not records.is_saved_game(target) and not force:
        raise LudotecaError(
            f"--save {path}: that file exists and is not a Ludoteca saved game; add --force to "
            "replace it, or choose another name"
        )
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise LudotecaError(f"--save {path}: permission denied")


def _pick_unfinished(
    console: Console, read_line: ReadLine, which: str
) -> autosave.SavedGame | None:
    games = autosave.unfinished_games()
    if not games:
        say(
            console,
            "No unfinished games to resume. Start one with: ludoteca play (games are "
            "autosaved after every move)",
        )
        return None
    if which:
        if not which.isdigit() or not 1 <= int(which) <= len(games):
            raise LudotecaError(
                f"--resume {which}: there are {len(games)} unfinished games; give a number "
                f"from 1 to {len(games)}, or no number to see them"
            )
        return games[int(which) - 1]
    say(console, "Unfinished games, the most recent first:")
    for number, saved in enumerate(games, start=1):
        say(console, f"  {number}. {saved.summary()}")
    while True:
        try:
            answer = read_line("Continue which game? (number, Enter for 1, q to leave)> ")
        except (EOFError, KeyboardInterrupt):
            console.print()
            return None
        answer = answer.strip().lower()
        if answer in ("q", "quit"):
            return None
        if not answer:
            return games[0]
        if answer.isdigit() and 1 <= int(answer) <= len(games):
            return games[int(answer) - 1]
        say(console, f"Please type a number from 1 to {len(games)}.", style="red")


@contextmanager
def _sigterm_ends_the_session() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into `Terminated`: the session ends as for Ctrl+C, saved."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signal_number: int, frame: FrameType | None) -> None:
        raise Terminated(signal_number)

    previous = {number: signal.signal(number, terminate) for number in HANDLED_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
