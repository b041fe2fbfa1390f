"""Mutation testing of the rules kernels and the web server with Cosmic Ray (`make mutants`).

Cosmic Ray makes one small change (a mutant) at a time in a module, runs the tests named for
it, and counts the mutant *killed* when they fail and *survived* when they pass. The score is
killed / (killed + survived). See docs/testing.md for the targets, the figures measured and how
to read a survivor.

Everything runs in a copy of the working tree under ``.mutants/`` (Cosmic Ray edits the files
it mutates in place), with the project's virtual environment. The tests cache the compiled kernels
in the copy's ``.cache/numba/``, in directories keyed by the kernels' sources
(`ludoteca.kernel_cache`): a mutant of a kernels module gets a directory of its own, so its
tests always run the mutant's code, compiled afresh, and never a cached copy of another; no
cache is ever cleared by hand. A mutant of the web server leaves the key unchanged and runs with
the kernels already compiled.

Usage::

    python tools/mutants.py                          # every target, every mutant (hours)
    python tools/mutants.py --targets steppin_stones --sample 20 --seed 1
    python tools/mutants.py --tree OTHER_CHECKOUT    # the same mutants against other tests
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# target -> (modules or packages to mutate, tests that judge them), relative to the tree
TARGETS: dict[str, tuple[list[str], list[str]]] = {
    # a game's hand-written kernels modules (the generated contract module is left alone)
    game: (
        sorted(
            str(path.relative_to(ROOT))
            for path in (ROOT / "src/ludoteca/games" / game / "kernels").glob("*.py")
            if path.name != "__init__.py"
        ),
        [f"tests/games/{game}"],
    )
    for game in ("salta", "pente_grammai", "salt_n_pepper", "splinter", "steppin_stones")
}
TARGETS["web"] = (["src/ludoteca/web"], ["tests/web"])  # every module of the package

TEST_SCRIPT = """#!/bin/sh
# Run by Cosmic Ray for each mutant: the target's tests (the compiled cache is keyed by the
# mutated sources, so nothing is cleared).
cd "$(dirname "$0")/tree" || exit 2
PYTHONPATH="$PWD/src:$PWD" "{python}" -m pytest -x -q -p no:cacheprovider \\
    -m "not slow and not browser" {tests} >/dev/null 2>&1
"""

CONFIG = """[cosmic-ray]
module-path = {modules}
timeout = {timeout}
excluded-modules = []
test-command = "sh {script}"

[cosmic-ray.distributor]
name = "local"
"""


def copy_tree(source: Path, tree: Path) -> None:
    """Copy the files git knows in ``source`` (tracked and untracked, not ignored) to ``tree``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=source,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    if tree.exists():
        shutil.rmtree(tree)
    for name in filter(None, (item.decode() for item in listed)):
        origin = source / name
        if origin.is_file():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(origin, tree / name)


def cosmic_ray(*args: str, cwd: Path) -> None:
    """Run a Cosmic Ray command with this interpreter's installation."""
    tool = Path(sys.executable).with_name(args[0])
    subprocess.run([str(tool), *args[1:]], cwd=cwd, check=True)


def keep_a_sample(session: Path, size: int, seed: int) -> int:
    """Mark all but a seeded sample of ``size`` mutants skipped; return how many there were.

    The sample is drawn from the mutants sorted by module, operator and occurrence, so the same
    source gives the same sample whatever the tests.
    """
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    with use_db(str(session), WorkDB.Mode.open) as db:
        items = sorted(
            db.work_items,
            key=lambda item: [
                (str(m.module_path), m.operator_name, m.occurrence) for m in item.mutations
            ],
        )
        kept = set(random.Random(seed).sample(range(len(items)), min(size, len(items))))
        skipped = [item.job_id for number, item in enumerate(items) if number not in kept]
        if skipped:
            db.set_multiple_results(skipped, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
        return len(items)


def results(session: Path) -> tuple[Counter[str], list[str]]:
    """Counts of killed, survived and incompetent mutants, and a line per survivor."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    counts: Counter[str] = Counter()
    survivors = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            if result.worker_outcome == WorkerOutcome.SKIPPED:
                continue
            outcome = result.test_outcome.value if result.test_outcome else "incompetent"
            counts[outcome] += 1
            if outcome == TestOutcome.SURVIVED:
                for mutation in item.mutations:
                    survivors.append(
                        f"{mutation.module_path}:{mutation.start_pos[0]} {mutation.operator_name}"
                        f" #{mutation.occurrence}"
                    )
    return counts, survivors


def run_target(name: str, args: argparse.Namespace, work: Path) -> str:
    """Mutate one target in the copy; return its summary line."""
    modules, tests = TARGETS[name]
    script = work / f"{name}.sh"
    script.write_text(TEST_SCRIPT.format(python=sys.executable, tests=" ".join(tests)))
    config = work / f"{name}.toml"
    config.write_text(
        CONFIG.format(modules=modules, timeout=float(args.timeout), script=script.resolve())
    )
    session = work / f"{name}.sqlite"
    session.unlink(missing_ok=True)
    tree = work / "tree"
    cosmic_ray("cosmic-ray", "init", str(config.resolve()), str(session.resolve()), cwd=tree)
    total = keep_a_sample(session, args.sample, args.seed) if args.sample else 0
    baseline = subprocess.run(["sh", str(script.resolve())], check=False).returncode
    if baseline != 0:
        return f"{name}: the tests fail without any mutant (exit {baseline}); nothing measured"
    cosmic_ray("cosmic-ray", "exec", str(config.resolve()), str(session.resolve()), cwd=tree)
    counts, survivors = results(session)
    judged = counts["killed"] + counts["survived"]
    score = f"{100 * counts['killed'] / judged:.1f} %" if judged else "n/a"
    drawn = f" (a sample of {args.sample} of {total}, seed {args.seed})" if args.sample else ""
    lines = [
        f"{name}: {counts['killed']} killed, {counts['survived']} survived, "
        f"{counts['incompetent']} incompetent{drawn}: score {score}",
        *(f"    survived: {line}" for line in survivors),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Copy the tree, mutate the targets asked for, print and save the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", default=",".join(TARGETS), help="comma-separated targets")
    parser.add_argument("--sample", type=int, default=0, help="mutants per target (0: all)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per mutant")
    parser.add_argument("--tree", type=Path, default=ROOT, help="checkout whose code and tests run")
    parser.add_argument("--work", type=Path, default=ROOT / ".mutants", help="scratch folder")
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.targets.split(",") if name.strip()]
    unknown = sorted(set(names) - set(TARGETS))
    if unknown:
        parser.error(f"unknown targets {unknown}; accepted: {', '.join(TARGETS)}")
    args.work.mkdir(parents=True, exist_ok=True)
    copy_tree(args.tree.resolve(), args.work / "tree")
    summary = [run_target(name, args, args.work.resolve()) for name in names]
    report = "\n".join(summary) + "\n"
    (args.work / "summary.txt").write_text(report)
    sys.stdout.write(report)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    sys.exit(main())
