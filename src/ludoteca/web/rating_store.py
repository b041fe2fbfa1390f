"""Ratings of rated games in the games database, and the reads that profiles need.

A rated game is one of two accounts that both agreed to it (an open challenge posted and
accepted as rated, `ludoteca.web.ratings`); its seats carry their accounts (``seats.account_id``)
and its row ``rated``. Two tables (migration ``0007``):

- ``player_ratings``: one Glicko-2 rating per account, game id and time control (`REALTIME`
  for a game with a real-time clock, `CORRESPONDENCE` for one with a correspondence clock or
  none), with the count of rated games and their wins, draws and losses;
- ``rating_history``: one row per rated game and player, its rating before and after the game.

`rate_game` is called by `ludoteca.web.storage.GameStore` inside the very transaction that
records a game's result (whatever ended it: the rules, a resignation, a time out, an agreed
draw), so a result is never stored without its ratings nor the other way round. Each game is a
rating period of its own (`ludoteca.analysis.glicko2.rate_pair`), rated against the opponent's
rating before it. A game is rated once: the result itself is a conditional write that only one
server process wins (`ludoteca.web.storage`), `rate_game` does nothing for a game that already
has history rows, and the pair (game, account) is unique in ``rating_history`` besides. The
players' rows are read with ``FOR UPDATE`` in the order of their account ids (PostgreSQL locks
them; SQLite's write transactions are serial anyway), so two games ending at once for the same
player never lose an update or deadlock.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, exists, func, literal, or_, select, tuple_, union, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from ludoteca.analysis.glicko2 import Rating, rate_pair
from ludoteca.web.clocks import CORRESPONDENCE, REALTIME, spec_from_json
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
from ludoteca.web.storage import ACCOUNT_SEATS_PREFIX, GameStore, GameSummary, unavailable

log = logging.getLogger(__name__)

TIME_CONTROLS = (REALTIME, CORRESPONDENCE)
#: A rating whose deviation is above this is provisional, shown with "?" (as lichess does).
PROVISIONAL_DEVIATION = 110.0
#: The results a player's games can be filtered by.
RESULTS = ("running", "over", "won", "lost", "drawn")


def time_control(clock: str | None) -> str:
    """The time control a game with this stored clock is rated in."""
    spec = spec_from_json(clock)
    return REALTIME if spec is not None and spec.kind == REALTIME else CORRESPONDENCE


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """An account's rating in one game and time control, with its counts."""

    game: str
    time_control: str
    rating: Rating
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def provisional(self) -> bool:
        """Whether the rating is still unsure (shown with "?")."""
        return self.rating.deviation > PROVISIONAL_DEVIATION

    def shown(self) -> str:
        """The rating as people read it: ``"1623"``, or ``"1500?"`` while provisional."""
        return f"{round(self.rating.rating)}{'?' if self.provisional else ''}"

    def public(self) -> dict[str, Any]:
        """The JSON form of the API."""
        return {
            "rating": round(self.rating.rating, 1),
            "deviation": round(self.rating.deviation, 1),
            "games": self.games,
            "provisional": self.provisional,
            "shown": self.shown(),
            "time_control": self.time_control,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
        }


