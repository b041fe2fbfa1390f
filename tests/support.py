"""Helpers shared by the tests of every game.

Making a game and playing, listing and refusing moves (`make_game`, `play`, `moves`, `refused`);
driving the ``ludoteca`` command with typed lines (`typed`, `run`, `run_combined`); games built by
hypothesis one drawn legal move at a time (`played_games`, `played_states`), positions from the
middle of random games (`midgame_states`) and the share of finished games a strategy draws
(`finished_share`); perft with its
per-move split (`read_perft_cases`, `perft`, `divide`, `assert_perft`); and the board field of
diagram positions (`diagram_board`). What is particular to one game (its game and state types,
drawing its positions, its reference) stays with that game's tests.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeAlias, TypeVar

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import ludoteca
from ludoteca import IllegalMoveError
from ludoteca.cli import main

GameT = TypeVar("GameT", bound=ludoteca.Game)
StateT = TypeVar("StateT", bound=ludoteca.State)

# -- games and moves ------------------------------------------------------------------------------


def make_game(game_id: str, kind: type[GameT], **options: object) -> GameT:
    """The game ``game_id`` with ``options``, checked to be a ``kind``."""
    game = ludoteca.make(game_id, **options)
    assert isinstance(game, kind)
    return game


def moves(state: ludoteca.State, prefix: str = "") -> set[str]:
    """The texts of the legal moves of ``state`` (only those that start with ``prefix``)."""
    return {move.text for move in state.legal_moves() if move.text.startswith(prefix)}


def play(state: StateT, *texts: str) -> StateT:
    """The state after the moves ``texts`` in turn; each is of the type of ``state``."""
    for text in texts:
        after = state.apply(text)
        assert isinstance(after, type(state))
        state = after
    return state


def refused(state: ludoteca.State, text: str) -> str:
    """Apply an illegal move, check that nothing changed, and return the error message."""
    before_text, before_hash, before_moves = state.to_text(), hash(state), state.legal_moves()
    with pytest.raises(IllegalMoveError) as caught:
        state.apply(text)
    assert state.to_text() == before_text
    assert hash(state) == before_hash
    assert state.legal_moves() == before_moves
    return str(caught.value)


# -- the terminal ---------------------------------------------------------------------------------


def typed(*lines: str) -> Callable[[str], str]:
    """A reader that answers prompts with ``lines``, then signals end of input."""
    remaining: Iterator[str] = iter(lines)

    def read_line(prompt: str) -> str:
        print(prompt, end="")
        try:
            return next(remaining)
        except StopIteration:
            raise EOFError from None

    return read_line


def run(capsys: pytest.CaptureFixture[str], argv: list[str], *lines: str) -> tuple[int, str, str]:
    """Run ``ludoteca argv`` with ``lines`` typed; return the exit status, stdout and stderr."""
    status = main(argv, read_line=typed(*lines))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def flat(text: str) -> str:
    """``text`` with every run of white space (a line wrapped to the terminal) as one space."""
    return " ".join(text.split())


def run_combined(
    capsys: pytest.CaptureFixture[str], argv: list[str], *lines: str
) -> tuple[int, str]:
    """Like `run`, but check that no traceback was shown; return the status and all output."""
    status, out, err = run(capsys, argv, *lines)
    assert "Traceback" not in out + err
    return status, out + err


# -- hypothesis: games built by drawing an index into legal_moves() at each ply -------------------

Starts: TypeAlias = ludoteca.Game | Sequence[ludoteca.State] | st.SearchStrategy[ludoteca.State]


@st.composite
def played_games(draw: st.DrawFn, starts: Starts, max_plies: int) -> list[ludoteca.State]:
    """The positions of a game, from a start up to ``max_plies`` plies later or the end.

    ``starts`` is a game (its initial state), start states to sample from, or a strategy for
    the start; each ply after it plays the legal move at a drawn index, chance outcomes included.
    """
    if isinstance(starts, ludoteca.Game):
        starts = [starts.initial_state()]
    state = draw(starts if isinstance(starts, st.SearchStrategy) else st.sampled_from(starts))
    states = [state]
    for _ in range(draw(st.integers(0, max_plies))):
        if state.is_over:
            break
        legal = state.legal_moves()
        state = state.apply(legal[draw(st.integers(0, len(legal) - 1))])
        states.append(state)
    return states


def played_states(starts: Starts, max_plies: int) -> st.SearchStrategy[ludoteca.State]:
    """The last position of a game drawn by `played_games`."""
    return played_games(starts, max_plies).map(lambda states: states[-1])


@functools.lru_cache(maxsize=1024)
def random_game(start: ludoteca.State, seed: int) -> tuple[ludoteca.State, ...]:
    """Every position of the game played from ``start`` by uniformly random moves (chance
    outcomes included, each legal move alike) with ``random.Random(seed)``, to its end."""
    rng = random.Random(seed)
    states = [start]
    while not states[-1].is_over:
        states.append(states[-1].apply(rng.choice(states[-1].legal_moves())))
    return tuple(states)


@st.composite
def midgame_states(
    draw: st.DrawFn, starts: Sequence[ludoteca.State], *, extra_plies: int = 6
) -> ludoteca.State:
    """A position from anywhere in a game, its end included one time in ten.

    A random game (`random_game`, one of 64 seeds) is played from one of ``starts`` to its end;
    the example is a running position drawn uniformly along it, followed by up to
    ``extra_plies`` moves drawn by index into ``legal_moves()`` that do not end the game, or
    the game's final position one time in ten.
    Games built move by move from the start end early when options shorten them; these reach
    every stage of a game, and `event` reports whether each example is finished
    (``pytest --hypothesis-show-statistics``).
    """
    pick = random.Random(draw(st.integers(0, 2**32 - 1)))  # uniform draws from a drawn seed
    game = random_game(draw(st.sampled_from(starts)), pick.randrange(64))
    state = game[-1] if pick.random() < 0.1 else game[pick.randrange(len(game) - 1)]
    for _ in range(draw(st.integers(0, extra_plies)) if not state.is_over else 0):
        legal = state.legal_moves()
        after = state.apply(legal[draw(st.integers(0, len(legal) - 1))])
        if after.is_over:  # the ends come from the games' own final positions
            break
        state = after
    event("finished game" if state.is_over else "running game")
    return state


def finished_share(states: st.SearchStrategy[ludoteca.State], examples: int = 60) -> float:
    """The share of finished games among ``examples`` positions drawn from ``states``
    (derandomized, so the figure is the same on every run)."""
    finished: list[bool] = []

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(states)
    def draw(state: ludoteca.State) -> None:
        finished.append(state.is_over)

    draw()
    assert len(finished) >= examples // 2
    return sum(finished) / len(finished)


# -- perft ----------------------------------------------------------------------------------------


@dataclass
class PerftCase:
    """One position of a perft data file with its options and expected counts by depth."""

    name: str
    options: dict[str, str] = field(default_factory=dict)
    text: str = ""
    counts: dict[int, int] = field(default_factory=dict)


def read_perft_cases(path: Path) -> list[PerftCase]:
    """Read a perft data file: lines ``id``, ``options`` (optional), ``position``, ``perft``."""
    cases: list[PerftCase] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "id":
            cases.append(PerftCase(rest.strip()))
        elif keyword == "options" and cases:
            cases[-1].options = dict(item.split("=", 1) for item in rest.split())
        elif keyword == "position" and cases:
            cases[-1].text = rest.strip()
        elif keyword == "perft" and cases:
            depth, count = rest.split()
            cases[-1].counts[int(depth)] = int(count)
        else:
            raise ValueError(f"{path.name}:{number}: cannot read {line!r}")
    return cases


def perft(state: ludoteca.State, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``state`` (public API only)."""
    if state.is_over:
        return 0
    legal = state.legal_moves()
    if depth == 1:
        return len(legal)
    return sum(perft(state.apply(move), depth - 1) for move in legal)


