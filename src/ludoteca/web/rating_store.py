"""Ratings of rated games in the games database, and the reads that profiles need.

A rated game is one of two accounts that both agreed to it (an open challenge posted and
accepted as rated, `ludoteca.web.ratings`); its seats carry their accounts (``seats.account_id``)
and its row ``rated``. Two tables (migration ``0009``):

- ``player_ratings``: one Glicko-2 rating per account, game id and time control (`REALTIME`
  for a game with a real-time clock, `CORRESPONDENCE` for one with a correspondence clock or
  none), with the count of rated games and their wins, draws and losses;
- ``rating_history``: one row per rated game and player, its rating before and after the game.

`ludoteca.web.rated_games.rate_game` writes them, in the transaction that records a rated
game's end; this module reads them, with the players' game lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, exists, func, literal, or_, select, tuple_, union
from sqlalchemy.engine import Connection

from ludoteca.web.rated_games import (
    HistoryPoint,
    LeaderboardRow,
    PlayerRating,
    newcomer,
    player_rating,
    time_control,
)
from ludoteca.web.schema import (
    NO_WINNER,
    account_logins_table,
    accounts_table,
    games_table,
    player_ratings_table,
    rating_history_table,
    seats_table,
    session_seats_table,
)
from ludoteca.web.storage import ACCOUNT_SEATS_PREFIX, GameStore, GameSummary

# -- reading -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameFilter:
    """Which of a player's games to list (``None``: any)."""

    game: str | None = None
    result: str | None = None
    opponent: str | None = None
    rated: bool | None = None


