"""The kernel contract written once: the template that writes every game's contract module.

A game with compiled rules writes its kernels by concept, each a module of ``<game>/kernels/``:

- ``layout.py``: the position array, its offsets and accessors, the action codec, the tables;
- ``rules.py``: the moves, and the *primitives* (numba functions under fixed names, listed in
  `PRIMITIVES`) with the declaration of the game's kernel arguments::

      CONTRACT = {"args": ("params", "goals"), "chance": False}

- ``playouts.py``: the game's own random playout and its totals, where it has them;
- ``learning.py``: what a learning agent sees (the observation, a mask's clearing).

A game may split a large concept further (Splinter's ``groups.py``); only ``rules.py`` is
required. ``args`` are the names of the game's `KernelGame.kernel_args`, in their order;
``chance`` says whether the game has chance nodes; ``"sorted": True`` says that ``legal_into``
writes the actions in ascending order already, so ``legal_actions`` need not sort them. From
them this module writes the contract of docs/kernels.md (`KERNELS`: ``legal_actions``,
``apply_action``, ``player_to_move``, ``expand``, the random playouts, rollouts and records,
the action mask and the batch kernels) into ``<game>/kernels/__init__.py``, and their typed
signatures into ``__init__.pyi``, each headed "generated ..., do not edit"::

    python -m ludoteca.core.kernel_template                  # every game of ludoteca.games
    python -m ludoteca.core.kernel_template PATH/kernels     # one kernels package (a plug-in)
    python -m ludoteca.core.kernel_template --check          # fail if a written file differs

(``make kernels`` runs the first). The generated module imports the primitives by name: numba
compiles a function that takes another compiled function as an argument again in every
process, while a module that names them is compiled once and cached. The generated header
holds a digest of the hand-written modules, so an edit of any of them changes the generated
file too, and numba's own check of a file's time recompiles its kernels even outside
Ludoteca's keyed cache.

Reading the rules takes no import (the module is parsed), so this runs without numba.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

from ludoteca.core.kernel_accessors import Accessor, layout_names, read_accessors
from ludoteca.core.kernel_template_source import (
    FIRST,
    GENERATOR,
    KERNELS,
    Spec,
    module_source,
    stub_source,
)

__all__ = ["FIRST", "GENERATOR", "KERNELS", "Spec", "module_source", "read_spec", "stub_source"]

#: The primitives a game's kernels modules define, by name (the arguments after the position are
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

RULES = "rules.py"
#: The concepts a kernels package is split into, in the order they build on each other.
CONCEPTS = ("layout", "rules", "playouts", "learning")
GAMES = Path(__file__).resolve().parent.parent / "games"


def module_name(package: Path) -> str:
    """The dotted name of a package folder: its own name and those of the packages above it."""
    parts = []
    folder = package.resolve()
    while (folder / "__init__.py").exists() or folder == package.resolve():
        parts.append(folder.name)
        folder = folder.parent
    return ".".join(reversed(parts))


def concept_modules(package: Path) -> list[str]:
    """The hand-written modules of a kernels package, in the order they build on each other.

    ``layout`` first, ``rules``, ``playouts`` and ``learning`` last, any other module (a concept
    a game splits off, such as Splinter's ``groups``) between ``layout`` and ``rules``.
    """
    names = sorted(path.stem for path in package.glob("*.py") if path.stem != "__init__")
    first = [name for name in CONCEPTS[:1] if name in names]
    last = [name for name in CONCEPTS[1:] if name in names]
    return first + [name for name in names if name not in CONCEPTS] + last


def read_spec(package: Path) -> Spec:
    """The game's declarations in its kernels modules (a `ValueError` says what is missing)."""
    modules = concept_modules(package)
    defined: set[str] = set()
    homes: dict[str, str] = {}  # where each name is defined (not merely imported)
    contract: object = None
    parameters: dict[str, tuple[str, ...]] = {}
    accessors: tuple[Accessor, ...] = ()
    digest = hashlib.sha256()
    for module in modules:
        source = (package / f"{module}.py").read_text()
        digest.update(f"{module}.py\n{source}".encode())
        tree = ast.parse(source)
        accessors += read_accessors(tree)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                defined.add(node.name)
                homes.setdefault(node.name, module)
                if node.name in KERNELS:
                    parameters[node.name] = tuple(a.arg for a in node.args.args)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            defined.add(name.id)
                            homes.setdefault(name.id, module)
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
        raise ValueError(f"{package} lacks the primitives {', '.join(missing)}")
    unknown = sorted(layout_names(accessors) - defined)
    if unknown:
        raise ValueError(f"{package}: ACCESSORS name {', '.join(unknown)}, defined nowhere")
    twice = sorted(accessor.name for accessor in accessors if accessor.name in defined)
    if twice:
        raise ValueError(f"{package}: {', '.join(twice)} declared in ACCESSORS and written by hand")
    return Spec(
        module=module_name(package),
        modules=tuple(modules),
        args=tuple(contract["args"]),
        chance=chance,
        ascending=bool(contract.get("sorted", False)),
        defined=frozenset(defined),
        homes=homes,
        digest=digest.hexdigest()[:16],
        parameters=parameters,
        accessors=accessors,
    )


def rules_stub(package: Path) -> str:
    """The typed functions of the modules' stubs (``layout.pyi``, ``rules.pyi``...), in order.

    Each stub's docstring, imports and ``__getattr__`` are left out. They may use the types of
    `ludoteca.core.kernels` only.
    """
    parts = []
    for module in concept_modules(package):
        path = package / f"{module}.pyi"
        if not path.exists():
            continue
        source = path.read_text()
        lines = source.splitlines(keepends=True)
        start, end = 0, len(lines)
        for node in ast.parse(source).body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                start = node.end_lineno or start
            elif isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
                end = min(end, node.lineno - 1)
        parts.append(f"# -- from {module}.pyi\n" + "".join(lines[start:end]).strip() + "\n")
    return "\n".join(parts)


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
