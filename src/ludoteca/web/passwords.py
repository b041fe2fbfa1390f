"""Account passwords: what is accepted, and their argon2id hashes (argon2-cffi).

A password is 8 to 128 characters, any characters. Only its hash is kept; hashing and checking
take tens of milliseconds of CPU on purpose, so the web layer runs them off the event loop.
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

MIN_PASSWORD = 8
MAX_PASSWORD = 128

_HASHER = PasswordHasher()  # argon2id, the library's recommended cost (RFC 9106's second choice)
#: Checked against when a name has no account, so that a wrong name takes as long as a wrong
#: password (nobody learns which names exist by timing the answer).
_NOBODY = _HASHER.hash("no account has this password")


def password_problem(password: str) -> str | None:
    """Why ``password`` is not accepted (a sentence), or ``None`` if it is."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        return (
            f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters long "
            f"(this one has {len(password)})"
        )
    return None


def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (with its own random salt)."""
    return _HASHER.hash(password)


def password_matches(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one hashed in ``stored`` (``None``: no account, never)."""
    try:
        return _HASHER.verify(stored or _NOBODY, password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` was hashed with weaker settings than today's (hash it again)."""
    return _HASHER.check_needs_rehash(stored)
