"""Storage of web games in SQLite (the embedded default) or PostgreSQL, through SQLAlchemy.

One database holds every game: by default the SQLite file
``$XDG_DATA_HOME/ludoteca/games.sqlite3`` (or ``~/.local/share/ludoteca/games.sqlite3``);
``ludoteca serve --db postgresql://...`` uses PostgreSQL instead. A game row keeps the rules
(game id and options), the start position when it is not the default, the seats, the
resignation, the result once the game is over, and a **version** that every change (a move, an
undo, a resignation) increases by one. The moves table keeps the moves in notation, numbered from
1, chance outcomes included. The reviews table keeps each game's review (`ludoteca.web.reviews`):
which process runs it, its heartbeat and progress, then the review itself.

The database is the authority when several server processes share it: every write is
conditional on the version the writer based it on (`VersionConflictError` otherwise), so a
process holding a stale copy of a game can never overwrite or delete another process's move.
Each write also announces itself (a row in ``events`` with SQLite, ``NOTIFY`` with PostgreSQL;
see `ludoteca.web.changes`) in the same transaction, so nothing is announced that was not
committed.

SQLite runs in WAL mode with ``synchronous=NORMAL``: a committed move survives the server being
killed; a power cut may lose the last moments (see docs/deploy.md). The schema is managed by
Alembic (`ludoteca.web.migrations`) from the tables of `ludoteca.web.schema`; opening a database
upgrades it in place (and `ludoteca.web.backfill` fills in what a migration left to the rules).

`GameStore` is synchronous and thread-safe; the service calls it from worker threads so the
event loop never waits on the disk.
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Engine,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, SQLAlchemyError

from ludoteca.core.errors import LudotecaError
from ludoteca.core.options import OptionValue
from ludoteca.core.paths import data_dir
from ludoteca.web.rated_games import rate_game
from ludoteca.web.schema import (
    NO_WINNER,
    account_logins_table,
    accounts_table,
    challenges_table,
    events_table,
    games_table,
    metadata,
    moves_table,
    reviews_table,
    seats_table,
    session_names_table,
    session_seats_table,
    settings_table,
)

#: The PostgreSQL channel on which every change is announced (payload ``"<game id> <version>"``).
NOTIFY_CHANNEL = "ludoteca_games"
#: How long an SQLite writer waits for another process's transaction before giving up.
DEFAULT_BUSY_SECONDS = 5.0
#: How long opening an SQLite database waits for another process that is opening or upgrading
#: it at the same moment (two servers started together): the upgrade holds the write lock for
#: as long as it takes, seconds on a busy machine, far longer than a move's transaction.
OPEN_WAIT_SECONDS = 600.0


# The statements of every move, built once (building them is a good part of a write's cost).
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


_INSERT_MOVE = insert(moves_table)
_ANNOUNCE_EVENT = insert(events_table)
_ANNOUNCE_NOTIFY = text(f"SELECT pg_notify('{NOTIFY_CHANNEL}', :payload)")


class StorageError(LudotecaError):
    """The database cannot be opened or is not a Ludoteca games database."""


class StorageUnavailableError(LudotecaError):
    """The database refused a change for now (full, read-only, locked, unreachable).

    Nothing was changed; the message says why and that the request may be tried again.
    """


class VersionConflictError(LudotecaError):
    """The game changed since the writer looked (another request or another process)."""


# Kept for callers of the first API: a move stored by someone else first is a version conflict.
MoveConflictError = VersionConflictError


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of a stored game.

    Attributes:
        seat: The player index.
        kind: ``"human"`` (the creator plays it), ``"invite"`` (another person, by a link) or
            ``"computer"``.
        agent: The agent spec of a computer seat (``"level:3"``), else ``None``.
        token: The secret that lets a person move for this seat (``None`` for computers).
        name: The display name of the person playing it, if they chose one.
        account: The account playing it, in a rated game (`ludoteca.web.rating_store`).
    """

    seat: int
    kind: str
    agent: str | None
    token: str | None
    name: str | None = None
    account: str | None = None


