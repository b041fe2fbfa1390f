"""Player accounts in the games database (tables ``accounts`` and ``account_logins``).

An account is a name and a password hash. A browser session (`ludoteca.web.guards.Sessions`)
logged in to it has a row in ``account_logins``; the seats a browser plays stay rows of
``session_seats`` keyed by its session, and `ludoteca.web.storage.held_sessions` gives a
logged-in browser the seats of every browser logged in to the same account, and of the
account's own key (``account:<id>``), which keeps:

- the seats of the browser that signed up, or of the anonymous browser that logged in;
- the seats of a browser when it logs out or is logged out (revoked, password changed).

So the account holds its seats on any device, and a browser that is no longer logged in holds
none of them. Deleting an account removes its row, its logins, its passkeys
(`ludoteca.web.passkeys`) and which seats it held; its games stay, with its seats' names replaced
by `DELETED_NAME`; the puzzle ratings of its logged-in browsers go too. Each method is one
transaction.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, tuple_, update
from sqlalchemy.engine import Connection

from ludoteca.core.errors import LudotecaError
from ludoteca.web.rated_games import forget_account as forget_ratings
from ludoteca.web.schema import (
    account_logins_table,
    account_passkeys_table,
    accounts_table,
    challenges_table,
    games_table,
    puzzle_attempts_table,
    puzzle_players_table,
    seats_table,
    session_names_table,
    session_seats_table,
    webauthn_challenges_table,
)
from ludoteca.web.storage import (
    ACCOUNT_SEATS_PREFIX,
    GameStore,
    now_stamp,
)

#: The name shown on the games of a deleted account.
DELETED_NAME = "deleted player"


class NameTakenError(LudotecaError):
    """Another account has this name (names differ by more than case)."""


@dataclass(frozen=True, slots=True)
class Account:
    """An account as stored (``password`` is the hash; never shown)."""

    id: str
    name: str
    password: str
    created: str


@dataclass(frozen=True, slots=True)
class Login:
    """A browser session logged in to an account."""

    session: str
    public_id: str
    created: str
    seen: str
    address: str | None
    agent: str | None


def name_key(name: str) -> str:
    """The form of a name that is unique among accounts."""
    return name.lower()


class AccountStore:
    """Accounts kept in a `GameStore`'s database (migration ``0006``)."""

    def __init__(self, store: GameStore) -> None:
        """Keep accounts in ``store``'s database."""
        self.store = store

    # -- accounts -------------------------------------------------------------------------------

    def create(self, name: str, password_hash: str, login: Login, anonymous: str | None) -> Account:
        """A new account, logged in as ``login``, taking over the browser's session before.

        The seats of ``anonymous`` (the browser's session before) become the account's, unless
        it was logged in to another account, whose seats they stay (`_take_over`).

        Raises:
            NameTakenError: An account has this name in some case.
        """
        account = Account(secrets.token_urlsafe(12), name, password_hash, now_stamp())
        taken_meanwhile = "this name is taken; choose another"  # by an account created at once
        with self.store.write_transaction(refused=lambda _: NameTakenError(taken_meanwhile)) as db:
            taken = db.execute(
                select(accounts_table.c.id).where(accounts_table.c.name_key == name_key(name))
            ).first()
            if taken is not None:
                raise NameTakenError(f"the name {name!r} is taken (in some case); choose another")
            db.execute(
                insert(accounts_table).values(
                    id=account.id,
                    name=name,
                    name_key=name_key(name),
                    password=password_hash,
                    created=account.created,
                )
            )
            _take_over(db, account.id, anonymous)
            _insert_login(db, account.id, login)
        return account

    def by_name(self, name: str) -> Account | None:
        """The account of ``name`` (in any case), if there is one."""
        with self.store.read_transaction() as db:
            row = db.execute(
                select(accounts_table).where(accounts_table.c.name_key == name_key(name))
            ).first()
        return None if row is None else _account(row)

    def by_id(self, account_id: str) -> Account | None:
        """The account ``account_id``, if it exists."""
        with self.store.read_transaction() as db:
            row = db.execute(
                select(accounts_table).where(accounts_table.c.id == account_id)
            ).first()
        return None if row is None else _account(row)

    def of_session(self, session: str | None) -> Account | None:
        """The account the browser ``session`` is logged in to, if any."""
        if session is None:
            return None
        with self.store.read_transaction() as db:
            row = db.execute(
                select(accounts_table)
                .join(
                    account_logins_table, account_logins_table.c.account_id == accounts_table.c.id
                )
                .where(account_logins_table.c.session == session)
            ).first()
        return None if row is None else _account(row)

    def seat_accounts(self, game_id: str) -> dict[int, str | None]:
        """The account playing each seat of the game, as stored now.

        ``None`` for a seat without one: a casual game's, or an account deleted since (the
        copy a server process holds may not know yet).
        """
        with self.store.read_transaction() as db:
            rows = db.execute(
                select(seats_table.c.seat, accounts_table.c.id)
                .select_from(seats_table)
                .outerjoin(accounts_table, accounts_table.c.id == seats_table.c.account_id)
                .where(seats_table.c.game_id == game_id)
            ).all()
        return {int(row.seat): None if row.id is None else str(row.id) for row in rows}

    def set_password(self, account_id: str, password_hash: str, keep: str) -> None:
        """Change the password; every other browser logged in to the account is logged out."""
        with self.store.write_transaction() as db:
            db.execute(
                update(accounts_table)
                .where(accounts_table.c.id == account_id)
                .values(password=password_hash)
            )
            others = db.execute(
                select(account_logins_table.c.session).where(
                    account_logins_table.c.account_id == account_id,
                    account_logins_table.c.session != keep,
                )
            ).scalars()
            for session in list(others):
                _end_login(db, account_id, session)

    def rehash(self, account_id: str, password_hash: str) -> None:
        """Keep a new hash of the same password (made with today's settings)."""
        with self.store.write_transaction() as db:
            db.execute(
                update(accounts_table)
                .where(accounts_table.c.id == account_id)
                .values(password=password_hash)
            )

    def delete(self, account_id: str) -> None:
        """Remove the account and what it says of its player; its games stay, names replaced."""
        with self.store.write_transaction() as db:
            sessions = [
                str(s)
                for s in db.execute(
                    select(account_logins_table.c.session).where(
                        account_logins_table.c.account_id == account_id
                    )
                ).scalars()
            ]
            keys = [ACCOUNT_SEATS_PREFIX + account_id, *sessions]
            forget_ratings(db, account_id, DELETED_NAME)
            held = select(session_seats_table.c.game_id, session_seats_table.c.seat).where(
                session_seats_table.c.session.in_(keys)
            )
            db.execute(
                update(seats_table)
                .where(tuple_(seats_table.c.game_id, seats_table.c.seat).in_(held))
                .values(name=DELETED_NAME)
            )
            # A new version of each game: every server process reloads it with the names.
            games = [
                str(g)
                for g in db.execute(
                    held.with_only_columns(session_seats_table.c.game_id).distinct()
                ).scalars()
            ]
            for game_id in games:
                version = db.execute(
                    update(games_table)
                    .where(games_table.c.id == game_id)
                    .values(version=games_table.c.version + 1)
                    .returning(games_table.c.version)
                ).scalar()
                if version is not None:
                    self.store._announce(db, game_id, int(version))
            db.execute(
                update(challenges_table)
                .where(challenges_table.c.poster_session.in_(keys))
                .values(poster_name=DELETED_NAME, poster_session=None)
            )
            for table in (session_seats_table, puzzle_players_table, puzzle_attempts_table):
                db.execute(delete(table).where(table.c.session.in_(keys)))
            db.execute(delete(session_names_table).where(session_names_table.c.session.in_(keys)))
            db.execute(
                delete(webauthn_challenges_table).where(
                    webauthn_challenges_table.c.session.in_(keys)
                )
            )
            db.execute(
                delete(account_passkeys_table).where(
                    account_passkeys_table.c.account_id == account_id
                )
            )
            db.execute(
                delete(account_logins_table).where(account_logins_table.c.account_id == account_id)
            )
            db.execute(delete(accounts_table).where(accounts_table.c.id == account_id))

    # -- logins ---------------------------------------------------------------------------------

    def log_in(self, account_id: str, login: Login, previous: str | None) -> None:
        """Log the new browser session ``login`` in; it takes over the seats of ``previous``.

        ``previous`` is the browser's session before (its id is not used again: no fixation).
        If it was logged in (to any account), that login ends first; if it was anonymous, its
        seats become the account's.
        """
        with self.store.write_transaction() as db:
            _take_over(db, account_id, previous)
            _insert_login(db, account_id, login)

    def log_out(self, session: str) -> None:
        """End the browser session's login (its seats stay the account's)."""
        with self.store.write_transaction() as db:
            account = db.execute(
                select(account_logins_table.c.account_id).where(
                    account_logins_table.c.session == session
                )
            ).scalar()
            if account is not None:
                _end_login(db, str(account), session)

    def revoke(self, account_id: str, public_id: str) -> bool:
        """Log out the account's session named ``public_id``; whether there was one."""
        with self.store.write_transaction() as db:
            session = db.execute(
                select(account_logins_table.c.session).where(
                    account_logins_table.c.account_id == account_id,
                    account_logins_table.c.public_id == public_id,
                )
            ).scalar()
            if session is None:
                return False
            _end_login(db, account_id, str(session))
            return True

    def logins(self, account_id: str) -> list[Login]:
        """The browser sessions logged in to the account, most recently seen first."""
        table = account_logins_table
        with self.store.read_transaction() as db:
            rows = db.execute(
                select(table)
                .where(table.c.account_id == account_id)
                .order_by(table.c.seen.desc(), table.c.created.desc())
            ).all()
        return [Login(r.session, r.public_id, r.created, r.seen, r.address, r.agent) for r in rows]

    def seen(self, session: str, address: str | None, agent: str | None) -> None:
        """Note that the logged-in browser ``session`` was just seen (when, from where)."""
        with self.store.write_transaction() as db:
            db.execute(
                update(account_logins_table)
                .where(account_logins_table.c.session == session)
                .values(seen=now_stamp(), address=address, agent=agent)
            )


