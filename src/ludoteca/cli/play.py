"""The terminal game session: a board, a prompt, and the players taking turns.

People type moves in notation or one of the commands in `HELP`; computer players answer in
turn; dice are rolled by the program from a seeded generator, or typed in (``--dice manual``)
for playing with real dice.

Nothing is lost: the game is autosaved after every move (see `ludoteca.cli.autosave`), and
Ctrl+C or Ctrl+D at any moment, during a computer's think or at a prompt, ends the session with
the game saved and a line that says where and how to continue it.

One board per turn: before a person is asked for a move the board is shown with the last move's
squares marked, and under it one line that tells what happened since the last board (the
computer's move, the dice, a forced pass), then the prompt. Everything fits an 80x24 terminal.
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ludoteca.ai import Agent, hint
from ludoteca.cli import autosave
from ludoteca.cli.rolls import RollReader
from ludoteca.cli.screen import board_text, moved_regions
from ludoteca.cli.text import say, wrap
from ludoteca.core import records
from ludoteca.core.chance import sample_outcome
from ludoteca.core.errors import InvalidMoveError, LudotecaError
from ludoteca.core.game import Game, Move, State
from ludoteca.core.notation import chance_text, move_groups, numbered_line
from ludoteca.core.outcome import CHANCE, Outcome
from ludoteca.core.rules_pages import rules_text

HELP = """\
Type a move in notation (e.g. {example}), or a command:
  moves        list the legal moves, grouped by the piece or square they start from
  rules        show the rules of the game
  history      the moves so far, numbered, with the rolls beside them
  hint         the move the strongest computer level would play, with what it thinks of it
  undo         take back your last move (and the computer's reply)
  save [FILE]  save the game as JSON (ludoteca replay FILE shows it again)
  board        show the board again
  resign       give up the game
  help         show this help
  quit         leave; the game stays autosaved (ludoteca play --resume continues it)
Ctrl+C and Ctrl+D leave too, at any moment, with the game autosaved."""

ReadLine = Callable[[str], str]

#: Exit statuses of a session.
EXIT_OK = 0
EXIT_SAVE_FAILED = 1
EXIT_INTERRUPTED = 130


def _interrupt_behind(error: SystemError) -> BaseException:
    """The Ctrl+C (or `Terminated`) that ``error`` wraps, else ``error`` itself.

    A signal's handler runs between Python bytecodes; when that is inside numba's call machinery
    (boxing a compiled search's result), numba reports the interrupt as a ``SystemError`` whose
    cause is the interrupt.
    """
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, KeyboardInterrupt):
            return cause
        cause = cause.__cause__ or cause.__context__
    return error


class Terminated(KeyboardInterrupt):
    """Raised by the SIGTERM and SIGHUP handler of ``ludoteca play``: ends it like Ctrl+C.

    Attributes:
        signal_number: The signal received; the exit status is 128 plus it.
    """

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal_number)
        self.signal_number = signal_number


@dataclass(frozen=True)
class Seat:
    """Who plays one side: a person (``agent is None``) or a computer player."""

    spec: str
    agent: Agent | None = None

    @property
    def is_human(self) -> bool:
        """Whether a person at this terminal plays this seat."""
        return self.agent is None


def plural(count: int, noun: str) -> str:
    """``"1 move"``, ``"2 moves"``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


class PlaySession:
    """One game in the terminal, from ``start`` until it ends or the player leaves.

    Args:
        game: The rules and options.
        seats: Who plays each seat, in seat order.
        console: Where the session prints.
        read_line: Reads one typed line after a prompt (raises EOFError at the end of input).
        seed: Seeds the program's dice.
        manual_dice: Whether people type the results of real dice instead.
        start: The first position (default: the game's initial position).
        moves: Moves already played from ``start`` (a loaded or resumed game).
        autosave_path: Where the game is autosaved after every move (``None``: nowhere).
        save_path: The file ``save`` without a name writes to (a loaded game's file).
        created: When the game began (ISO 8601), kept in the saved files.
    """

    def __init__(
        self,
        game: Game,
        seats: Sequence[Seat],
        *,
        console: Console,
        read_line: ReadLine,
        seed: int | None = None,
        manual_dice: bool = False,
        start: State | None = None,
        moves: Sequence[str] = (),
        autosave_path: Path | None = None,
        save_path: str | None = None,
        created: str | None = None,
    ) -> None:
        self.game = game
        self.seats = list(seats)
        self.console = console
        self.read_line = read_line
        self.dice = random.Random(seed)
        self.manual_dice = manual_dice
        self.start = start if start is not None else game.initial_state()
        self.history: list[tuple[State, Move]] = []
        self.state = self.start
        self.autosave_path = autosave_path
        self.save_path = save_path
        self.created = created or datetime.now(UTC).isoformat(timespec="seconds")
        self.resigned: int | None = None
        self._rolls = RollReader(game)
        self._events: list[str] = []  # what happened since the board was last shown
        self._marked: frozenset[str] = frozenset()
        self._autosave_error: str | None = None
        self._result_shown = False
        self._shown_once = False
        for text in moves:
            self.history.append((self.state, self.state.parse_move(text)))
            self.state = self.state.apply(self.history[-1][1])

    # -- the loop -------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the game has ended, by the rules or by a resignation."""
        return self.state.is_over or self.resigned is not None

    def run(self) -> int:
        """Play until the game ends or the person leaves; return the exit status.

        Ctrl+C (and SIGTERM or SIGHUP, see `Terminated`) anywhere ends the session with the game
        saved; the status is then `EXIT_INTERRUPTED` (130), or 128 plus the signal's number.
        """
        self._autosave()
        try:
            try:
                self._loop()
            except SystemError as error:  # a signal during a compiled search (`_interrupt_behind`)
                raise _interrupt_behind(error) from None
        except KeyboardInterrupt as interrupt:
            self.console.print()  # the ^C is left on the prompt's line
            self.console.print("Interrupted.")
            self._say_where_the_game_is()
            if isinstance(interrupt, Terminated):
                return 128 + interrupt.signal_number
            return EXIT_INTERRUPTED
        self._say_where_the_game_is()
        return EXIT_OK

    def _loop(self) -> None:
        while True:
            if self.is_over:
                self._show_result()
                if not any(seat.is_human for seat in self.seats) or not self._after_the_end():
                    return
                continue
            if self.state.to_move == CHANCE:
                if self.manual_dice:
                    if not self._shown_once:  # later rolls fold into the next board's line
                        self._show_board()
                    if not self._read_and_play(self._rolls.prompt(self.state)):
                        return
                else:
                    outcome = sample_outcome(self.state, self.dice)
                    self._play_move(outcome)
                continue
            seat = self.seats[self._player()]
            if seat.agent is not None:
                self._computer_moves(seat.agent, seat.spec)
                if not any(s.is_human for s in self.seats):
                    self._show_board()
                continue
            legal = self.state.legal_moves()
            if len(legal) == 1 and legal[0].text == "pass":  # forced: folded into the line
                self._play_move(legal[0])
                continue
            if self._events or not self._shown_once:
                self._show_board()
            if not self._read_and_play(f"{self._player_name()} to move> "):
                return

    def _computer_moves(self, agent: Agent, spec: str) -> None:
        thinking = f"{self._player_name()} ({spec}) is thinking … (Ctrl+C leaves, game saved)"
        if self.console.is_terminal:
            with self.console.status(escape(thinking)):
                move = agent.choose(self.state)
        else:
            move = agent.choose(self.state)
        self._play_move(move)

    def _read_and_play(self, prompt: str) -> bool:
        """Read one line and run it as a command or play it as a move (or a typed roll).

        Returns False when the person leaves.
        """
        line = self._ask(prompt)
        if line is None:
            return False
        command, _, argument = line.strip().partition(" ")
        if not command:
            return True
        if command.lower() in ("quit", "exit"):
            return False
        if self._command(command.lower(), argument.strip()):
            return True
        try:
            if self.state.to_move == CHANCE:
                move = self._rolls.parse(self.state, line)
            else:
                move = self.state.parse_move(line)
        except InvalidMoveError as error:
            say(self.console, refusal(line, error, COMMANDS), style="red")
            return True
        except LudotecaError as error:
            if self.state.to_move == CHANCE:  # a word that is no roll: no roll attempt
                say(self.console, refusal(line, error, COMMANDS), style="red")
                return True
            say(self.console, str(error), style="red")
            return True
        self._play_move(move)
        return True

    def _after_the_end(self) -> bool:
        """Let people save, undo or look at the board once the game is over; False to leave."""
        line = self._ask("Game over: save [FILE], undo, board or quit> ")
        if line is None:
            return False
        command, _, argument = line.strip().partition(" ")
        if command.lower() in ("save", "undo", "help", "board"):
            self._command(command.lower(), argument.strip())
            return True
        if command.lower() in ("quit", "exit", "q", ""):
            return False
        if command.lower() == "rules":
            self._command("rules", "")
            return True
        say(self.console, "The game is over: type save FILE, undo, board or quit.", style="red")
        return True

    def _command(self, command: str, argument: str) -> bool:
        """Run a session command; return False if ``command`` is not one (so it is a move)."""
        if command == "help":
            legal = self.state.legal_moves()
            example = legal[0].text if legal else "pass"
            say(self.console, HELP.format(example=example))
        elif command == "moves":
            list_moves(self.console, self.state)
        elif command == "rules" and not self._is_a_move(command):
            show_rules(self.console, self.game)
        elif command == "history" and not self._is_a_move(command):
            states = [state for state, _ in self.history]
            line = numbered_line(states, [move.text for _, move in self.history])
            say(self.console, "Moves: " + (" ".join(line) if line else "none yet"))
        elif command == "board":
            self._show_board()
        elif command == "hint":
            self._hint()
        elif command == "undo":
            self._undo()
        elif command == "save":
            self.save(argument or None)
        elif command == "resign" and not self._is_a_move(command):
            self._resign()
        else:
            return False
        return True

    def _is_a_move(self, text: str) -> bool:
        """Whether ``text`` is a move here (Steppin' Stones has its own ``resign`` move)."""
        try:
            self.state.parse_move(text)
        except LudotecaError:
            return False
        return True

    # -- actions ------------------------------------------------------------------------------

    def _play_move(self, move: Move) -> None:
        before = self.state
        self.history.append((before, move))
        self.state = before.apply(move)
        self._events.append(self._describe(before, move))
        if not move.is_chance:
            self._marked = moved_regions(before, move, self.state)
        self._autosave()

    def _describe(self, before: State, move: Move) -> str:
        if move.is_chance or before.to_move == CHANCE:
            words = chance_text(before, move)
            return words[:1].upper() + words[1:]
        player = before.to_move
        assert player is not None
        seat = self.seats[player]
        who = self.game.player_names[player]
        if not seat.is_human:
            who += f" ({seat.spec})"
        if move.text == "pass":
            return f"{who} passed (no move)" if len(before.legal_moves()) == 1 else f"{who} passed"
        return f"{who} played {move}"

    def _hint(self) -> None:
        """Show the level-5 move for the player to move, with what its number means."""
        if self.is_over or self.state.to_move == CHANCE:
            say(self.console, "A hint is for a player to move; nobody is to move now.", style="red")
            return
        self.console.print("Thinking …", style="dim")
        suggestion = hint(self.state, level=5, seed=len(self.history))
        say(self.console, f"Hint: {suggestion.move.text} ({suggestion.meaning})")

    def _undo(self) -> None:
        """Go back to the previous position where a person was to move."""
        if self.resigned is not None:
            self.resigned = None
            self._result_shown = False
            self.console.print("Took back the resignation.")
            self._autosave()
            self._show_board()
            return
        undone = 0
        while self.history:
            self.state, _ = self.history.pop()
            undone += 1
            to_move = self.state.to_move
            if to_move is None or to_move == CHANCE or not self.seats[to_move].is_human:
                continue
            if [move.text for move in self.state.legal_moves()] != ["pass"]:
                break  # a forced pass would only be played again
        if undone == 0:
            say(self.console, "Nothing to undo.", style="red")
            return
        self._result_shown = False
        self._events = [f"Took back {plural(undone, 'move')}"]
        self._marked = frozenset()
        self._autosave()
        self._show_board()

    def _resign(self) -> None:
        player = self.state.to_move
        if player is None or player == CHANCE or not self.seats[player].is_human:
            say(self.console, "Only a person to move can resign.", style="red")
            return
        self.resigned = player
        self._events.append(f"{self.game.player_names[player]} resigned")
        self._autosave()

    def record(self) -> records.GameRecord:
        """The game so far as a saved-game record."""
        return records.GameRecord(
            game=self.game,
            moves=tuple(move.text for _, move in self.history),
            players=tuple(seat.spec for seat in self.seats),
            start=self.start,
            states=(*(state for state, _ in self.history), self.state),
            created=self.created,
            updated=datetime.now(UTC).isoformat(timespec="seconds"),
            resigned=self.resigned,
        )

    def save(self, path: str | None, *, force: bool = False) -> bool:
        """Save the game to ``path`` (default: the file it was last saved to or loaded from).

        A file that exists and is not a Ludoteca saved game is replaced only if the person says
        yes (or ``force``). Returns whether the game was saved; a message says where or why not.
        """
        target = path or self.save_path
        if not target:
            say(self.console, "save needs a file name, e.g. save mygame.json", style="red")
            return False
        if not force and not self._may_replace(target):
            say(self.console, f"Not saved: {target} is left as it was.")
            return False
        try:
            records.save(self.record(), target)
        except records.SaveError as error:
            say(self.console, f"Could not save: {error}", style="red")
            return False
        self.save_path = target
        say(self.console, f"Saved {plural(len(self.history), 'move')} to {target}.")
        return True

    def _may_replace(self, target: str) -> bool:
        path = Path(target)
        if not path.is_file() or records.is_saved_game(path):
            return True
        answer = self._ask(
            f"{target} exists and is not a Ludoteca saved game. Replace it? (yes/no)> "
        )
        return answer is not None and answer.strip().lower() in ("y", "yes")

    def _autosave(self) -> None:
        if self.autosave_path is None:
            return
        try:
            autosave.write(self.autosave_path, self.record())
        except records.SaveError as error:
            if self._autosave_error is None:  # say it once, not after every move
                say(
                    self.console,
                    f"Autosave failed: {error}. Use save FILE to keep the game.",
                    style="red",
                )
            self._autosave_error = str(error)
        else:
            self._autosave_error = None

    # -- output ---------------------------------------------------------------------------

    def _show_board(self) -> None:
        """The board with the last move marked, then the line of what happened since."""
        self._shown_once = True
        text = board_text(self.state, self._marked)
        self.console.print(escape(text), soft_wrap=False, overflow="fold")
        if self._events:
            say(self.console, ". ".join(self._events) + ".", style="bold")
            self._events = []

    def _show_result(self) -> None:
        if self._result_shown:
            return
        self._result_shown = True
        self._show_board()
        outcome = self.outcome
        assert outcome is not None
        shown = board_text(self.state, self._marked)
        line = self._result_line(outcome)
        if self.resigned is not None or outcome.reason not in shown:
            say(self.console, f"Game over. {line}", style="bold")
        else:
            self.console.print("[bold]Game over.[/bold]")

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (a resignation counts), or ``None`` while it runs."""
        return self.record().outcome if self.resigned is not None else self.state.outcome

    def _result_line(self, outcome: Outcome) -> str:
        if outcome.winner is None:
            verdict = "Lost" if self.game.num_players == 1 else "Draw"
        elif self.game.num_players == 1:
            verdict = "Won"
        else:
            verdict = f"{self.game.player_names[outcome.winner]} wins"
        return f"{verdict}: {outcome.reason}."

    def _say_where_the_game_is(self) -> None:
        if self.autosave_path is None or self._autosave_error is not None:
            if self._autosave_error is not None and not self.is_over:
                say(
                    self.console,
                    "The game could not be autosaved; it is kept only where you saved it.",
                    style="red",
                )
            return
        where = str(self.autosave_path)
        # `say` keeps the path whole, so that it can be copied from the terminal.
        if self.is_over:
            say(self.console, f"The game is kept in {where} (ludoteca replay shows it).")
        else:
            say(self.console, f"The game is autosaved in {where}.")
            say(self.console, "Continue it with: ludoteca play --resume")

    def _player(self) -> int:
        to_move = self.state.to_move
        assert to_move is not None and to_move >= 0
        return to_move

    def _player_name(self) -> str:
        return self.game.player_names[self._player()]

    def _ask(self, prompt: str) -> str | None:
        """One typed line, or ``None`` at the end of input (Ctrl+D). Ctrl+C propagates."""
        try:
            return self.read_line(prompt)
        except EOFError:
            self.console.print()
            return None


#: The words the prompt knows besides moves (``quit`` and ``exit`` leave).
COMMANDS = (
    "moves",
    "rules",
    "history",
    "hint",
    "undo",
    "save",
    "board",
    "resign",
    "help",
    "quit",
    "exit",
)


def refusal(line: str, error: LudotecaError, commands: Sequence[str]) -> str:
    """What to say to typed text that is no move of this game's notation.

    A single word of letters alone is no move attempt: it is an unknown command. Anything else
    (digits, separators) was meant as a move, so the game's own message, with its accepted
    forms, is kept.
    """
    word = line.strip()
    if word.isalpha() and word.lower() not in commands:
        return f"Unknown command: {word} — type help for the commands and how moves are written."
    return str(error)


def list_moves(console: Console, state: State) -> None:
    """The legal moves of ``state`` as a table: one line per piece or square they start from."""
    legal = state.legal_moves()
    if not legal:
        say(console, "No legal moves: the game is over.")
        return
    groups = move_groups(state)
    lines = [f"{len(legal)} legal {'move' if len(legal) == 1 else 'moves'}:"]
    column = max((len(prefix) for prefix, _ in groups), default=0)
    for prefix, rests in groups:
        head = f"  {prefix:<{column}}  " if prefix else "  "
        lines += textwrap.wrap(
            "  ".join(rests),
            width=console.width,
            initial_indent=head,
            subsequent_indent=" " * len(head),
            break_long_words=False,
            break_on_hyphens=False,
        )
    if any(prefix for prefix, _ in groups):
        example = next(prefix + rests[0] for prefix, rests in groups if prefix)
        lines.append(f"(a row's start and one of its ends make a move, e.g. {example})")
    text = wrap("\n".join(lines), console.width)
    if console.is_terminal and text.count("\n") > console.height - 3:
        with console.pager():
            console.print(escape(text), soft_wrap=True)
    else:
        console.print(escape(text), soft_wrap=True)


def show_rules(console: Console, game: Game) -> None:
    """The game's rules page, formatted to the console's width (paged in a terminal)."""
    from rich.markdown import Markdown

    page = Markdown(rules_text(game.id))
    if console.is_terminal:
        with console.pager(styles=True):
            console.print(page, soft_wrap=False)
    else:
        console.print(page, soft_wrap=False)
