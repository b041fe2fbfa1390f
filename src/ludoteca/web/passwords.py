"""Account passwords: what is accepted, and their argon2id hashes (argon2-cffi).

A password is 8 to 128 characters, any characters, and not one that is guessed first: not among
the most common passwords (`COMMON`), not the account's name, not one character repeated. Only
its hash is kept; hashing and checking
take tens of milliseconds of CPU on purpose, so the web layer runs them off the event loop.
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

MIN_PASSWORD = 8
MAX_PASSWORD = 128

_COMMON_WORDS = """
    00000000 11111111 11223344 12121212 12341234 12344321 123123123 12345678 123456789
    1234567890 12345678910 1234qwer 1q2w3e4r 1q2w3e4r5t 1qaz2wsx 87654321 88888888 987654321
    aa123456 abc12345 abcd1234 abcdefgh admin123 asdfasdf asdfghjk asdfghjkl baseball
    basketball changeme charlie1 computer corvette dragon12 football freedom1 iloveyou
    iloveyou1 jennifer jordan23 letmein1 liverpool login123 master12 michelle monkey12
    mustang1 passw0rd password password1 password12 password123 princess q1w2e3r4
    q1w2e3r4t5 qazwsxedc qwer1234 qwerty12 qwerty123 qwertyui qwertyuiop starwars sunshine
    superman trustno1 welcome1 welcome123 whatever zaq12wsx zxcvbnm1 zxcvbnm123
"""
#: Passwords of 8 characters or more that lists of leaked passwords show most often (compared
#: without regard to case): the first an attacker tries.
COMMON = frozenset(_COMMON_WORDS.split())

_HASHER = PasswordHasher()  # argon2id, the library's recommended cost (RFC 9106's second choice)
#: Checked against when a name has no account, so that a wrong name takes as long as a wrong
#: password (nobody learns which names exist by timing the answer).
_NOBODY = _HASHER.hash("no account has this password")


def password_problem(password: str, name: str | None = None) -> str | None:
    """Why ``password`` is not accepted (a sentence), or ``None`` if it is.

    Args:
        password: The password asked for.
        name: The account's name (a password may not be the name).
    """
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        return (
            f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters long "
            f"(this one has {len(password)})"
        )
    folded = password.casefold()
    if (
        folded in COMMON
        or len(set(password)) == 1
        or (name is not None and folded == name.casefold())
    ):
        return (
            "this password is among the first ones guessed (a most common password, the "
            "account's name, or one character repeated); choose another of "
            f"{MIN_PASSWORD} to {MAX_PASSWORD} characters"
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
