"""Passkeys and WebAuthn challenges as stored (``account_passkeys``, ``webauthn_challenges``).

`ludoteca.web.passkeys` runs the ceremonies and their routes; this module keeps what they need
between two requests in the games database, where every server process sees it: the passkeys
of each account (credential id, public key, the authenticator's counter) and the challenge given
to a browser session for one purpose (one per session and purpose, taken out once).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, update

from ludoteca.core.errors import LudotecaError
from ludoteca.web.schema import account_passkeys_table, webauthn_challenges_table
from ludoteca.web.storage import GameStore, now_stamp


class PasskeyTakenError(LudotecaError):
    """This passkey is registered already (to this account or another)."""


@dataclass(frozen=True, slots=True)
class Passkey:
    """A passkey as stored (``credential_id`` and ``public_key`` base64url)."""

    id: str
    account_id: str
    credential_id: str
    public_key: str
    sign_count: int
    name: str
    created: str
    used: str | None


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge given to a browser session."""

    challenge: str
    account_id: str | None
    expires: float


class PasskeyStore:
    """Passkeys and WebAuthn challenges kept in a `GameStore`'s database (migration ``0008``)."""

    def __init__(self, store: GameStore) -> None:
        """Keep passkeys in ``store``'s database."""
        self.store = store

    # -- challenges ----------------------------------------------------------------------------

    def give_challenge(self, session: str, purpose: str, challenge: Challenge, now: float) -> None:
        """Keep ``challenge`` for the session's ``purpose`` (replacing one given before)."""
        table = webauthn_challenges_table
        with self.store.write_transaction() as db:
            db.execute(delete(table).where(table.c.expires < now))
            db.execute(delete(table).where(table.c.session == session, table.c.purpose == purpose))
            db.execute(
                insert(table).values(
                    session=session,
                    purpose=purpose,
                    challenge=challenge.challenge,
                    account_id=challenge.account_id,
                    expires=challenge.expires,
                )
            )

    def take_challenge(self, session: str, purpose: str) -> Challenge | None:
        """Take out the session's challenge for ``purpose`` (``None``: none, or taken already).

        Of two requests answering one challenge at once, only one gets it.
        """
        table = webauthn_challenges_table
        where = (table.c.session == session, table.c.purpose == purpose)
        with self.store.write_transaction() as db:
            row = db.execute(select(table).where(*where)).first()
            if row is None:
                return None
            if db.execute(delete(table).where(*where)).rowcount != 1:
                return None
        return Challenge(str(row.challenge), row.account_id, float(row.expires))

    # -- passkeys ------------------------------------------------------------------------------

    def add(
        self, account_id: str, credential_id: str, public_key: str, sign_count: int, name: str
    ) -> Passkey:
        """A new passkey of the account.

        Raises:
            PasskeyTakenError: This credential is registered already.
        """
        passkey = Passkey(
            secrets.token_hex(8),
            account_id,
            credential_id,
            public_key,
            sign_count,
            name,
            now_stamp(),
            None,
        )
        taken = "this passkey is registered already"  # its credential id is unique
        with self.store.write_transaction(refused=lambda _: PasskeyTakenError(taken)) as db:
            db.execute(
                insert(account_passkeys_table).values(
                    id=passkey.id,
                    account_id=account_id,
                    credential_id=credential_id,
                    public_key=public_key,
                    sign_count=sign_count,
                    name=name,
                    created=passkey.created,
                )
            )
        return passkey

    def of_account(self, account_id: str) -> list[Passkey]:
        """The account's passkeys, oldest first."""
        table = account_passkeys_table
        with self.store.read_transaction() as db:
            rows = db.execute(
                select(table).where(table.c.account_id == account_id).order_by(table.c.created)
            ).all()
        return [_passkey(row) for row in rows]

    def by_credential(self, credential_id: str) -> Passkey | None:
        """The passkey of this credential id, if one is registered."""
        table = account_passkeys_table
        with self.store.read_transaction() as db:
            row = db.execute(select(table).where(table.c.credential_id == credential_id)).first()
        return None if row is None else _passkey(row)

    def used(self, passkey_id: str, sign_count: int) -> None:
        """Note a login with the passkey, and the authenticator's counter now."""
        table = account_passkeys_table
        with self.store.write_transaction() as db:
            db.execute(
                update(table)
                .where(table.c.id == passkey_id)
                .values(sign_count=sign_count, used=now_stamp())
            )

    def remove(self, account_id: str, passkey_id: str) -> bool:
        """Remove the account's passkey ``passkey_id``; whether it had one."""
        table = account_passkeys_table
        with self.store.write_transaction() as db:
            removed = db.execute(
                delete(table).where(table.c.account_id == account_id, table.c.id == passkey_id)
            ).rowcount
        return bool(removed)


def _passkey(row: Any) -> Passkey:
    return Passkey(
        str(row.id),
        str(row.account_id),
        str(row.credential_id),
        str(row.public_key),
        int(row.sign_count),
        str(row.name),
        str(row.created),
        None if row.used is None else str(row.used),
    )