@dataclass(frozen=True, slots=True)
class GameRow:
    """A stored game: its rules, start, seats, moves, dates and version."""

    id: str
    game: str
    options: dict[str, OptionValue]
    start: str | None
    seats: tuple[SeatRow, ...]
    moves: tuple[str, ...]
    resigned: int | None
    created: str
    updated: str
    version: int = 0
    hints: bool = False
    clock: str | None = None
    clock_state: str | None = None
    timed_out: int | None = None
    agreed: str | None = None
    draw_offer: int | None = None
    rematch_offer: int | None = None
    rematch_id: str | None = None
    rated: bool = False


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    """An open challenge in the lobby (or one that was taken or withdrawn)."""

    id: str
    game: str
    options: dict[str, OptionValue]
    clock: str | None
    hints: bool
    poster_seat: int
    poster_name: str
    poster_session: str | None
    secret: str
    game_id: str
    poster_token: str
    status: str
    accepter_name: str | None
    created: str
    updated: str
    rated: bool = False
    poster_account: str | None = None


@dataclass(frozen=True, slots=True)
class ReviewRow:
    """A game's stored review (see ``reviews_table``): its progress, or its result."""

    game_id: str
    status: str
    done: int
    total: int
    budget: str | None
    seed: int
    owner: str | None
    heartbeat: float
    review: str | None
    paths: str | None
    error: str | None
    moves: int
    started: str
    updated: str
    finished: str | None


#: The prefix of a review's announcements on the change feed (game ids never contain ``:``).
REVIEW_CHANGE = "review:"


class ChallengeTakenError(LudotecaError):
    """The challenge was accepted or withdrawn before this request."""


