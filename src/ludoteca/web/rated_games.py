"""Rating a rated game as its end is recorded (`rate_result`), and what a rating is.

`rate_result` is an in-transaction subscriber of the end of a game: every
`ludoteca.web.storage.GameStore` registers it among its result hooks as it opens, so it runs
inside the very transaction that records a game's result (whatever ended it: the rules, a
resignation, a time out, an agreed draw), with or without a server around the store, and a
result is never stored without its ratings nor the other way round. Each game is a rating
period of its own (`ludoteca.analysis.glicko2.rate_pair`), rated against the opponent's rating
before it. A game is rated once: the result itself is a conditional write that only one server
process wins (`ludoteca.web.storage`), `rate_game` does nothing for a game that already has
history rows, and the pair (game, account) is unique in ``rating_history`` besides. The
players' rows are read with ``FOR UPDATE`` in the order of their account ids (PostgreSQL locks
them; SQLite's write transactions are serial anyway), so two games ending at once for the same
player never lose an update or deadlock. `ludoteca.web.rating_store` reads what this writes.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from ludoteca.analysis.glicko2 import Rating, rate_pair
from ludoteca.web.events import ResultRecorded
from ludoteca.web.schema import (
    NO_WINNER,
    games_table,
    player_ratings_table,
    rating_history_table,
    seats_table,
)

log = logging.getLogger(__name__)

#: The time controls, as `ludoteca.web.clocks` names its kinds of clock (that module is not
#: imported: the storage imports this one, and the clocks' errors import the storage).
REALTIME = "realtime"
CORRESPONDENCE = "correspondence"
TIME_CONTROLS = (REALTIME, CORRESPONDENCE)
#: A rating whose deviation is above this is provisional, shown with "?" (as lichess does).
PROVISIONAL_DEVIATION = 110.0
#: The results a player's games can be filtered by.
RESULTS = ("running", "over", "won", "lost", "drawn")


def time_control(clock: str | None) -> str:
    """The time control a game with this stored clock is rated in."""
    if clock is None:
        return CORRESPONDENCE  # no clock: no time pressure, as in correspondence
    return CORRESPONDENCE if json.loads(clock).get("kind") == CORRESPONDENCE else REALTIME


#: The computer levels' Elo from the round robins of `ludoteca arena` (docs/ai.md, "How strong
#: they are"): relative ratings, mean 0 over the five levels, with their standard errors. They
#: are not on the players' Glicko-2 scale: they say how far apart the levels are. Games without
#: such a round robin (Steppin' Stones, a solitaire) have none.
LEVEL_ARENA_ELO: dict[str, dict[int, tuple[int, int]]] = {
    "salta": {1: (-553, 171), 2: (-168, 109), 3: (58, 104), 4: (114, 105), 5: (549, 170)},
    "pente_grammai": {1: (-166, 12), 2: (0, 10), 3: (17, 10), 4: (55, 10), 5: (94, 11)},
    "salt_n_pepper": {1: (-514, 171), 2: (-79, 97), 3: (71, 93), 4: (120, 94), 5: (402, 124)},
    "splinter": {1: (-411, 130), 2: (-218, 106), 3: (6, 96), 4: (282, 108), 5: (342, 115)},
}
#: How many games a pair each round robin played (docs/ai.md).
ARENA_GAMES_A_PAIR = {"salta": 4, "pente_grammai": 200, "salt_n_pepper": 4, "splinter": 4}


def level_words(game: str, level: int) -> str | None:
    """A level's arena Elo in words (``"arena Elo +114 ± 105 ..."``), or ``None``."""
    figures = LEVEL_ARENA_ELO.get(game, {}).get(level)
    if figures is None:
        return None
    elo, error = figures
    return f"arena Elo {elo:+d} ± {error} (0: the average of the five levels)"


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


def rate_result(db: Connection, recorded: ResultRecorded) -> None:
    """The result hook of the ratings: rate the game whose result ``recorded`` is (`rate_game`)."""
    rate_game(db, recorded.game_id)


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
    return player_rating(row)


def player_rating(row: Any) -> PlayerRating:
    """A ``player_ratings`` row as a `PlayerRating`."""
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