def newcomer(game: str, control: str) -> PlayerRating:
    """The rating of an account that has played no rated game of ``game`` in ``control``."""
    return PlayerRating(game, control, Rating(), 0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """One rated game of an account: its rating after it, and how it went."""

    game_id: str
    game: str
    time_control: str
    score: float
    rating_before: float
    rating_after: float
    deviation_after: float
    opponent: str | None
    at: str


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """A place on a game's leaderboard."""

    name: str
    rating: PlayerRating


def _stamp() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


# -- rating a game, in the transaction that records its result ---------------------------------


def rate_game(db: Connection, game_id: str) -> bool:
    """Move both players' ratings if ``game_id`` is a rated game that just ended.

    Its result and winner are written in this transaction already. Does nothing for a casual
    game, one still running, or one already rated.

    Returns:
        Whether ratings moved.
    """
    game = db.execute(
        select(
            games_table.c.rated,
            games_table.c.game,
            games_table.c.clock,
            games_table.c.result,
            games_table.c.winner,
        ).where(games_table.c.id == game_id)
    ).first()
    if game is None or not game.rated or game.result is None:
        return False
    history = rating_history_table
    if db.execute(select(history.c.id).where(history.c.game_id == game_id).limit(1)).first():
        return False  # rated already (another process recorded this end first)
    seats = db.execute(
        select(seats_table.c.seat, seats_table.c.account_id)
        .where(seats_table.c.game_id == game_id)
        .order_by(seats_table.c.seat)
    ).all()
    accounts = [row.account_id for row in seats]
    if len(seats) != 2 or None in accounts or accounts[0] == accounts[1]:
        log.warning("rated game %s is not between two accounts; it is not rated", game_id)
        return False
    if game.winner is None:
        log.warning("rated game %s ended without a recorded winner; it is not rated", game_id)
        return False
    first_score = (
        0.5 if game.winner == NO_WINNER else (1.0 if game.winner == seats[0].seat else 0.0)
    )
    scores = {accounts[0]: first_score, accounts[1]: 1.0 - first_score}
    control = time_control(game.clock)
    stamp = _stamp()
    before = {
        account: _locked_rating(db, account, game.game, control, stamp)
        for account in sorted(accounts)  # one order for every transaction: no deadlock
    }
    first_after, second_after = rate_pair(
        before[accounts[0]].rating, before[accounts[1]].rating, first_score
    )
    after = {accounts[0]: first_after, accounts[1]: second_after}
    insert_once = (postgresql_insert if db.dialect.name == "postgresql" else sqlite_insert)(history)
    for index, account in enumerate(accounts):
        opponent = accounts[1 - index]
        old, new = before[account].rating, after[account]
        claimed = db.execute(
            insert_once.values(
                game_id=game_id,
                account_id=account,
                game=game.game,
                time_control=control,
                seat=seats[index].seat,
                score=scores[account],
                opponent_id=opponent,
                rating_before=old.rating,
                deviation_before=old.deviation,
                volatility_before=old.volatility,
                rating_after=new.rating,
                deviation_after=new.deviation,
                volatility_after=new.volatility,
                at=stamp,
            )
            .on_conflict_do_nothing(index_elements=["game_id", "account_id"])
            .returning(history.c.id)
        ).first()
        if claimed is None:  # pragma: no cover - the games row's write lock orders the ends
            log.warning("game %s was rated already for one of its players", game_id)
            return False
    for account in accounts:
        score, new = scores[account], after[account]
        ratings = player_ratings_table
        db.execute(
            update(ratings)
            .where(
                ratings.c.account_id == account,
                ratings.c.game == game.game,
                ratings.c.time_control == control,
            )
            .values(
                rating=new.rating,
                deviation=new.deviation,
                volatility=new.volatility,
                games=ratings.c.games + 1,
                wins=ratings.c.wins + (1 if score == 1.0 else 0),
                draws=ratings.c.draws + (1 if score == 0.5 else 0),
                losses=ratings.c.losses + (1 if score == 0.0 else 0),
                updated=stamp,
            )
        )
    return True


def _locked_rating(
    db: Connection, account: str, game: str, control: str, stamp: str
) -> PlayerRating:
    """The account's rating row (created a newcomer's if missing), locked for this transaction."""
    ratings = player_ratings_table
    fresh = Rating()
    insert_new = (postgresql_insert if db.dialect.name == "postgresql" else sqlite_insert)(ratings)
    db.execute(
        insert_new.values(
            account_id=account,
            game=game,
            time_control=control,
            rating=fresh.rating,
            deviation=fresh.deviation,
            volatility=fresh.volatility,
            updated=stamp,
        ).on_conflict_do_nothing()
    )
    row = db.execute(
        select(ratings)
        .where(
            ratings.c.account_id == account,
            ratings.c.game == game,
            ratings.c.time_control == control,
        )
        .with_for_update()
    ).one()
    return _player_rating(row)


def _player_rating(row: Any) -> PlayerRating:
    return PlayerRating(
        str(row.game),
        str(row.time_control),
        Rating(float(row.rating), float(row.deviation), float(row.volatility)),
        int(row.games),
        int(row.wins),
        int(row.draws),
        int(row.losses),
    )


def forget_account(db: Connection, account_id: str, shown_name: str) -> None:
    """Remove an account's ratings and rating history; its rated seats get ``shown_name``."""
    db.execute(player_ratings_table.delete().where(player_ratings_table.c.account_id == account_id))
    db.execute(rating_history_table.delete().where(rating_history_table.c.account_id == account_id))
    db.execute(
        update(seats_table)
        .where(seats_table.c.account_id == account_id)
        .values(account_id=None, name=shown_name)
    )


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
        """Read ``store``'s database (its schema has the tables, migration 0007)."""
        self.store = store

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        try:
            with self.store.engine.connect() as connection:
                read = connection.execution_options(read_only=True)
                with read.begin():
                    yield read
        except (DBAPIError, OSError) as error:
            raise unavailable(error) from None

    def ratings(self, account_ids: Sequence[str]) -> dict[str, list[PlayerRating]]:
        """Each account's ratings (every game and time control it has played rated)."""
        found: dict[str, list[PlayerRating]] = {account: [] for account in account_ids}
        if not account_ids:
            return found
        table = player_ratings_table
        with self._read() as db:
            rows = db.execute(
                select(table)
                .where(table.c.account_id.in_(list(account_ids)))
                .order_by(table.c.game, table.c.time_control)
            ).all()
        for row in rows:
            found[str(row.account_id)].append(_player_rating(row))
        return found

    def history(self, account_id: str) -> list[HistoryPoint]:
        """The account's rated games, oldest first, with the ratings after each."""
        history = rating_history_table
        opponent = accounts_table.alias("opponent")
        with self._read() as db:
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
        with self._read() as db:
            total = int(
                db.execute(select(func.count()).select_from(query.subquery())).scalar() or 0
            )
            rows = db.execute(
                query.order_by(table.c.rating.desc(), accounts_table.c.name_key)
                .offset(offset)
                .limit(limit)
            ).all()
        return [LeaderboardRow(str(row.name), _player_rating(row)) for row in rows], total

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
        with self._read() as db:
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
        with self._read() as db:
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
        with self._read() as db:
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