class RatingStore:
    """Ratings, rating histories, leaderboards and players' games in a `GameStore`'s database."""

    def __init__(self, store: GameStore) -> None:
        """Read ``store``'s database (its schema has the tables, migration 0009)."""
        self.store = store

    def ratings(self, account_ids: Sequence[str]) -> dict[str, list[PlayerRating]]:
        """Each account's ratings (every game and time control it has played rated)."""
        found: dict[str, list[PlayerRating]] = {account: [] for account in account_ids}
        if not account_ids:
            return found
        table = player_ratings_table
        with self.store.read_transaction() as db:
            rows = db.execute(
                select(table)
                .where(table.c.account_id.in_(list(account_ids)))
                .order_by(table.c.game, table.c.time_control)
            ).all()
        for row in rows:
            found[str(row.account_id)].append(player_rating(row))
        return found

    def history(self, account_id: str) -> list[HistoryPoint]:
        """The account's rated games, oldest first, with the ratings after each."""
        history = rating_history_table
        opponent = accounts_table.alias("opponent")
        with self.store.read_transaction() as db:
            rows = db.execute(
                select(history, opponent.c.name.label("opponent_name"))
                .outerjoin(opponent, opponent.c.id == history.c.opponent_id)
                .where(history.c.account_id == account_id)
                .order_by(history.c.at, history.c.id)
            ).all()
        return [
            HistoryPoint(
                str(row.game_id),
                str(row.game),
                str(row.time_control),
                float(row.score),
                float(row.rating_before),
                float(row.rating_after),
                float(row.deviation_after),
                None if row.opponent_name is None else str(row.opponent_name),
                str(row.at),
            )
            for row in rows
        ]

    def leaderboard(
        self, game: str, control: str, *, offset: int = 0, limit: int = 50
    ) -> tuple[list[LeaderboardRow], int]:
        """A page of ``game``'s rated players in ``control``, best first, and how many in all."""
        table = player_ratings_table
        query = (
            select(table, accounts_table.c.name)
            .join(accounts_table, accounts_table.c.id == table.c.account_id)
            .where(table.c.game == game, table.c.time_control == control, table.c.games > 0)
        )
        with self.store.read_transaction() as db:
            total = int(
                db.execute(select(func.count()).select_from(query.subquery())).scalar() or 0
            )
            rows = db.execute(
                query.order_by(table.c.rating.desc(), accounts_table.c.name_key)
                .offset(offset)
                .limit(limit)
            ).all()
        return [LeaderboardRow(str(row.name), player_rating(row)) for row in rows], total

    def poster_ratings(self, challenge_rows: Sequence[Any]) -> dict[str, PlayerRating]:
        """The rating of each challenge's poster in its game and time control, by challenge id.

        A poster with an account and no rated game there has a newcomer's rating; a challenge
        posted without an account has none.
        """
        posters = {c.poster_account for c in challenge_rows if c.poster_account is not None}
        ratings = self.ratings(sorted(posters))
        found: dict[str, PlayerRating] = {}
        for challenge in challenge_rows:
            if challenge.poster_account is None:
                continue
            control = time_control(challenge.clock)
            found[challenge.id] = next(
                (
                    r
                    for r in ratings[challenge.poster_account]
                    if r.game == challenge.game and r.time_control == control
                ),
                newcomer(challenge.game, control),
            )
        return found

    def player_games(
        self,
        account_id: str,
        where: GameFilter = GameFilter(),
        *,
        offset: int = 0,
        limit: int = 20,
    ) -> tuple[list[tuple[GameSummary, bool]], int]:
        """A page of the account's games, most recently changed first, and how many in all.

        Each game comes with whether it is rated. The account's games are those whose seats it
        holds (`ludoteca.web.account_store`) and the rated games it played. ``won``, ``lost``
        and ``drawn`` count only games against someone else whose winner is recorded.
        """
        with self.store.read_transaction() as db:
            query = self._games_query(db, account_id, where)
            total = int(
                db.execute(select(func.count()).select_from(query.subquery())).scalar() or 0
            )
            rows = db.execute(
                query.order_by(games_table.c.updated.desc(), games_table.c.id)
                .offset(offset)
                .limit(limit)
            ).all()
            seats = self.store._seats(db, [row.id for row in rows])
        return [(_summary(row, seats[row.id]), bool(row.rated)) for row in rows], total

    def game_ids(self, account_id: str, where: GameFilter = GameFilter()) -> list[str]:
        """The ids of all the account's games (as `player_games` filters them), oldest first."""
        with self.store.read_transaction() as db:
            query = self._games_query(db, account_id, where).with_only_columns(games_table.c.id)
            return [str(g) for g in db.execute(query.order_by(games_table.c.created)).scalars()]

    @staticmethod
    def _games_query(db: Connection, account_id: str, where: GameFilter) -> Any:
        sessions = db.execute(
            select(account_logins_table.c.session).where(
                account_logins_table.c.account_id == account_id
            )
        ).scalars()
        keys = [ACCOUNT_SEATS_PREFIX + account_id, *(str(s) for s in sessions)]
        held = union(
            select(session_seats_table.c.game_id, session_seats_table.c.seat).where(
                session_seats_table.c.session.in_(keys)
            ),
            select(seats_table.c.game_id, seats_table.c.seat).where(
                seats_table.c.account_id == account_id
            ),
        ).subquery("held")
        games = games_table
        query = select(games).where(games.c.id.in_(select(held.c.game_id)))
        if where.game is not None:
            query = query.where(games.c.game == where.game)
        if where.rated is not None:
            query = query.where(games.c.rated.is_(where.rated))
        other_seat = (
            select(literal(1))
            .select_from(seats_table)
            .where(
                seats_table.c.game_id == games.c.id,
                tuple_(seats_table.c.game_id, seats_table.c.seat).not_in(
                    select(held.c.game_id, held.c.seat)
                ),
            )
        )
        if where.opponent is not None:
            query = query.where(
                exists(other_seat.where(func.lower(seats_table.c.name) == where.opponent.lower()))
            )
        holds_winner = exists(
            select(literal(1)).where(held.c.game_id == games.c.id, held.c.seat == games.c.winner)
        )
        over = games.c.result.is_not(None)
        conditions = {
            "running": games.c.result.is_(None),
            "over": over,
            "won": and_(over, games.c.winner >= 0, holds_winner, exists(other_seat)),
            "lost": and_(over, games.c.winner >= 0, ~holds_winner),
            "drawn": and_(over, games.c.winner == NO_WINNER, exists(other_seat)),
        }
        if where.result is not None:
            query = query.where(conditions[where.result])
        return query

    def records(self, game_ids: Sequence[str]) -> list[Any]:
        """The stored games (`ludoteca.web.storage.GameRow`) of these ids, in this order."""
        rows = [self.store.load(game_id) for game_id in game_ids]
        return [row for row in rows if row is not None]

    def account_names(self, account_ids: Sequence[str]) -> dict[str, str]:
        """The names of these accounts (those that exist)."""
        if not account_ids:
            return {}
        with self.store.read_transaction() as db:
            rows = db.execute(
                select(accounts_table.c.id, accounts_table.c.name).where(
                    or_(accounts_table.c.id.in_(list(account_ids)))
                )
            ).all()
        return {str(row.id): str(row.name) for row in rows}


def _summary(row: Any, seats: Any) -> GameSummary:
    return GameSummary(
        id=row.id,
        game=row.game,
        seats=seats,
        move_count=row.move_count,
        result=row.result,
        created=row.created,
        updated=row.updated,
        clock=row.clock,
    )
