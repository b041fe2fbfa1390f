"""What the web core announces: one event per accepted change, and who listens.

Every change the transaction core (`ludoteca.web.core`) commits is announced once, after the
commit, as one of the dataclasses below. The mechanics around a game are subscribers, never
calls from inside the core:

- the flag timers (`ludoteca.web.flags`) arm or cancel a game's timer on every `GameChanged`;
- the computer players (`ludoteca.web.computer`) start a turn when the computer is to move;
- the broadcast (`ludoteca.web.broadcast`) pushes the new state to the game's WebSockets;
- the lobby feed (`ludoteca.web.lobby_feed`) pushes challenges and games to watch to its
  WebSockets;
- the reviews (`ludoteca.web.reviews`) push a review's progress on `ReviewChanged`.

A new feature subscribes the same way: ``events.subscribe(handler, MoveMade, GameEnded)`` (no
types: every event). Handlers run on the event loop, in the order they subscribed, and must
not block; one that raises is logged and the others still run.

**Game end.** A change that ends a game (a move reaching the end by the rules, a resignation, a
time out, an agreed draw) carries ``ended=True`` on its event; `Events.on_game_end` subscribes to
those alone, after the commit, in the process that committed it (``heard=True``: in every
process holding the game, as `GameRefreshed`). A subscriber that must act **inside the
transaction that records the result** registers in the store's ``result_hooks`` list, through
`ludoteca.web.core.GameCore.on_result_recorded` (ratings register there themselves, from the
games store, so that the result and the new ratings commit together or not at all): it is called
with the open database connection and a `ResultRecorded` inside the write that stores the
result, on the writing thread; raising there refuses the whole change.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ludoteca.web.live import LiveGame

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Event:
    """Something the web core accepted."""


@dataclass(frozen=True, slots=True)
class GameChanged(Event):
    """A game moved to a new version; ``live`` is this process's copy at that version.

    Attributes:
        game_id: The game.
        version: Its new version.
        live: The copy as it is now (read it, never change it outside the core).
        ended: Whether this change ended the game.
    """

    game_id: str
    version: int
    live: LiveGame = field(repr=False, compare=False)
    ended: bool = False


@dataclass(frozen=True, slots=True)
class GameCreated(GameChanged):
    """A new game (a rematch or an accepted challenge too)."""


@dataclass(frozen=True, slots=True)
class MoveMade(GameChanged):
    """Moves were appended: the player's (or computer's) move and the rolls after it.

    Attributes:
        first: The number (from 1) of the first new move.
        texts: The new moves in notation.
    """

    first: int = 0
    texts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MoveUndone(GameChanged):
    """Moves after the first ``keep`` were taken back."""

    keep: int = 0


@dataclass(frozen=True, slots=True)
class GameEnded(GameChanged):
    """The game ended without a move: ``how`` is ``resigned``, ``time out`` or ``agreed``."""

    how: str = ""


@dataclass(frozen=True, slots=True)
class OfferChanged(GameChanged):
    """A draw or rematch offer was made or declined (``what``: ``draw`` or ``rematch``)."""

    what: str = ""


@dataclass(frozen=True, slots=True)
class RematchAgreed(GameChanged):
    """Every person asked for a rematch: ``rematch_id`` is the new game."""

    rematch_id: str = ""


@dataclass(frozen=True, slots=True)
class GameRefreshed(GameChanged):
    """Another process changed the game; this process's copy caught up with it."""


@dataclass(frozen=True, slots=True)
class ChallengeEvent(Event):
    """An open challenge of the lobby changed."""

    challenge_id: str


@dataclass(frozen=True, slots=True)
class ChallengePosted(ChallengeEvent):
    """A challenge was posted."""


@dataclass(frozen=True, slots=True)
class ChallengeAccepted(ChallengeEvent):
    """A challenge was accepted: ``game_id`` is its game."""

    game_id: str = ""


@dataclass(frozen=True, slots=True)
class ChallengeWithdrawn(ChallengeEvent):
    """A challenge was withdrawn by its poster."""


@dataclass(frozen=True, slots=True)
class LobbyChanged(Event):
    """Another process changed the lobby (heard on the change feed)."""


@dataclass(frozen=True, slots=True)
class ReviewChanged(Event):
    """A game's review progressed or finished (in any process)."""

    game_id: str


@dataclass(frozen=True, slots=True)
class ResultRecorded:
    """A game's result, given to in-transaction subscribers with the open connection.

    Attributes:
        game_id: The game.
        version: The version the write creates.
        result: The result's reason as stored.
        columns: The other columns the write sets (``resigned``, ``timed_out``, ``agreed``...).
    """

    game_id: str
    version: int
    result: str
    columns: dict[str, Any]


Handler = Callable[[Any], None]


class Events:
    """The subscribers of one server process, by event type."""

    def __init__(self) -> None:
        self._handlers: list[tuple[tuple[type[Event], ...], Handler]] = []

    def subscribe(self, handler: Handler, *types: type[Event]) -> None:
        """Call ``handler(event)`` after every event of these types (none: every event)."""
        self._handlers.append((types or (Event,), handler))

    def on_game_end(self, handler: Callable[[GameChanged], None], *, heard: bool = False) -> None:
        """Call ``handler(event)`` after every committed change that ended a game.

        Args:
            handler: What to call.
            heard: Also when another process ended it (`GameRefreshed`); by default only the
                endings this process committed, so that each ending is handled once.
        """

        def ended(event: GameChanged) -> None:
            if event.ended and (heard or not isinstance(event, GameRefreshed)):
                handler(event)

        self.subscribe(ended, GameChanged)

    def emit(self, event: Event) -> None:
        """Tell every subscriber of the event's type, in the order they subscribed."""
        for types, handler in self._handlers:
            if isinstance(event, types):
                try:
                    handler(event)
                except Exception:  # one subscriber's bug must not stop the others
                    log.exception("a subscriber failed on %s", type(event).__name__)
