"""Open challenges of the lobby: posted, accepted once (its game created), or withdrawn."""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from typing import Any

from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game
from ludoteca.core.registry import game_class
from ludoteca.web.clocks import parse_spec, spec_from_json, spec_to_json
from ludoteca.web.core import CreatedGame, GameCore
from ludoteca.web.errors import (
    BadRequestError,
    ConflictError,
    ForbiddenError,
    NotFoundError,
    WebError,
)
from ludoteca.web.events import ChallengeAccepted, ChallengePosted, ChallengeWithdrawn
from ludoteca.web.live import HUMAN, INVITE, new_game_id, new_token
from ludoteca.web.rating_store import RatingStore
from ludoteca.web.seats import rules
from ludoteca.web.sessions import required_name
from ludoteca.web.storage import ChallengeRow, ChallengeTakenError, SeatRow, now_stamp

#: Sides a challenge may offer the other player's choice from.
RANDOM_SIDE = "random"


class RatedWithoutAccountError(WebError):
    """A rated challenge posted or accepted by a browser not logged in to an account."""

    status = 401


class Challenges:
    """The lobby's open challenges, over the core."""

    def __init__(self, core: GameCore) -> None:
        self._core = core

    async def post(
        self,
        game_id: str,
        *,
        options: dict[str, Any],
        side: str,
        clock: object,
        name: str | None,
        session: str | None,
        rated: bool = False,
        account: str | None = None,
    ) -> ChallengeRow:
        """Post an open challenge to the lobby; anyone may accept it and take the other seat.

        Args:
            game_id: The game.
            options: Its options by name.
            side: The poster's player name (``Green``), its index, or ``random``.
            clock: The clock as the API takes it, or ``None``.
            name: The poster's display name.
            session: The poster's browser session (it gets the seat once accepted).
            rated: Whether the game is to be rated (`ludoteca.web.ratings`).
            account: The poster's account (needed for a rated challenge).

        Raises:
            BadRequestError: A bad game, option, side, clock or name.
            GamePreparingError: The game's kernels are still being prepared.
        """
        core = self._core
        core.readiness.check(game_id)
        game, _ = rules(game_id, options, None)
        if game.num_players != 2:
            raise BadRequestError(
                f"open challenges are for two players; {game.name} has {game.num_players}"
            )
        poster_name = required_name(name)
        if rated and account is None:
            raise RatedWithoutAccountError(
                "a rated challenge is posted by a player logged in to an account "
                "(POST /api/login); post it with rated false to play a casual game"
            )
        spec = parse_spec(clock)
        seat = _side(game, side)
        stamp = now_stamp()
        challenge = ChallengeRow(
            id=new_game_id(),
            game=game.id,
            options=dict(game.options),
            clock=spec_to_json(spec),
            hints=False,
            poster_seat=seat,
            poster_name=poster_name,
            poster_session=session,
            secret=new_token(),
            game_id=new_game_id(),
            poster_token=new_token(),
            status="open",
            accepter_name=None,
            created=stamp,
            updated=stamp,
            rated=rated,
            poster_account=account,
        )
        await core.write(core.store.post_challenge, challenge)
        core.events.emit(ChallengePosted(challenge.id))
        return challenge

    async def get(self, challenge_id: str) -> ChallengeRow:
        """The challenge with this id.

        Raises:
            NotFoundError: There is none.
        """
        found = await self._core.read(self._core.store.challenge, challenge_id[:64])
        if found is None:
            raise NotFoundError(f"there is no challenge {challenge_id[:64]!r}; GET /api/lobby")
        return found

    async def accept(
        self,
        challenge_id: str,
        *,
        name: str | None,
        session: str | None,
        account: str | None = None,
    ) -> tuple[CreatedGame, int]:
        """Accept an open challenge: its game is created with the accepter in the other seat.

        Of several accepting at once, exactly one gets the game; the others get 409.

        Raises:
            NotFoundError: No such challenge.
            ConflictError: It was accepted or withdrawn already, or it is the accepter's own.
            BadRequestError: No display name.
        """
        core = self._core
        challenge = await self.get(challenge_id)
        accepter = required_name(name)
        if challenge.status != "open":
            raise ConflictError(f"this challenge is no longer open (it was {challenge.status})")
        if session is not None and session == challenge.poster_session:
            raise ConflictError("this is your own challenge; wait for someone to accept it")
        if challenge.rated and account is None:
            raise RatedWithoutAccountError(
                "this challenge is rated: it is accepted by a player logged in to an account "
                "(POST /api/login), and only casual challenges are open to anyone"
            )
        if challenge.rated and account == challenge.poster_account:
            raise ConflictError("this is your own account's challenge; a rated game needs two")
        core.readiness.check(challenge.game)
        game, start = rules(challenge.game, challenge.options, None)
        mine = 1 - challenge.poster_seat
        rows = [
            SeatRow(
                challenge.poster_seat,
                HUMAN,
                None,
                challenge.poster_token,
                challenge.poster_name,
                challenge.poster_account if challenge.rated else None,
            ),
            SeatRow(
                mine, INVITE, None, new_token(), accepter, account if challenge.rated else None
            ),
        ]
        rows.sort(key=lambda row: row.seat)
        spec = parse_spec(json.loads(challenge.clock)) if challenge.clock else None
        made = await core.new_game(
            challenge.game_id,
            game,
            start,
            rows,
            spec,
            challenge.hints,
            challenge=challenge.id,
            accepter_session=session,
            rated=challenge.rated,
        )
        core.events.emit(ChallengeAccepted(challenge.id, game_id=made.live.id))
        return made, mine

    async def withdraw(self, challenge_id: str, secret: str | None) -> None:
        """Withdraw an open challenge, given the secret its posting answered.

        Raises:
            NotFoundError, ForbiddenError, ConflictError.
        """
        challenge = await self.get(challenge_id)
        if not isinstance(secret, str) or not secrets.compare_digest(
            challenge.secret.encode(), secret.encode()
        ):
            raise ForbiddenError("this secret does not belong to the challenge")
        try:
            await self._core.write(self._core.store.withdraw_challenge, challenge.id)
        except ChallengeTakenError as error:
            raise ConflictError(str(error)) from None
        self._core.events.emit(ChallengeWithdrawn(challenge.id))


