"""Perft counts and golden playthroughs of every game, written by one generator.

    python -m tools.golden              # write both files of every game
    python -m tools.golden salta        # of one game
    python -m tools.golden --check      # say which committed file differs; exit 1 if one does

For each game it writes two files under ``tests/games/<game>/data/``, read by
``tests/games/test_golden.py``:

- ``perft.txt``: for each case (a position and options, chosen below), the number of move
  sequences of each length from it. Chance outcomes count as moves, and a sequence stops where
  the game ends. Format, one item per line (blank lines and ``#`` lines are ignored)::

      id <name>                   starts a case
      options <name=value> ...    the game's options (omitted: the defaults)
      position <text>             the position, in the game's position text
      perft <depth> <count>       the count at that depth

- ``golden.txt``: seeded random games written out ply by ply. The dice come from
  `ludoteca.core.chance.sample_outcome` and the moves from ``rng.choice`` over
  ``legal_moves()``, both driven by one ``random.Random(seed)``. Each game starts with a
  ``game`` line (its name, options, seed and ply cap); then, for each ply, the position text,
  what may be played there and what was::

      position <text>
      moves <move> <move> ...              at a decision, in the engine's order
      chance <outcome>=<probability> ...   at a chance node (over 36 outcomes: their number
                                           and a digest of the list, to keep the file small)
      play <move>

  and finally the last position and ``result <reason>`` (``running`` when the cap stopped it).

The counts and playthroughs are computed through the public API only (``legal_moves``,
``apply``, ``chance_outcomes``, ``to_text``). The files change only when the rules, the order of
the legal moves or the position text change: after such a deliberate change (and a bump of the
game's ``version``) run this again. Salta's and Salt 'n' Pepper's counts were first computed by
their plain-Python references (``tests/games/<game>/reference.py``), which share no code with
the engine, and agree.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

import ludoteca
from ludoteca.core.chance import sample_outcome

ROOT = Path(__file__).resolve().parent.parent
GAMES_TESTS = ROOT / "tests" / "games"
PERFT_FILE = "perft.txt"
GOLDEN_FILE = "golden.txt"
#: Chance nodes with more outcomes than this are written as a count and a digest.
MAX_LISTED_OUTCOMES = 36


@dataclass(frozen=True)
class PerftCase:
    """A position of the perft file: ``text`` None for the start position."""

    name: str
    depths: int
    text: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    note: str = ""


@dataclass(frozen=True)
class Playthrough:
    """A seeded random game of the golden file, from ``text`` (None: the start)."""

    name: str
    seed: int
    plies: int
    text: str | None = None
    options: dict[str, str] = field(default_factory=dict)


SALTA_START = (
    ".s5.s4.s3.s2.s1/m5.m4.m3.m2.m1./.o5.o4.o3.o2.o1/........../........../........../"
    "........../O1.O2.O3.O4.O5./.M1.M2.M3.M4.M5/S1.S2.S3.S4.S5. g 0"
)
SALT_START = (
    "S.S.S.S.S./.S.S.S.S.S/S.S.S.S.S./........../........../........../........../"
    "P.P.P.P.P./.P.P.P.P.P/P.P.P.P.P."
)

PERFT: dict[str, tuple[PerftCase, ...]] = {
    "salta": (
        PerftCase("start", 5, SALTA_START),
        PerftCase(
            "jumps",
            4,
            ".s5.s4.s3.s2.s1/m5.m4.m3.m2.m1./.o5.....o2.o1/........../.....o3..../........../"
            "...o4....../O1.O2.O3.O4.O5./.M1.M2.M3.M4.M5/S1.S2.S3.S4.S5. g 10",
            note="Two compulsory jumps for Green (c3xe5, e3xc5); after c3xe5 a chained e5xg7"
            " would be open.",
        ),
        PerftCase(
            "no-block",
            4,
            ".s5.s4.s3.s2.s1/m5.m4.m3.m2.m1./.o5.o4.o3.o2.o1/S1.S2.S3.S4.S5./.M1.M2.M3.M4../"
            "........O5./........../........../........../O1.O2.O3.O4.M5. g 30",
            note="Red's only move is h8xj6; the no-block rule refuses Green's i5-j6, which would"
            " take it away.",
        ),
        PerftCase(
            "fallback",
            5,
            ".s5.s4.s3.s2.s1/m5.m4.m3.m2.m1./.o5.o4.o3.o2.o1/S1.S2.S3.S4.S5./.M1.M2.M3.M4.M5/"
            "O1.O2.O3.O4.O5./........../........../........../.......... g 40",
            note="Red is walled in: every Green step blocks, so all are allowed (the fallback),"
            " and Red passes.",
        ),
        PerftCase(
            "open",
            3,
            ".s5.s4.s3.s2.s1/m5.m4.m3.m2.m1./.o5.o4.o3...o1/........../.......o2../....O3...../"
            "........../O1.O2...O4.O5./.M1.M2.M3.M4.M5/S1.S2.S3.S4.S5. r 21",
            note="Red to move, with pieces of both sides in the open.",
        ),
    ),
    "salt_n_pepper": (
        PerftCase("start-salt-first", 5, f"{SALT_START} s 0 0", {"first": "0"}),
        PerftCase("start-pepper-first", 5, f"{SALT_START} p 0 0", {"first": "1"}),
        PerftCase(
            "start-pepper-sideways",
            4,
            f"{SALT_START} p 0 0",
            {"first": "1", "pepper_sideways": "true"},
        ),
        PerftCase(
            "start-six-ranks",
            4,
            "S.S.S.S.S./.S.S.S.S.S/S.S.S.S.S./P.P.P.P.P./.P.P.P.P.P/P.P.P.P.P. s 0 0",
            {"first": "0", "ranks": "6"},
        ),
        PerftCase(
            "midgame-sideways",
            4,
            "S........./.S......../..S......./.S.S....../.....P.P../...S.SP..S/.PSPPP..../"
            ".S.P.S..PS/SP.P.P...P/.P.P...... s 124 0",
            {"first": "0", "pepper_sideways": "true"},
            note="From a seeded random game with sideways moves: leaps, a leap home (a2xhome over"
            " b1), steps onto the back rank and Pepper pieces on dark squares of rank 1.",
        ),
    ),
    "pente_grammai": (
        PerftCase("start", 8, note="The first-player draw and the first roll are chance moves."),
        PerftCase("start-white-first", 8, options={"first": "0"}),
        PerftCase(
            "start-schaedler-storage-capture",
            8,
            options={"start": "schaedler", "sacred": "storage", "capture": "true"},
        ),
    ),
    "splinter": (
        PerftCase("start", 2),
        PerftCase(
            "start-small-random-first",
            3,
            options={"size": "11x12", "first": "random"},
            note="The first-player draw is a chance move.",
        ),
    ),
    "steppin_stones": (
        PerftCase("start", 2, note="The first roll is a chance move of every die's faces."),
        PerftCase(
            "phase-two",
            2,
            "..s..m../...s.m../.....m../.s.CPAP.../...MPSPm../aaa.sccc/..a.sc../..a.mc.. 0 roll2"
            " S M C A",
            note="Every suit in phase 2: stones and pawns move along paths within the dice's"
            " budgets.",
        ),
    ),
}

GOLDEN: dict[str, tuple[Playthrough, ...]] = {
    "salta": (Playthrough("default", 7, 200),),
    "salt_n_pepper": (
        Playthrough("default", 7, 200),
        Playthrough(
            "sideways-six-ranks", 5, 200, options={"pepper_sideways": "true", "ranks": "6"}
        ),
    ),
    "pente_grammai": (
        Playthrough("default", 7, 160),
        Playthrough("storage-capture", 3, 400, options={"sacred": "storage", "capture": "true"}),
    ),
    "splinter": (
        Playthrough("default", 7, 200),
        Playthrough("small-random-first", 5, 200, options={"size": "11x12", "first": "random"}),
    ),
    "steppin_stones": (
        Playthrough("from-the-start", 7, 120),
        Playthrough(
            "phase-two",
            3,
            120,
            "..s..m../...s.m../.....m../.s.CPAP.../...MPSPm../aaa.sccc/..a.sc../..a.mc.. 0 roll2"
            " S M C A",
        ),
        Playthrough("large-board-four-aces", 11, 80, options={"large_board": "true", "aces": "4"}),
    ),
}


def start(game_id: str, options: dict[str, str], text: str | None) -> ludoteca.State:
    """The position ``text`` (or the start) of the game with these options."""
    game = ludoteca.make(game_id, **options)
    return game.initial_state() if text is None else game.parse_state(text)


def perft(state: ludoteca.State, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``state`` (public API only)."""
    if state.is_over:
        return 0
    legal = state.legal_moves()
    if depth == 1:
        return len(legal)
    return sum(perft(state.apply(move), depth - 1) for move in legal)