def divide(state: ludoteca.State, depth: int) -> dict[str, int]:
    """Perft below each legal move: move text -> count at ``depth - 1`` after it."""
    return {
        move.text: perft(state.apply(move), depth - 1) if depth > 1 else 1
        for move in state.legal_moves()
    }


def divide_report(engine: dict[str, int], reference: dict[str, int]) -> str:
    """The engine's and the reference's split side by side, differing lines marked."""
    lines = [f"{'move':<8}{'engine':>10}{'reference':>11}"]
    for move in sorted(set(engine) | set(reference)):
        ours, theirs = engine.get(move, "-"), reference.get(move, "-")
        mark = "" if ours == theirs else "   <-- differs"
        lines.append(f"{move:<8}{ours!s:>10}{theirs!s:>11}{mark}")
    return "\n".join(lines)


def perft_failure(
    state: ludoteca.State,
    name: str,
    depth: int,
    expected: int,
    reference_divide: Callable[[], dict[str, int]],
) -> str | None:
    """``None`` when perft matches ``expected``, else a message with the divide report."""
    count = perft(state, depth)
    if count == expected:
        return None
    report = divide_report(divide(state, depth), reference_divide())
    return f"perft({name}, {depth}) = {count}, expected {expected}\n{state}\n{report}"


def assert_perft(
    state: ludoteca.State,
    name: str,
    depth: int,
    expected: int,
    reference_divide: Callable[[], dict[str, int]],
) -> None:
    """Fail with the divide report unless perft of ``state`` at ``depth`` is ``expected``."""
    failure = perft_failure(state, name, depth, expected, reference_divide)
    if failure is not None:
        pytest.fail(failure, pytrace=False)


