"""Games and their moves in the games database (see `ludoteca.web.storage`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection

from ludoteca.core.options import OptionValue
from ludoteca.web.database import INSERT_MOVE, Database
from ludoteca.web.driver_sql import run_many
from ludoteca.web.repo_sessions import held_sessions
from ludoteca.web.rows import (
    LOBBY_CHANGE,
    ChallengeTakenError,
    GameChanges,
    GameRow,
    GameSummary,
    SeatRow,
    Written,
    now_stamp,
)
from ludoteca.web.schema import (
    challenges_table,
    games_table,
    moves_table,
    seats_table,
    session_seats_table,
)


class GamesRepository(Database):
    """Games and their moves: created, changed conditionally, read back, listed."""

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
            if result is not None:
                self._recorded(db, game_id, version, {"result": result})
            self._announce(db, LOBBY_CHANGE + game_id, 0)
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
            run_many(
                db,
                INSERT_MOVE,
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

    def changes_since(self, game_id: str, ply: int) -> GameChanges | None:
        """The game's columns, seats and moves after the first ``ply`` now (none: no such game).

        One read transaction; only the moves numbered above ``ply`` are fetched.
        """
        with self._read() as db:
            row = db.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                return None
            moves: tuple[str, ...] = ()
            if row.move_count > ply:
                moves = tuple(
                    db.execute(
                        select(moves_table.c.text)
                        .where(moves_table.c.game_id == game_id, moves_table.c.number > ply)
                        .order_by(moves_table.c.number)
                    ).scalars()
                )
            seats = self._seats(db, [game_id])[game_id]  # names change (a deleted account)
        return GameChanges(
            id=row.id,
            version=row.version,
            updated=row.updated,
            move_count=row.move_count,
            first=ply + 1,
            moves=moves,
            seats=seats,
            resigned=row.resigned,
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