def _side(game: Game, side: object) -> int:
    names = [name.lower() for name in game.player_names]
    text = str(side).strip().lower() if isinstance(side, str | int) else ""
    if text == RANDOM_SIDE:
        return secrets.randbelow(game.num_players)
    if text in names:
        return names.index(text)
    if text.isdigit() and int(text) < game.num_players:
        return int(text)
    raise BadRequestError(
        f"side must be {', '.join(game.player_names)} or random; got {str(side)[:20]!r}"
    )


def challenge_dict(challenge: ChallengeRow, session: str | None = None) -> dict[str, Any]:
    """A challenge for the API (no secrets)."""
    try:
        cls = game_class(challenge.game)
        name, players = cls.name, cls.player_names
    except LudotecaError:
        name, players = challenge.game, ("0", "1")
    spec = spec_from_json(challenge.clock)
    return {
        "id": challenge.id,
        "game": challenge.game,
        "name": name,
        "options": challenge.options,
        "clock": None if spec is None else spec.to_dict() | {"description": spec.describe()},
        "poster": challenge.poster_name,
        "poster_side": players[challenge.poster_seat],
        "accepter_side": players[1 - challenge.poster_seat],
        "status": challenge.status,
        "accepted_by": challenge.accepter_name,
        "game_id": challenge.game_id if challenge.status == "accepted" else None,
        "created": challenge.created,
        "yours": session is not None and session == challenge.poster_session,
        "rated": challenge.rated,
    }


async def with_poster_ratings(
    core: GameCore, challenges: Sequence[ChallengeRow], session: str | None
) -> list[dict[str, Any]]:
    """The challenges for the API, each with its poster's rating in its game and time control.

    ``poster_rating`` is ``null`` for a poster without an account (`ludoteca.web.rating_store`).
    """
    ratings = await core.read(RatingStore(core.store).poster_ratings, challenges)
    return [
        challenge_dict(c, session)
        | {"poster_rating": None if c.id not in ratings else ratings[c.id].public()}
        for c in challenges
    ]
