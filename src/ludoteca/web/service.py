"""The game service: one server process's games, as modules over one transaction core.

`GameService` assembles the web core and is what the API, the pages and the CLI hold:

- `ludoteca.web.core.GameCore`: load, conditional write, reload-and-retry, the game cache, and
  the events (`ludoteca.web.events`) every accepted change announces;
- subscribers of those events: `ludoteca.web.flags` (flag timers), `ludoteca.web.computer`
  (computer turns), `ludoteca.web.broadcast` (WebSocket subscribers), `ludoteca.web.lobby_feed`
  (the lobby's WebSocket) and `ludoteca.web.reviews` (a review's progress);
- modules of changes and reads over the core: `ludoteca.web.moves` (moves, undo, resignation,
  hints), `ludoteca.web.offers` (draws, rematches), `ludoteca.web.challenges` (open
  challenges), `ludoteca.web.lobby` (lists), `ludoteca.web.sessions` (browsers' names, seats);
- the change feed (`ludoteca.web.changes`), by which another process's change reaches the core
  (`GameCore.heard`), and a sweeper task that resumes stalled computer turns and flags clocks
  that ran out, so that no read ever changes a game.

The event loop never waits on the database or a search: every query runs on a worker thread
and every search in a worker process (`ludoteca.web.searches`). Chance nodes are resolved by
the core with the server's own random generator and stored with the move that reached them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from ludoteca.core.errors import LudotecaError
from ludoteca.web.broadcast import Broadcast
from ludoteca.web.challenges import (
    Challenges,
    RatedWithoutAccountError,
    challenge_dict,
    with_poster_ratings,
)
from ludoteca.web.changes import ChangeFeed
from ludoteca.web.clocks import parse_spec
from ludoteca.web.computer import STALLED_SECONDS, ComputerTurns
from ludoteca.web.core import DEFAULT_CACHE_SIZE, CreatedGame, GameCore
from ludoteca.web.errors import BadRequestError
from ludoteca.web.events import (
    LobbyChanged,
    ReviewChanged,
)
from ludoteca.web.flags import FlagWatcher
from ludoteca.web.live import COMPUTER, LiveGame, new_game_id
from ludoteca.web.lobby import PER_PAGE, Lobby, summary_dict
from ludoteca.web.lobby_feed import LobbyFeed
from ludoteca.web.mailbox import Mailbox
from ludoteca.web.messages import Snapshot
from ludoteca.web.moves import Moves
from ludoteca.web.offers import Offers
from ludoteca.web.readiness import Readiness
from ludoteca.web.reviews import DEFAULT_STALE_SECONDS, Reviews
from ludoteca.web.searches import (
    SearchPool,
)
from ludoteca.web.seats import (
    COMPUTER_SEATS,
    SEAT_FORMS,
    rules,
    seat_row,
)
from ludoteca.web.sessions import MAX_NAME, BrowserSessions, clean_name
from ludoteca.web.storage import LOBBY_CHANGE, REVIEW_CHANGE, ChallengeRow, GameStore

log = logging.getLogger(__name__)

#: How often the sweeper resumes stalled computer turns and flags clocks that ran out.
SWEEP_SECONDS = 1.0

__all__ = [
    "COMPUTER_SEATS",
    "DEFAULT_CACHE_SIZE",
    "MAX_NAME",
    "PER_PAGE",
    "SEAT_FORMS",
    "STALLED_SECONDS",
    "CreatedGame",
    "GameService",
    "RatedWithoutAccountError",
    "challenge_dict",
    "clean_name",
    "with_poster_ratings",
]

T = TypeVar("T")
_summary_dict = summary_dict  # the name other modules used first


class GameService:
    """The games of one server process: the core and the modules over it."""

    def __init__(
        self,
        store: GameStore,
        *,
        seed: int | None = None,
        pool: SearchPool | None = None,
        cache_size: int = DEFAULT_CACHE_SIZE,
        review_budget: Any = None,
        review_stale_seconds: float = DEFAULT_STALE_SECONDS,
        readiness: Readiness | None = None,
    ) -> None:
        self.store = store
        self.pool = pool if pool is not None else SearchPool()
        self.core = GameCore(store, seed=seed, cache_size=cache_size, readiness=readiness)
        self.readiness = self.core.readiness
        self.events = self.core.events
        self.broadcast = Broadcast(self.core)
        self.flags = FlagWatcher(self.core)
        self.computer = ComputerTurns(self.core, self.pool)
        self.moves = Moves(self.core, self.pool)
        self.offers = Offers(self.core)
        self.challenges = Challenges(self.core)
        self.lobby_list = Lobby(self.core)
        self.lobby_feed = LobbyFeed(self.core, self.lobby_list)
        self.sessions = BrowserSessions(self.core)
        self.reviews = Reviews(
            self.core,
            self.broadcast,
            self.pool,
            budget=review_budget,
            stale_seconds=review_stale_seconds,
        )
        self._feed = ChangeFeed(store, self.core.reader, self._heard, self.core.resync)
        self._sweeper: asyncio.Task[None] | None = None
        self._started = False

    async def start(self) -> None:
        """Start hearing other processes' changes and the sweeper (on the server's loop)."""
        if not self._started:
            self._started = True
            self._feed.start()
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def close(self) -> None:
        """Stop the sweeper, the computer players, the change feed and the database threads."""
        self.core.closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.flags.close()
        self.computer.close()
        self.lobby_feed.close()
        await self.reviews.close()
        await self._feed.close()
        await self.pool.close()
        self.core.close()

    @property
    def closing(self) -> bool:
        """Whether the service is stopping."""
        return self.core.closing

    async def write(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a write of the store on the writing thread (never on the event loop)."""
        return await self.core.write(function, *args, **kwargs)

    async def read(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a read of the store on a reading thread (never on the event loop)."""
        return await self.core.read(function, *args, **kwargs)

    # -- the sweeper ---------------------------------------------------------------------------

    async def _sweep_forever(self) -> None:
        # Games with a running clock are loaded at start, so a flag is noticed on time even
        # after a restart when nobody looks at the game.
        with contextlib.suppress(LudotecaError):
            await self.flags.sweep(stored=True)
        while not self.closing:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except LudotecaError as error:
                log.warning("the sweep failed: %s", error)

    async def sweep(self) -> None:
        """Resume the held games' stalled computer turns and flag the clocks that ran out."""
        self.computer.sweep()
        await self.flags.sweep()

    async def sweep_clocks(self, game: str | None = None) -> None:
        """Load every running game with a clock (of ``game`` alone if given) and watch it."""
        await self.flags.sweep(game, stored=True)

    # -- reading -------------------------------------------------------------------------------

    async def get(self, game_id: str) -> LiveGame:
        """The game with this id (loaded from the store when this process does not hold it)."""
        return await self.core.get(game_id)

    async def current(self, game_id: str) -> LiveGame:
        """The game as stored now (a copy another process overtook is reloaded)."""
        return await self.core.current(game_id)

    async def list_games(self, page: int = 1, per_page: int = PER_PAGE) -> dict[str, Any]:
        """A page of games, most recently changed first, with their state and result."""
        return await self.lobby_list.list_games(page, per_page)

    def snapshot(self, live: LiveGame) -> Snapshot:
        """The game now, serialised once per version."""
        return self.broadcast.snapshot(live)

    def board_json(self, live: LiveGame) -> str:
        """The board now, drawn and serialised once per version."""
        return self.broadcast.board_json(live)

    def message(self, live: LiveGame) -> str:
        """The WebSocket message for the game now (game and board)."""
        return self.broadcast.message(live)

    def board(self, live: LiveGame, at: int | None = None) -> dict[str, Any]:
        """The board after ``at`` moves (default: now), the last move highlighted."""
        return self.broadcast.board(live, at)

    # -- moves ---------------------------------------------------------------------------------

    async def create(
        self,
        game_id: str,
        *,
        options: dict[str, Any],
        seats: Sequence[str],
        position: str | None = None,
        hints: bool | None = None,
        clock: object = None,
        names: Sequence[str | None] = (),
    ) -> CreatedGame:
        """Create and store a game; chance nodes at the start are resolved at once.

        Args:
            game_id: The game.
            options: Its options by name.
            seats: Who plays each seat (`SEAT_FORMS`).
            position: A start position text, or ``None`` for the usual start.
            hints: Whether the players may ask for hints (default: only against the computer).
            clock: The clock as the API takes it (`ludoteca.web.clocks.parse_spec`), or ``None``.
            names: Display names of the seats played by people (checked with `clean_name`).

        Raises:
            BadRequestError: An unknown game or option, a bad position, seat, clock or name.
            GamePreparingError: The game's kernels are still being prepared.
        """
        self.readiness.check(game_id)
        game, start = rules(game_id, options, position)
        if len(seats) != game.num_players:
            raise BadRequestError(
                f"{game.name} has {game.num_players} seat(s) ({', '.join(game.player_names)}); "
                f"got {len(seats)} in seats"
            )
        rows = [seat_row(index, spec) for index, spec in enumerate(seats)]
        for index, name in enumerate(names[: len(rows)]):
            if name is not None and rows[index].kind != COMPUTER:
                rows[index] = replace(rows[index], name=clean_name(name))
        if hints is None:
            hints = any(row.kind == COMPUTER for row in rows)
        spec = parse_spec(clock)
        return await self.core.new_game(new_game_id(), game, start, rows, spec, hints)

    async def play(
        self, game_id: str, text: str, token: str | None, *, ply: int | None = None
    ) -> LiveGame:
        """Play a person's move (`ludoteca.web.moves.Moves.play`)."""
        return await self.moves.play(game_id, text, token, ply=ply)

    async def undo(self, game_id: str, token: str | None) -> LiveGame:
        """Take back the token holder's last move (`ludoteca.web.moves.Moves.undo`)."""
        return await self.moves.undo(game_id, token)

    async def resign(self, game_id: str, token: str | None) -> LiveGame:
        """The token holder's seat resigns (`ludoteca.web.moves.Moves.resign`)."""
        return await self.moves.resign(game_id, token)

    async def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """A suggestion for the player to move (`ludoteca.web.moves.Moves.hint`)."""
        return await self.moves.hint(game_id, token)

    # -- offers, challenges, the lobby, sessions (modules of their own) ------------------------

    async def draw(self, game_id: str, token: str | None, action: str) -> LiveGame:
        """Offer, accept or decline a draw (`ludoteca.web.offers.Offers.draw`)."""
        return await self.offers.draw(game_id, token, action)

    async def rematch(
        self,
        game_id: str,
        token: str | None,
        before_create: Callable[[], None] | None = None,
        *,
        account: str | None = None,
    ) -> dict[str, Any]:
        """Offer or accept a rematch (`ludoteca.web.offers.Offers.rematch`)."""
        return await self.offers.rematch(game_id, token, before_create, account=account)

    async def post_challenge(
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
        """Post an open challenge (`ludoteca.web.challenges.Challenges.post`)."""
        return await self.challenges.post(
            game_id,
            options=options,
            side=side,
            clock=clock,
            name=name,
            session=session,
            rated=rated,
            account=account,
        )

    async def challenge(self, challenge_id: str) -> ChallengeRow:
        """The challenge with this id (`ludoteca.web.challenges.Challenges.get`)."""
        return await self.challenges.get(challenge_id)

    async def accept_challenge(
        self,
        challenge_id: str,
        *,
        name: str | None,
        session: str | None,
        account: str | None = None,
    ) -> tuple[CreatedGame, int]:
        """Accept an open challenge (`ludoteca.web.challenges.Challenges.accept`)."""
        return await self.challenges.accept(
            challenge_id, name=name, session=session, account=account
        )

    async def withdraw_challenge(self, challenge_id: str, secret: str | None) -> None:
        """Withdraw an open challenge (`ludoteca.web.challenges.Challenges.withdraw`)."""
        await self.challenges.withdraw(challenge_id, secret)

    async def lobby(self, session: str | None) -> dict[str, Any]:
        """Open challenges, running games to watch, and this browser's own games."""
        return await self.lobby_list.lobby(session)

    async def set_name(self, session: str, name: str) -> str:
        """Set the display name of a browser session; answers the name as kept."""
        return await self.sessions.set_name(session, name)

    async def name_of(self, session: str | None) -> str | None:
        """The display name of a browser session, if it chose one."""
        return await self.sessions.name_of(session)

    async def session_secret(self) -> str:
        """The secret that signs browser sessions (shared by every server process)."""
        return await self.sessions.secret()

    async def add_session_seats(self, session: str, game_id: str, seats: Sequence[int]) -> None:
        """Remember that the browser ``session`` plays these seats of the game."""
        await self.sessions.add_seats(session, game_id, seats)

    async def session_seats(self, session: str, game_id: str) -> list[int]:
        """The seats of the game that the browser ``session`` plays."""
        return await self.sessions.seats(session, game_id)

    # -- live updates --------------------------------------------------------------------------

    def publish(self, live: LiveGame) -> None:
        """Send the game's new state to every subscriber in this process."""
        self.broadcast.publish(live)

    def has_subscribers(self, game_id: str) -> bool:
        """Whether a WebSocket of this process watches the game."""
        return self.broadcast.has_subscribers(game_id)

    def send(self, game_id: str, message: str) -> None:
        """Send a JSON message (text) to the game's subscribers in this process."""
        self.broadcast.send(game_id, message)

    def subscribe(self, game_id: str) -> Mailbox:
        """A mailbox that receives the game's state (a JSON message) after every change."""
        return self.broadcast.subscribe(game_id)

    def unsubscribe(self, game_id: str, mailbox: Mailbox) -> None:
        """Stop sending to ``mailbox``."""
        self.broadcast.unsubscribe(game_id, mailbox)

    def _heard(self, game_id: str, version: int) -> None:
        """A change was committed by some process (the change feed)."""
        if game_id.startswith(REVIEW_CHANGE):
            self.events.emit(ReviewChanged(game_id.removeprefix(REVIEW_CHANGE)))
        elif game_id.startswith(LOBBY_CHANGE):
            self.events.emit(LobbyChanged())
        else:
            self.core.heard(game_id, version)
