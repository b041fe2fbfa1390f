"""Live updates: each game's WebSocket subscribers in this process, and what they are sent.

A subscriber of the core's events (`ludoteca.web.events`): after every change of a game, made
here or heard from another process (`GameRefreshed`, through the change feed
`ludoteca.web.changes`), the game's state is serialised once (`Snapshot`) and put in the mailbox
(`ludoteca.web.mailbox`) of each of its subscribers, which keeps only the newest message of each
type. A game with subscribers stays in the core's cache.
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from typing import Any

from ludoteca.web.boards import board_of
from ludoteca.web.core import GameCore
from ludoteca.web.errors import BadRequestError
from ludoteca.web.events import GameChanged
from ludoteca.web.game_json import game_json
from ludoteca.web.live import LiveGame
from ludoteca.web.mailbox import Mailbox
from ludoteca.web.messages import Snapshot, to_json

#: Snapshots (a game's JSON and board at one version) kept for the games used most recently.
SNAPSHOTS_KEPT = 256


class Broadcast:
    """The WebSocket subscribers of one server process, by game."""

    def __init__(self, core: GameCore) -> None:
        self._subscribers: dict[str, set[Mailbox]] = defaultdict(set)
        self._snapshots: OrderedDict[str, Snapshot] = OrderedDict()
        core.events.subscribe(self._changed, GameChanged)
        core.pins.append(self.has_subscribers)

    def _changed(self, event: GameChanged) -> None:
        self.publish(event.live)

    def publish(self, live: LiveGame) -> None:
        """Send the game's new state to every subscriber in this process."""
        mailboxes = self._subscribers.get(live.id)
        if not mailboxes:
            return
        message = self.message(live)
        for mailbox in mailboxes:
            mailbox.put(message)

    def has_subscribers(self, game_id: str) -> bool:
        """Whether a WebSocket of this process watches the game."""
        return bool(self._subscribers.get(game_id))

    def mailboxes(self, game_id: str) -> list[Mailbox]:
        """The mailboxes of the game's subscribers."""
        return list(self._subscribers.get(game_id, ()))

    def send(self, game_id: str, message: str) -> None:
        """Send a JSON message (text) to the game's subscribers in this process."""
        for mailbox in self._subscribers.get(game_id, ()):
            mailbox.put(message)

    def subscribe(self, game_id: str) -> Mailbox:
        """A mailbox that receives the game's state (a JSON message) after every change."""
        mailbox = Mailbox()
        self._subscribers[game_id].add(mailbox)
        return mailbox

    def unsubscribe(self, game_id: str, mailbox: Mailbox) -> None:
        """Stop sending to ``mailbox``."""
        mailboxes = self._subscribers.get(game_id)
        if mailboxes is not None:
            mailboxes.discard(mailbox)
            if not mailboxes:
                del self._subscribers[game_id]

    # -- what is sent --------------------------------------------------------------------------

    def snapshot(self, live: LiveGame) -> Snapshot:
        """The game now, serialised once per version.

        The newest `SNAPSHOTS_KEPT` snapshots are kept (the games being played and watched);
        an idle cached game keeps none.
        """
        snapshots = self._snapshots
        cached = snapshots.get(live.id)
        if cached is None or cached.version != live.version:
            cached = Snapshot(version=live.version, game=game_json(live))
            snapshots[live.id] = cached
            if len(snapshots) > SNAPSHOTS_KEPT:
                snapshots.popitem(last=False)
        snapshots.move_to_end(live.id)
        return cached

    def board_json(self, live: LiveGame) -> str:
        """The board now, drawn and serialised once per version."""
        snapshot = self.snapshot(live)
        if snapshot.board is None:
            snapshot.board = to_json(self.board(live))
        return snapshot.board

    def message(self, live: LiveGame) -> str:
        """The WebSocket message for the game now (game and board)."""
        return self.snapshot(live).message(self.board_json(live))

    @staticmethod
    def board(live: LiveGame, at: int | None = None) -> dict[str, Any]:
        """The board after ``at`` moves (default: now), the last move highlighted."""
        ply = live.ply if at is None else at
        if not 0 <= ply <= live.ply:
            raise BadRequestError(f"at must be a move number from 0 to {live.ply}; got {at}")
        state = live.state_at(ply)
        previous = live.state_at(ply - 1) if ply else None
        last = live.moves[ply - 1].text if ply else None
        is_now = ply == live.ply
        result = live.result
        status = ""
        if is_now and result is not None and result.resigned is not None:
            status = f"{result.reason}."
        board = board_of(
            state,
            previous=previous,
            last_move=last,
            status=status,
            with_clicks=is_now and live.human_to_move,
            previous_paths=live.click_paths.get(ply - 1),
        )
        if is_now and live.human_to_move:
            live.click_paths = {ply: board.click_paths}  # the next board's last-move path
        return {"ply": ply, "last_move": last, **board.to_dict()}
