"""The kernel contract written once: the template that writes every game's contract module.

A game with compiled rules writes its *primitives* in ``<game>/kernels/rules.py`` (numba
functions under fixed names, listed in `PRIMITIVES`), and declares its kernel arguments::

    CONTRACT = {"args": ("params", "goals"), "chance": False}

``args`` are the names of the game's `KernelGame.kernel_args`, in their order; ``chance`` says
whether the game has chance nodes; ``"sorted": True`` says that ``legal_into`` writes the
actions in ascending order already, so ``legal_actions`` need not sort them. From them this
module writes the contract of docs/kernels.md (`KERNELS`: ``legal_actions``,
``apply_action``, ``player_to_move``, ``expand``, the random playouts, rollouts and records,
the action mask and the batch kernels) into
``<game>/kernels/__init__.py``, and their typed signatures into ``__init__.pyi``, each headed
"generated ..., do not edit"::

    python -m ludoteca.core.kernel_template                  # every game of ludoteca.games
    python -m ludoteca.core.kernel_template PATH/kernels     # one kernels package (a plug-in)
    python -m ludoteca.core.kernel_template --check          # fail if a written file differs

(``make kernels`` runs the first). The generated module imports the primitives by name: numba
compiles a function that takes another compiled function as an argument again in every
process, while a module that names them is compiled once and cached. The generated header
holds a digest of ``rules.py``, so an edit of the rules changes the generated file too, and
numba's own check of a file's time recompiles its kernels even outside Ludoteca's keyed cache.

Reading the rules takes no import (the module is parsed), so this runs without numba.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

#: The primitives a game's ``rules.py`` defines, by name (the arguments after the position are
#: the game's kernel arguments, written ``*args``; ``scratch`` is what ``new_scratch`` returns).
PRIMITIVES: dict[str, str] = {
    "NUM_TOTALS": "the length of the totals array (`T_WINS` + players, then the game's own)",
    "LEGAL_BUFFER": "room for the actions (or chance outcomes) of any position, scratch included",
    "new_scratch(*args)": "the buffers `legal_into` and `play` work in (anything; 0 for none)",
    "is_over(cells)": "whether the game is over",
    "mover(cells)": "the player to move at a decision",
    "winner(cells)": "the winner of a finished game, `NO_WINNER` for none",
    "safeguard_ended(cells)": "whether an engine safeguard rather than a rule ended the game",
    "legal_into(cells, *args, scratch, out)": "write the actions (or outcomes) of an unfinished"
    " position into ``out`` in the order random play picks them by index; return how many."
    " May change ``cells`` while it works if it puts it back",
    "play(cells, *args, action, scratch)": "play a legal action (or outcome) in place, settled",
    "observation(cells, *args, player, out)": "the contract's observation kernel (docs/rl.md)",
}

#: Primitives of a game with chance nodes (``CONTRACT["chance"]``).
CHANCE_PRIMITIVES: dict[str, str] = {
    "is_chance(cells)": "whether an unfinished position is a chance node",
    "draw_outcome(cells, *args, rng, row)": "a chance outcome with its probability, drawn from"
    " game ``row``'s generator of a batch (`ludoteca.core.vector_kernels.random_below`)",
    "random_chance(cells, *args)": "the same from numba's generator (needed only by the"
    " template's own playout)",
}

#: Optional primitives: the template uses its own where a game has none.
OPTIONAL_PRIMITIVES: dict[str, str] = {
    "random_playout_inplace(cells, *args, totals, curve, max_plies)": "the game's own (faster)"
    " random playout; the template's plays `legal_into`'s actions uniformly, a turn a decision",
    "after_game(cells, totals)": "add the game's own totals of one finished random game",
    "clear_mask(cells, *args, out)": "clear a decision's mask (only where its actions can be)",
}

#: The contract's kernels: the parameters after the position and the game's arguments, and the
#: result type of the typed stub (``None`` parameters: the position alone).
KERNELS: dict[str, tuple[tuple[tuple[str, str], ...] | None, str]] = {
    "legal_actions": ((), "Int64Array"),
    "apply_action": ((("action", "int"),), "Cells"),
    "player_to_move": (None, "int"),
    "expand": ((), "tuple[Int64Array, Cells, Int64Array]"),
    "random_playout_inplace": (
        (("totals", "Int64Array"), ("curve", "Int64Array"), ("max_plies", "int")),
        "int",
    ),
    "random_rollout": ((("max_plies", "int"), ("seed", "int")), "Cells"),
    "random_playouts": ((("count", "int"), ("seed", "int")), "Int64Array"),
    "random_playout_records": (
        (("count", "int"), ("seed", "int")),
        "tuple[Int64Array, Int64Array]",
    ),
    "observation": ((("player", "int"), ("out", "Float32Array")), "None"),
    "action_mask": ((("out", "BoolArray"),), "None"),
    "vector_reset": (
        (
            ("initial", "Cells"),
            ("observations", "Float32Array"),
            ("masks", "BoolArray"),
            ("players", "Int64Array"),
            ("rng", "UInt64Array"),
        ),
        "int",
    ),
    "vector_step": (
        (
            ("initial", "Cells"),
            ("actions", "Int64Array"),
            ("observations", "Float32Array"),
            ("masks", "BoolArray"),
            ("players", "Int64Array"),
            ("rewards", "Float32Array"),
            ("terminated", "BoolArray"),
            ("rng", "UInt64Array"),
        ),
        "int",
    ),
}

#: The first parameter's name in each kernel (the position, a start or a batch).
FIRST = {
    "random_rollout": "start",
    "random_playouts": "start",
    "random_playout_records": "start",
    "vector_reset": "batch",
    "vector_step": "batch",
}

GENERATOR = "python -m ludoteca.core.kernel_template"
RULES = "rules.py"
GAMES = Path(__file__).resolve().parent.parent / "games"


@dataclass(frozen=True)
class Spec:
    """What the template needs of a game: read from its ``rules.py`` without importing it."""

    module: str  # the kernels package, e.g. "ludoteca.games.salta.kernels"
    args: tuple[str, ...]
    chance: bool
    ascending: bool  # legal_into writes the actions sorted
    defined: frozenset[str]  # the top-level names of rules.py
    digest: str
    parameters: dict[str, tuple[str, ...]]  # of the contract kernels rules.py writes itself

    def has(self, name: str) -> bool:
        """Whether the rules define ``name``."""
        return name in self.defined


def module_name(package: Path) -> str:
    """The dotted name of a package folder: its own name and those of the packages above it."""
    parts = []
    folder = package.resolve()
    while (folder / "__init__.py").exists() or folder == package.resolve():
        parts.append(folder.name)
        folder = folder.parent
    return ".".join(reversed(parts))


def read_spec(package: Path) -> Spec:
    """The game's declarations in ``package/rules.py`` (a `ValueError` says what is missing)."""
    source = (package / RULES).read_text()
    tree = ast.parse(source)
    defined: set[str] = set()
    contract: object = None
    parameters: dict[str, tuple[str, ...]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            defined.add(node.name)
            if node.name in KERNELS:
                parameters[node.name] = tuple(a.arg for a in node.args.args)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        defined.add(name.id)
                        if name.id == "CONTRACT":
                            contract = ast.literal_eval(node.value)
        elif isinstance(node, ast.ImportFrom):
            defined.update(alias.asname or alias.name for alias in node.names)
    where = package / RULES
    if not isinstance(contract, dict) or not isinstance(contract.get("args"), tuple):
        raise ValueError(f'{where}: declare CONTRACT = {{"args": (...), "chance": ...}}')
    chance = bool(contract.get("chance", False))
    needed = [*PRIMITIVES, *(CHANCE_PRIMITIVES if chance else {})]
    if chance and "random_playout_inplace" in defined:
        needed.remove("random_chance(cells, *args)")
    missing = [name for name in needed if name.split("(")[0] not in defined]
    if missing:
        raise ValueError(f"{where} lacks the primitives {', '.join(missing)}")
    return Spec(
        module=module_name(package),
        args=tuple(contract["args"]),
        chance=chance,
        ascending=bool(contract.get("sorted", False)),
        defined=frozenset(defined),
        digest=hashlib.sha256(source.encode()).hexdigest()[:16],
        parameters=parameters,
    )


def _header(spec: Spec) -> str:
    return (
        f'"""{spec.module}: the kernel contract (docs/kernels.md) over `rules`.\n\n'
        f"Generated by ``{GENERATOR}`` from its template and the rules\n"
        f"(rules.py digest {spec.digest}); do not edit: change the rules or the template, then\n"
        "run ``make kernels``. Every name of the rules module is a name of this one.\n"
        '"""\n\n'
    )


def module_source(spec: Spec) -> str:
    """The generated contract module of a game (before formatting)."""
    a = "".join(f", {name}" for name in spec.args)  # the kernel arguments after the position
    args = ", ".join(spec.args)
    chance = spec.chance
    own_playout = spec.has("random_playout_inplace")
    clear_mask = spec.has("clear_mask")
    after_game = spec.has("after_game")
    rules = [
        "LEGAL_BUFFER",
        "NUM_TOTALS",
        "is_over",
        "legal_into",
        "mover",
        "new_scratch",
        "observation",
        "play",
        "safeguard_ended",
        "winner",
    ]
    if chance:
        rules += ["draw_outcome", "is_chance"]
        if not own_playout:
            rules.append("random_chance")
    for name, present in (
        ("random_playout_inplace", own_playout),
        ("clear_mask", clear_mask),
        ("after_game", after_game),
    ):
        if present:
            rules.append(name)
    playout_kernels = ["end_game", "new_records", "no_curve", "no_records"]
    if not own_playout:
        playout_kernels.insert(0, "count_decision")
    playouts = ["GAME_OVER", "NO_PLY_LIMIT", "T_WINS"]
    if chance:
        playouts.insert(0, "CHANCE_NODE")
    if not own_playout:
        playouts[-1:-1] = ["NO_WINNER", "T_PLIES"]
    out = [_header(spec)]
    out.append(
        "import numpy as np\nfrom numba import njit\n\n"
        f"from ludoteca.core.playout_kernels import {', '.join(playout_kernels)}\n"
        f"from ludoteca.core.playouts import {', '.join(playouts)}\n"
        "from ludoteca.core.vector_kernels import (\n"
        "    ENDS_BEFORE_DECISION, NO_ILLEGAL, first_illegal, write_returns,\n)\n"
        f"from {spec.module}.rules import *  # noqa: F403 (the rules' names are the kernels')\n"
        f"from {spec.module}.rules import {', '.join(sorted(rules, key=str.lower))}\n\n"
    )
    over = "is_over(cells) or is_chance(cells)" if chance else "is_over(cells)"
    # A game with clear_mask clears a row's mask before the move (only where its actions can
    # be) and the whole row at a reset; the others clear the whole row just before writing it.
    clear_in_show = "" if clear_mask else "    mask[:] = False\n"
    clear_in_reset = "        masks[row][:] = False\n" if clear_mask else ""
    out.append(f'''
# -- the search's view --------------------------------------------------------------------------


@njit(cache=True)
def legal_actions(cells{a}):
    """The legal actions (chance outcomes at a chance node), sorted; empty once the game is over.

    ``cells`` may be read-only and is never changed.
    """
    if is_over(cells):
        return np.empty(0, dtype=np.int64)
    out = np.empty(LEGAL_BUFFER, dtype=np.int64)
    n = legal_into(cells.copy(){a}, new_scratch({args}), out)
    return {"out[:n].copy()" if spec.ascending else "np.sort(out[:n])"}


@njit(cache=True)
def apply_action(cells{a}, action):
    """A new array: the position after the legal ``action``; ``cells`` is unchanged."""
    after = cells.copy()
    play(after{a}, action, new_scratch({args}))
    return after


@njit(cache=True)
def player_to_move(cells):
    """The player to move, `CHANCE_NODE` at a chance node, `GAME_OVER` once the game is over."""
    if is_over(cells):
        return GAME_OVER
''')
    if chance:
        out.append("    if is_chance(cells):\n        return CHANCE_NODE\n")
    out.append(f'''    return mover(cells)


@njit(cache=True)
def expand(cells{a}):
    """Every legal action with the position after it and the player to move there.

    ``(actions, children, players)``: the actions of `legal_actions`, one row of ``children``
    per action (what `apply_action` returns) and `player_to_move` of each row.
    """
    actions = legal_actions(cells{a})
    children = np.empty((actions.shape[0], cells.shape[0]), dtype=np.int32)
    players = np.empty(actions.shape[0], dtype=np.int64)
    scratch = new_scratch({args})
    for i in range(actions.shape[0]):
        child = children[i]
        child[:] = cells
        play(child{a}, actions[i], scratch)
        players[i] = player_to_move(child)
    return actions, children, players


# -- random playouts ------------------------------------------------------------------------------
''')
    if not own_playout:
        out.append(f'''

@njit(cache=True)
def random_playout_inplace(cells{a}, totals, curve, max_plies):
    """Play uniformly random moves on ``cells`` for at most ``max_plies`` plies.

    Chance outcomes come with their probabilities. Adds the plies, decisions, legal moves and
    turns (a turn is one decision) to ``totals`` and the legal-move counts to ``curve``; returns
    the player of the first decision (`NO_WINNER` if none).
    """
    scratch = new_scratch({args})
    out = np.empty(LEGAL_BUFFER, dtype=np.int64)
    plies = 0
    decisions = 0
    first = NO_WINNER
    while not is_over(cells) and plies < max_plies:
''')
        body = f"""if decisions == 0:
    first = mover(cells)
n = legal_into(cells{a}, scratch, out)
count_decision(totals, curve, decisions, n, True)
decisions += 1
action = out[np.random.randint(n)]
"""
        if chance:
            out.append("        if is_chance(cells):\n")
            out.append(f"            action = random_chance(cells{a})\n")
            out.append("        else:\n" + _indent(body, 12))
        else:
            out.append(_indent(body, 8))
        out.append(f"""        play(cells{a}, action, scratch)
        plies += 1
        totals[T_PLIES] += 1
    return first
""")
    out.append(f'''

@njit(cache=True)
def random_rollout(start{a}, max_plies, seed):
    """The position after at most ``max_plies`` random plies from ``start`` (a new array).

    Plays as `random_playouts` does, numba's generator seeded with ``seed``; a negative ``seed``
    goes on with the generator's current stream (a search seeds once).
    """
    if seed >= 0:
        np.random.seed(seed)
    cells = start.astype(np.int32)
    totals = np.zeros(NUM_TOTALS, dtype=np.int64)
    random_playout_inplace(cells{a}, totals, no_curve(), max_plies)
    return cells


@njit(cache=True)
def _playouts(start{a}, count, seed, records, curve):
    np.random.seed(seed)
    totals = np.zeros(NUM_TOTALS, dtype=np.int64)
    before = np.empty(T_WINS, dtype=np.int64)
    cells = start.copy()
    for i in range(count):
        cells[:] = start
        before[:] = totals[:T_WINS]
        first = random_playout_inplace(cells{a}, totals, curve, NO_PLY_LIMIT)
        end_game(totals, before, records, i, winner(cells), safeguard_ended(cells), first)
''')
    if after_game:
        out.append("        after_game(cells, totals)\n")
    out.append(f'''    return totals


@njit(cache=True)
def random_playouts(start{a}, count, seed):
    """The totals of ``count`` random games from ``start`` (``T_*`` of ludoteca.core.playouts)."""
    return _playouts(start{a}, count, seed, no_records(), no_curve())


@njit(cache=True)
def random_playout_records(start{a}, count, seed):
    """The games of `random_playouts` one by one: ``(records, curve)`` (``R_*`` columns)."""
    records, curve = new_records(count)
    _playouts(start{a}, count, seed, records, curve)
    return records, curve


# == for learning agents: action mask, batch play (docs/rl.md) ====================================


@njit(cache=True, inline="always")
def _mask_into(cells{a}, scratch, legal, out):
    """Set ``out`` True at the legal actions of a decision (the rest of ``out`` is left alone)."""
    if {over}:
        return
    n = legal_into(cells{a}, scratch, legal)
    for i in range(n):
        out[legal[i]] = True


@njit(cache=True)
def action_mask(cells{a}, out):
    """Write the legal-action mask into ``out`` (all False at a chance node or once over)."""
    out[:] = False
    legal = np.empty(LEGAL_BUFFER, dtype=np.int64)
    _mask_into(cells.copy(){a}, new_scratch({args}), legal, out)
''')
    if chance:
        out.append(f'''

@njit(cache=True, inline="always")
def _play_chance(cells{a}, scratch, rng, row):
    """Play the chance outcomes up to the next decision, drawn from game ``row``'s generator."""
    while not is_over(cells) and is_chance(cells):
        play(cells{a}, draw_outcome(cells{a}, rng, row), scratch)
''')
    out.append(f'''

@njit(cache=True, inline="always")
def _start_game(cells{a}, initial, scratch, rng, row):
    """Set game ``row`` to ``initial`` and play its chance outcomes; False if it ended already."""
    cells[:] = initial
''')
    if chance:
        out.append(f"    _play_chance(cells{a}, scratch, rng, row)\n")
    out.append(f'''    return not is_over(cells)


@njit(cache=True, inline="always")
def _show(cells{a}, row, observations, masks, players, scratch, legal):
    """Write what the player to move sees in game ``row``."""
    player = mover(cells)
    players[row] = player
    observation(cells{a}, player, observations[row])
    mask = masks[row]
{clear_in_show}    _mask_into(cells{a}, scratch, legal, mask)


@njit(cache=True)
def vector_reset(batch{a}, initial, observations, masks, players, rng):
    """Start every game of ``batch`` from ``initial``, playing its chance outcomes from ``rng``.

    Writes each game's observation (from the view of the player to move), mask and player.
    Returns `NO_ILLEGAL`, or `ENDS_BEFORE_DECISION` if a new game ends before its first move.
    """
    scratch = new_scratch({args})
    legal = np.empty(LEGAL_BUFFER, dtype=np.int64)
    for row in range(batch.shape[0]):
        cells = batch[row]
        if not _start_game(cells{a}, initial, scratch, rng, row):
            return ENDS_BEFORE_DECISION
{clear_in_reset}        _show(cells{a}, row, observations, masks, players, scratch, legal)
    return NO_ILLEGAL


@njit(cache=True)
def vector_step(
    batch{a}, initial, actions, observations, masks, players, rewards, terminated, rng
):
    """Play ``actions[row]`` in every game of ``batch``; a finished game starts again.

    Checks every action against ``masks`` first and returns the first row whose action is not
    legal, changing nothing. Otherwise plays them and the chance outcomes after them (from
    ``rng``), writes each finished game's returns into ``rewards`` (zeros elsewhere) and
    ``terminated``, restarts it from ``initial``, and writes every game's observation, mask and
    player to move. Returns `NO_ILLEGAL`, or `ENDS_BEFORE_DECISION` if a new game ends before
    its first move. ``masks`` holds what the last call wrote.
    """
    bad = first_illegal(actions, masks)
    if bad >= 0:
        return bad
    scratch = new_scratch({args})
    legal = np.empty(LEGAL_BUFFER, dtype=np.int64)
    for row in range(batch.shape[0]):
        cells = batch[row]
''')
    if clear_mask:
        out.append(f"        clear_mask(cells{a}, masks[row])\n")
    out.append(f"        play(cells{a}, actions[row], scratch)\n")
    if chance:
        out.append(f"        _play_chance(cells{a}, scratch, rng, row)\n")
    out.append(f"""        for player in range(rewards.shape[1]):
            rewards[row, player] = 0.0
        terminated[row] = is_over(cells)
        if terminated[row]:
            write_returns(rewards, row, winner(cells))
            if not _start_game(cells{a}, initial, scratch, rng, row):
                return ENDS_BEFORE_DECISION
        _show(cells{a}, row, observations, masks, players, scratch, legal)
    return NO_ILLEGAL
""")
    return "".join(out)


def rules_stub(package: Path) -> str:
    """The typed functions of ``rules.pyi`` (without its docstring, imports and ``__getattr__``).

    They may use the types of `ludoteca.core.kernels` only.
    """
    path = package / "rules.pyi"
    if not path.exists():
        return ""
    source = path.read_text()
    lines = source.splitlines(keepends=True)
    start, end = 0, len(lines)
    for node in ast.parse(source).body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            start = node.end_lineno or start
        elif isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            end = min(end, node.lineno - 1)
    return "".join(lines[start:end]).strip() + "\n"


def stub_source(spec: Spec, rules: str = "") -> str:
    """The generated typed stub of a game's contract module (before formatting).

    ``rules`` are the rules' own typed functions (`rules_stub`), copied after the contract's.
    """
    lines = [
        '"""Typed signatures of the kernel contract, checked by mypy (docs/kernels.md).\n\n'
        f"Generated by ``{GENERATOR}``; do not edit. After the contract's\n"
        "kernels come the rules' own typed functions, copied from ``rules.pyi``; other names\n"
        "are typed as ``Any``.\n"
        '"""\n\n'
        "from typing import Any\n\n"
        "from ludoteca.core.kernels import (\n"
        "    BoolArray, Cells, Float32Array, Int64Array, KernelArg, UInt64Array,\n)\n\n"
    ]
    for kernel, (own, result) in KERNELS.items():
        names = [FIRST.get(kernel, "cells")]
        kinds = ["Cells"]
        if own is not None:
            names += [*spec.args, *(name for name, _ in own)]
            kinds += ["KernelArg"] * len(spec.args) + [kind for _, kind in own]
        # A kernel the rules write themselves keeps their parameter names.
        names = list(spec.parameters.get(kernel, names))
        params = [f"{name}: {kind}" for name, kind in zip(names, kinds, strict=True)]
        lines.append(f"def {kernel}({', '.join(params)}, /) -> {result}: ...\n")
    if rules:
        lines.append("\n# -- from rules.pyi\n" + rules)
    lines.append("def __getattr__(name: str) -> Any: ...\n")
    return "".join(lines)


def _indent(text: str, spaces: int) -> str:
    return "".join(" " * spaces + line if line.strip() else line for line in text.splitlines(True))


def _format(source: str, filename: str) -> str:
    """``source`` as ``ruff format`` writes it (the project's style, so lint passes)."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        raise RuntimeError("the kernel template needs ruff to format its output (pip install ruff)")
    for command in (["check", "--fix", "--select", "I", "--quiet"], ["format"]):
        done = subprocess.run(
            [ruff, *command, "--stdin-filename", filename, "-"],
            input=source,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"ruff could not format the generated {filename}: {done.stderr}")
        source = done.stdout
    return source


def generated(package: Path) -> dict[Path, str]:
    """The files the template writes for the kernels package ``package``, with their text."""
    package = package.resolve()
    spec = read_spec(package)
    module = package / "__init__.py"
    stub = package / "__init__.pyi"
    return {
        module: _format(module_source(spec), str(module)),
        stub: _format(stub_source(spec, rules_stub(package)), str(stub)),
    }


def game_packages(games: Path = GAMES) -> list[Path]:
    """The kernels packages of the games of ``games`` (those with a ``kernels/rules.py``)."""
    return sorted(path.parent for path in games.glob(f"*/kernels/{RULES}"))


def stale(packages: list[Path]) -> list[Path]:
    """The generated files that differ from what the template writes now (or are missing)."""
    return [
        path
        for package in packages
        for path, text in generated(package).items()
        if not path.exists() or path.read_text() != text
    ]


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check``, compare) the contract modules of the given kernels packages."""
    parser = argparse.ArgumentParser(prog=GENERATOR, description=__doc__.splitlines()[0])
    parser.add_argument(
        "packages", nargs="*", type=Path, help="kernels packages (default: every built-in game)"
    )
    parser.add_argument("--check", action="store_true", help="only say which files differ")
    options = parser.parse_args(argv)
    packages = options.packages or game_packages()
    for package in packages:
        if not (package / RULES).is_file():
            parser.error(f"{package} has no {RULES}: give a game's kernels folder")
    try:
        if options.check:
            differ = stale(packages)
            for path in differ:
                print(f"{path}: differs from the template's output; run make kernels")
            return 1 if differ else 0
        for package in packages:
            for path, text in generated(package).items():
                if not path.exists() or path.read_text() != text:
                    path.write_text(text)
                    print(f"wrote {path}")
    except (ValueError, RuntimeError) as error:
        print(f"{GENERATOR}: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