def _options_text(options: dict[str, str]) -> str:
    return " ".join(f"{name}={value}" for name, value in sorted(options.items()))


def perft_file(game_id: str) -> str:
    """The text of a game's ``perft.txt``."""
    lines = [
        f"# {game_id} perft counts, written by `python -m tools.golden` (see its docstring for the",
        "# format); read by tests/games/test_golden.py.",
    ]
    for case in PERFT[game_id]:
        state = start(game_id, case.options, case.text)
        lines.append("")
        if case.note:
            lines.append(f"# {case.note}")
        lines.append(f"id {case.name}")
        if case.options:
            lines.append(f"options {_options_text(case.options)}")
        lines.append(f"position {state.to_text()}")
        lines += [f"perft {depth} {perft(state, depth)}" for depth in range(1, case.depths + 1)]
    return "\n".join(lines) + "\n"


def _chance_line(state: ludoteca.State) -> str:
    outcomes = [f"{move}={probability!r}" for move, probability in state.chance_outcomes()]
    if len(outcomes) <= MAX_LISTED_OUTCOMES:
        return "chance " + " ".join(outcomes)
    digest = hashlib.sha256("\n".join(outcomes).encode()).hexdigest()[:16]
    return f"chance {len(outcomes)} outcomes sha256:{digest}"