def new_login(session: str, address: str | None, agent: str | None) -> Login:
    """A login of the browser ``session`` now (its public id derived from nothing secret)."""
    stamp = now_stamp()
    public = hashlib.sha256(secrets.token_bytes(16)).hexdigest()[:16]
    return Login(session, public, stamp, stamp, address, (agent or "")[:200] or None)


def _account(row: Any) -> Account:
    return Account(str(row.id), str(row.name), str(row.password), str(row.created))


def _insert_login(db: Connection, account_id: str, login: Login) -> None:
    db.execute(
        insert(account_logins_table).values(
            session=login.session,
            account_id=account_id,
            public_id=login.public_id,
            created=login.created,
            seen=login.seen,
            address=login.address,
            agent=login.agent,
        )
    )


def _take_over(db: Connection, account_id: str, previous: str | None) -> None:
    """The browser session ``previous`` makes way for a login to ``account_id``.

    Logged in (to any account), its login ends and its seats stay that account's; anonymous,
    its seats are the account's now and its display name goes.
    """
    if previous is None:
        return
    before = db.execute(
        select(account_logins_table.c.account_id).where(account_logins_table.c.session == previous)
    ).scalar()
    if before is not None:
        _end_login(db, str(before), previous)
        return
    _move_seats(db, previous, ACCOUNT_SEATS_PREFIX + account_id)
    db.execute(delete(session_names_table).where(session_names_table.c.session == previous))


