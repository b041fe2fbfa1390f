"""Offers between the players of a game: draws and rematches, as changes over the core.

A rematch keeps what the players agreed to: that of a rated game is rated, between the same
accounts (each asks for it logged in to its own), and that of a casual game casual.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ludoteca.web.account_store import AccountStore
from ludoteca.web.challenges import RatedWithoutAccountError
from ludoteca.web.clocks import ClockState
from ludoteca.web.core import CreatedGame, GameCore, moved_on
from ludoteca.web.errors import BadRequestError, ConflictError, ForbiddenError
from ludoteca.web.events import Event, GameEnded, OfferChanged, RematchAgreed
from ludoteca.web.live import COMPUTER, LiveGame, new_game_id, new_token
from ludoteca.web.seats import check_running, seat_of
from ludoteca.web.storage import Written


def stop_clocks(live: LiveGame) -> dict[str, Any]:
    """The columns that stop the game's clocks as it ends (none without a clock).

    The copy is changed by `clocks_stopped` once the write is committed.
    """
    if live.clock_state is None:
        return {}
    return {"clock_state": live.clock_state.stopped(time.time()).to_json()}


def clocks_stopped(live: LiveGame, columns: dict[str, Any]) -> None:
    """Take the stopped clocks of ``columns`` (`stop_clocks`) into the copy."""
    if "clock_state" in columns:
        live.clock_state = ClockState.from_json(columns["clock_state"])


class Offers:
    """Draw offers and rematches of one server process."""

    def __init__(self, core: GameCore) -> None:
        self._core = core

    async def draw(self, game_id: str, token: str | None, action: str) -> LiveGame:
        """Offer, accept or decline a draw (``action``: ``offer``, ``accept``, ``decline``).

        Raises:
            ForbiddenError: A bad token.
            ConflictError: No draw is possible in this game, the game is over, or there is no
                offer to accept or decline (a seat never accepts its own offer).
            BadRequestError: Another action.
        """
        if action not in ("offer", "accept", "decline"):
            raise BadRequestError(f"action must be offer, accept or decline; got {action[:20]!r}")
        core = self._core

        async def attempt(live: LiveGame) -> Event:
            seat = seat_of(live, token)
            check_running(live)
            if not live.draw_possible:
                raise ConflictError(
                    "a draw is agreed between people: not in a solitaire or against the computer"
                )
            offer = live.draw_offer
            columns: dict[str, Any]
            if action == "offer" and offer == seat:
                raise ConflictError("you have already offered a draw; the other player decides")
            if action in ("accept", "decline") and (offer is None or offer == seat):
                raise ConflictError("there is no draw offer from the other player to " + action)
            if action == "decline":
                columns = {"draw_offer": None}
            elif action == "accept" or offer is not None:  # two offers make an agreement
                columns = {
                    "agreed": "draw",
                    "draw_offer": None,
                    "result": "draw agreed by the players",
                    **stop_clocks(live),
                }
            else:
                columns = {"draw_offer": seat}
            written = await core.write(
                core.store.update_game, live.id, based_on=live.version, **columns
            )
            live.draw_offer = columns.get("draw_offer")
            clocks_stopped(live, columns)
            moved_on(live, written)
            if "agreed" in columns:
                live.agreed = "draw"
                return GameEnded(live.id, live.version, live, ended=True, how="agreed")
            return OfferChanged(live.id, live.version, live, what="draw")

        return await core.attempt(game_id, attempt)

    async def rematch(
        self,
        game_id: str,
        token: str | None,
        before_create: Callable[[], None] | None = None,
        *,
        account: str | None = None,
    ) -> dict[str, Any]:
        """Offer or accept a rematch: the same game and clock, seats swapped.

        The first player to ask offers it; once every person in the game has asked (at once
        against the computer), the new game is created. Asking again after that answers the
        new game and the asker's seat and token in it. ``before_create`` is called just before
        the new game is created, and may refuse it by raising (the game-creation rate limit).

        The rematch of a rated game is rated, and that of a casual game casual: both players
        agree to a rated game by asking, each logged in (``account``) to the account that
        played their seat, so in a rated game only that account asks (offers, accepts, or
        fetches its new seat), and the rematch is created only while both accounts exist.

        Raises:
            ForbiddenError: A bad token; in a rated game, an asker logged in to another account
                than the seat's, or a seat whose account was deleted.
            RatedWithoutAccountError: In a rated game, an asker not logged in (401).
            ConflictError: The game is not over yet; in a rated game, the other player's
                account was deleted since.
        """
        core = self._core
        created: list[CreatedGame] = []

        async def attempt(live: LiveGame) -> Event | None:
            seat = seat_of(live, token)
            if live.result is None:
                raise ConflictError("a rematch is offered once the game is over")
            accounts = await self._rated_askers(live, seat, account) if live.rated else {}
            if live.rematch_id is not None:
                return None
            people = [s.seat for s in live.seats if s.kind != COMPUTER]
            others = [p for p in people if p != seat]
            if others and live.rematch_offer not in others:
                if live.rematch_offer == seat:
                    return None
                written = await core.write(
                    core.store.update_game, live.id, based_on=live.version, rematch_offer=seat
                )
                live.rematch_offer = seat
                moved_on(live, written)
                return OfferChanged(live.id, live.version, live, what="rematch")
            if before_create is not None:
                before_create()
            count = len(live.seats)
            old_seat = [(new - 1) % count for new in range(count)]
            rows = [
                replace(
                    live.seats[old],
                    seat=new,
                    token=None if live.seats[old].kind == COMPUTER else new_token(),
                    account=accounts.get(old),  # the accounts as stored now; none if casual
                )
                for new, old in enumerate(old_seat)
            ]
            made = await core.new_game(
                new_game_id(),
                live.game,
                live.start,
                rows,
                live.clock,
                live.hints,
                rematch_of=(live.id, live.version),
                rated=live.rated,
            )
            created.append(made)
            live.rematch_id = made.live.id
            live.rematch_offer = None
            moved_on(live, Written(live.version + 1, made.live.created))
            return RematchAgreed(live.id, live.version, live, rematch_id=made.live.id)

        live = await core.attempt(game_id, attempt)
        answer: dict[str, Any] = {"rematch": live.rematch_id, "offered_by": live.rematch_offer}
        answer["rated"] = live.rated
        if live.rematch_id is not None:
            new = created[0].live if created else await core.get(live.rematch_id)
            seat = seat_of(live, token)
            new_seat = (seat + 1) % len(live.seats)
            answer |= {"seat": new_seat, "token": new.seats[new_seat].token}
        return answer

    async def _rated_askers(
        self, live: LiveGame, seat: int, account: str | None
    ) -> dict[int, str | None]:
        """The seats' accounts of the rated game ``live``, once the asker is checked.

        They are read from the database, not the copy: an account deleted a moment ago (in
        any process) no longer plays its seat. The asker must be logged in to its seat's
        account; the other players' accounts must still exist. An account deleted after this
        read moves the game to a new version (`ludoteca.web.account_store.AccountStore.delete`),
        so the rematch's write, conditional on the version read, is refused and decided again.
        """
        core = self._core
        accounts = await core.read(AccountStore(core.store).seat_accounts, live.id)
        if accounts.get(seat) is None:
            raise ForbiddenError(
                "the account that played this seat was deleted; a rated game's rematch is "
                "asked for by the accounts that played it"
            )
        if account is None:
            raise RatedWithoutAccountError(
                "this game was rated: its rematch is asked for logged in to the account that "
                "played this seat (POST /api/login)"
            )
        if account != accounts[seat]:
            raise ForbiddenError(
                "this browser is logged in to another account than the one that played this "
                "seat; a rated game's rematch is asked for by that account"
            )
        if any(holder is None for holder in accounts.values()):
            raise ConflictError(
                "the other player's account was deleted; a rated game is played between two "
                "accounts, so there is no rematch (post a new challenge in the lobby)"
            )
        return accounts
