"""Charts of a review: the first player's winning chance ply by ply, in text and as an image.

`sparkline` draws the curve in block characters for the terminal, with a row of marks under it
for the worse moves; `write_plot` draws it with matplotlib to a PNG or SVG file (mistakes and
blunders marked), written atomically.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Final

from ludoteca.analysis.review_model import Review, ReviewError
from ludoteca.core.records import write_atomically

BLOCKS: Final = " ▁▂▃▄▅▆▇█"
#: The mark under a column holding a move of that label (the worst label in the column wins).
MARKS: Final = {"blunder": "x", "mistake": "?", "inaccuracy": "·"}
_SEVERITY: Final = ("inaccuracy", "mistake", "blunder")
PLOT_FORMATS: Final = (".png", ".svg")
_COLOURS: Final = {"inaccuracy": "#e0a800", "mistake": "#e06c00", "blunder": "#c8322b"}


def sparkline(review: Review, width: int = 72) -> tuple[str, str]:
    """The curve in at most ``width`` block characters, and the row of marks under it.

    Each column is the mean chance of the plies it covers (0: empty, 1: a full block).
    """
    curve = review.first_player_curve()
    if not curve:
        return "", ""
    columns = min(width, len(curve))
    line, marks = [], []
    worst_by_ply = {d.ply: d.label for d in review.decisions if d.label in MARKS}
    for column in range(columns):
        lo = column * len(curve) // columns
        hi = max(lo + 1, (column + 1) * len(curve) // columns)
        chunk = curve[lo:hi]
        mean = sum(chance for _, chance in chunk) / len(chunk)
        line.append(BLOCKS[round(mean * (len(BLOCKS) - 1))])
        labels = [worst_by_ply[ply] for ply, _ in chunk if ply in worst_by_ply]
        worst = max(labels, key=_SEVERITY.index) if labels else None
        marks.append(MARKS[worst] if worst else " ")
    return "".join(line), "".join(marks).rstrip()


def check_plot_path(path: str | os.PathLike[str]) -> Path:
    """``path`` if it names a PNG or SVG file in an existing folder.

    Raises:
        ReviewError: Another extension, or no such folder.
    """
    target = Path(path)
    if target.suffix.lower() not in PLOT_FORMATS:
        raise ReviewError(f"--plot writes .png or .svg files; got {str(target)!r}")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise ReviewError(f"--plot: no folder {str(folder)!r} to write {target.name} in")
    return target


def write_plot(
    review: Review,
    path: str | os.PathLike[str],
    *,
    title: str = "",
    first_player: str = "first player",
) -> None:
    """Draw the first player's chance per ply to ``path`` (PNG or SVG by its extension).

    ``first_player`` names seat 0 in the legend.

    Raises:
        ReviewError: A bad path (see `check_plot_path`) or the file cannot be written.
    """
    from matplotlib.figure import Figure  # loaded only when a plot is asked for

    target = check_plot_path(path)
    curve = review.first_player_curve()
    figure = Figure(figsize=(8, 3), dpi=100)
    axes = figure.add_subplot()
    if curve:
        plies, chances = zip(*curve, strict=True)
        axes.plot(plies, chances, color="#2d6cc0", linewidth=1.4, label=f"{first_player}'s chance")
        axes.fill_between(plies, chances, 0.5, color="#2d6cc0", alpha=0.12)
    chance_at = dict(curve)
    for label in _SEVERITY:
        points = [(d.ply, chance_at[d.ply]) for d in review.decisions if d.label == label]
        if points:
            xs, ys = zip(*points, strict=True)
            size = 18 if label == "inaccuracy" else 36
            axes.scatter(xs, ys, s=size, color=_COLOURS[label], zorder=3, label=label)
    axes.axhline(0.5, color="#888", linewidth=0.6, linestyle=":")
    axes.set_ylim(0, 1)
    axes.set_xlabel("ply")
    axes.set_ylabel("chance of winning")
    axes.set_title(title or f"{review.game}: review ({review.method})")
    axes.legend(loc="upper right", fontsize="small", frameon=False)
    figure.tight_layout()
    buffer = io.BytesIO() if target.suffix.lower() == ".png" else io.StringIO()
    figure.savefig(buffer, format=target.suffix.lower()[1:])
    _write_bytes_atomically(target, buffer.getvalue())


def _write_bytes_atomically(target: Path, data: bytes | str) -> None:
    if isinstance(data, str):
        write_atomically(target, data)  # a SaveError says what went wrong
        return
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, target)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise ReviewError(f"could not write {target}: {error}") from None
