"""The compiled cache is keyed by the kernels' sources: an edit is never run stale.

numba's own cache checks only the file a compiled function is in. These tests edit a helper in
one module that a kernel of another module calls, in a package of their own run in fresh
processes, and check that the next process runs the edited helper, and the one after it loads
it from the cache. They also check that every way into Ludoteca chooses the directory before
numba is imported, and that pruning never deletes a directory a process is using.
"""

from __future__ import annotations

import fcntl
import json
import multiprocessing
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ludoteca import kernel_cache

HELPER = """\
from numba import njit


@njit(cache=True)
def bonus():
    return {value}
"""

KERNEL = """\
from numba import njit

from kernelpkg.helpers import bonus


@njit(cache=True)
def score(x):
    return x + bonus()
"""

# Runs the kernel in a fresh process; prints its result, its cache hits and misses, the directory.
RUN_KERNEL = """\
import json
from kernelpkg import kernels
import numba
value = kernels.score(1)
stats = kernels.score.stats
print(json.dumps([value, sum(stats.cache_hits.values()), sum(stats.cache_misses.values()),
                  numba.config.CACHE_DIR]))
"""


def _write_package(root: Path, *, keyed: bool, bonus: int) -> None:
    package = root / "kernelpkg"
    package.mkdir(exist_ok=True)
    init = (
        "from pathlib import Path\n"
        "from ludoteca.kernel_cache import add_kernel_sources\n"
        "add_kernel_sources(Path(__file__).parent)\n"
        if keyed
        else ""  # numba's own cache, keyed by each file's timestamp
    )
    (package / "__init__.py").write_text(init)
    (package / "helpers.py").write_text(HELPER.format(value=bonus))
    (package / "kernels.py").write_text(KERNEL)


def _edit_helper(root: Path, bonus: int) -> None:
    """Change the helper only: the kernel's own file keeps its contents and its timestamp."""
    kernels = root / "kernelpkg" / "kernels.py"
    before = kernels.stat().st_mtime_ns
    (root / "kernelpkg" / "helpers.py").write_text(HELPER.format(value=bonus))
    assert kernels.stat().st_mtime_ns == before


def _run_kernel(root: Path, env: dict[str, str]) -> tuple[int, int, int, str]:
    done = subprocess.run(
        [sys.executable, "-c", RUN_KERNEL],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root), **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    value, hits, misses, directory = json.loads(done.stdout.strip().splitlines()[-1])
    return value, hits, misses, directory


def test_an_edited_helper_of_another_module_is_compiled_again_and_then_cached(
    tmp_path: Path,
) -> None:
    _write_package(tmp_path, keyed=True, bonus=1)
    env = {kernel_cache.ROOT_VARIABLE: str(tmp_path / "cache")}

    assert _run_kernel(tmp_path, env)[:3] == (2, 0, 1)  # compiled
    value, hits, misses, first_dir = _run_kernel(tmp_path, env)
    assert (value, hits, misses) == (2, 1, 0)  # loaded from the cache

    _edit_helper(tmp_path, 10)
    value, hits, misses, second_dir = _run_kernel(tmp_path, env)
    assert (value, hits, misses) == (11, 0, 1)  # the edit runs: compiled again
    assert second_dir != first_dir
    assert _run_kernel(tmp_path, env)[:3] == (11, 1, 0)  # and cached


def test_without_the_key_numba_runs_the_old_helper(tmp_path: Path) -> None:
    """The case the key exists for: numba's own cache keeps what the kernel inlined."""
    _write_package(tmp_path, keyed=False, bonus=1)
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "plain")}
    assert _run_kernel(tmp_path, env)[:3] == (2, 0, 1)
    _edit_helper(tmp_path, 10)
    assert _run_kernel(tmp_path, env)[:3] == (2, 1, 0)  # stale: the helper now gives 10


# -- the key --------------------------------------------------------------------------------------

PACKAGE = Path(kernel_cache.__file__).parent


def test_the_key_covers_the_rules_layers_and_every_module_that_imports_numba() -> None:
    sources = set(kernel_cache.kernel_sources(PACKAGE))
    importers = {
        path
        for path in PACKAGE.rglob("*.py")
        if re.search(r"^\s*(import|from) numba\b", path.read_text(), re.MULTILINE)
    }
    layers = {path for layer in ("core", "games") for path in (PACKAGE / layer).rglob("*.py")}
    assert importers and importers <= sources
    assert PACKAGE / "games" / "steppin_stones" / "kernels" / "moves.py" in sources
    assert PACKAGE / "core" / "playouts.py" in sources  # constants the kernels read
    assert sources == importers | layers
    assert PACKAGE / "web" / "app.py" not in sources


