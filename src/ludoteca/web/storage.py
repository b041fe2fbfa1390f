"""SQLite storage of web games: the games, their seats and their moves.

One file holds every game (by default ``$XDG_DATA_HOME/ludoteca/games.sqlite3``, or
``~/.local/share/ludoteca/games.sqlite3``). A game row keeps the rules (game id and options), the
start position when it is not the default, the seats and the resignation; the moves table keeps
the moves in notation, numbered from 1, chance outcomes included. Every change is committed
before the call returns, and `GameStore.append_move` checks the move number inside the same
transaction, so two writers can never both add move ``n``.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ludoteca.core.errors import LudotecaError
from ludoteca.core.options import OptionValue

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    start TEXT,
    resigned INTEGER,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    agent TEXT,
    token TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    text TEXT NOT NULL,
    played TEXT NOT NULL,
    PRIMARY KEY (game_id, number)
);
"""


class StorageError(LudotecaError):
    """The database cannot be opened or is not a Ludoteca games database."""


class MoveConflictError(LudotecaError):
    """Another move was stored first: the game has moved on since the caller looked."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of a stored game.

    Attributes:
        seat: The player index.
        kind: ``"human"`` (the creator plays it), ``"invite"`` (another person, by a link) or
            ``"computer"``.
        agent: The agent spec of a computer seat (``"level:3"``), else ``None``.
        token: The secret that lets a person move for this seat (``None`` for computers).
    """

    seat: int
    kind: str
    agent: str | None
    token: str | None


@dataclass(frozen=True, slots=True)
class GameRow:
    """A stored game: its rules, start, seats, moves and dates."""

    id: str
    game: str
    options: dict[str, OptionValue]
    start: str | None
    seats: tuple[SeatRow, ...]
    moves: tuple[str, ...]
    resigned: int | None
    created: str
    updated: str


def default_db_path() -> Path:
    """Where games are kept unless ``--db`` says otherwise (the user's data directory)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "ludoteca" / "games.sqlite3"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class GameStore:
    """The games database. Methods are thread-safe; each one is one committed transaction."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open (creating if needed) the database at ``path``.

        Raises:
            StorageError: The file or its folder cannot be created, or it is not a Ludoteca
                games database.
        """
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._connection = sqlite3.connect(
                self.path, check_same_thread=False, isolation_level=None
            )
        except (OSError, sqlite3.Error) as error:
            raise StorageError(f"cannot open the games database {str(path)!r}: {error}") from None
        try:
            self._connection.execute("PRAGMA foreign_keys = ON")
            self._connection.execute("PRAGMA synchronous = FULL")
            version = self._connection.execute("PRAGMA user_version").fetchone()[0]
            tables = {
                row[0]
                for row in self._connection.execute("SELECT name FROM sqlite_master")
                if row[0]
            }
            if tables and not {"games", "seats", "moves"} <= tables:
                raise StorageError(
                    f"{str(path)!r} is a SQLite database of something else (tables: "
                    f"{', '.join(sorted(tables))}); give --db a new file or a Ludoteca database"
                )
            if version not in (0, SCHEMA_VERSION):
                raise StorageError(
                    f"{str(path)!r} has games database version {version}; this Ludoteca reads "
                    f"version {SCHEMA_VERSION}"
                )
            self._connection.executescript(_SCHEMA)
            self._connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.Error as error:
            self._connection.close()
            raise StorageError(f"{str(path)!r} is not a usable SQLite database: {error}") from None
        except StorageError:
            self._connection.close()
            raise

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._connection.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._connection.execute("BEGIN IMMEDIATE")
            try:
                yield self._connection
            except BaseException:
                self._connection.execute("ROLLBACK")
                raise
            self._connection.execute("COMMIT")

    # -- writing ---------------------------------------------------------------------------

    def create_game(
        self,
        game_id: str,
        *,
        game: str,
        options: dict[str, OptionValue],
        start: str | None,
        seats: Sequence[SeatRow],
    ) -> None:
        """Store a new game without moves."""
        stamp = _now()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games (id, game, options, start, resigned, created, updated) "
                "VALUES (?, ?, ?, ?, NULL, ?, ?)",
                (game_id, game, json.dumps(options), start, stamp, stamp),
            )
            db.executemany(
                "INSERT INTO seats (game_id, seat, kind, agent, token) VALUES (?, ?, ?, ?, ?)",
                [(game_id, s.seat, s.kind, s.agent, s.token) for s in seats],
            )

    def append_move(self, game_id: str, number: int, text: str) -> None:
        """Store ``text`` as move ``number`` (1-based) of the game.

        Raises:
            MoveConflictError: The game does not have exactly ``number - 1`` moves any more.
        """
        stamp = _now()
        with self._transaction() as db:
            count = db.execute(
                "SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            if count != number - 1:
                raise MoveConflictError(
                    f"the game has moved on: it has {count} moves, not {number - 1}"
                )
            db.execute(
                "INSERT INTO moves (game_id, number, text, played) VALUES (?, ?, ?, ?)",
                (game_id, number, text, stamp),
            )
            db.execute("UPDATE games SET updated = ? WHERE id = ?", (stamp, game_id))

    def truncate_moves(self, game_id: str, keep: int) -> None:
        """Delete every move after the first ``keep`` (undo)."""
        with self._transaction() as db:
            db.execute("DELETE FROM moves WHERE game_id = ? AND number > ?", (game_id, keep))
            db.execute("UPDATE games SET updated = ? WHERE id = ?", (_now(), game_id))

    def set_resigned(self, game_id: str, seat: int | None) -> None:
        """Record that ``seat`` resigned (``None``: clear it)."""
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET resigned = ?, updated = ? WHERE id = ?", (seat, _now(), game_id)
            )

    # -- reading ---------------------------------------------------------------------------

    def load(self, game_id: str) -> GameRow | None:
        """The stored game, or ``None`` if there is none with this id."""
        with self._lock:
            row = self._connection.execute(
                "SELECT id, game, options, start, resigned, created, updated FROM games "
                "WHERE id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            seats = self._connection.execute(
                "SELECT seat, kind, agent, token FROM seats WHERE game_id = ? ORDER BY seat",
                (game_id,),
            ).fetchall()
            moves = self._connection.execute(
                "SELECT text FROM moves WHERE game_id = ? ORDER BY number", (game_id,)
            ).fetchall()
        return _game_row(row, seats, [m[0] for m in moves])

    def list_games(self) -> list[dict[str, Any]]:
        """Every game, most recently changed first: id, game, moves, resigned and dates."""
        with self._lock:
            rows = self._connection.execute(
                "SELECT g.id, g.game, g.resigned, g.created, g.updated, "
                "(SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) "
                "FROM games g ORDER BY g.updated DESC, g.created DESC"
            ).fetchall()
        return [
            {
                "id": r[0],
                "game": r[1],
                "resigned": r[2],
                "created": r[3],
                "updated": r[4],
                "move_count": r[5],
            }
            for r in rows
        ]


def _game_row(row: Sequence[Any], seats: Sequence[Sequence[Any]], moves: list[str]) -> GameRow:
    return GameRow(
        id=row[0],
        game=row[1],
        options=json.loads(row[2]),
        start=row[3],
        resigned=row[4],
        created=row[5],
        updated=row[6],
        seats=tuple(SeatRow(seat=s[0], kind=s[1], agent=s[2], token=s[3]) for s in seats),
        moves=tuple(moves),
    )