@dataclass(frozen=True, slots=True)
class Written:
    """A committed change: the game's new version and when it was made."""

    version: int
    updated: str


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What the lobby lists of a game, read without replaying it."""

    id: str
    game: str
    seats: tuple[SeatRow, ...]
    move_count: int
    result: str | None
    created: str
    updated: str
    clock: str | None = None


def default_db_path() -> Path:
    """Where games are kept unless ``--db`` says otherwise (the user's data directory)."""
    return data_dir() / "games.sqlite3"


def now_stamp() -> str:
    """The time now as stored: ISO 8601 in UTC, to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


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


class GameStore:
    """The games database. Methods are thread-safe; each one is one committed transaction."""

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
            connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

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
    def _write(self) -> Iterator[Connection]:
        """One write transaction; database refusals become `StorageUnavailableError`."""
        try:
            with self.engine.begin() as connection:
                yield connection
        except (VersionConflictError, StorageError, ChallengeTakenError):
            raise
        except IntegrityError as error:
            raise StorageError(f"the games database refused a change: {_reason(error)}") from None
        except (DBAPIError, OSError) as error:
            raise unavailable(error) from None

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        try:
            with self.engine.connect() as connection:
                read = connection.execution_options(read_only=True)
                with read.begin():
                    yield read
        except (DBAPIError, OSError) as error:
            raise unavailable(error) from None

    def _announce(self, db: Connection, game_id: str, version: int) -> None:
        if self.is_sqlite:
            db.execute(_ANNOUNCE_EVENT, {"game_id": game_id, "version": version, "at": time.time()})
        else:
            db.execute(_ANNOUNCE_NOTIFY, {"payload": f"{game_id} {version}"})

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
        changed = db.execute(statement, parameters).rowcount
        if changed != 1:
            current = db.execute(
                select(games_table.c.version).where(games_table.c.id == game_id)
            ).scalar()
            raise VersionConflictError(
                f"game {game_id!r} has changed: it is at version {current}, not {based_on}"
                if current is not None
                else f"there is no game {game_id!r}"
            )
        if values.get("result") is not None:
            self._game_ended(db, game_id, values)
        self._announce(db, game_id, based_on + 1)
        return Written(based_on + 1, stamp)

    @staticmethod
    def _game_ended(db: Connection, game_id: str, values: dict[str, Any]) -> None:
        """The game's result was just written (``values``): record its winner and rate it.

        The one place where the end of a game is seen, whatever ended it, inside the transaction
        that records it. The winner is the seat the writer gives (``winner``, the rules' end),
        else the other seat of a two-player game resigned or timed out; `NO_WINNER` for an
        agreed draw and other ends. Then `ludoteca.web.rating_store.rate_game` moves the
        ratings of a rated game, in the same transaction.
        """
        winner = values.get("winner")
        if "winner" not in values:
            loser = values.get("resigned", values.get("timed_out"))
            players = db.execute(
                select(func.count()).where(seats_table.c.game_id == game_id)
            ).scalar()
            winner = 1 - loser if loser is not None and players == 2 else NO_WINNER
            db.execute(update(games_table).where(games_table.c.id == game_id).values(winner=winner))
        rate_game(db, game_id)

    # -- writing ---------------------------------------------------------------------------

    def create_game(
        self,
        game_id: str,
        *,
        game: str,
        options: dict[str, OptionValue],
        start: str | None,
        seats: Sequence[SeatRow],
        moves: Sequence[str] = (),
        result: str | None = None,
        hints: bool = False,
        clock: str | None = None,
        clock_state: str | None = None,
        rematch_of: tuple[str, int] | None = None,
        challenge: str | None = None,
        accepter_session: str | None = None,
        rated: bool = False,
    ) -> GameRow:
        """Store a new game (with the chance outcomes already rolled at its start).

        Args:
            game_id: The new game's id.
            game: The game id (rules).
            options: Its options.
            start: The start position text when it is not the usual one.
            seats: Its seats.
            moves: The chance outcomes rolled at the start.
            result: The end's reason if the game is already over.
            hints: Whether hints are on.
            clock: The clock (`ludoteca.web.clocks.spec_to_json`), or ``None``.
            clock_state: The clocks' state, or ``None``.
            rematch_of: ``(game id, version)`` of the finished game this one is a rematch of:
                that game is marked in the same transaction (refused if it moved on, so there
                is one rematch), and the browsers holding its seats get the swapped seats here.
            challenge: The open challenge this game takes up: it is marked accepted in the same
                transaction, and refused (`ChallengeTakenError`) if it is no longer open.
            accepter_session: The browser session that accepted ``challenge``.
            rated: Whether the game is rated (its seats then name their accounts).
        """
        stamp = now_stamp()
        version = 1 if moves else 0
        with self._write() as db:
            held: list[dict[str, Any]] = []
            if challenge is not None:
                held = self._take_challenge(db, challenge, seats, accepter_session, stamp)
            db.execute(
                insert(games_table).values(
                    id=game_id,
                    game=game,
                    options=json.dumps(options),
                    start=start,
                    resigned=None,
                    created=stamp,
                    updated=stamp,
                    version=version,
                    move_count=len(moves),
                    result=result,
                    hints=hints,
                    clock=clock,
                    clock_state=clock_state,
                    rated=rated,
                )
            )
            db.execute(
                insert(seats_table),
                [
                    {"game_id": game_id, "seat": s.seat, "kind": s.kind, "agent": s.agent}
                    | {"token": s.token, "name": s.name, "account_id": s.account}
                    for s in seats
                ],
            )
            if rematch_of is not None:
                self._mark_rematch(db, rematch_of, game_id, len(seats), stamp)
            if held:
                db.execute(insert(session_seats_table), held)
            if moves:
                db.execute(
                    insert(moves_table),
                    [
                        {"game_id": game_id, "number": n, "text": t, "played": stamp}
                        for n, t in enumerate(moves, start=1)
                    ],
                )
        return GameRow(
            id=game_id,
            game=game,
            options=dict(options),
            start=start,
            seats=tuple(seats),
            moves=tuple(moves),
            resigned=None,
            created=stamp,
            updated=stamp,
            version=version,
            hints=hints,
            clock=clock,
            clock_state=clock_state,
            rated=rated,
        )

    def _take_challenge(
        self,
        db: Connection,
        challenge: str,
        seats: Sequence[SeatRow],
        accepter_session: str | None,
        stamp: str,
    ) -> list[dict[str, Any]]:
        """Mark an open challenge accepted; the seats both browsers are to hold in the game."""
        row = db.execute(select(challenges_table).where(challenges_table.c.id == challenge)).first()
        accepter = next((s for s in seats if s.seat != (row.poster_seat if row else -1)), None)
        taken = db.execute(
            update(challenges_table)
            .where(challenges_table.c.id == challenge, challenges_table.c.status == "open")
            .values(
                status="accepted",
                accepter_name=accepter.name if accepter else None,
                updated=stamp,
            )
        ).rowcount
        if taken != 1 or row is None:
            raise ChallengeTakenError(
                "this challenge was already accepted by someone else or withdrawn"
            )
        held = [(row.poster_session, row.poster_seat)]
        if accepter is not None:
            held.append((accepter_session, accepter.seat))
        return [
            {"session": session, "game_id": row.game_id, "seat": seat, "added": stamp}
            for session, seat in held
            if session is not None
        ]

    def _mark_rematch(
        self, db: Connection, rematch_of: tuple[str, int], game_id: str, players: int, stamp: str
    ) -> None:
        old_id, based_on = rematch_of
        self._bump(db, old_id, based_on, rematch_id=game_id, rematch_offer=None)
        held = db.execute(
            select(session_seats_table.c.session, session_seats_table.c.seat).where(
                session_seats_table.c.game_id == old_id
            )
        ).all()
        rows = {
            (str(session), (int(seat) + 1) % players): {
                "session": session,
                "game_id": game_id,
                "seat": (int(seat) + 1) % players,
                "added": stamp,
            }
            for session, seat in held
        }
        if rows:
            db.execute(insert(session_seats_table), list(rows.values()))

    def append_moves(
        self,
        game_id: str,
        *,
        based_on: int,
        first: int,
        texts: Sequence[str],
        result: str | None = None,
        **columns: Any,
    ) -> Written:
        """Store ``texts`` as moves ``first``, ``first + 1``, ... of the game.

        Args:
            game_id: The game.
            based_on: The version the caller saw; the write is refused if the game moved on.
            first: The number of the first new move (the caller's move count + 1).
            texts: The moves in notation (a person's or computer's move and the rolls after).
            result: The end's reason if these moves end the game.
            columns: Other columns of the game to set (``clock_state``, ``draw_offer``).

        Returns:
            The game's new version and time.

        Raises:
            VersionConflictError: The game is no longer at version ``based_on``.
            StorageUnavailableError: The database refused the change; nothing was stored.
        """
        with self._write() as db:
            written = self._bump(
                db, game_id, based_on, move_count=first - 1 + len(texts), result=result, **columns
            )
            db.execute(
                _INSERT_MOVE,
                [
                    {"game_id": game_id, "number": first + i, "text": t, "played": written.updated}
                    for i, t in enumerate(texts)
                ],
            )
        return written

    def truncate_moves(self, game_id: str, keep: int, *, based_on: int, **columns: Any) -> Written:
        """Delete every move after the first ``keep`` (undo).

        Raises:
            VersionConflictError: The game is no longer at version ``based_on``.
            StorageUnavailableError: The database refused the change.
        """
        with self._write() as db:
            written = self._bump(db, game_id, based_on, move_count=keep, result=None, **columns)
            db.execute(
                delete(moves_table).where(
                    moves_table.c.game_id == game_id, moves_table.c.number > keep
                )
            )
        return written

    def set_resigned(
        self, game_id: str, seat: int, *, based_on: int, result: str, **columns: Any
    ) -> Written:
        """Record that ``seat`` resigned.

        Raises:
            VersionConflictError: The game is no longer at version ``based_on``.
            StorageUnavailableError: The database refused the change.
        """
        with self._write() as db:
            return self._bump(db, game_id, based_on, resigned=seat, result=result, **columns)

    def update_game(self, game_id: str, *, based_on: int, **columns: Any) -> Written:
        """Set columns of the game (an ending, a draw or rematch offer, the clocks).

        Raises:
            VersionConflictError: The game is no longer at version ``based_on``.
            StorageUnavailableError: The database refused the change.
        """
        with self._write() as db:
            return self._bump(db, game_id, based_on, **columns)

    # -- reading ---------------------------------------------------------------------------

    def load(self, game_id: str) -> GameRow | None:
        """The stored game, or ``None`` if there is none with this id."""
        with self._read() as db:
            row = db.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                return None
            seats = self._seats(db, [game_id])[game_id]
            moves = db.execute(
                select(moves_table.c.text)
                .where(moves_table.c.game_id == game_id)
                .order_by(moves_table.c.number)
            ).scalars()
            return GameRow(
                id=row.id,
                game=row.game,
                options=json.loads(row.options),
                start=row.start,
                seats=seats,
                moves=tuple(moves),
                resigned=row.resigned,
                created=row.created,
                updated=row.updated,
                version=row.version,
                hints=bool(row.hints),
                clock=row.clock,
                clock_state=row.clock_state,
                timed_out=row.timed_out,
                agreed=row.agreed,
                draw_offer=row.draw_offer,
                rematch_offer=row.rematch_offer,
                rematch_id=row.rematch_id,
                rated=bool(row.rated),
            )

    def version(self, game_id: str) -> int | None:
        """The game's current version (``None``: no such game)."""
        with self._read() as db:
            value = db.execute(
                select(games_table.c.version).where(games_table.c.id == game_id)
            ).scalar()
        return None if value is None else int(value)

    @staticmethod
    def _seats(db: Connection, game_ids: Sequence[str]) -> dict[str, tuple[SeatRow, ...]]:
        found: dict[str, list[SeatRow]] = {game_id: [] for game_id in game_ids}
        rows = db.execute(
            select(seats_table)
            .where(seats_table.c.game_id.in_(game_ids))
            .order_by(seats_table.c.game_id, seats_table.c.seat)
        )
        for s in rows:
            found[s.game_id].append(
                SeatRow(
                    seat=s.seat,
                    kind=s.kind,
                    agent=s.agent,
                    token=s.token,
                    name=s.name,
                    account=s.account_id,
                )
            )
        return {game_id: tuple(seats) for game_id, seats in found.items()}

    def list_games(
        self,
        *,
        offset: int = 0,
        limit: int = 50,
        running: bool = False,
        session: str | None = None,
    ) -> tuple[list[GameSummary], int]:
        """A page of games, most recently changed first, and the number of games in all.

        Args:
            offset: How many games to skip.
            limit: The most games to answer.
            running: Only games still running.
            session: Only the games whose seats this browser session holds.
        """
        query = select(games_table)
        if running:
            query = query.where(games_table.c.result.is_(None))
        with self._read() as db:
            if session is not None:
                held = select(session_seats_table.c.game_id).where(
                    session_seats_table.c.session.in_(held_sessions(db, session))
                )
                query = query.where(games_table.c.id.in_(held))
            total = int(
                db.execute(select(func.count()).select_from(query.subquery())).scalar() or 0
            )
            rows = db.execute(
                query.order_by(games_table.c.updated.desc(), games_table.c.id)
                .offset(offset)
                .limit(limit)
            ).all()
            seats = self._seats(db, [row.id for row in rows])
        summaries = [
            GameSummary(
                id=row.id,
                game=row.game,
                seats=seats[row.id],
                move_count=row.move_count,
                result=row.result,
                created=row.created,
                updated=row.updated,
                clock=row.clock,
            )
            for row in rows
        ]
        return summaries, total

    # -- open challenges -------------------------------------------------------------------

    def post_challenge(self, challenge: ChallengeRow) -> None:
        """Store a new open challenge."""
        values = {
            name: getattr(challenge, name)
            for name in ChallengeRow.__dataclass_fields__
            if name != "options"
        }
        with self._write() as db:
            db.execute(
                insert(challenges_table).values(options=json.dumps(challenge.options), **values)
            )

    def challenge(self, challenge_id: str) -> ChallengeRow | None:
        """The challenge with this id, or ``None``."""
        with self._read() as db:
            row = db.execute(
                select(challenges_table).where(challenges_table.c.id == challenge_id)
            ).first()
        return None if row is None else _challenge_row(row)

    def open_challenges(self, limit: int = 50) -> list[ChallengeRow]:
        """The open challenges, newest first."""
        with self._read() as db:
            rows = db.execute(
                select(challenges_table)
                .where(challenges_table.c.status == "open")
                .order_by(challenges_table.c.created.desc(), challenges_table.c.id)
                .limit(limit)
            ).all()
        return [_challenge_row(row) for row in rows]

    def withdraw_challenge(self, challenge_id: str) -> None:
        """Withdraw an open challenge.

        Raises:
            ChallengeTakenError: It is no longer open.
        """
        with self._write() as db:
            changed = db.execute(
                update(challenges_table)
                .where(challenges_table.c.id == challenge_id, challenges_table.c.status == "open")
                .values(status="withdrawn", updated=now_stamp())
            ).rowcount
        if changed != 1:
            raise ChallengeTakenError("this challenge is no longer open")

    # -- reviews -----------------------------------------------------------------------------

    def start_review(
        self,
        game_id: str,
        *,
        owner: str,
        total: int,
        moves: int,
        budget: str | None,
        seed: int,
        stale_before: float,
    ) -> bool:
        """Claim the game's review for ``owner`` (a server process), if nobody works on it.

        The claim is one conditional write: it succeeds where the game has no review, or its
        review is not running, or the process running it stopped beating its heartbeat before
        ``stale_before`` (epoch seconds; it was stopped or crashed). Of several processes
        claiming at once, exactly one succeeds.

        Returns:
            Whether ``owner`` now holds the review (``False``: another process runs it).
        """
        stamp = now_stamp()
        values = {
            "status": "running",
            "done": 0,
            "total": total,
            "budget": budget,
            "seed": seed,
            "owner": owner,
            "heartbeat": time.time(),
            "review": None,
            "paths": None,
            "error": None,
            "moves": moves,
            "started": stamp,
            "updated": stamp,
            "finished": None,
        }
        table = reviews_table
        with self._write() as db:
            claimed = db.execute(
                update(table)
                .where(table.c.game_id == game_id)
                .where(or_(table.c.status != "running", table.c.heartbeat < stale_before))
                .values(**values)
            ).rowcount
            if claimed != 1:
                exists = db.execute(select(table.c.game_id).where(table.c.game_id == game_id))
                if exists.first() is not None:
                    return False
                insert_new = (sqlite_insert if self.is_sqlite else postgresql_insert)(table)
                statement = (
                    insert_new.values(game_id=game_id, **values)
                    .on_conflict_do_nothing(index_elements=["game_id"])
                    .returning(table.c.game_id)  # psycopg's rowcount here is -1
                )
                if db.execute(statement).first() is None:
                    return False  # another process inserted it a moment ago
            self._announce(db, REVIEW_CHANGE + game_id, 0)
        return True

    def review_progress(self, game_id: str, owner: str, done: int) -> bool:
        """Record that ``done`` positions are reviewed (and that ``owner`` is alive).

        Returns:
            Whether ``owner`` still holds the review (``False``: another process took it over).
        """
        return self._update_review(game_id, owner, done=done)

    def finish_review(self, game_id: str, owner: str, review: str, paths: str) -> bool:
        """Store the finished review (its JSON) and the click paths of its moves."""
        return self._update_review(
            game_id,
            owner,
            status="done",
            done=reviews_table.c.total,
            review=review,
            paths=paths,
            finished=now_stamp(),
        )

    def fail_review(self, game_id: str, owner: str, error: str, *, status: str = "failed") -> bool:
        """Mark the review ``failed`` (or ``interrupted``: its server stopped), with the reason."""
        return self._update_review(
            game_id, owner, status=status, error=error[:2000], finished=now_stamp()
        )

    def _update_review(self, game_id: str, owner: str, **values: Any) -> bool:
        table = reviews_table
        with self._write() as db:
            changed = db.execute(
                update(table)
                .where(
                    table.c.game_id == game_id,
                    table.c.owner == owner,
                    table.c.status == "running",
                )
                .values(heartbeat=time.time(), updated=now_stamp(), **values)
            ).rowcount
            if changed == 1:
                self._announce(db, REVIEW_CHANGE + game_id, 0)
        return changed == 1

    def load_review(self, game_id: str) -> ReviewRow | None:
        """The game's review (running, done or failed), or ``None``."""
        with self._read() as db:
            row = db.execute(
                select(reviews_table).where(reviews_table.c.game_id == game_id)
            ).first()
        if row is None:
            return None
        return ReviewRow(**{name: getattr(row, name) for name in ReviewRow.__dataclass_fields__})

    # -- display names -----------------------------------------------------------------------

    def set_session_name(self, session: str, name: str) -> None:
        """Remember the display name of the browser ``session``."""
        with self._write() as db:
            changed = db.execute(
                update(session_names_table)
                .where(session_names_table.c.session == session)
                .values(name=name, updated=now_stamp())
            ).rowcount
            if not changed:
                db.execute(
                    insert(session_names_table).values(
                        session=session, name=name, updated=now_stamp()
                    )
                )

    def session_name(self, session: str) -> str | None:
        """The display name of the browser ``session``: its account's, else the one it chose."""
        with self._read() as db:
            logins = account_logins_table
            account = db.execute(
                select(accounts_table.c.name)
                .join(logins, logins.c.account_id == accounts_table.c.id)
                .where(logins.c.session == session)
            ).scalar()
            if account is not None:
                return str(account)
            value = db.execute(
                select(session_names_table.c.name).where(session_names_table.c.session == session)
            ).scalar()
        return None if value is None else str(value)

    # -- the change feed (SQLite) ------------------------------------------------------------

    def latest_event(self) -> int:
        """The sequence number of the newest change (0 if none)."""
        with self._read() as db:
            return int(db.execute(select(func.max(events_table.c.seq))).scalar() or 0)

    def events_after(self, seq: int, *, limit: int = 5000) -> list[tuple[int, str, int]]:
        """Changes after ``seq``: (sequence number, game id, new version), oldest first."""
        with self._read() as db:
            rows = db.execute(
                select(events_table.c.seq, events_table.c.game_id, events_table.c.version)
                .where(events_table.c.seq > seq)
                .order_by(events_table.c.seq)
                .limit(limit)
            ).all()
        return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]

    def prune_events(self, older_than_seconds: float) -> None:
        """Forget announcements every process has long read."""
        with self._write() as db:
            cutoff = time.time() - older_than_seconds
            db.execute(delete(events_table).where(events_table.c.at < cutoff))

    # -- browser sessions --------------------------------------------------------------------

    def secret(self, name: str) -> str:
        """A server-wide secret (created on first use, shared by every process)."""
        query = select(settings_table.c.value).where(settings_table.c.name == name)
        try:
            with self._write() as db:
                value = db.execute(query).scalar()
                if value is None:
                    value = secrets.token_urlsafe(32)
                    db.execute(insert(settings_table).values(name=name, value=value))
        except StorageError:  # another process created it at the same moment: read theirs
            with self._read() as db:
                value = db.execute(query).scalar()
        return str(value)

    def add_session_seats(self, session: str, game_id: str, seats: Sequence[int]) -> None:
        """Remember that the browser ``session`` holds these seats of the game."""
        with self._write() as db:
            known = set(
                db.execute(
                    select(session_seats_table.c.seat).where(
                        session_seats_table.c.session == session,
                        session_seats_table.c.game_id == game_id,
                    )
                ).scalars()
            )
            new = [s for s in dict.fromkeys(seats) if s not in known]
            if new:
                db.execute(
                    insert(session_seats_table),
                    [
                        {"session": session, "game_id": game_id, "seat": s, "added": now_stamp()}
                        for s in new
                    ],
                )

    def session_seats(self, session: str, game_id: str) -> list[int]:
        """The seats of the game that the browser ``session`` holds."""
        with self._read() as db:
            return sorted(
                {
                    int(s)
                    for s in db.execute(
                        select(session_seats_table.c.seat).where(
                            session_seats_table.c.session.in_(held_sessions(db, session)),
                            session_seats_table.c.game_id == game_id,
                        )
                    ).scalars()
                }
            )


#: The prefix of an account's own key in ``session_seats``: the seats it keeps when none of its
#: browsers holds them (claimed at sign-up, left by a logged-out or revoked browser).
ACCOUNT_SEATS_PREFIX = "account:"


def held_sessions(db: Connection, session: str) -> list[str]:
    """The ``session_seats`` keys whose seats the browser ``session`` plays.

    An anonymous browser plays its own seats; a browser logged in to an account plays the
    account's too: those it keeps (`ACCOUNT_SEATS_PREFIX`) and those of its other logged-in
    browsers (`ludoteca.web.account_store`).
    """
    account = db.execute(
        select(account_logins_table.c.account_id).where(account_logins_table.c.session == session)
    ).scalar()
    if account is None:
        return [session]
    logged_in = db.execute(
        select(account_logins_table.c.session).where(account_logins_table.c.account_id == account)
    ).scalars()
    return [session, ACCOUNT_SEATS_PREFIX + str(account), *(str(s) for s in logged_in)]


def _challenge_row(row: Any) -> ChallengeRow:
    values = {name: getattr(row, name) for name in ChallengeRow.__dataclass_fields__}
    values["options"] = json.loads(row.options)
    values["hints"] = bool(row.hints)
    values["rated"] = bool(row.rated)
    return ChallengeRow(**values)


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
