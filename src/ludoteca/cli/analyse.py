"""``ludoteca analyse GAME [--position TEXT]``: an analysis board in the terminal.

Moves for both sides and chance outcomes are typed by hand; every move tried is kept in a tree
of variations (`AnalysisTree`), through which ``back``, ``forward``, ``goto`` and ``var`` step.
``eval`` asks the engine (`ludoteca.analysis.position`): exact for a solved game, else a search
or playouts of a chosen budget with the estimate's interval. ``save FILE`` writes the current
line as a saved game, which ``ludoteca replay`` shows and ``ludoteca play --load`` continues.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape

from ludoteca.analysis.position import (
    DEFAULT_PLAYOUTS,
    DEFAULT_SEARCH_ITERATIONS,
    PositionValue,
    default_budget,
    evaluate,
)
from ludoteca.cli.play import ReadLine, list_moves, refusal, show_rules
from ludoteca.cli.rolls import RollReader
from ludoteca.cli.screen import board_text, moved_regions
from ludoteca.cli.text import say
from ludoteca.core import records
from ludoteca.core.errors import IllegalMoveError, InvalidMoveError, LudotecaError
from ludoteca.core.game import Game, Move, State
from ludoteca.core.notation import numbered_plies
from ludoteca.core.outcome import CHANCE

MAX_BUDGET = 1_000_000

HELP = """\
Type a move or a roll to play it here (a new variation if it differs from the one kept), or:
  moves         the legal moves (or the rolls) here
  back [N]      go back N plies (1)
  forward [N]   go forward N plies along the line shown (1)
  goto N        go to ply N of the line (0 is the start; also start, end)
  var [N]       the moves tried here; var N follows the Nth
  tree          the whole tree of variations, the current position in [ ]
  line          the current line, numbered
  eval [N]      the engine's view of this position (N: search iterations or playouts)
  board         show the board again
  rules         the rules of the game
  save FILE     save the current line as a game (ludoteca replay FILE shows it)
  help          show this help
  quit          leave (Ctrl+D too)"""

COMMANDS = (
    "moves",
    "back",
    "b",
    "forward",
    "f",
    "goto",
    "var",
    "variations",
    "tree",
    "line",
    "eval",
    "board",
    "rules",
    "save",
    "help",
    "quit",
    "exit",
    "q",
)


@dataclass(eq=False)
class Node:
    """A position of the tree: reached by ``move`` from ``parent`` (the root has neither)."""

    state: State
    move: Move | None = None
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)
    chosen: int = 0  # the child that `forward` follows: the last one visited

    def path(self) -> list[Node]:
        """The nodes from the root down to this one."""
        nodes: list[Node] = []
        node: Node | None = self
        while node is not None:
            nodes.append(node)
            node = node.parent
        return nodes[::-1]


class AnalysisTree:
    """Variations from one start position, and the position looked at now."""

    def __init__(self, start: State) -> None:
        self.root = Node(start)
        self.current = self.root

    @property
    def state(self) -> State:
        """The position looked at now."""
        return self.current.state

    def play(self, move: Move) -> bool:
        """Play ``move`` here: follow the child it names, or add one. True if it is new."""
        for index, child in enumerate(self.current.children):
            if child.move == move:
                self.current.chosen = index
                self.current = child
                return False
        child = Node(self.current.state.apply(move), move, self.current)
        self.current.children.append(child)
        self.current.chosen = len(self.current.children) - 1
        self.current = child
        return True

    def back(self, plies: int = 1) -> int:
        """Go back up to ``plies`` plies; return how many were gone back."""
        gone = 0
        while gone < plies and self.current.parent is not None:
            parent = self.current.parent
            parent.chosen = parent.children.index(self.current)
            self.current = parent
            gone += 1
        return gone

    def forward(self, plies: int = 1) -> int:
        """Go forward up to ``plies`` plies along the chosen children; return how many."""
        gone = 0
        while gone < plies and self.current.children:
            self.current = self.current.children[self.current.chosen]
            gone += 1
        return gone

    def line(self) -> list[Node]:
        """The current line: the root to here, then on along the chosen children."""
        nodes = self.current.path()
        node = self.current
        while node.children:
            node = node.children[node.chosen]
            nodes.append(node)
        return nodes

    def goto(self, ply: int) -> None:
        """Go to ply ``ply`` of the current line (0: the start).

        Raises:
            LudotecaError: The line has no such ply.
        """
        line = self.line()
        if not 0 <= ply < len(line):
            raise LudotecaError(f"the line has plies 0 to {len(line) - 1}; got {ply}")
        self.current = line[ply]

    def follow(self, number: int) -> None:
        """Follow the ``number``-th move tried here (from 1).

        Raises:
            LudotecaError: No such variation here.
        """
        children = self.current.children
        if not 1 <= number <= len(children):
            if not children:
                raise LudotecaError("no move has been tried here yet")
            raise LudotecaError(f"the moves tried here are numbered 1 to {len(children)}")
        self.current.chosen = number - 1
        self.current = children[number - 1]

    def moves_of(self, nodes: list[Node]) -> list[str]:
        """The move texts that lead along ``nodes`` (a path from the root)."""
        return [node.move.text for node in nodes[1:] if node.move is not None]

    def labels(self, nodes: list[Node]) -> list[str]:
        """Each ply of the path ``nodes`` (from the root) numbered as everywhere else."""
        states = [node.state for node in nodes]
        return [ply.label for ply in numbered_plies(states, self.moves_of(nodes))]

    def record(self, game: Game) -> records.GameRecord:
        """The current line as a saved game."""
        return records.create(
            game,
            self.moves_of(self.line()),
            players=["analysis"] * game.num_players,
            start=self.root.state,
        )

    def tree_text(self) -> str:
        """The tree as text: a row per variation, indented under the row it leaves.

        The position looked at now is in ``[ ]``; a roll followed by a move is shown beside
        the move, not on its own.
        """

        def rows_of(node: Node, depth: int) -> list[str]:
            words: list[str] = []
            nested: list[str] = []
            while True:
                here = node is self.current
                if node.move is None:
                    words.append("[start]" if here else "start")
                elif here or not node.move.is_chance or not node.children:
                    label = self.labels(node.path())[-1]
                    words.append(f"[{label}]" if here else label)
                if not node.children:
                    break
                for child in node.children[1:]:
                    nested += rows_of(child, depth + 1)
                node = node.children[0]
            return ["  " * depth + " ".join(words), *nested]

        return "\n".join(rows_of(self.root, 0))


def add_analyse_parser(commands: Any, option_argument: Callable[[Any], None]) -> None:
    """Add ``analyse`` to the ``ludoteca`` subcommands."""
    parser = commands.add_parser(
        "analyse",
        help="an analysis board: try moves and variations, ask the engine",
        description=(
            "Set up a position (the start, or --position), play moves and rolls for every "
            "side, keep the variations as a tree and ask the engine what it thinks. Type help "
            "at the prompt for the commands. See docs/terminal.md."
        ),
    )
    parser.add_argument("game", nargs="?", help="game id, e.g. pente_grammai")
    parser.add_argument(
        "--position", metavar="TEXT", help="start from this position (the game's position text)"
    )
    parser.add_argument(
        "--load",
        metavar="FILE",
        help="a saved game: its moves are the first line, and the board opens at its end",
    )
    parser.add_argument(
        "--budget",
        type=int,
        default=None,
        help=f"search iterations of eval (default {DEFAULT_SEARCH_ITERATIONS:,}) or playouts "
        f"(Steppin' Stones, default {DEFAULT_PLAYOUTS})",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the engine (0)")
    option_argument(parser)
    parser.set_defaults(handler=run_analyse)


def start_position(game: Game, text: str | None) -> State:
    """The position ``--position`` names (the game's start without it).

    Raises:
        LudotecaError: Text the game's own position parser refuses; the message says why and
            shows how the start is written.
    """
    if text is None:
        return game.initial_state()
    try:
        return game.parse_state(text)
    except LudotecaError as error:
        raise LudotecaError(
            f"--position {text!r} is not a {game.name} position: {error}. The start is written "
            f"{game.initial_state().to_text()!r}"
        ) from None


def run_analyse(arguments: argparse.Namespace, console: Console, read_line: ReadLine) -> int:
    """Run the analysis board; return the exit status."""
    from ludoteca.core.options import parse_option_assignments
    from ludoteca.core.registry import make

    if arguments.budget is not None and not 1 <= arguments.budget <= MAX_BUDGET:
        raise LudotecaError(f"--budget must be from 1 to {MAX_BUDGET:,}; got {arguments.budget}")
    loaded = None
    if arguments.load is not None:
        if arguments.game is not None or arguments.position is not None or arguments.option:
            raise LudotecaError(
                "--load FILE brings its own game, options and start; leave out the game id, "
                "--position and --option"
            )
        loaded = records.load(arguments.load)
        game, start = loaded.game, loaded.start
    elif arguments.game is None:
        raise LudotecaError("give a game id (ludoteca games lists them), or --load FILE")
    else:
        game = make(arguments.game, **parse_option_assignments(arguments.option))
        start = start_position(game, arguments.position)
    board = AnalysisBoard(
        game,
        start,
        console=console,
        read_line=read_line,
        budget=arguments.budget,
        seed=arguments.seed,
    )
    if loaded is not None:
        for text in loaded.moves:
            board.tree.play(board.tree.state.parse_move(text))
    return board.run()


class AnalysisBoard:
    """The prompt of ``ludoteca analyse`` over an `AnalysisTree`."""

    def __init__(
        self,
        game: Game,
        start: State,
        *,
        console: Console,
        read_line: ReadLine,
        budget: int | None = None,
        seed: int = 0,
    ) -> None:
        self.game = game
        self.tree = AnalysisTree(start)
        self.console = console
        self.read_line = read_line
        self.budget = budget
        self.seed = seed
        self._rolls = RollReader(game)

    def run(self) -> int:
        """Read commands until ``quit`` or the end of input; return 0."""
        say(self.console, f"{self.game.name} analysis board. Type help for the commands.")
        self.show()
        while True:
            try:
                line = self.read_line(self._prompt())
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return 0
            if not self.handle(line):
                return 0

    def _prompt(self) -> str:
        state = self.tree.state
        ply = len(self.tree.current.path()) - 1
        if state.is_over:
            who = "game over"
        elif state.to_move == CHANCE:
            who = "roll"
        else:
            assert state.to_move is not None
            who = f"{self.game.player_names[state.to_move]} to move"
        return f"analyse (after ply {ply}, {who})> " if ply else f"analyse (start, {who})> "

    def handle(self, line: str) -> bool:
        """Run one typed line; False to leave."""
        command, _, argument = line.strip().partition(" ")
        word, argument = command.lower(), argument.strip()
        if not word:
            return True
        if word in ("quit", "exit", "q"):
            return False
        try:
            if not self._command(word, argument):
                self._play(line)
        except LudotecaError as error:
            say(self.console, str(error), style="red")
        return True

    def _is_a_move(self, text: str) -> bool:
        try:
            self._parse(text)
        except LudotecaError:
            return False
        return True

    def _command(self, word: str, argument: str) -> bool:
        tree = self.tree
        if word in COMMANDS and self._is_a_move(word):
            return False  # a game's own move spelled like a command (Steppin' Stones' none)
        if word == "help":
            say(self.console, HELP)
        elif word == "moves":
            list_moves(self.console, tree.state)
        elif word in ("back", "b"):
            if tree.back(_count(argument)) == 0:
                say(self.console, "This is the start.")
            self.show()
        elif word in ("forward", "f"):
            if tree.forward(_count(argument)) == 0:
                say(self.console, "This is the end of the line; type a move to go on.")
            self.show()
        elif word == "goto":
            target = argument.lower()
            if target == "start":
                tree.current = tree.root
            elif target == "end":
                tree.forward(len(tree.line()))
            elif target.isdigit():
                tree.goto(int(target))
            else:
                raise LudotecaError("goto takes a ply number (0 is the start), start or end")
            self.show()
        elif word in ("var", "variations"):
            if argument:
                tree.follow(_count(argument))
                self.show()
            else:
                self._variations()
        elif word == "tree":
            say(self.console, tree.tree_text())
        elif word == "line":
            self._line()
        elif word == "eval":
            self._evaluate(_count(argument) if argument else self.budget)
        elif word == "board":
            self.show()
        elif word == "rules":
            show_rules(self.console, self.game)
        elif word == "save":
            self._save(argument)
        else:
            return False
        return True

    def _parse(self, text: str) -> Move:
        state = self.tree.state
        if state.to_move == CHANCE:
            return self._rolls.parse(state, text)
        return state.parse_move(text)

    def _play(self, text: str) -> None:
        try:
            move = self._parse(text)
        except InvalidMoveError as error:
            say(self.console, refusal(text, error, COMMANDS), style="red")
            return
        except IllegalMoveError as error:
            if self.tree.state.to_move == CHANCE:  # a word that is no roll: no roll attempt
                say(self.console, refusal(text, error, COMMANDS), style="red")
                return
            raise
        before = self.tree.state
        new = self.tree.play(move)
        parent = self.tree.current.parent
        if new and parent is not None and len(parent.children) > 1:
            say(self.console, "A new variation.")
        self.show(
            marked=moved_regions(before, move, self.tree.state)
            if not move.is_chance
            else frozenset()
        )

    def show(self, marked: frozenset[str] = frozenset()) -> None:
        """The board, the ply and how the position was reached, and where the line goes on."""
        state = self.tree.state
        self.console.print(escape(board_text(state, marked)), soft_wrap=False, overflow="fold")
        path = self.tree.current.path()
        labels = self.tree.labels(path)
        if labels:
            say(self.console, f"Ply {len(path) - 1}: {labels[-1]}.")
        else:
            say(self.console, "Ply 0: the start position.")
        if state.is_over:
            outcome = state.outcome
            assert outcome is not None
            say(self.console, f"Game over: {outcome.reason}.")
        if self.game.info.exact_values is not None:
            self._evaluate(self.budget)  # exact: as quick as a look-up

    def _variations(self) -> None:
        node = self.tree.current
        if not node.children:
            say(self.console, "No move has been tried here yet.")
            return
        path = node.path()
        rows = [f"Moves tried here ({len(node.children)}):"]
        for number, child in enumerate(node.children, start=1):
            label = self.tree.labels([*path, child])[-1]
            mark = "  (forward follows it)" if number - 1 == node.chosen else ""
            rows.append(f"  {number}) {label}{mark}")
        say(self.console, "\n".join(rows))

    def _line(self) -> None:
        line = self.tree.line()
        labels = self.tree.labels(line)
        here = len(self.tree.current.path()) - 1
        words = [f"[{label}]" if ply == here else label for ply, label in enumerate(labels, 1)]
        start = "[start]" if here == 0 else "start"
        say(self.console, " ".join([start, *words]))

    def _evaluate(self, budget: int | None) -> None:
        state = self.tree.state
        if self.game.info.exact_values is None:
            budget = budget if budget is not None else default_budget(state)
            say(self.console, f"Thinking ({budget:,} iterations or playouts) …", style="dim")
        value = evaluate(state, budget=budget, seed=self.seed)
        say(self.console, describe_value(self.game, value))

    def _save(self, path: str) -> None:
        if not path:
            raise LudotecaError("save needs a file name, e.g. save line.json")
        record = self.tree.record(self.game)
        records.save(record, path)
        say(self.console, f"Saved the line ({len(record.moves)} plies) to {path}.")


def describe_value(game: Game, value: PositionValue) -> str:
    """The engine's view in words: each side's chance, how it was found, the best line."""
    names = game.player_names
    if len(value.chances) == 1:
        chances = f"chance of winning {value.chances[0]:.1%}"
    else:
        chances = ", ".join(
            f"{name} {chance:.1%}" for name, chance in zip(names, value.chances, strict=True)
        )
        chances = f"chances of winning: {chances}"
    how = {
        "exact": "exact, from the solved game",
        "over": "the game is over",
        "playouts": f"{value.budget:,} playouts of the expert",
        "search": f"MCTS, {value.budget:,} iterations",
    }[value.method]
    text = f"Engine: {chances} ({how})"
    if value.interval is not None:
        low, high = value.interval
        whose = names[0] if len(value.chances) > 1 else "the chance"
        rough = "; rough: a search is no unbiased sample" if value.method == "search" else ""
        text += f"; 95 % interval of {whose}'s: {low:.1%} to {high:.1%}{rough}"
    if value.best_line:
        text += f". Best line: {' '.join(value.best_line)}"
    elif value.method != "over":
        text += ". Best line: after the roll"
    return text + "."


def _count(text: str) -> int:
    if not text:
        return 1
    if not text.isdigit() or int(text) < 1:
        raise LudotecaError(f"expected a whole number of at least 1; got {text!r}")
    return int(text)
