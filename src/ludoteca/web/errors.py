"""The errors the web layer answers with, each with its HTTP status.

Every one becomes a JSON body ``{"error": "..."}`` whose text says what was wrong; rules errors
from the engine (`ludoteca.core.errors`) are mapped to these by `http_error`.
"""

from __future__ import annotations

from ludoteca.core.errors import IllegalMoveError, LudotecaError


class WebError(LudotecaError):
    """A request the server refuses; ``status`` is the HTTP status code."""

    status = 400


class BadRequestError(WebError):
    """The request is malformed: bad JSON, an unknown game or option, unparsable move text."""

    status = 400


class ForbiddenError(WebError):
    """The seat token is missing or belongs to no seat of this game."""

    status = 403


class NotFoundError(WebError):
    """No game has this id."""

    status = 404


class ConflictError(WebError):
    """The request is well formed but not possible now: an illegal move, not your turn, over."""

    status = 409


class UnavailableError(WebError):
    """A feature this installation does not have yet (a computer level, hints)."""

    status = 501


class TooLargeError(WebError):
    """The request body is larger than the server accepts."""

    status = 413


class RetryLaterError(WebError):
    """A refusal that passes: ``retry_after`` seconds later the request may succeed."""

    status = 503

    def __init__(self, message: str, retry_after: int = 2) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RateLimitedError(RetryLaterError):
    """This client sent too many requests of one kind in a short time."""

    status = 429


class BusyError(RetryLaterError):
    """The server cannot take this now: the database or the computer players are busy."""

    status = 503


def http_error(error: LudotecaError) -> WebError:
    """The web error for an engine error (moves, options, positions, agents)."""
    if isinstance(error, WebError):
        return error
    from ludoteca.web.searches import PoolBusyError, SearchFailedError, SearchTimeoutError
    from ludoteca.web.storage import StorageUnavailableError

    if isinstance(error, StorageUnavailableError | PoolBusyError | SearchTimeoutError):
        return BusyError(str(error))
    if isinstance(error, SearchFailedError):
        return BusyError(f"the computer could not answer: {error}")
    if isinstance(error, IllegalMoveError):
        return ConflictError(str(error))
    # InvalidMoveError, InvalidOptionError, UnknownGameError, InvalidStateError, AgentError, ...
    return BadRequestError(str(error))
