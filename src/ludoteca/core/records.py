"""Saved games: JSON records that are validated on load and replayed through the rules.

A record holds the format name and version, the game id and rules version, every option, the
starting position text when it is not the game's default, the moves in notation (chance
outcomes included), the players, the result and the dates::

    {"format": "ludoteca-game", "format_version": 1, "game": "salta", "game_version": 2,
     "options": {"goal": "seed", ...}, "start": null, "moves": ["c3-d4", "h8-g7"],
     "players": ["human", "random"], "result": null,
     "created": "2026-11-22T10:00:00+00:00", "updated": "2026-11-22T10:05:00+00:00"}

`load` refuses a file that is not such a record, names an unknown game or option, was written
for other rules, contains a move the rules do not allow, or claims a result the moves do not
produce; the error says which and where.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ludoteca.core.errors import InvalidRecordError, LudotecaError
from ludoteca.core.game import Game, Move, State
from ludoteca.core.outcome import Outcome
from ludoteca.core.registry import make

FORMAT = "ludoteca-game"
FORMAT_VERSION = 1

_FIELDS = (
    "format",
    "format_version",
    "game",
    "game_version",
    "options",
    "start",
    "moves",
    "players",
    "result",
    "created",
    "updated",
)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class GameRecord:
    """A game as played: rules, options, start, moves, players, result and dates.

    Build one with `create` (from a game and moves) or `loads`/`load` (from JSON); both replay
    the moves through the rules, so a record always describes a legal game.
    """

    game: Game
    moves: tuple[str, ...]
    players: tuple[str, ...]
    start: State
    states: tuple[State, ...] = field(repr=False)
    created: str
    updated: str

    @property
    def final_state(self) -> State:
        """The position after the last move."""
        return self.states[-1]

    @property
    def outcome(self) -> Outcome | None:
        """The result, or ``None`` if the game was saved before it ended."""
        return self.final_state.outcome

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready dictionary (see the module docstring)."""
        default_start = self.game.initial_state()
        outcome = self.outcome
        result = None
        if outcome is not None:
            result = {
                "winner": outcome.winner,
                "returns": list(outcome.returns),
                "reason": outcome.reason,
            }
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "game": self.game.id,
            "game_version": self.game.version,
            "options": dict(self.game.options),
            "start": None if self.start == default_start else self.start.to_text(),
            "moves": list(self.moves),
            "players": list(self.players),
            "result": result,
            "created": self.created,
            "updated": self.updated,
        }

    def to_json(self) -> str:
        """The record as indented JSON text."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"


def create(
    game: Game,
    moves: Sequence[Move | str] = (),
    *,
    players: Sequence[str] | None = None,
    start: State | None = None,
    created: str | None = None,
) -> GameRecord:
    """Record ``moves`` played from ``start`` (default: the game's initial position).

    Raises:
        IllegalMoveError, InvalidMoveError: A move is not legal where it is played.
    """
    first = start if start is not None else game.initial_state()
    states = [first]
    for move in moves:
        states.append(states[-1].apply(move))
    names = tuple(players) if players is not None else ("player",) * game.num_players
    stamp = _now()
    return GameRecord(
        game=game,
        moves=tuple(str(m) for m in moves),
        players=names,
        start=first,
        states=tuple(states),
        created=created or stamp,
        updated=stamp,
    )


def save(record: GameRecord, path: str | os.PathLike[str]) -> None:
    """Write ``record`` to ``path`` atomically (an existing file is replaced only on success).

    Raises:
        OSError: The file cannot be written (the message names it).
    """
    target = Path(path)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent if str(target.parent) else ".", prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(record.to_json())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def load(path: str | os.PathLike[str]) -> GameRecord:
    """Read and validate a saved game.

    Raises:
        InvalidRecordError: The file cannot be read or is not a valid record (says why).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidRecordError(f"cannot read saved game {str(path)!r}: {error}") from None
    return loads(text)


def loads(text: str) -> GameRecord:
    """Read and validate a saved game from JSON text.

    Raises:
        InvalidRecordError: What is wrong, e.g. an illegal move with its number and the reason.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidRecordError(f"a saved game is JSON, and this is not: {error}") from None
    return from_dict(data)


def from_dict(data: Any) -> GameRecord:
    """Validate a decoded JSON record and replay it (see `loads`)."""
    if not isinstance(data, dict):
        raise InvalidRecordError("a saved game is a JSON object with the fields " + _field_list())
    missing = [name for name in _FIELDS if name not in data]
    extra = sorted(set(data) - set(_FIELDS))
    if missing or extra:
        problem = f"missing {', '.join(missing)}" if missing else f"unknown {', '.join(extra)}"
        raise InvalidRecordError(f"saved game has {problem}; expected fields: {_field_list()}")
    if data["format"] != FORMAT:
        raise InvalidRecordError(f"format is {data['format']!r}; expected {FORMAT!r}")
    if data["format_version"] != FORMAT_VERSION:
        raise InvalidRecordError(
            f"format_version {data['format_version']!r} is not supported; this Ludoteca reads "
            f"version {FORMAT_VERSION}"
        )
    game = _game_of(data)
    start = _start_of(data, game)
    moves = _strings(data, "moves")
    players = _strings(data, "players")
    if len(players) != game.num_players:
        raise InvalidRecordError(
            f"players lists {len(players)} names; {game.name} has {game.num_players}"
        )
    for name in ("created", "updated"):
        _check_date(data, name)
    states = [start]
    for number, move in enumerate(moves, start=1):
        try:
            states.append(states[-1].apply(move))
        except LudotecaError as error:
            raise InvalidRecordError(
                f"move {number} ({move!r}) cannot be replayed: {error}"
            ) from None
    record = GameRecord(
        game=game,
        moves=tuple(moves),
        players=tuple(players),
        start=start,
        states=tuple(states),
        created=data["created"],
        updated=data["updated"],
    )
    recorded_result = data["result"]
    replayed_result = record.to_dict()["result"]
    if recorded_result != replayed_result:
        raise InvalidRecordError(
            f"the recorded result {recorded_result!r} does not match the moves, which give "
            f"{replayed_result!r}"
        )
    return record


def _field_list() -> str:
    return ", ".join(_FIELDS)


def _game_of(data: dict[str, Any]) -> Game:
    options = data["options"]
    if not isinstance(options, dict):
        raise InvalidRecordError("options must be a JSON object of option names and values")
    try:
        game = make(data["game"], **options)
    except LudotecaError as error:
        raise InvalidRecordError(f"saved game names bad rules: {error}") from None
    missing = sorted(set(game.options) - set(options))
    if missing:
        raise InvalidRecordError(
            f"saved game does not record the options {', '.join(missing)}; a record lists every "
            "option"
        )
    if data["game_version"] != game.version:
        raise InvalidRecordError(
            f"saved game was written for {game.name} rules version {data['game_version']!r}; "
            f"this Ludoteca plays version {game.version}"
        )
    return game


def _start_of(data: dict[str, Any], game: Game) -> State:
    if data["start"] is None:
        return game.initial_state()
    if not isinstance(data["start"], str):
        raise InvalidRecordError("start must be null or a position text")
    try:
        return game.parse_state(data["start"])
    except LudotecaError as error:
        raise InvalidRecordError(f"start position is invalid: {error}") from None


def _strings(data: dict[str, Any], name: str) -> list[str]:
    value = data[name]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InvalidRecordError(f"{name} must be a list of strings")
    return value


def _check_date(data: dict[str, Any], name: str) -> None:
    value = data[name]
    try:
        datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise InvalidRecordError(
            f"{name} must be an ISO 8601 date and time; got {value!r}"
        ) from None
