"""The named accessors of a position array, declared in a game's layout and written by the template.

Every game reads and writes its position array by name (docs/kernels.md, "Named accessors"),
and most accessors have one of three shapes over a region of the array: a *view* of it, the
*get* of one field, the *set* of one field. A game declares them in ``kernels/layout.py``,
one entry each, and `ludoteca.core.kernel_template` writes them, compiled, into the game's
contract module and types them in its stub::

    ACCESSORS = {
        "layer(side)": "view LAYER_AT NUM_SQUARES: ``side``'s layer of the board: a view",
        "board_cells()": "view BOARD_AT: the board, one cell per square: a view",
        "in_hand(side)": "get HAND_AT: counters of ``side`` in hand",
        "set_in_hand(side, count)": "set HAND_AT: set the counters of ``side`` in hand",
        "counters_on(side, point)": "get COUNT_AT NUM_POINTS: counters of ``side`` on ``point``",
    }

The key names the accessor and its parameters after the position ``s``; the value is the
shape, the offset (a name of the layout), optionally the length of a row, and after the colon
the docstring. With a row length the first parameter picks a row (``side``) and a view is that
row, a field one entry of it; without one, a view is the array from the offset on and a field
is ``s[offset + index]``. A setter's last parameter is the value written. An accessor of any
other shape (one that writes two regions, a view whose length is a field) is written by hand
in the layout as before. Nothing here imports numba: the declarations are read as text.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

SHAPES = ("view", "get", "set")
_KEY = re.compile(r"^([a-z_][a-z0-9_]*)\(([a-z0-9_, ]*)\)$")


@dataclass(frozen=True)
class Accessor:
    """One declared accessor: its name, parameters after ``s``, shape, offset, row and doc."""

    name: str
    params: tuple[str, ...]
    shape: str
    offset: str
    row: str | None
    doc: str

    def body(self) -> str:
        """The accessor's statements (the index arithmetic of its shape)."""
        params = list(self.params)
        value = params.pop() if self.shape == "set" else None
        if self.row is not None:
            start = f"{self.offset} + {params[0]} * {self.row}"
            if self.shape == "view":
                return f"start = {start}\nreturn s[start : start + {self.row}]"
            index = f"{start} + {params[1]}"
        elif self.shape == "view":
            return f"return s[{self.offset}:]"
        else:
            index = f"{self.offset} + {params[0]}"
        return f"s[{index}] = {value}" if value is not None else f"return s[{index}]"

    def source(self) -> str:
        """The compiled function."""
        body = "".join(f"    {line}\n" for line in self.body().splitlines())
        doc = self.doc if self.doc.endswith(".") else self.doc + "."
        return (
            f"@njit(cache=True)\ndef {self.name}({', '.join(['s', *self.params])}):\n"
            f'    """{doc[:1].upper()}{doc[1:]}"""\n{body}'
        )

    def stub(self) -> str:
        """The typed signature."""
        result = {"view": "Cells", "get": "int", "set": "None"}[self.shape]
        params = ", ".join(["s: Cells", *(f"{name}: int" for name in self.params)])
        return f"def {self.name}({params}, /) -> {result}: ...\n"


def _parse(key: str, text: str) -> Accessor:
    where = f"ACCESSORS[{key!r}]"
    match = _KEY.match(key)
    if match is None:
        raise ValueError(f"{where}: the key is name(parameters), e.g. 'in_hand(side)'")
    name, listed = match.groups()
    params = tuple(p.strip() for p in listed.split(",") if p.strip())
    head, colon, doc = text.partition(":")
    words = head.split()
    if not colon or not doc.strip() or not 2 <= len(words) <= 3 or words[0] not in SHAPES:
        raise ValueError(f"{where}: write 'view|get|set OFFSET [ROW]: what it is'")
    shape, offset, row = words[0], words[1], words[2] if len(words) == 3 else None
    needed = (1 if row else 0) + (shape != "view") + (shape == "set")
    if len(params) != needed:
        raise ValueError(f"{where}: a {shape} {'by row ' if row else ''}takes {needed} parameters")
    return Accessor(name, params, shape, offset, row, " ".join(doc.split()))


def read_accessors(tree: ast.Module) -> tuple[Accessor, ...]:
    """The accessors a module declares in ``ACCESSORS`` (none if it declares none)."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "ACCESSORS" for target in node.targets
        ):
            table = ast.literal_eval(node.value)
            if not isinstance(table, dict):
                raise ValueError("ACCESSORS is a dict of 'name(parameters)': 'shape OFFSET: doc'")
            return tuple(_parse(str(key), str(text)) for key, text in table.items())
    return ()


def layout_names(accessors: tuple[Accessor, ...]) -> set[str]:
    """The layout's names the accessors read (their offsets and row lengths)."""
    return {name for a in accessors for name in (a.offset, a.row) if name is not None}
