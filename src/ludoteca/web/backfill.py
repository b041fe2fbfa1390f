"""The results of games stored before the database kept them, filled in when it is opened.

Revision 0002 of the schema added a ``result`` column to the games. A migration must do the same
thing whatever the rules become, so it only counts the moves of the games already there (plain
SQL) and leaves a note, the ``settings`` row `RESULTS_PENDING`. The application, which has the
rules, then fills the results in: `fill_missing_results` runs each time a `GameStore` opens a
database and, where the note is, replays every game without a result with the rules of today,
records how each game that ended (or was resigned) ended, and removes the note, so it runs once
per database.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from sqlalchemy import Connection, Engine, delete, select, update

from ludoteca.core.errors import LudotecaError
from ludoteca.core.registry import make
from ludoteca.web.schema import (
    NO_WINNER,
    games_table,
    moves_table,
    seats_table,
    settings_table,
)

log = logging.getLogger(__name__)

#: The ``settings`` row revision 0002 leaves when the database held games.
RESULTS_PENDING = "results_pending"
#: The ``settings`` row revision 0009 leaves when the database held games: their winners.
WINNERS_PENDING = "winners_pending"


def fill_missing_results(engine: Engine) -> int:
    """Record the result of every game without one that ended or was resigned, once.

    Does nothing (and reads no game) unless the database carries the `RESULTS_PENDING` note.
    The note is taken and the results written in one transaction, so of several processes
    opening the database together one does the work. A game that cannot be replayed (an unknown
    game, a move the rules refuse) is logged and keeps no result.

    Returns:
        How many games were given a result.
    """
    with engine.begin() as db:
        note = delete(settings_table).where(settings_table.c.name == RESULTS_PENDING)
        if not db.execute(note).rowcount:
            return 0
        games = db.execute(
            select(
                games_table.c.id,
                games_table.c.game,
                games_table.c.options,
                games_table.c.start,
                games_table.c.resigned,
            ).where(games_table.c.result.is_(None))
        ).all()
        filled = 0
        for game_id, name, options, start, resigned in games:
            result = _replayed_result(db, game_id, name, options, start, resigned)
            if result is not None:
                db.execute(
                    update(games_table)
                    .where(games_table.c.id == game_id, games_table.c.result.is_(None))
                    .values(result=result)
                )
                filled += 1
    if filled:
        log.info("recorded the results of %d games stored before results were kept", filled)
    return filled


def _replayed_result(
    db: Connection, game_id: str, name: str, options: str, start: str | None, resigned: int | None
) -> str | None:
    """How a stored game ended, by its moves replayed with today's rules (``None``: it did not)."""
    texts = db.execute(
        select(moves_table.c.text)
        .where(moves_table.c.game_id == game_id)
        .order_by(moves_table.c.number)
    ).scalars()
    try:
        game = make(name, **json.loads(options))
        if resigned is not None:
            return f"{game.player_names[resigned]} resigned"
        state = game.parse_state(start) if start is not None else game.initial_state()
        for text in texts:
            state = state.apply(text)
    except (LudotecaError, IndexError, ValueError, TypeError) as error:
        log.warning("the result of game %s could not be filled in: %s", game_id, error)
        return None
    return None if state.outcome is None else state.outcome.reason


def fill_missing_winners(engine: Engine) -> int:
    """Record the winner (``games.winner``) of every game over without one, once.

    Revision 0009 added the column and left the `WINNERS_PENDING` note; as with the results,
    the note is taken and the winners written in one transaction. An agreed draw has
    `NO_WINNER`; a resignation or a time out in a two-player game, the other seat; an end by
    the rules, the rules' winner (today's rules replay the moves). A game that cannot be
    replayed is logged and keeps no winner (the players' won, lost and drawn lists leave it out).

    Returns:
        How many games were given a winner.
    """
    with engine.begin() as db:
        note = delete(settings_table).where(settings_table.c.name == WINNERS_PENDING)
        if not db.execute(note).rowcount:
            return 0
        games = db.execute(
            select(
                games_table.c.id,
                games_table.c.game,
                games_table.c.options,
                games_table.c.start,
                games_table.c.resigned,
                games_table.c.timed_out,
                games_table.c.agreed,
            ).where(games_table.c.result.is_not(None), games_table.c.winner.is_(None))
        ).all()
        filled = 0
        for game in games:
            winner = _recorded_winner(db, game)
            if winner is not None:
                db.execute(
                    update(games_table).where(games_table.c.id == game.id).values(winner=winner)
                )
                filled += 1
    if filled:
        log.info("recorded the winners of %d games that ended before winners were kept", filled)
    return filled


def _recorded_winner(db: Connection, game: Any) -> int | None:
    if game.agreed == "draw":
        return NO_WINNER
    loser = game.resigned if game.resigned is not None else game.timed_out
    if loser is not None:
        seats = db.execute(select(seats_table.c.seat).where(seats_table.c.game_id == game.id)).all()
        return 1 - int(loser) if len(seats) == 2 else NO_WINNER
    texts = db.execute(
        select(moves_table.c.text)
        .where(moves_table.c.game_id == game.id)
        .order_by(moves_table.c.number)
    ).scalars()
    try:
        rules = make(game.game, **json.loads(game.options))
        state = rules.parse_state(game.start) if game.start is not None else rules.initial_state()
        for text in texts:
            state = state.apply(text)
    except (LudotecaError, IndexError, ValueError, TypeError) as error:
        log.warning("the winner of game %s could not be filled in: %s", game.id, error)
        return None
    if state.outcome is None:
        return None
    return NO_WINNER if state.outcome.winner is None else int(state.outcome.winner)
