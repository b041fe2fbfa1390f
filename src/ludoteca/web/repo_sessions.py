"""Browser sessions and secrets in the games database: names, held seats, signing keys."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from sqlalchemy import (
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection

from ludoteca.web.database import Database
from ludoteca.web.rows import (
    ACCOUNT_SEATS_PREFIX,
    StorageError,
    now_stamp,
)
from ludoteca.web.schema import (
    account_logins_table,
    accounts_table,
    session_names_table,
    session_seats_table,
    settings_table,
)


class SessionsRepository(Database):
    """Browser sessions' names and seats, and the server-wide secrets."""

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
