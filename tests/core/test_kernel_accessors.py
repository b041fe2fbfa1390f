"""The named accessors a layout declares (`ludoteca.core.kernel_accessors`): what the template
writes for each shape, how it behaves on an array, and the declarations it refuses."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ludoteca.core import kernel_template as t
from ludoteca.core.kernel_accessors import Accessor, read_accessors

NIM = Path(__file__).resolve().parents[1] / "example_game" / "ludoteca_nim" / "kernels"

LAYOUT = """
COUNT_AT, HAND_AT, BOARD_AT, POINTS = 0, 20, 22, 10
ACCESSORS = {
    "point_counts(side)": "view COUNT_AT POINTS: the counts of ``side``: a view",
    "counters_on(side, point)": "get COUNT_AT POINTS: counters of ``side`` on ``point``",
    "set_counters_on(side, point, count)": "set COUNT_AT POINTS: put them there",
    "in_hand(side)": "get HAND_AT: counters of ``side`` in hand",
    "set_in_hand(side, count)": "set HAND_AT: set them",
    "board()": "view BOARD_AT: the rest",
}
"""
OFFSETS = {"COUNT_AT": 0, "HAND_AT": 20, "BOARD_AT": 22, "POINTS": 10}


def _declared(layout: str = LAYOUT) -> tuple[Accessor, ...]:
    return read_accessors(ast.parse(layout))


def _compiled_as_python() -> dict[str, Callable[..., Any]]:
    """The written accessors run as plain Python (numba slices and indexes the same way)."""
    names: dict[str, Any] = {"njit": lambda **_: lambda function: function, **OFFSETS}
    for accessor in _declared():
        exec(accessor.source(), names)
    return names


def test_each_shape_is_written_as_its_index_arithmetic() -> None:
    bodies = {accessor.name: accessor.body() for accessor in _declared()}
    assert bodies == {
        "point_counts": "start = COUNT_AT + side * POINTS\nreturn s[start : start + POINTS]",
        "counters_on": "return s[COUNT_AT + side * POINTS + point]",
        "set_counters_on": "s[COUNT_AT + side * POINTS + point] = count",
        "in_hand": "return s[HAND_AT + side]",
        "set_in_hand": "s[HAND_AT + side] = count",
        "board": "return s[BOARD_AT:]",
    }


def test_the_stub_types_views_fields_and_setters() -> None:
    stubs = [accessor.stub() for accessor in _declared()]
    assert stubs[0] == "def point_counts(s: Cells, side: int, /) -> Cells: ...\n"
    assert stubs[1] == "def counters_on(s: Cells, side: int, point: int, /) -> int: ...\n"
    assert stubs[2].endswith("count: int, /) -> None: ...\n")


def test_the_accessors_read_and_write_the_array() -> None:
    a = _compiled_as_python()
    cells = np.arange(30, dtype=np.int32)
    assert a["point_counts"](cells, 1).tolist() == list(range(10, 20))
    assert a["counters_on"](cells, 1, 3) == 13
    assert a["in_hand"](cells, 1) == 21
    assert a["board"](cells).tolist() == list(range(22, 30))
    a["set_counters_on"](cells, 0, 2, 99)
    a["set_in_hand"](cells, 0, 7)
    assert (cells[2], cells[20]) == (99, 7)
    view = a["point_counts"](cells, 0)
    view[0] = -1
    assert cells[0] == -1, "a view shares the array's memory"
    assert a["set_in_hand"].__doc__ == "Set them."


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('"in_hand": "get HAND_AT: x"', r"the key is name\(parameters\)"),
        ('"in_hand(side)": "peek HAND_AT: x"', "write 'view|get|set OFFSET"),
        ('"in_hand(side)": "get HAND_AT"', "write 'view|get|set OFFSET"),
        ('"in_hand(side, point)": "get HAND_AT: x"', "a get takes 1 parameters"),
        ('"counts()": "view COUNT_AT POINTS: x"', "a view by row takes 1 parameters"),
        ('"set_hand(side)": "set HAND_AT: x"', "a set takes 2 parameters"),
    ],
)
def test_a_malformed_declaration_says_what_to_write(entry: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _declared(f"ACCESSORS = {{{entry}}}\n")


def _nim_with_layout(package: Path, layout: str) -> None:
    package.mkdir()
    (package / "layout.py").write_text(layout)
    (package / "rules.py").write_text((NIM / "rules.py").read_text())


def test_the_template_writes_the_accessors_and_imports_what_they_read(tmp_path: Path) -> None:
    package = tmp_path / "kernels"
    _nim_with_layout(package, LAYOUT)
    spec = t.read_spec(package)
    source = t.module_source(spec)
    assert "from kernels.layout import BOARD_AT, COUNT_AT, HAND_AT, POINTS" in source
    assert "@njit(cache=True)\ndef set_in_hand(s, side, count):" in source
    stub = t.stub_source(spec)
    assert "def board(s: Cells, /) -> Cells: ..." in stub


def test_an_offset_the_layout_lacks_is_named(tmp_path: Path) -> None:
    package = tmp_path / "kernels"
    _nim_with_layout(package, LAYOUT.replace("HAND_AT, ", "").replace(", 20, 22", ", 22"))
    with pytest.raises(ValueError, match="ACCESSORS name HAND_AT, defined nowhere"):
        t.read_spec(package)


def test_an_accessor_written_by_hand_as_well_is_refused(tmp_path: Path) -> None:
    package = tmp_path / "kernels"
    _nim_with_layout(package, LAYOUT + "\ndef in_hand(s, side):\n    return s[side]\n")
    with pytest.raises(ValueError, match="in_hand declared in ACCESSORS and written by hand"):
        t.read_spec(package)