def _end_login(db: Connection, account_id: str, session: str) -> None:
    """Log ``session`` out: its seats go to the account's key, its login row goes."""
    _move_seats(db, session, ACCOUNT_SEATS_PREFIX + account_id)
    db.execute(delete(account_logins_table).where(account_logins_table.c.session == session))


def _move_seats(db: Connection, source: str, target: str) -> None:
    """Give ``target`` the seats of ``source`` (those it holds already are not doubled)."""
    table = session_seats_table
    rows = db.execute(select(table).where(table.c.session == source)).all()
    have = _held(db, target, [(r.game_id, r.seat) for r in rows])
    new = [
        {"session": target, "game_id": r.game_id, "seat": r.seat, "added": r.added}
        for r in rows
        if (r.game_id, r.seat) not in have
    ]
    if new:
        db.execute(insert(table), new)
    db.execute(delete(table).where(table.c.session == source))


def _held(db: Connection, key: str, pairs: Sequence[tuple[str, int]]) -> set[tuple[str, int]]:
    if not pairs:
        return set()
    table = session_seats_table
    games = {game_id for game_id, _ in pairs}
    return {
        (str(r.game_id), int(r.seat))
        for r in db.execute(
            select(table.c.game_id, table.c.seat).where(
                table.c.session == key, table.c.game_id.in_(games)
            )
        ).all()
    }