def playthrough(game_id: str, case: Playthrough) -> list[str]:
    """The lines of one seeded random game (at most ``case.plies`` plies)."""
    state = start(game_id, case.options, case.text)
    rng = random.Random(case.seed)
    header = f"game {case.name} seed={case.seed} plies={case.plies}"
    lines = [f"{header} {_options_text(case.options)}".rstrip()]
    for _ in range(case.plies):
        if state.is_over:
            break
        lines.append(f"position {state.to_text()}")
        if state.to_move == ludoteca.CHANCE:
            lines.append(_chance_line(state))
            move = sample_outcome(state, rng)
        else:
            moves = state.legal_moves()
            lines.append("moves " + " ".join(str(legal) for legal in moves))
            move = rng.choice(moves)
        lines.append(f"play {move}")
        state = state.apply(move)
    lines.append(f"position {state.to_text()}")
    outcome = state.outcome
    lines.append(f"result {'running' if outcome is None else outcome.reason}")
    return lines


def golden_file(game_id: str) -> str:
    """The text of a game's ``golden.txt``."""
    lines = [
        f"# {game_id} golden playthroughs, written by `python -m tools.golden` (see its docstring",
        "# for the format); read by tests/games/test_golden.py.",
    ]
    for case in GOLDEN[game_id]:
        lines += ["", *playthrough(game_id, case)]
    return "\n".join(lines) + "\n"


WRITERS = {PERFT_FILE: perft_file, GOLDEN_FILE: golden_file}


def data_path(game_id: str, name: str) -> Path:
    """Where a game's data file lives."""
    return GAMES_TESTS / game_id / "data" / name


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check``, compare) the data files of the given games."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.golden", description=__doc__.split("\n")[0]
    )
    parser.add_argument("games", nargs="*", help="game ids (default: every game)")
    parser.add_argument("--check", action="store_true", help="only say which files differ")
    options = parser.parse_args(argv)
    games = options.games or sorted(PERFT)
    unknown = sorted(set(games) - set(PERFT))
    if unknown:
        parser.error(f"no cases for {', '.join(unknown)}; known: {', '.join(sorted(PERFT))}")
    differ = False
    for game_id in games:
        for name, write in WRITERS.items():
            path = data_path(game_id, name)
            text = write(game_id)
            if path.exists() and path.read_text() == text:
                continue
            if options.check:
                print(f"{path.relative_to(ROOT)}: differs from what tools/golden.py writes")
                differ = True
            else:
                path.parent.mkdir(exist_ok=True)
                path.write_text(text)
                print(f"wrote {path.relative_to(ROOT)}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
