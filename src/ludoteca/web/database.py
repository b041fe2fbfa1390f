"""The games database: opening it (SQLite or PostgreSQL), transactions, conditional writes.

`Database` opens (creating and upgrading) the database, runs each read and write in its own
transaction (database refusals become `StorageUnavailableError`), and holds the write every
change of a game goes through: `Database._bump` moves the game to its next version only if it is
still at the version the writer based the change on, announces the change in the same
transaction (`ludoteca.web.changes`), and calls the in-transaction result hooks
when the change stores a result: the store's own (`ludoteca.web.storage.GameStore` rates
rated games) and those of `ludoteca.web.core.GameCore.on_result_recorded`.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Engine,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, SQLAlchemyError

from ludoteca.core.paths import data_dir
from ludoteca.web.driver_sql import run
from ludoteca.web.events import ResultRecorded
from ludoteca.web.rows import (
    LOBBY_CHANGE,
    NOTIFY_CHANNEL,
    ChallengeTakenError,
    StorageError,
    StorageUnavailableError,
    VersionConflictError,
    Written,
    now_stamp,
)
from ludoteca.web.schema import (
    NO_WINNER,
    events_table,
    games_table,
    metadata,
    moves_table,
    seats_table,
)

#: How long an SQLite writer waits for another process's transaction before giving up.
DEFAULT_BUSY_SECONDS = 5.0
#: How long opening an SQLite database waits for another process that is opening or upgrading
#: it at the same moment (two servers started together): the upgrade holds the write lock for
#: as long as it takes, seconds on a busy machine, far longer than a move's transaction.
OPEN_WAIT_SECONDS = 600.0


# The statements of every move, built once (building them is a good part of a write's cost) and
# run on the driver's cursor (`ludoteca.web.driver_sql`).
@functools.cache
def _bump_statement(*columns: str) -> Any:
    """UPDATE games to the next version, only where it is still at ``:based_on``."""
    return (
        update(games_table)
        .where(games_table.c.id == bindparam("game_id"))
        .where(games_table.c.version == bindparam("based_on"))
        .values(
            version=bindparam("based_on") + 1,
            updated=bindparam("updated"),
            **{column: bindparam(column) for column in columns},
        )
    )


INSERT_MOVE = insert(moves_table)
_ANNOUNCE_EVENT = insert(events_table)
_ANNOUNCE_NOTIFY = text(f"SELECT pg_notify('{NOTIFY_CHANNEL}', :payload)")
_BEGIN_WRITE = text("BEGIN IMMEDIATE")
_BEGIN_READ = text("BEGIN")


def default_db_path() -> Path:
    """Where games are kept unless ``--db`` says otherwise (the user's data directory)."""
    return data_dir() / "games.sqlite3"


def database_url(location: str | os.PathLike[str]) -> str:
    """The SQLAlchemy URL for ``--db``: a ``postgresql://`` URL, or an SQLite file path.

    Raises:
        StorageError: A URL of a database Ludoteca does not support.
    """
    text_form = os.fspath(location)
    if "://" not in text_form:
        return "sqlite+pysqlite:///" + str(Path(text_form).expanduser().absolute())
    scheme = text_form.split("://", 1)[0].lower()
    if scheme in ("postgresql", "postgres", "postgresql+psycopg"):
        return "postgresql+psycopg://" + text_form.split("://", 1)[1]
    if scheme in ("sqlite", "sqlite+pysqlite"):
        return "sqlite+pysqlite://" + text_form.split("://", 1)[1]
    raise StorageError(
        f"--db {_shown(text_form)!r}: Ludoteca keeps games in an SQLite file (give its path) or "
        "in PostgreSQL (postgresql://user@host/database)"
    )


def _shown(url: str) -> str:
    """A database URL without its password, for messages and logs."""
    try:
        return make_url(url).render_as_string(hide_password=True) if "://" in url else url
    except ArgumentError:
        return url.split("@")[-1]


class Database:
    """The connection to the games database, and the writes every repository shares.

    Opening creates and upgrades the schema; each repository method is one committed transaction,
    thread-safe.
    """

    def __init__(
        self, location: str | os.PathLike[str], *, busy_seconds: float = DEFAULT_BUSY_SECONDS
    ) -> None:
        """Open (creating and upgrading if needed) the database at ``location``.

        Args:
            location: An SQLite file path, or a ``postgresql://`` URL.
            busy_seconds: How long an SQLite write waits for another process's transaction.

        Raises:
            StorageError: The file or its folder cannot be created, the server cannot be
                reached, or it is not a Ludoteca games database.
        """
        url = database_url(location)
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self.path: Path | None = None
        if self.is_sqlite:
            self.path = Path(url.split(":///", 1)[1])
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StorageError(
                    f"cannot open the games database {str(location)!r}: {error}"
                ) from None
        self.shown = str(self.path) if self.path is not None else _shown(url)
        #: Called in order as ``hook(connection, ResultRecorded)`` inside every write that
        #: stores a game's result: the ratings (`ludoteca.web.storage.GameStore`), then those
        #: of `ludoteca.web.core.GameCore.on_result_recorded`.
        self.result_hooks: list[Callable[[Connection, ResultRecorded], None]] = []
        self.engine = self._create_engine(url, busy_seconds)
        # Opening waits as long as another opener's upgrade takes, not a move's busy time.
        opening = (
            self._create_engine(url, max(busy_seconds, OPEN_WAIT_SECONDS))
            if self.is_sqlite
            else self.engine
        )
        try:
            self._check_foreign(opening, location)
            from ludoteca.web.backfill import fill_missing_results, fill_missing_winners
            from ludoteca.web.migrations import upgrade

            upgrade(opening)
            fill_missing_results(opening)  # results the schema's revision 0002 left to the rules
            fill_missing_winners(opening)  # and the winners revision 0009 did
        except StorageError:
            self.engine.dispose()
            raise
        except (SQLAlchemyError, OSError) as error:
            self.engine.dispose()
            raise StorageError(
                f"{self.shown!r} is not a usable games database: {_reason(error)}"
            ) from None
        finally:
            if opening is not self.engine:
                opening.dispose()

    def _create_engine(self, url: str, busy_seconds: float) -> Engine:
        if not self.is_sqlite:
            return create_engine(url, pool_size=8, max_overflow=4, pool_pre_ping=True)
        engine = create_engine(url, connect_args={"timeout": busy_seconds})

        @event.listens_for(engine, "connect")
        def _configure(dbapi_connection: Any, _record: Any) -> None:
            # Autocommit at the driver level; transactions are begun explicitly below, so that
            # a write takes the database's write lock at its start (BEGIN IMMEDIATE) and two
            # writers never deadlock upgrading a read lock.
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = NORMAL")
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _begin(connection: Connection) -> None:
            immediate = not connection.get_execution_options().get("read_only", False)
            run(connection, _BEGIN_WRITE if immediate else _BEGIN_READ, {})

        return engine

    def _check_foreign(self, engine: Engine, location: str | os.PathLike[str]) -> None:
        """Refuse a database that holds something other than Ludoteca's games."""
        try:
            tables = set(inspect(engine).get_table_names())
        except DBAPIError as error:
            if self.is_sqlite:
                raise StorageError(
                    f"{str(location)!r} is not a usable SQLite database: {_reason(error)}"
                ) from None
            raise StorageError(
                f"cannot reach the games database {self.shown}: {_reason(error)}"
            ) from None
        ours = {"games", "seats", "moves", "alembic_version", *metadata.tables}
        if tables and not ({"games", "seats", "moves"} <= tables) and not tables <= ours:
            raise StorageError(
                f"{str(location)!r} is a database of something else (tables: "
                f"{', '.join(sorted(tables))}); give --db a new file or a Ludoteca database"
            )

    def close(self) -> None:
        """Close every connection."""
        self.engine.dispose()

    def checkpoint(self) -> None:
        """Copy SQLite's write-ahead log into the database file, without blocking writers.

        SQLite does this itself every 1,000 pages, in the connection whose commit crosses the
        mark, and that commit then waits for the copy and its flush to disk. A running server
        calls this every half second from a reader thread instead, so no move waits for it.
        """
        if not self.is_sqlite:
            return
        connection = self.engine.raw_connection()
        try:
            connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except (DBAPIError, OSError, sqlite3.Error) as error:
            raise unavailable(error) from None
        finally:
            connection.close()

    @contextmanager
    def write_transaction(
        self, *, refused: Callable[[IntegrityError], Exception] | None = None
    ) -> Iterator[Connection]:
        """One write transaction; database refusals become `StorageUnavailableError`.

        The stores kept beside the games (accounts, passkeys, puzzle ratings) write through this
        too. A constraint the change breaks raises ``refused(error)`` where the caller knows what
        it means (a name taken), else a `StorageError`.
        """
        try:
            with self.engine.begin() as connection:
                yield connection
        except (VersionConflictError, StorageError, ChallengeTakenError):
            raise
        except IntegrityError as error:
            if refused is not None:
                raise refused(error) from None
            raise StorageError(f"the games database refused a change: {_reason(error)}") from None
        except (DBAPIError, OSError) as error:
            raise unavailable(error) from None

    @contextmanager
    def read_transaction(self) -> Iterator[Connection]:
        """One read-only transaction; database refusals become `StorageUnavailableError`."""
        try:
            with self.engine.connect() as connection:
                read = connection.execution_options(read_only=True)
                with read.begin():
                    yield read
        except (DBAPIError, OSError) as error:
            raise unavailable(error) from None

    # The repositories' short names for the two.
    _write = write_transaction
    _read = read_transaction

    def _announce(self, db: Connection, game_id: str, version: int) -> None:
        if self.is_sqlite:
            run(db, _ANNOUNCE_EVENT, {"game_id": game_id, "version": version, "at": time.time()})
        else:
            run(db, _ANNOUNCE_NOTIFY, {"payload": f"{game_id} {version}"})

    def _bump(
        self,
        db: Connection,
        game_id: str,
        based_on: int,
        **values: Any,
    ) -> Written:
        """Move the game from version ``based_on`` to the next; refuse if it has moved on.

        ``values`` are the other columns to set (``move_count``, ``result``, ``clock_state``...).
        """
        stamp = now_stamp()
        statement = _bump_statement(*sorted(values))
        parameters = {"game_id": game_id, "based_on": based_on, "updated": stamp, **values}
        if run(db, statement, parameters) != 1:
            current = db.execute(
                select(games_table.c.version).where(games_table.c.id == game_id)
            ).scalar()
            raise VersionConflictError(
                f"game {game_id!r} has changed: it is at version {current}, not {based_on}"
                if current is not None
                else f"there is no game {game_id!r}"
            )
        self._announce(db, game_id, based_on + 1)
        if values.get("result") is not None:
            self._game_ended(db, game_id, based_on + 1, values)
        return Written(based_on + 1, stamp)

    def _game_ended(
        self, db: Connection, game_id: str, version: int, values: dict[str, Any]
    ) -> None:
        """The game's result was just written (``values``): the one path of every game's end.

        Whatever ended it, inside the transaction that records it: the winner is recorded, the
        in-transaction subscribers act (`_recorded`: the ratings among them), and the lobby
        hears that the game is over. The winner is the seat the writer gives (``winner``, the
        rules' end), else the other seat of a two-player game resigned or timed out;
        `NO_WINNER` for an agreed draw and other ends.
        """
        if "winner" not in values:
            loser = values.get("resigned", values.get("timed_out"))
            players = db.execute(
                select(func.count()).where(seats_table.c.game_id == game_id)
            ).scalar()
            winner = 1 - loser if loser is not None and players == 2 else NO_WINNER
            db.execute(update(games_table).where(games_table.c.id == game_id).values(winner=winner))
        self._recorded(db, game_id, version, values)
        self._announce(db, LOBBY_CHANGE + game_id, 0)

    def _recorded(self, db: Connection, game_id: str, version: int, values: dict[str, Any]) -> None:
        """Let the in-transaction subscribers act on a result being stored, in their order."""
        columns = {k: v for k, v in values.items() if k != "result"}
        recorded = ResultRecorded(game_id, version, str(values["result"]), columns)
        for hook in self.result_hooks:
            hook(db, recorded)


def unavailable(error: BaseException) -> StorageUnavailableError:
    """A clear 'try again later' for the database refusing a change or a read."""
    reason = _reason(error).lower()
    if "full" in reason or "no space" in reason:
        why = "the games database is full (no space left on its disk)"
    elif "readonly" in reason or "read-only" in reason or "read only" in reason:
        why = "the games database is read-only"
    elif "locked" in reason or "busy" in reason:
        why = "the games database is busy (locked by another process)"
    elif "connect" in reason or "server closed" in reason or "terminat" in reason:
        why = "the games database cannot be reached"
    else:
        why = f"the games database refused the request ({_reason(error)})"
    return StorageUnavailableError(f"{why}; nothing was changed, please try again later")


def _reason(error: BaseException) -> str:
    original = getattr(error, "orig", None)
    return str(original if original is not None else error).strip().splitlines()[0][:300]
