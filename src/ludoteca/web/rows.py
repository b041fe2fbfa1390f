"""What the games database holds, as Python values: rows, results of writes, and errors.

Shared by the repositories (`ludoteca.web.database` and the ``repo_*`` modules) and by the
modules over the transaction core; nothing here touches the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from ludoteca.core.errors import LudotecaError
from ludoteca.core.options import OptionValue

#: The PostgreSQL channel on which every change is announced (payload ``"<game id> <version>"``).
NOTIFY_CHANNEL = "ludoteca_games"


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
#: The prefix of the lobby's announcements: a challenge posted, taken or withdrawn, a game
#: created or ended (``lobby:<challenge or game id> 0``).
LOBBY_CHANGE = "lobby:"


class ChallengeTakenError(LudotecaError):
    """The challenge was accepted or withdrawn before this request."""


@dataclass(frozen=True, slots=True)
class Written:
    """A committed change: the game's new version and when it was made."""

    version: int
    updated: str


@dataclass(frozen=True, slots=True)
class GameChanges:
    """A stored game's columns now, and its moves after the first ``first - 1``.

    What a process reads to bring its copy of a game up to date without replaying it
    (`ludoteca.web.live.LiveGame.catch_up`).
    """

    id: str
    version: int
    updated: str
    move_count: int
    first: int
    moves: tuple[str, ...]
    seats: tuple[SeatRow, ...]
    resigned: int | None = None
    clock: str | None = None
    clock_state: str | None = None
    timed_out: int | None = None
    agreed: str | None = None
    draw_offer: int | None = None
    rematch_offer: int | None = None
    rematch_id: str | None = None
    rated: bool = False


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


def now_stamp() -> str:
    """The time now as stored: ISO 8601 in UTC, to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


#: The prefix of an account's own key in ``session_seats``: the seats it keeps when none of its
#: browsers holds them (claimed at sign-up, left by a logged-out or revoked browser).
ACCOUNT_SEATS_PREFIX = "account:"
