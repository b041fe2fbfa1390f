"""The HTTP API of online play: the lobby, open challenges and browsers' display names.

Part of the JSON API (`ludoteca.web.api`: the same errors, limits and conventions) on its own
router; the lobby's live updates are on the WebSocket ``/ws/lobby`` (`ludoteca.web.sockets`).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from ludoteca.web.account_store import AccountStore
from ludoteca.web.accounts import refuse_if_logged_in
from ludoteca.web.api import ERRORS, check_rate, page_url, service_of
from ludoteca.web.api_models import (
    AcceptRequest,
    ChallengeId,
    ChallengeRequest,
    NameRequest,
    WithdrawRequest,
)
from ludoteca.web.challenges import challenge_dict, with_poster_ratings
from ludoteca.web.guards import session_of, session_or_new
from ludoteca.web.sessions import clean_name

router = APIRouter(prefix="/api", tags=["games"], responses=ERRORS)


RatingBound = Annotated[
    int | None,
    Query(
        ge=0,
        le=5000,
        description="Only challenges whose poster's rating (in the challenge's game and time "
        "control) is at least min_rating / at most max_rating; challenges of posters without an "
        "account have no rating and are left out when a bound is given.",
    ),
]


@router.get("/lobby", summary="Open challenges, games to watch, your games")
async def get_lobby(
    request: Request, min_rating: RatingBound = None, max_rating: RatingBound = None
) -> dict[str, Any]:
    """The lobby: open challenges, running games to watch, and this browser's games.

    ``challenges`` (open, newest first; each ``rated`` or not, with its ``poster_rating``),
    ``playing`` (running games) and ``mine`` (the games of this browser session; empty without
    a session cookie).
    """
    lobby = await service_of(request).lobby(session_of(request))
    if min_rating is not None or max_rating is not None:
        low = -1e9 if min_rating is None else min_rating
        high = 1e9 if max_rating is None else max_rating
        lobby["challenges"] = [
            c
            for c in lobby["challenges"]
            if c["poster_rating"] is not None and low <= c["poster_rating"]["rating"] <= high
        ]
    return lobby


@router.post("/challenges", status_code=201, summary="Post an open challenge")
async def post_challenge(
    body: ChallengeRequest, request: Request, response: Response
) -> dict[str, Any]:
    """Post a game to the lobby; anyone may accept it and play the other side.

    The answer has the challenge, its ``secret`` (to withdraw it), the ``game_id`` the game
    will have and your seat's ``token`` there (the game exists once accepted).
    """
    check_rate(request, request.app.state.game_limiter, "new games")
    service = service_of(request)
    session = session_or_new(request, response)
    name = body.name if body.name is not None else await service.name_of(session)
    account = await service.read(AccountStore(service.store).of_session, session)
    challenge = await service.post_challenge(
        body.game,
        options=body.options,
        side=body.side,
        clock=body.clock,
        name=name,
        session=session,
        rated=body.rated,
        account=None if account is None else account.id,
    )
    (shown,) = await with_poster_ratings(service.core, [challenge], session)
    return shown | {
        "secret": challenge.secret,
        "game_id": challenge.game_id,
        "seat": challenge.poster_seat,
        "token": challenge.poster_token,
        "url": page_url(request, challenge.game_id, []),
    }


@router.get("/challenges/{challenge_id}", summary="A challenge")
async def get_challenge(challenge_id: ChallengeId, request: Request) -> dict[str, Any]:
    """A challenge: open, accepted (with its ``game_id``) or withdrawn."""
    challenge = await service_of(request).challenge(challenge_id)
    return challenge_dict(challenge, session_of(request))


@router.post("/challenges/{challenge_id}/accept", status_code=201, summary="Accept a challenge")
async def accept_challenge(
    challenge_id: ChallengeId, body: AcceptRequest, request: Request, response: Response
) -> dict[str, Any]:
    """Take the other seat of an open challenge; the game starts.

    Of several accepting at once exactly one gets it; the others get 409.
    """
    service = service_of(request)
    session = session_or_new(request, response)
    name = body.name if body.name is not None else await service.name_of(session)
    account = await service.read(AccountStore(service.store).of_session, session)
    made, seat = await service.accept_challenge(
        challenge_id, name=name, session=session, account=None if account is None else account.id
    )
    live = made.live
    return {
        "id": live.id,
        "seat": seat,
        "token": made.tokens[seat],
        "url": page_url(request, live.id, []),
        "game": live.to_dict(),
    }


@router.post("/challenges/{challenge_id}/withdraw", summary="Withdraw your challenge")
async def withdraw_challenge(
    challenge_id: ChallengeId, body: WithdrawRequest, request: Request
) -> dict[str, Any]:
    """Withdraw an open challenge, with the ``secret`` its posting answered."""
    service = service_of(request)
    await service.withdraw_challenge(challenge_id, body.secret)
    return challenge_dict(await service.challenge(challenge_id))


@router.get("/session", summary="This browser's display name")
async def get_session(request: Request) -> dict[str, Any]:
    """``{"name": ...}``: the name this browser chose (null if none)."""
    return {"name": await service_of(request).name_of(session_of(request))}


@router.post("/session/name", summary="Choose this browser's display name")
async def set_name(body: NameRequest, request: Request, response: Response) -> dict[str, Any]:
    """Keep a display name with this browser's session.

    At most 24 characters; spaces are trimmed; control characters are refused. It names the
    seats this browser takes from now on. As many a minute as new games (429 beyond).
    """
    check_rate(request, request.app.state.name_limiter, "name changes")
    name = clean_name(body.name)  # a bad name makes no session
    await refuse_if_logged_in(request)  # an account's browser plays under the account's name
    session = session_or_new(request, response)
    return {"name": await service_of(request).set_name(session, name)}
