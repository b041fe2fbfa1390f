"""Puzzle ratings in the games database: each puzzle's and each player's Glicko-2 rating.

Three tables (migration ``0005``):

- ``puzzle_ratings``: one row per puzzle that someone has answered (a puzzle without a row is
  a newcomer: 1500, RD 350, volatility 0.06), with its count of rated answers and of those
  that solved it;
- ``puzzle_players``: one row per browser session and game, the player's puzzle rating in that
  game, with the same counts;
- ``puzzle_attempts``: one row per session and puzzle: whether the first answer was right,
  whether any answer was, and how many answers were sent.

Only a player's first answer to a puzzle is rated: it is one game between the player and the
puzzle, won by the player when right and by the puzzle when wrong, and both ratings move by
`ludoteca.analysis.glicko2.rate_pair` (each answer is a rating period of its own, so the
deviations never grow with idle time). Later answers to the same puzzle are kept (``solved``,
``tries``) but change no rating.

An answer is one transaction: the rows are created if missing, then read with ``FOR UPDATE``
(PostgreSQL locks them; SQLite's write transactions are serial anyway), the player's row
always before the puzzle's, so two answers never lose an update or deadlock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from ludoteca.analysis.glicko2 import Rating, rate_pair
from ludoteca.web.schema import puzzle_attempts_table, puzzle_players_table, puzzle_ratings_table
from ludoteca.web.storage import GameStore, now_stamp


@dataclass(frozen=True, slots=True)
class Rated:
    """A stored rating with its counts: rated answers and how many of them were right."""

    rating: Rating
    rated: int = 0
    solved: int = 0

    def public(self) -> dict[str, Any]:
        """The JSON-ready form."""
        return self.rating.public() | {"rated": self.rated, "solved": self.solved}


@dataclass(frozen=True, slots=True)
class Answered:
    """What one answer changed.

    Attributes:
        rated: Whether the answer was rated (the player's first answer to this puzzle).
        player_before: The player's rating before the answer; ``player`` after it.
        puzzle_before: The puzzle's rating before the answer; ``puzzle`` after it.
        tries: How many answers the player has sent to this puzzle, this one included.
    """

    rated: bool
    player_before: Rated
    player: Rated
    puzzle_before: Rated
    puzzle: Rated
    tries: int


class PuzzleStore:
    """Puzzle ratings kept in a `GameStore`'s database. Each method is one transaction."""

    def __init__(self, store: GameStore) -> None:
        """Keep ratings in ``store``'s database (its schema has the tables, migration 0005)."""
        self.store = store

    def player(self, session: str | None, game: str) -> Rated:
        """The player's rating in ``game`` (a newcomer's without a session or a row)."""
        if session is None:
            return Rated(Rating())
        table = puzzle_players_table
        with self.store.read_transaction() as db:
            row = db.execute(
                select(table).where(table.c.session == session, table.c.game == game)
            ).first()
        return Rated(Rating()) if row is None else _rated(row)

    def puzzles(self, game: str) -> dict[str, Rated]:
        """The stored ratings of ``game``'s puzzles (puzzles never answered are absent)."""
        table = puzzle_ratings_table
        with self.store.read_transaction() as db:
            rows = db.execute(select(table).where(table.c.game == game)).all()
        return {row.puzzle_id: _rated(row) for row in rows}

    def attempts(self, session: str | None, game: str) -> dict[str, bool]:
        """The puzzles of ``game`` the player has answered: puzzle id -> solved (at any try)."""
        if session is None:
            return {}
        table = puzzle_attempts_table
        with self.store.read_transaction() as db:
            rows = db.execute(
                select(table.c.puzzle_id, table.c.solved).where(
                    table.c.session == session, table.c.game == game
                )
            ).all()
        return {row.puzzle_id: bool(row.solved) for row in rows}

    def answer(self, session: str, game: str, puzzle_id: str, right: bool) -> Answered:
        """Record one answer; rate it when it is the player's first to this puzzle."""
        stamp = now_stamp()
        players, puzzles, attempts = (
            puzzle_players_table,
            puzzle_ratings_table,
            puzzle_attempts_table,
        )
        fresh = Rating()
        newcomer = {
            "rating": fresh.rating,
            "deviation": fresh.deviation,
            "volatility": fresh.volatility,
            "updated": stamp,
        }
        with self.store.write_transaction() as db:
            insert = postgresql_insert if db.dialect.name == "postgresql" else sqlite_insert
            db.execute(
                insert(players)
                .values(session=session, game=game, **newcomer)
                .on_conflict_do_nothing()
            )
            db.execute(
                insert(puzzles)
                .values(puzzle_id=puzzle_id, game=game, **newcomer)
                .on_conflict_do_nothing()
            )
            player_row = db.execute(
                select(players)
                .where(players.c.session == session, players.c.game == game)
                .with_for_update()
            ).one()
            puzzle_row = db.execute(
                select(puzzles).where(puzzles.c.puzzle_id == puzzle_id).with_for_update()
            ).one()
            attempt = db.execute(
                select(attempts)
                .where(attempts.c.session == session, attempts.c.puzzle_id == puzzle_id)
                .with_for_update()
            ).first()
            player_before, puzzle_before = _rated(player_row), _rated(puzzle_row)
            if attempt is not None:
                tries = attempt.tries + 1
                db.execute(
                    update(attempts)
                    .where(attempts.c.session == session, attempts.c.puzzle_id == puzzle_id)
                    .values(solved=attempt.solved or right, tries=tries, updated=stamp)
                )
                return Answered(
                    False, player_before, player_before, puzzle_before, puzzle_before, tries
                )
            db.execute(
                insert(attempts).values(
                    session=session,
                    puzzle_id=puzzle_id,
                    game=game,
                    first_right=right,
                    solved=right,
                    tries=1,
                    updated=stamp,
                )
            )
            player_rating, puzzle_rating = rate_pair(
                player_before.rating, puzzle_before.rating, 1.0 if right else 0.0
            )
            player = Rated(player_rating, player_before.rated + 1, player_before.solved + right)
            puzzle = Rated(puzzle_rating, puzzle_before.rated + 1, puzzle_before.solved + right)
            db.execute(
                update(players)
                .where(players.c.session == session, players.c.game == game)
                .values(**_columns(player), updated=stamp)
            )
            db.execute(
                update(puzzles)
                .where(puzzles.c.puzzle_id == puzzle_id)
                .values(**_columns(puzzle), updated=stamp)
            )
        return Answered(True, player_before, player, puzzle_before, puzzle, 1)


def _rated(row: Any) -> Rated:
    return Rated(Rating(row.rating, row.deviation, row.volatility), row.rated, row.solved)


def _columns(rated: Rated) -> dict[str, Any]:
    return {
        "rating": rated.rating.rating,
        "deviation": rated.rating.deviation,
        "volatility": rated.rating.volatility,
        "rated": rated.rated,
        "solved": rated.solved,
    }
