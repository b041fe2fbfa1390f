"""The error types of Ludoteca.

Every error a user can cause is a ``ValueError`` subclass whose message says what was wrong and
what is accepted, so that front ends can show it as it is and carry on.
"""


class LudotecaError(ValueError):
    """Base class of every error Ludoteca raises for bad input."""


class UnknownGameError(LudotecaError):
    """A game id that is not registered."""


class InvalidOptionError(LudotecaError):
    """An unknown option name, or a value the option does not accept."""


class InvalidMoveError(LudotecaError):
    """Move text that cannot be parsed at all (a syntax error)."""


class IllegalMoveError(LudotecaError):
    """A well-formed move that the rules do not allow in this position."""


class InvalidStateError(LudotecaError):
    """Position text that cannot be parsed, or describes a position the rules cannot reach."""


class InvalidRecordError(LudotecaError):
    """A saved game that is unreadable, inconsistent or tampered with."""


class SaveError(LudotecaError, OSError):
    """A file could not be written; the message names the file and says why."""
