"""A game's moves as changes over the core: playing, taking back, resigning, and hints."""

from __future__ import annotations

import time
from typing import Any

from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Move
from ludoteca.web.core import GameCore, moved_on
from ludoteca.web.errors import ConflictError, http_error
from ludoteca.web.events import Event, GameEnded, MoveUndone
from ludoteca.web.live import LiveGame
from ludoteca.web.offers import clocks_stopped, stop_clocks
from ludoteca.web.search_worker import SearchJob
from ludoteca.web.searches import (
    HINTS,
    PoolBusyError,
    SearchFailedError,
    SearchPool,
    SearchTimeoutError,
)
from ludoteca.web.seats import check_running, is_person, seat_of


class Moves:
    """The players' moves of one server process, over the core."""

    def __init__(self, core: GameCore, pool: SearchPool) -> None:
        self.core = core
        self.pool = pool

    async def play(
        self, game_id: str, text: str, token: str | None, *, ply: int | None = None
    ) -> LiveGame:
        """Play a person's move, given by its seat's token.

        Args:
            game_id: The game.
            text: The move in notation.
            token: The secret token of the seat to move.
            ply: The number of moves the player has seen; a different count means the game has
                moved on and the move is refused.

        Raises:
            NotFoundError, ForbiddenError, ConflictError, BadRequestError: see the API.
        """

        async def attempt(live: LiveGame) -> Event:
            seat = seat_of(live, token)
            check_running(live)
            if live.to_move != seat:
                raise ConflictError(
                    f"it is not your turn: {live.player_name(live.to_move)} is to move, "
                    f"you play {live.player_name(seat)}"
                )
            if ply is not None and ply != live.ply:
                raise ConflictError(
                    f"the game has moved on: you saw move {ply}, it is now at move {live.ply}"
                )
            move: Move
            try:
                move = live.state.parse_move(text)
            except LudotecaError as error:
                raise http_error(error) from None
            return await self.core.append(live, [move])

        return await self.core.attempt(game_id, attempt)

    async def undo(self, game_id: str, token: str | None) -> LiveGame:
        """Take back the token holder's last move and every move after it.

        Raises:
            ForbiddenError: A bad token.
            ConflictError: Undo is not allowed in this game (an invited player, or the game is
                over: by the rules, a resignation, a time out or an agreed draw), or there is
                nothing to undo.
        """
        core = self.core

        async def attempt(live: LiveGame) -> Event:
            seat_of(live, token)
            if live.has_invited_player:
                raise ConflictError("undo is not allowed in a game against an invited player")
            result = live.result
            if result is not None:
                raise ConflictError(
                    f"the game is over ({result.reason}); the moves of a finished game "
                    "cannot be taken back"
                )
            keep = next(
                (
                    number - 1
                    for number in range(live.ply, 0, -1)
                    if is_person(live, live.mover(number))
                ),
                None,
            )
            if keep is None:
                raise ConflictError("there is no move of yours to undo")
            clocks: dict[str, Any] = {}
            state = live.clock_state
            if state is not None:  # the time spent stays spent; the clock of the seat to move runs
                now = time.time()
                after = live.state_at(keep)
                seat = after.to_move if after.outcome is None else None
                state = state.stopped(now).run(
                    seat if seat is not None and seat >= 0 else None, now
                )
                clocks["clock_state"] = state.to_json()
            written = await core.write(
                core.store.truncate_moves, live.id, keep, based_on=live.version, **clocks
            )
            live.truncate(keep)
            live.clock_state = state
            moved_on(live, written)
            return MoveUndone(live.id, live.version, live, keep=keep)

        return await core.attempt(game_id, attempt)

    async def resign(self, game_id: str, token: str | None) -> LiveGame:
        """The token holder's seat resigns; the game is over.

        Raises:
            ForbiddenError: A bad token.
            ConflictError: The game is already over.
        """
        core = self.core

        async def attempt(live: LiveGame) -> Event:
            seat = seat_of(live, token)
            check_running(live)
            reason = f"{live.game.player_names[seat]} resigned"
            clocks = stop_clocks(live)
            written = await core.write(
                core.store.set_resigned,
                live.id,
                seat,
                based_on=live.version,
                result=reason,
                **clocks,
            )
            clocks_stopped(live, clocks)
            live.resigned = seat
            live.draw_offer = None
            moved_on(live, written)
            return GameEnded(live.id, live.version, live, ended=True, how="resigned")

        return await core.attempt(game_id, attempt)

    async def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The strongest level's suggestion for the token holder, who must be to move.

        Raises:
            ForbiddenError: A bad token.
            ConflictError: Hints are off in this game, or the token holder is not to move.
            BusyError: Too many hints are being computed; try again shortly.
        """
        live = await self.core.get(game_id)
        seat = seat_of(live, token)
        if not live.hints:
            raise ConflictError(
                "hints are off in this game: they are offered in games against the computer, "
                "or when the game is created with hints on"
            )
        if live.to_move != seat:
            raise ConflictError("a hint is for the player to move, and it is not your turn")
        state = live.state
        job = SearchJob("hint", live.game.id, dict(live.game.options), state.to_text())
        try:
            move_text, win_chance, estimate, meaning = await self.pool.run(HINTS, job)
        except (PoolBusyError, SearchTimeoutError, SearchFailedError) as error:
            raise http_error(error) from None
        return {
            "move": move_text,
            "win_chance": float(win_chance),
            "estimate": estimate,
            "meaning": meaning,
            "player": live.player_name(state.to_move),
            "ply": live.ply,
        }
