"""Saved games: JSON records that are validated on load and replayed through the rules.

A record holds the format name and version, the game id and rules version, every option, the
starting position text when it is not the game's default, the moves in notation (chance
outcomes included), the players, how the game ended when the rules did not end it (a
resignation or an agreed result), the result and the dates::

    {"format": "ludoteca-game", "format_version": 2, "game": "salta", "game_version": 2,
     "options": {"goal": "seed", ...}, "start": null, "moves": ["c3-d4", "h8-g7"],
     "players": ["human", "random"], "ending": null, "result": null,
     "created": "2026-11-22T10:00:00+00:00", "updated": "2026-11-22T10:05:00+00:00"}

``ending`` is ``null`` while the game runs or when the rules ended it, ``{"resigned": 1}`` when
that player resigned, ``{"time out": 1}`` when that player's clock ran out, and ``{"agreed": 0}``
or ``{"agreed": "draw"}`` when the players agreed on a result. Version 1 records, which have no
``ending``, still load.

`create` and `load` check the same things, so every record that can be written can be read back:
`load` refuses a file that is not such a record, names an unknown game or option, was written
for other rules, contains a move the rules do not allow, or claims a result the moves do not
produce; the error says which and where.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from ludoteca.core.errors import InvalidRecordError, LudotecaError, SaveError
from ludoteca.core.game import Game, Move, State
from ludoteca.core.outcome import Outcome
from ludoteca.core.registry import make

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "READABLE_VERSIONS",
    "Agreed",
    "GameRecord",
    "SaveError",
    "create",
    "from_dict",
    "is_saved_game",
    "load",
    "loads",
    "save",
    "write_atomically",
]

FORMAT = "ludoteca-game"
FORMAT_VERSION = 2
#: The versions `load` reads: version 1 has no ``ending`` field.
READABLE_VERSIONS = (1, 2)

#: An agreed result: the winning player's index, or ``"draw"``.
Agreed = int | Literal["draw"]

_FIELDS_V1 = (
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
_FIELDS = (*_FIELDS_V1, "ending")


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
    resigned: int | None = None
    agreed: Agreed | None = None
    timed_out: int | None = None

    @property
    def final_state(self) -> State:
        """The position after the last move."""
        return self.states[-1]

    @property
    def outcome(self) -> Outcome | None:
        """The result (a resignation or an agreed result counts), or ``None`` while it runs."""
        names = self.game.player_names
        count = self.game.num_players
        if self.timed_out is not None:
            reason = f"{names[self.timed_out]} ran out of time (time out)"
            if count == 2:
                return Outcome.win(1 - self.timed_out, count, reason)
            returns = tuple(-1.0 if p == self.timed_out else 1.0 for p in range(count))
            return Outcome(None, returns, reason)
        if self.resigned is not None:
            reason = f"{names[self.resigned]} resigned"
            if count == 2:
                return Outcome.win(1 - self.resigned, count, reason)
            returns = tuple(-1.0 if p == self.resigned else 1.0 for p in range(count))
            return Outcome(None, returns, reason)
        if self.agreed == "draw":
            return Outcome.draw(count, "draw agreed by the players")
        if self.agreed is not None:
            return Outcome.win(self.agreed, count, f"{names[self.agreed]} won by agreement")
        return self.final_state.outcome

    @property
    def ending(self) -> dict[str, int | str] | None:
        """How the players ended the game, as written to the file (see the module docstring)."""
        if self.resigned is not None:
            return {"resigned": self.resigned}
        if self.timed_out is not None:
            return {"time out": self.timed_out}
        if self.agreed is not None:
            return {"agreed": self.agreed}
        return None

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
            "ending": self.ending,
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
    resigned: int | None = None,
    agreed: Agreed | None = None,
    timed_out: int | None = None,
) -> GameRecord:
    """Record ``moves`` played from ``start`` (default: the game's initial position).

    The record is checked exactly as `load` checks a file, so whatever is created can be saved
    and read back.

    Args:
        game: The rules and options.
        moves: The moves played, chance outcomes included (`Move` values or their texts).
        players: Who played each seat (``"human"``, an agent spec, a name); default
            ``"player"`` for each seat.
        start: The first position, default the game's initial position.
        created: When the game began (ISO 8601); default now.
        resigned: The player who resigned, ending a game the rules had not ended.
        agreed: A result the players agreed on: the winner's index, or ``"draw"``.
        timed_out: The player whose clock ran out, ending a game the rules had not ended.

    Raises:
        InvalidRecordError: Bad players, start, date or ending (the message says which).
        IllegalMoveError, InvalidMoveError: A move is not legal where it is played.
    """
    if not isinstance(game, Game):
        raise InvalidRecordError(f"a record is of a Game (see ludoteca.make); got {game!r}")
    first = start if start is not None else game.initial_state()
    if not isinstance(first, State) or first.game != game:
        raise InvalidRecordError(f"start must be a position of {game!r}; got {first!r}")
    if isinstance(moves, str):
        raise InvalidRecordError("moves must be a list of moves, not one text")
    states = [first]
    for move in moves:
        states.append(states[-1].apply(move))
    names = tuple(players) if players is not None else ("player",) * game.num_players
    _check_players(list(names), game)
    stamp = _now()
    if created is not None:
        _check_date(created, "created")
    _check_ending(resigned if timed_out is None else timed_out, agreed, game, states[-1])
    return GameRecord(
        game=game,
        moves=tuple(str(m) for m in moves),
        players=names,
        start=first,
        states=tuple(states),
        created=created or stamp,
        updated=stamp,
        resigned=resigned,
        agreed=agreed,
        timed_out=timed_out,
    )


def save(record: GameRecord, path: str | os.PathLike[str]) -> None:
    """Write ``record`` to ``path`` atomically, with the permissions the umask allows.

    The text goes to a temporary file in the same folder, is flushed to the disk, and then
    replaces ``path`` in one step, so an existing file is replaced only when the new one is
    complete: a full disk or an interrupt leaves the old file as it was. This replaces any file;
    front ends ask first (see `is_saved_game`).

    Raises:
        InvalidRecordError: ``record`` is not a `GameRecord`.
        SaveError: The file cannot be written; the message names ``path`` and says why.
    """
    if not isinstance(record, GameRecord):
        raise InvalidRecordError(f"save() takes a GameRecord (see records.create); got {record!r}")
    write_atomically(path, record.to_json())


def write_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Replace ``path`` with ``text`` in one step (temporary file, fsync, rename).

    The new file gets the permissions of a newly created file (``0666`` less the umask, so
    normally ``0644``), or keeps those of the file it replaces.

    Raises:
        SaveError: The file cannot be written; the message names ``path``, never the temporary
            file.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise SaveError(f"cannot save to {str(path)!r}: it is a folder; give a file name")
    if not folder.is_dir():
        raise SaveError(f"cannot save to {str(path)!r}: the folder {str(folder)!r} does not exist")
    temporary: str | None = None
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
        os.fchmod(handle, _permissions_for(target))
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
        temporary = None
    except OSError as error:
        reason = error.strerror or str(error)
        raise SaveError(f"cannot save to {str(path)!r}: {reason}") from None
    finally:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)


def _permissions_for(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def is_saved_game(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` holds a Ludoteca saved game (of any version), valid or not.

    Front ends replace such a file without asking, but ask before replacing anything else.
    """
    try:
        with open(path, encoding="utf-8") as stream:
            data = json.loads(stream.read(1_000_000))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


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
    if data.get("format") != FORMAT:
        if "format" not in data:
            raise InvalidRecordError(
                f'this is not a saved Ludoteca game: it has no "format" field (a saved game'
                f' has "format": "{FORMAT}")'
            )
        raise InvalidRecordError(f"format is {data.get('format')!r}; expected {FORMAT!r}")
    if "format_version" not in data:
        raise InvalidRecordError(
            f"saved game has missing format_version; expected fields: {_field_list()}"
        )
    version = data["format_version"]
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        raise InvalidRecordError(
            f"format_version {version!r} is not supported; this Ludoteca reads versions "
            + " and ".join(str(v) for v in READABLE_VERSIONS)
        )
    fields = _FIELDS if version == FORMAT_VERSION else _FIELDS_V1
    missing = [name for name in fields if name not in data]
    extra = sorted(set(data) - set(fields))
    if missing or extra:
        problem = f"missing {', '.join(missing)}" if missing else f"unknown {', '.join(extra)}"
        raise InvalidRecordError(f"saved game has {problem}; expected fields: {', '.join(fields)}")
    game = _game_of(data)
    start = _start_of(data, game)
    moves = _strings(data, "moves")
    players = _strings(data, "players")
    _check_players(players, game)
    for name in ("created", "updated"):
        _check_date(data[name], name)
    ending = data.get("ending")
    timed_out = None
    if isinstance(ending, dict) and set(ending) == {"time out"}:
        timed_out, ending = ending["time out"], {"resigned": ending["time out"]}
    resigned, agreed = _ending_of(ending)
    if timed_out is not None:
        resigned = None
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
    _check_ending(resigned if timed_out is None else timed_out, agreed, game, states[-1])
    record = dataclasses.replace(record, resigned=resigned, agreed=agreed, timed_out=timed_out)
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


def _check_players(players: list[Any], game: Game) -> None:
    if not all(isinstance(name, str) and name.strip() for name in players):
        raise InvalidRecordError(
            f"players must be a list of texts (human, an agent spec such as level:2, or a "
            f"name), one per seat; got {players!r}"
        )
    if len(players) != game.num_players:
        raise InvalidRecordError(
            f"players lists {len(players)} names; {game.name} has {game.num_players}"
        )


def _ending_of(ending: Any) -> tuple[int | None, Agreed | None]:
    """Read the ``ending`` field: ``null``, ``{"resigned": seat}`` or ``{"agreed": ...}``."""
    if ending is None:
        return None, None
    accepted = 'null, {"resigned": PLAYER}, {"time out": PLAYER} or {"agreed": PLAYER or "draw"}'
    if not isinstance(ending, dict) or len(ending) != 1:
        raise InvalidRecordError(f"ending must be {accepted}; got {ending!r}")
    ((kind, value),) = ending.items()
    if kind == "resigned":
        if isinstance(value, int) and not isinstance(value, bool):
            return value, None
    elif kind == "agreed" and (
        value == "draw" or (isinstance(value, int) and not isinstance(value, bool))
    ):
        return None, value
    raise InvalidRecordError(f"ending must be {accepted}; got {ending!r}")


def _check_ending(
    resigned: int | None, agreed: Agreed | None, game: Game, final_state: State
) -> None:
    if resigned is None and agreed is None:
        return
    if resigned is not None and agreed is not None:
        raise InvalidRecordError("a game ends by a resignation or by an agreed result, not both")
    if final_state.is_over:
        raise InvalidRecordError(
            "the rules had already ended the game; a resignation or an agreed result ends a game "
            "that is still running"
        )
    seats = f"0 to {game.num_players - 1}" if game.num_players > 1 else "0"
    if resigned is not None and (
        isinstance(resigned, bool)
        or not isinstance(resigned, int)
        or not 0 <= resigned < game.num_players
    ):
        raise InvalidRecordError(f"resigned names a player: {seats}; got {resigned!r}")
    if (
        agreed is not None
        and agreed != "draw"
        and (
            isinstance(agreed, bool)
            or not isinstance(agreed, int)
            or not (0 <= agreed < game.num_players)
        )
    ):
        raise InvalidRecordError(
            f'agreed is the winning player ({seats}) or "draw"; got {agreed!r}'
        )
    if agreed is not None and game.num_players == 1:
        raise InvalidRecordError("a solitaire has nobody to agree with; resign instead")


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


def _check_date(value: Any, name: str) -> None:
    try:
        datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise InvalidRecordError(
            f"{name} must be an ISO 8601 date and time; got {value!r}"
        ) from None
