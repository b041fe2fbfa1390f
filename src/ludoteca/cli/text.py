"""Text for the terminal wrapped at word boundaries to its width (80 columns when unknown).

`wrap` breaks each line of a text between words, with a hanging indent that keeps lists and
two-column help readable: a continuation lines up with the text after a list number
(``  2. ...``) or after the first column of a row (``  save [FILE]  save the game ...``).
`say` prints such a text on a console at the console's width; the console does no wrapping of
its own, so what is printed is exactly what `wrap` made.
"""

from __future__ import annotations

import re
import shutil
import textwrap

from rich.console import Console
from rich.markup import escape

DEFAULT_WIDTH = 80
_LIST_ITEM = re.compile(r"(\s*)(?:\d+\.|[-*•])\s+(?=\S)")
_TWO_COLUMNS = re.compile(r"(\s+\S.*?\S?\s{2,})(?=\S)")


def terminal_width() -> int:
    """The terminal's width in columns: ``$COLUMNS``, the terminal's own, else 80."""
    return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns


def _hanging_indent(line: str) -> str:
    for pattern in (_LIST_ITEM, _TWO_COLUMNS):
        found = pattern.match(line)
        if found is not None:
            return " " * found.end()
    return " " * (len(line) - len(line.lstrip(" ")))


def wrap(text: str, width: int) -> str:
    """``text`` with every line broken between words to at most ``width`` columns.

    Words longer than the width (a long file path) are kept whole on a line of their own, so
    that they can still be copied; everything else fits.
    """
    width = max(width, 20)
    lines: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        indent = _hanging_indent(line)
        if len(indent) > width // 2:
            indent = "    "
        lines.extend(
            textwrap.wrap(
                line,
                width=width,
                subsequent_indent=indent,
                break_long_words=False,
                break_on_hyphens=False,
                drop_whitespace=True,
            )
            or [""]
        )
    return "\n".join(lines)


def say(console: Console, text: str, *, style: str | None = None) -> None:
    """Print plain ``text`` (no markup) wrapped to the console's width, in ``style``."""
    console.print(escape(wrap(text, console.width)), style=style, soft_wrap=True)