def test_the_key_changes_with_any_source_byte_numba_or_the_cpu(tmp_path: Path) -> None:
    first, second = tmp_path / "a.py", tmp_path / "b.py"
    first.write_text("X = 1\n")
    second.write_text("Y = 2\n")

    def key(numba: str = "0.68.1", cpu: str = "znver4 +avx2") -> str:
        return kernel_cache.cache_key([first, second], numba_version=numba, cpu=cpu)

    before = key()
    assert key() == before
    assert key(numba="0.69.0") != before
    assert key(cpu="skylake +avx2") != before
    second.write_text("Y = 3\n")
    assert key() != before
    second.write_text("Y = 2\n")
    assert key() == before  # the same sources find their directory again


# -- every way in chooses the directory before numba is imported ----------------------------------

WAYS_IN = {
    "a game package first": "import ludoteca.games.salta\nimport numba",
    "numba first": "import numba\nimport ludoteca.games.salta",
    "the command": "from ludoteca.cli import main",
}


@pytest.mark.parametrize("way", WAYS_IN)
def test_every_way_in_uses_the_keyed_directory(way: str, tmp_path: Path) -> None:
    expected = kernel_cache.use_keyed_cache()  # this run's: under tests/conftest.py's root
    assert expected is not None and expected.parent == kernel_cache.cache_root()
    script = (
        WAYS_IN[way] + "\nimport os, numba\nfrom ludoteca import kernel_cache\n"
        "print(numba.config.CACHE_DIR, os.environ['NUMBA_CACHE_DIR'], kernel_cache.cache_dir())"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "set outside")},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(expected)] * 3


def _cache_dir_in_worker() -> str:
    import numba

    return str(numba.config.CACHE_DIR)


def test_a_worker_process_uses_the_keyed_directory() -> None:
    """Web searches run in spawned processes, which import everything again."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.apply(_cache_dir_in_worker) == str(kernel_cache.use_keyed_cache())


# -- pruning --------------------------------------------------------------------------------------


def _key_dir(root: Path, number: int, *, used_at: int) -> Path:
    directory = root / f"{number:016x}"
    (directory / "sub").mkdir(parents=True)
    (directory / kernel_cache.LOCK_NAME).touch()
    os.utime(directory / kernel_cache.LOCK_NAME, (used_at, used_at))
    return directory


def test_pruning_keeps_the_directory_in_use_the_newest_and_those_locked(tmp_path: Path) -> None:
    keys = [_key_dir(tmp_path, number, used_at=1_000 * number) for number in range(1, 7)]
    current = keys[0]  # the oldest stamp, but the one this process uses
    locked = keys[1]  # another process holds it
    stranger = tmp_path / "notes"  # not named like a key
    stranger.mkdir()
    descriptor = os.open(locked / kernel_cache.LOCK_NAME, os.O_RDWR)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH)
        deleted = kernel_cache.prune(tmp_path, keep=current, keep_others=2)
    finally:
        os.close(descriptor)
    assert sorted(deleted) == [keys[2], keys[3]]  # keys[4] and keys[5] are the newest others
    remaining = sorted(path.name for path in tmp_path.iterdir())
    assert remaining == sorted([key.name for key in (current, locked, *keys[4:])] + ["notes"])


def test_a_process_keeps_its_directory_locked_while_it_runs(tmp_path: Path) -> None:
    script = textwrap.dedent("""\
        import sys, numba
        from ludoteca import kernel_cache
        print(kernel_cache.cache_dir(), flush=True)
        sys.stdin.readline()
    """)
    env = {**os.environ, kernel_cache.ROOT_VARIABLE: str(tmp_path)}
    with subprocess.Popen(
        [sys.executable, "-c", script], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True,
    ) as child:  # fmt: skip
        assert child.stdout is not None and child.stdin is not None
        in_use = Path(child.stdout.readline().strip())
        others = [_key_dir(tmp_path, number, used_at=2_000_000_000) for number in range(1, 4)]
        kernel_cache.prune(tmp_path, keep=others[0], keep_others=0)
        assert in_use.is_dir() and (in_use / kernel_cache.LOCK_NAME).exists()
        assert not others[1].exists() and not others[2].exists()
        child.stdin.write("\n")
        child.stdin.flush()
    assert child.returncode == 0
    kernel_cache.prune(tmp_path, keep=others[0], keep_others=0)  # now nobody uses it
    assert not in_use.exists()
