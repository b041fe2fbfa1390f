"""Autosaves: every terminal game is written to the user's data folder after each move.

A game gets its own file in `ludoteca.core.paths.autosave_dir` (``<date>-<game>-<id>.json``,
an ordinary saved game) when it starts or is resumed; ``ludoteca play --resume`` lists the
unfinished ones and continues one in the same file. Finished games stay there too (they can be
replayed), up to `KEEP_FINISHED` of them; older finished ones are removed.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ludoteca.core import records
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game
from ludoteca.core.paths import autosave_dir

KEEP_FINISHED = 50


@dataclass(frozen=True)
class SavedGame:
    """An autosaved game found on disk."""

    path: Path
    record: records.GameRecord

    @property
    def is_finished(self) -> bool:
        """Whether the game had ended when it was saved."""
        return self.record.outcome is not None

    def summary(self) -> str:
        """One line: game, players, moves and when it was last played."""
        record = self.record
        players = ", ".join(
            f"{name}: {player}"
            for name, player in zip(record.game.player_names, record.players, strict=True)
        )
        count = len(record.moves)
        return (
            f"{record.game.name} ({players}) · {count} {'move' if count == 1 else 'moves'} · "
            f"last played {_local_time(record.updated)}"
        )


def new_path(game: Game) -> Path:
    """A fresh autosave file name for a game that starts now."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return autosave_dir() / f"{stamp}-{game.id}-{secrets.token_hex(3)}.json"


def write(path: Path, record: records.GameRecord) -> None:
    """Write the autosave atomically, creating the folder if needed.

    Raises:
        SaveError: It cannot be written (an unwritable data folder, a full disk).
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise records.SaveError(
            f"cannot create the autosave folder {str(path.parent)!r}: {error.strerror or error}"
        ) from None
    records.save(record, path)


def saved_games() -> list[SavedGame]:
    """Every readable autosave, the most recently played first (unreadable files are skipped)."""
    found = []
    folder = autosave_dir()
    if not folder.is_dir():
        return []
    for path in folder.glob("*.json"):
        try:
            saved = SavedGame(path, records.load(path))
            written = path.stat().st_mtime_ns  # finer than the record's seconds
        except (LudotecaError, OSError):
            continue  # written by another version, damaged or gone: left as it is
        found.append((saved.record.updated, written, saved))
    found.sort(key=lambda item: item[:2], reverse=True)
    return [saved for _, _, saved in found]


def unfinished_games() -> list[SavedGame]:
    """The autosaved games that have not ended, the most recently played first."""
    return [saved for saved in saved_games() if not saved.is_finished]


def prune_finished() -> None:
    """Remove the oldest finished autosaves beyond `KEEP_FINISHED` (failures are ignored)."""
    finished = [saved for saved in saved_games() if saved.is_finished]
    for saved in finished[KEEP_FINISHED:]:
        saved.path.unlink(missing_ok=True)


def _local_time(stamp: str) -> str:
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp
