"""A test run never reads or writes the user's data: every folder lies in the run's own folder.

And the reason it matters: with the user's folders, a solved table cached by an earlier run let a
broken solver pass every test of Pente Grammai; with the run's own folder the broken solver shows.
"""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
from pathlib import Path

import numpy as np

from ludoteca.core import paths
from ludoteca.games.pente_grammai import PenteGrammaiGame, solver
from ludoteca.web.storage import default_db_path
from tests.conftest import RUN_DIR, RUN_STARTED
from tests.isolation import isolate
from tests.support import make_game

#: The real home folder of the user running the tests (not ``$HOME``, which a test may change).
REAL_HOME = Path(pwd.getpwuid(os.getuid()).pw_dir).resolve()


def test_every_data_and_cache_folder_lies_in_the_runs_own_folder() -> None:
    rules = solver.rules_params(make_game("pente_grammai", PenteGrammaiGame).params)
    used = {
        "Pente Grammai's solved tables": solver.cache_file(rules, 1).parent,
        "the data folder": paths.data_dir(),
        "the autosaves": paths.autosave_dir(),
        "the web database": default_db_path().parent,
    }
    for what, folder in used.items():
        assert folder.resolve().is_relative_to(RUN_DIR), (what, folder)
        for users in (".local/share", ".cache", ".config"):
            assert not folder.resolve().is_relative_to(REAL_HOME / users), (what, folder)
    assert not any(name in os.environ for name in ("LUDOTECA_CACHE", "LUDOTECA_DB"))
    assert RUN_DIR.name.startswith("ludoteca-tests-")


def test_every_table_in_the_runs_cache_was_written_by_this_run() -> None:
    tables = list(solver.cache_dir().glob("*.npy"))
    assert all(table.stat().st_mtime >= RUN_STARTED for table in tables), tables


# The solver broken on purpose in a fresh process: every value 0 (a fair game everywhere). The
# process prints the start value it got; moving first is in fact a small edge (docs/rules).
BROKEN_SOLVER = """
import numpy as np
from ludoteca.games.pente_grammai import PenteGrammaiGame, solver
from tests.support import make_game

def broken(starts, codes, tolerance, max_sweeps):
    return np.zeros((starts.size - 1) // 6), 1

solver.iterate_values = broken
game = make_game("pente_grammai", PenteGrammaiGame)
start = game.initial_state().apply("first-0")
print(solver.solve(game.params).value_before_roll(start.cells))
"""


def _start_value(env: dict[str, str]) -> float:
    done = subprocess.run(
        [sys.executable, "-c", BROKEN_SOLVER],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,  # a safety net: the solving takes seconds
    )
    return float(done.stdout.split()[-1])


def test_a_broken_solver_is_not_hidden_by_a_warm_cache(tmp_path: Path) -> None:
    game = make_game("pente_grammai", PenteGrammaiGame)
    table = solver.solve(game.params)  # this run's own solution
    true_start = table.value_before_roll(game.initial_state().apply("first-0").cells)
    assert abs(true_start) > 1e-3  # so the broken solver's 0 is told apart

    # A user whose cache holds the correct table, as after any earlier run or game.
    home = tmp_path / "home"
    warm = home / ".cache" / "ludoteca" / solver.cache_file(table.params, table.keys.size).name
    warm.parent.mkdir(parents=True)
    np.save(warm, table.values)
    users = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("XDG_") and name != "LUDOTECA_CACHE"
    }
    users["HOME"] = str(home)
    users["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent)

    # With the user's folders the warm table hides the broken solver ...
    assert _start_value(users) == true_start
    # ... with a run's own folders (as tests/conftest.py sets them) the broken solver shows.
    isolated = dict(users)
    isolate(isolated, tmp_path / "run")
    assert _start_value(isolated) == 0.0
    assert list(warm.parent.iterdir()) == [warm]  # nothing written to the user's cache