# -- diagrams -------------------------------------------------------------------------------------


def diagram_board(diagram: str, width: int, ranks: int | None = None) -> str:
    """The board field of a position text for ``diagram`` (ranks top first, ``/`` between).

    A diagram is one line per rank, the top rank first, each an optional rank number and then
    ``width`` cells separated by spaces; blank lines around it are ignored. ``ranks``: how many
    ranks it must have (None: any number).
    """
    lines = [line.split() for line in diagram.strip().splitlines() if line.strip()]
    if ranks is not None and len(lines) != ranks:
        raise ValueError(f"a diagram has {ranks} ranks; got {len(lines)}")
    board = []
    for expected_rank, cells in zip(range(len(lines), 0, -1), lines, strict=True):
        if len(cells) == width + 1:
            label, *cells = cells
            if label != str(expected_rank):
                raise ValueError(f"rank {expected_rank} is labelled {label!r}")
        if len(cells) != width:
            raise ValueError(f"rank {expected_rank} has {len(cells)} cells; expected {width}")
        board.append("".join(cells))
    return "/".join(board)


def listed_moves(out: str) -> list[list[str]]:
    """Every `moves` listing in ``out``, each as the move texts it shows, in its order.

    A listing is "N legal moves:" and its rows: a row is a start shared by several moves and
    what each adds (``"  f7-  N  NE"``), or whole moves (``"  a8-b7  c8-d7"``); a row wrapped to
    the terminal goes on, indented, on the next line. Each listing is checked against its count.
    """
    listings: list[list[str]] = []
    lines = out.splitlines()
    for index, line in enumerate(lines):
        header = re.search(r"(\d+) legal moves?:$", line)
        if header is None:
            continue
        moves: list[str] = []
        prefix = ""
        for row in lines[index + 1 :]:
            if not row.startswith("  "):
                break
            words = row.split()
            if row.startswith("   "):  # a wrapped row goes on
                moves += [prefix + word for word in words]
            elif len(words) > 1 and words[0][-1] in "-x:/":
                prefix = words[0]
                moves += [prefix + word for word in words[1:]]
            else:
                prefix = ""
                moves += words
        assert len(moves) == int(header.group(1)), (header.group(0), moves)
        listings.append(moves)
    return listings
