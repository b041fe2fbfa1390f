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

The storage is split by concern: the tables (`ludoteca.web.schema`), the rows as Python values
(`ludoteca.web.rows`), the connection and the conditional write (`ludoteca.web.database`), and
one repository per concern: games and moves (`ludoteca.web.repo_games`), challenges
(`ludoteca.web.repo_challenges`), reviews (`ludoteca.web.repo_reviews`), sessions and secrets
(`ludoteca.web.repo_sessions`) and the change feed (`ludoteca.web.repo_events`). `GameStore` is
all of them over one database.

`GameStore` is synchronous and thread-safe; the service calls it from worker threads so the
event loop never waits on the disk.
"""

from __future__ import annotations

import os

from ludoteca.web.database import (
    DEFAULT_BUSY_SECONDS,
    OPEN_WAIT_SECONDS,
    Database,
    database_url,
    default_db_path,
    unavailable,
)
from ludoteca.web.rated_games import rate_result
from ludoteca.web.repo_challenges import ChallengesRepository
from ludoteca.web.repo_events import EventsRepository
from ludoteca.web.repo_games import GamesRepository
from ludoteca.web.repo_reviews import ReviewsRepository
from ludoteca.web.repo_sessions import SessionsRepository, held_sessions
from ludoteca.web.rows import (
    ACCOUNT_SEATS_PREFIX,
    LOBBY_CHANGE,
    NOTIFY_CHANNEL,
    REVIEW_CHANGE,
    ChallengeRow,
    ChallengeTakenError,
    GameChanges,
    GameRow,
    GameSummary,
    MoveConflictError,
    ReviewRow,
    SeatRow,
    StorageError,
    StorageUnavailableError,
    VersionConflictError,
    Written,
    now_stamp,
)

__all__ = [
    "ACCOUNT_SEATS_PREFIX",
    "DEFAULT_BUSY_SECONDS",
    "LOBBY_CHANGE",
    "NOTIFY_CHANNEL",
    "OPEN_WAIT_SECONDS",
    "REVIEW_CHANGE",
    "ChallengeRow",
    "ChallengeTakenError",
    "Database",
    "GameChanges",
    "GameRow",
    "GameStore",
    "GameSummary",
    "MoveConflictError",
    "ReviewRow",
    "SeatRow",
    "StorageError",
    "StorageUnavailableError",
    "VersionConflictError",
    "Written",
    "database_url",
    "default_db_path",
    "held_sessions",
    "now_stamp",
    "unavailable",
]


class GameStore(
    GamesRepository,
    ChallengesRepository,
    ReviewsRepository,
    SessionsRepository,
    EventsRepository,
):
    """The games database: every repository over one connection pool.

    Methods are thread-safe; each one is one committed transaction. The ratings are the
    store's first result hook (`ludoteca.web.rated_games.rate_result`), so a rated game is
    rated wherever its end is written, by a server or by a script over the store alone.
    """

    def __init__(
        self, location: str | os.PathLike[str], *, busy_seconds: float = DEFAULT_BUSY_SECONDS
    ) -> None:
        """Open the database at ``location`` (`Database`) with the ratings subscribed."""
        super().__init__(location, busy_seconds=busy_seconds)
        self.result_hooks.append(rate_result)
