"""Warming up from numba's cache alone: loaded when the cache has it, refused when it must compile.

A function of a module written for the test stands for a game's kernels, so nothing of the
user's cache is read (numba caches it in the test run's own keyed cache folder).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from ludoteca.warmup import CompileNeededError, cache_only, warm_up_from_cache

KERNEL = """
from numba import njit


@njit(cache=True)
def triple(value):
    return 3 * value
"""


def _fresh_import(path: Path, name: str) -> ModuleType:
    """The module at ``path`` executed anew (new compiled functions, the same cache)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cache_only_refuses_a_compile_and_loads_what_the_cache_holds(tmp_path: Path) -> None:
    path = tmp_path / f"ludoteca_cache_probe_{tmp_path.name.replace('-', '_')}.py"
    path.write_text(KERNEL)
    first = _fresh_import(path, "first_copy")
    with pytest.raises(CompileNeededError, match="triple"), cache_only():
        first.triple(2)
    assert first.triple(2) == 6  # compiled, outside, and cached
    second = _fresh_import(path, "second_copy")
    with cache_only():  # a new dispatcher: loaded from the cache, nothing to compile
        assert second.triple(5) == 15
    assert second.triple.stats.cache_hits and not second.triple.stats.cache_misses


def test_an_unknown_game_is_an_error_not_a_cache_miss() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        warm_up_from_cache("no_such_game")


ENGINES_LEFT_OUT = """
from ludoteca.ai import search_tree
from ludoteca.warmup import is_warm, warm_up_game

warm_up_game("pente_grammai", engines=False)
print(is_warm("pente_grammai"), len(search_tree.descend.signatures))
warm_up_game("pente_grammai")
print(is_warm("pente_grammai"), len(search_tree.descend.signatures))
"""


def test_a_web_process_can_load_the_rules_without_the_engines_searches() -> None:
    """A server process warms up the rules and boards only (its search workers run the
    searches): the search tree's kernels stay unloaded until a warm-up asks for the engines.
    In a process of its own, so that nothing this run loaded earlier counts."""
    done = subprocess.run(
        [sys.executable, "-c", ENGINES_LEFT_OUT], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    rules_only, with_engines = done.stdout.split("\n")[:2]
    assert rules_only == "True 0"
    assert with_engines.startswith("True ") and with_engines != "True 0"
