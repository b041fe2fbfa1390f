"""The HTTP API's request bodies and path parameters, with every bound they accept.

One source for the limits of a request: the pydantic models here validate the routes of
`ludoteca.web.api` and `ludoteca.web.online_api` and describe them in the OpenAPI schema, and
the move fast path (`ludoteca.web.fastpath`) checks a move request against the same constants.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt

from ludoteca.web.sessions import MAX_NAME

# A float too: a huge or fractional number then reaches the option's own check, which names
# the accepted values.
OptionInput = Annotated[str, Field(max_length=100)] | int | float | bool | None
# Strict numbers: true is not one second. A text reaches the clock's own check, which says why.
ClockInput = (
    dict[
        Annotated[str, Field(max_length=20)],
        StrictInt | StrictFloat | Annotated[str, Field(max_length=20)],
    ]
    | None
)
CLOCK_FIELD = Field(
    default=None,
    description='The clock: {"initial": 600, "increment": 5} (real time, seconds) or '
    '{"per_move": 86400} (correspondence); null for none. Computer seats have no clock.',
    examples=[{"initial": 600, "increment": 5}],
)
NameInput = Annotated[str, Field(max_length=MAX_NAME)]
#: What a game or challenge id looks like (`ludoteca.web.live.new_game_id`; the fast path's too).
ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
GameId = Annotated[
    str, PathParam(pattern=ID_PATTERN, description="The game's id.", examples=["Xk3_q9Za"])
]
ChallengeId = Annotated[str, PathParam(pattern=ID_PATTERN, description="The challenge's id.")]
#: The longest move and token texts a request may hold (the fast path checks the same).
MAX_MOVE_TEXT = 200
MAX_TOKEN_TEXT = 200
#: The largest ``ply`` a move request may name.
MAX_PLY = 10**9


class NewGameRequest(BaseModel):
    """A game to create."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(description="The game id, e.g. salta.", examples=["salta"], max_length=40)
    options: dict[str, OptionInput] = Field(
        default_factory=dict,
        description="Options by name; unnamed ones take their defaults.",
        max_length=20,
    )
    seats: list[Annotated[str, Field(max_length=40)]] | None = Field(
        default=None,
        max_length=8,
        description="Who plays each seat, in player order: human (you, in this browser), "
        "invite (another person, by a link), random or level:1 … level:5 (the computer). "
        "Default: human for every seat.",
        examples=[["human", "level:3"]],
    )
    position: str | None = Field(
        default=None,
        description="A start position text (`State.to_text`); default the usual.",
        max_length=4000,
    )
    hints: bool | None = Field(
        default=None,
        description="Whether the players may ask for hints. Default: only in games against "
        "the computer (in a game between people a hint would be cheating).",
    )
    clock: ClockInput = CLOCK_FIELD
    names: list[NameInput | None] | None = Field(
        default=None,
        max_length=8,
        description="Display names of the seats played by people (at most 24 characters "
        "each); a browser's own seats default to the name it chose.",
    )


class MoveRequest(BaseModel):
    """A move by the person holding a seat's token."""

    model_config = ConfigDict(extra="forbid")

    move: str = Field(
        description="The move in notation.", examples=["c3-d4"], max_length=MAX_MOVE_TEXT
    )
    token: str = Field(
        description="The secret token of the seat to move.", max_length=MAX_TOKEN_TEXT
    )
    ply: int | None = Field(
        default=None,
        ge=0,
        le=MAX_PLY,
        description="The number of moves the player has seen; if the game has moved on "
        "meanwhile, the move is refused with 409.",
    )


class TokenRequest(BaseModel):
    """A request made for a seat (undo, resign)."""

    model_config = ConfigDict(extra="forbid")

    token: str = Field(description="The secret token of your seat.", max_length=MAX_TOKEN_TEXT)


class DrawRequest(TokenRequest):
    """A draw offer, or the answer to one."""

    action: Literal["offer", "accept", "decline"] = Field(
        default="offer", description="offer, accept or decline."
    )


class NameRequest(BaseModel):
    """A display name."""

    model_config = ConfigDict(extra="forbid")

    name: NameInput = Field(description="At most 24 characters.", examples=["Ada"])


class ChallengeRequest(BaseModel):
    """An open challenge to post in the lobby."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(description="The game id (two players).", max_length=40)
    options: dict[str, OptionInput] = Field(default_factory=dict, max_length=20)
    side: Annotated[str, Field(max_length=40)] = Field(
        default="random", description="Your side: a player name (Green) or random."
    )
    clock: ClockInput = CLOCK_FIELD
    name: NameInput | None = Field(
        default=None, description="Your display name (default: the browser's chosen name)."
    )
    rated: bool = Field(
        default=False,
        description="Whether the game is rated (Glicko-2): only between two players logged in "
        "to accounts; false (the default) for a casual game open to anyone.",
    )


class AcceptRequest(BaseModel):
    """Accepting an open challenge."""

    model_config = ConfigDict(extra="forbid")

    name: NameInput | None = Field(
        default=None, description="Your display name (default: the browser's chosen name)."
    )


class WithdrawRequest(BaseModel):
    """Withdrawing one's open challenge."""

    model_config = ConfigDict(extra="forbid")

    secret: str = Field(description="The secret the posting answered.", max_length=200)
