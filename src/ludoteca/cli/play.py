"""The terminal game session: a board, a prompt, and the players taking turns.

People type moves in notation or one of the commands in `HELP`; computer players answer at once;
dice are rolled by the program from a seeded generator, or typed in (``--dice manual``) for
playing with real dice.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.markup import escape

from ludoteca.ai import Agent, hint
from ludoteca.core import records
from ludoteca.core.chance import sample_outcome
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game, Move, State
from ludoteca.core.outcome import CHANCE
from ludoteca.core.registry import game_class

HELP = """\
Type a move in notation (e.g. {example}), or a command:
  moves        list the legal moves
  hint         the move the strongest computer level would play, with its win chance
  undo         take back your last move (and the computer's reply)
  save FILE    save the game as JSON (ludoteca replay FILE shows it again)
  board        show the board again
  help         show this help
  quit         leave the game (save it first if you want to keep it)"""

ReadLine = Callable[[str], str]

MAX_LISTED_OUTCOMES = 12


@dataclass(frozen=True)
class Seat:
    """Who plays one side: a person (``agent is None``) or a computer player."""

    spec: str
    agent: Agent | None = None

    @property
    def is_human(self) -> bool:
        """Whether a person at this terminal plays this seat."""
        return self.agent is None


class PlaySession:
    """One game in the terminal, from ``start`` until it ends or the player quits."""

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
        for text in moves:
            self._play_move(self.state.parse_move(text))

    # -- the loop -------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or a person quits; return the exit status (0)."""
        self._show_board()
        while True:
            if self.state.is_over:
                self.console.print(f"[bold]Game over.[/bold] {escape(self._result_line())}")
                if not any(seat.is_human for seat in self.seats) or not self._after_the_end():
                    return 0
                continue
            if self.state.to_move == CHANCE:
                if not self._roll():
                    return 0
                continue
            seat = self.seats[self._player()]
            if seat.agent is not None:
                move = seat.agent.choose(self.state)
                self.console.print(f"{self._player_name()} ({seat.spec}) plays [bold]{move}[/bold]")
                self._play_move(move)
                self._show_board()
                continue
            if not self._read_and_play(f"{self._player_name()} to move> "):
                return 0

    def _read_and_play(self, prompt: str) -> bool:
        """Read one line and run it as a command or play it as a move (or a typed dice result).

        Returns False when the person leaves.
        """
        line = self._ask(prompt)
        if line is None:
            return False
        command, _, argument = line.strip().partition(" ")
        if not command:
            return True
        if self._command(command.lower(), argument.strip()):
            return command.lower() not in ("quit", "exit")
        try:
            self._play_move(self.state.parse_move(line))
        except LudotecaError as error:
            self.console.print(f"[red]{escape(str(error))}[/red]")
            return True
        self._show_board()
        return True

    def _after_the_end(self) -> bool:
        """Let people save, undo or list moves once the game is over; False when they leave."""
        line = self._ask("save FILE, undo or quit> ")
        if line is None:
            return False
        command, _, argument = line.strip().partition(" ")
        if command.lower() in ("save", "undo", "help", "board", "moves"):
            self._command(command.lower(), argument.strip())
            return True
        if command.lower() in ("quit", "exit", "q", ""):
            return False
        self.console.print("[red]The game is over: type save FILE, undo or quit.[/red]")
        return True

    def _command(self, command: str, argument: str) -> bool:
        """Run a session command; return False if ``command`` is not one (so it is a move)."""
        if command in ("quit", "exit"):
            self.console.print("Goodbye.")
        elif command == "help":
            example = self.state.legal_moves()[0].text if self.state.legal_moves() else "pass"
            self.console.print(escape(HELP.format(example=example)))
        elif command == "moves":
            legal = ", ".join(m.text for m in self.state.legal_moves()) or "none"
            self.console.print(f"Legal moves: {escape(legal)}")
        elif command == "board":
            self._show_board()
        elif command == "hint":
            self._hint()
        elif command == "undo":
            self._undo()
        elif command == "save":
            self.save(argument)
        else:
            return False
        return True

    # -- actions ------------------------------------------------------------------------------

    def _roll(self) -> bool:
        if self.manual_dice:
            outcomes = [move.text for move, _ in self.state.chance_outcomes()]
            if len(outcomes) > MAX_LISTED_OUTCOMES:  # four dice have 1,296 outcomes
                listed = f"{len(outcomes)} outcomes, such as {outcomes[0]}; moves lists them"
            else:
                listed = ", ".join(outcomes)
            return self._read_and_play(f"Roll the dice and type the result ({listed})> ")
        outcome = sample_outcome(self.state, self.dice)
        self.console.print(f"Rolled [bold]{outcome}[/bold]")
        self._play_move(outcome)
        self._show_board()  # the roll changes what can be played
        return True

    def _play_move(self, move: Move) -> None:
        self.history.append((self.state, move))
        self.state = self.state.apply(move)

    def _hint(self) -> None:
        """Show the level-5 move for the player to move, with its estimated win chance."""
        if self.state.is_over or self.state.to_move == CHANCE:
            self.console.print("[red]A hint is for a player to move; nobody is to move now.[/red]")
            return
        self.console.print("Thinking ...", style="dim")
        suggestion = hint(self.state, level=5, seed=len(self.history))
        self.console.print(
            f"Hint: [bold]{escape(suggestion.move.text)}[/bold] "
            f"(estimated win chance {suggestion.win_chance:.0%})"
        )

    def _undo(self) -> None:
        """Go back to the previous position where a person was to move."""
        if not any(seat.is_human for seat in self.seats):
            return
        undone = 0
        while self.history:
            self.state, _ = self.history.pop()
            undone += 1
            to_move = self.state.to_move
            if to_move is not None and to_move != CHANCE and self.seats[to_move].is_human:
                break
        if undone == 0:
            self.console.print("[red]Nothing to undo.[/red]")
            return
        self.console.print(f"Took back {undone} move(s).")
        self._show_board()

    def save(self, path: str) -> None:
        """Save the game so far to ``path`` (a message says where, or why it failed)."""
        if not path:
            self.console.print("[red]save needs a file name, e.g. save mygame.json[/red]")
            return
        record = records.create(
            self.game,
            [move for _, move in self.history],
            players=[seat.spec for seat in self.seats],
            start=self.start,
        )
        try:
            records.save(record, path)
        except OSError as error:
            self.console.print(f"[red]Could not save to {escape(path)}: {escape(str(error))}[/red]")
            return
        self.console.print(f"Saved {len(self.history)} moves to {escape(path)}.")

    # -- output ---------------------------------------------------------------------------

    def _show_board(self) -> None:
        self.console.print(escape(str(self.state)))

    def _player(self) -> int:
        to_move = self.state.to_move
        assert to_move is not None and to_move >= 0
        return to_move

    def _player_name(self) -> str:
        return self.game.player_names[self._player()]

    def _result_line(self) -> str:
        outcome = self.state.outcome
        assert outcome is not None
        if outcome.winner is None:
            verdict = "Lost" if self.game.num_players == 1 else "Draw"
        elif self.game.num_players == 1:
            verdict = "Won"
        else:
            verdict = f"{self.game.player_names[outcome.winner]} wins"
        return f"{verdict}: {outcome.reason}."

    def _ask(self, prompt: str) -> str | None:
        try:
            return self.read_line(prompt)
        except (EOFError, KeyboardInterrupt):
            self.console.print("\nGoodbye.")
            return None


def pick_game(
    console: Console, read_line: ReadLine, game_ids: Sequence[str]
) -> tuple[str, str, str]:
    """Ask which game to play and against whom; return ``(game id, p0 spec, p1 spec)``.

    Raises:
        EOFError: Input ended before the choices were made.
    """
    console.print("[bold]Ludoteca[/bold] — pick a game:")
    for number, game_id in enumerate(game_ids, start=1):
        console.print(f"  {number}. {escape(game_class(game_id).name)} ({game_id})")
    game_id = game_ids[_choose_number(console, read_line, "Game number> ", len(game_ids)) - 1]
    console.print(
        "Who plays?\n  1. two people at this screen\n  2. you first, against the computer\n"
        "  3. the computer first, you second"
    )
    choice = _choose_number(console, read_line, "Choice> ", 3)
    if choice == 1:
        return game_id, "human", "human"
    console.print(
        "How strong is the computer? 1 (beginner) to 5 (strongest), or 6 for random moves."
    )
    strength = _choose_number(console, read_line, "Level> ", 6)
    computer = "random" if strength == 6 else f"level:{strength}"
    return (game_id, "human", computer) if choice == 2 else (game_id, computer, "human")


def _choose_number(console: Console, read_line: ReadLine, prompt: str, count: int) -> int:
    while True:
        answer = read_line(prompt).strip()
        if answer.isdigit() and 1 <= int(answer) <= count:
            return int(answer)
        console.print(f"[red]Please type a number from 1 to {count}.[/red]")
