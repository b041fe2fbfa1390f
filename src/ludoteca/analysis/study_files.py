"""Writing a study's files: ``study.json``, ``games.csv``, ``report.html`` (and JSON files).

Each file is written to a temporary name in the output folder and then renamed, so a folder
never holds half a file. ``study.json`` holds the numbers only (identical for a given seed
whatever ran the games); how the study ran (the command, wall and CPU time, load) is in
``run.json`` and at the foot of the report.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ludoteca.analysis.study import COLUMNS, GameTable
from ludoteca.analysis.study_report import render_report


def write_study(
    out: Path,
    study: dict[str, Any],
    run: dict[str, Any],
    tables: Sequence[GameTable],
) -> None:
    """Write the study's four files in ``out`` (created if needed).

    Raises:
        OSError: The folder or a file cannot be written.
    """
    out.mkdir(parents=True, exist_ok=True)
    write_json(out / "study.json", study)
    write_json(out / "run.json", run)
    _write(out / "games.csv", games_csv([v["label"] for v in study["variants"]], tables))
    _write(out / "report.html", render_report(study, run))


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` as JSON, atomically; a NaN (a number the games could not give) is null.

    Raises:
        OSError: The file cannot be written.
    """
    _write(path, json.dumps(_finite(data), indent=1, allow_nan=False) + "\n")


def _finite(data: Any) -> Any:
    if isinstance(data, float) and not math.isfinite(data):
        return None
    if isinstance(data, dict):
        return {key: _finite(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [_finite(value) for value in data]
    return data


def games_csv(labels: Sequence[str], tables: Sequence[GameTable]) -> str:
    """One row per game: its variant, number and every per-game column."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["variant", "label", "game", *COLUMNS])
    for index, (label, table) in enumerate(zip(labels, tables, strict=True)):
        columns = [table.columns[name].tolist() for name in COLUMNS]
        safeguard = COLUMNS.index("safeguard")
        decided = COLUMNS.index("decided_at")
        for number, row in enumerate(zip(*columns, strict=True)):
            values = list(row)
            values[safeguard] = int(values[safeguard])
            values[decided] = (
                "" if values[decided] != values[decided] else round(values[decided], 4)
            )
            writer.writerow([index + 1, label, number + 1, *values])
    return text.getvalue()


def _write(path: Path, text: str) -> None:
    with tempfile.NamedTemporaryFile(
        "w", dir=path.parent, suffix=".tmp", delete=False, encoding="utf-8"
    ) as handle:
        handle.write(text)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(handle.name, 0o666 & ~umask)  # as an ordinary new file, not the temporary's 0600
    os.replace(handle.name, path)
