"""The games database's tables (SQLAlchemy Core), the one description of its schema.

`ludoteca.web.storage` reads and writes them; the migrations (`ludoteca.web.migrations`) bring
a database to them. Each table's columns say what it keeps; the storage module's docstring says
how they are used together.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

#: ``games.winner`` of a game over with no single winner (a draw, a lost solitaire).
NO_WINNER = -1

games_table = Table(
    "games",
    metadata,
    Column("id", String, primary_key=True),
    Column("game", String, nullable=False),
    Column("options", Text, nullable=False),
    Column("start", Text),
    Column("resigned", Integer),
    Column("created", String, nullable=False),
    Column("updated", String, nullable=False),
    Column("version", Integer, nullable=False, server_default="0"),
    Column("move_count", Integer, nullable=False, server_default="0"),
    Column("result", Text),
    Column("hints", Boolean, nullable=False, server_default="0"),
    Column("clock", Text),
    Column("clock_state", Text),
    Column("timed_out", Integer),
    Column("agreed", String),
    Column("draw_offer", Integer),
    Column("rematch_offer", Integer),
    Column("rematch_id", String),
    Column("rated", Boolean, nullable=False, server_default="0"),
    # The winner's seat once over (`NO_WINNER`: a draw or nobody); ``None`` while running, and
    # for games that ended before revision 0009 kept it.
    Column("winner", Integer),
    Index("games_by_update", "updated"),
)
seats_table = Table(
    "seats",
    metadata,
    Column("game_id", String, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String, nullable=False),
    Column("agent", String),
    Column("token", String),
    Column("name", String),
    Column("account_id", String),  # the account playing it, in a rated game (revision 0009)
    Index("seats_by_account", "account_id"),
)
moves_table = Table(
    "moves",
    metadata,
    Column("game_id", String, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("text", Text, nullable=False),
    Column("played", String, nullable=False),
)
events_table = Table(
    "events",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String, nullable=False),
    Column("version", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Index("events_by_time", "at"),  # pruning old announcements reads only those
)
session_seats_table = Table(
    "session_seats",
    metadata,
    Column("session", String, primary_key=True),
    Column("game_id", String, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("added", String, nullable=False),
)
challenges_table = Table(
    "challenges",
    metadata,
    Column("id", String, primary_key=True),
    Column("game", String, nullable=False),
    Column("options", Text, nullable=False),
    Column("clock", Text),
    Column("hints", Boolean, nullable=False, server_default="0"),
    Column("poster_seat", Integer, nullable=False),
    Column("poster_name", String, nullable=False),
    Column("poster_session", String),
    Column("secret", String, nullable=False),
    Column("game_id", String, nullable=False),
    Column("poster_token", String, nullable=False),
    Column("status", String, nullable=False),
    Column("accepter_name", String),
    Column("created", String, nullable=False),
    Column("updated", String, nullable=False),
    Column("rated", Boolean, nullable=False, server_default="0"),
    Column("poster_account", String),
    Index("challenges_by_status", "status", "created"),
)
session_names_table = Table(
    "session_names",
    metadata,
    Column("session", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("updated", String, nullable=False),
)
#: One review per game (`ludoteca.analysis.review`): ``status`` is ``running`` while a server
#: process (``owner``) works on it and beats ``heartbeat`` (epoch seconds), then ``done`` (with
#: ``review``, the review's JSON, and ``paths``, the better moves' click paths) or ``failed``.
#: ``moves`` is the number of moves of the game it reviews.
reviews_table = Table(
    "reviews",
    metadata,
    Column("game_id", String, primary_key=True),
    Column("status", String, nullable=False),
    Column("done", Integer, nullable=False, server_default="0"),
    Column("total", Integer, nullable=False, server_default="0"),
    Column("budget", Text),
    Column("seed", Integer, nullable=False, server_default="0"),
    Column("owner", String),
    Column("heartbeat", Float, nullable=False, server_default="0"),
    Column("review", Text),
    Column("paths", Text),
    Column("error", Text),
    Column("moves", Integer, nullable=False, server_default="0"),
    Column("started", String, nullable=False),
    Column("updated", String, nullable=False),
    Column("finished", String),
)
settings_table = Table(
    "settings",
    metadata,
    Column("name", String, primary_key=True),
    Column("value", Text, nullable=False),
)


# -- puzzles (`ludoteca.web.puzzle_store`): Glicko-2 ratings of puzzles and players, answers ---


def _rating_columns() -> list[Column[Any]]:
    return [
        Column("rating", Float, nullable=False),
        Column("deviation", Float, nullable=False),
        Column("volatility", Float, nullable=False),
        Column("rated", Integer, nullable=False, server_default="0"),
        Column("solved", Integer, nullable=False, server_default="0"),
        Column("updated", String, nullable=False),
    ]


puzzle_ratings_table = Table(
    "puzzle_ratings",
    metadata,
    Column("puzzle_id", String, primary_key=True),
    Column("game", String, nullable=False),
    *_rating_columns(),
)
puzzle_players_table = Table(
    "puzzle_players",
    metadata,
    Column("session", String, primary_key=True),
    Column("game", String, primary_key=True),
    *_rating_columns(),
)
puzzle_attempts_table = Table(
    "puzzle_attempts",
    metadata,
    Column("session", String, primary_key=True),
    Column("puzzle_id", String, primary_key=True),
    Column("game", String, nullable=False),
    Column("first_right", Boolean, nullable=False),
    Column("solved", Boolean, nullable=False),
    Column("tries", Integer, nullable=False),
    Column("updated", String, nullable=False),
    Index("puzzle_attempts_by_game", "session", "game"),
)


# -- player accounts (`ludoteca.web.account_store`) ---------------------------------------------

#: One row per account: ``name`` as its player wrote it, ``name_key`` the same in lower case
#: (unique: names differ by more than case), ``password`` the argon2id hash.
accounts_table = Table(
    "accounts",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("name_key", String, nullable=False, unique=True),
    Column("password", Text, nullable=False),
    Column("created", String, nullable=False),
)
#: One row per browser session logged in to an account: ``public_id`` names it in the account's
#: list of sessions (the session id itself never leaves the signed cookie), ``address`` and
#: ``agent`` say where from.
account_logins_table = Table(
    "account_logins",
    metadata,
    Column("session", String, primary_key=True),
    Column("account_id", String, nullable=False),
    Column("public_id", String, nullable=False, unique=True),
    Column("created", String, nullable=False),
    Column("seen", String, nullable=False),
    Column("address", String),
    Column("agent", String),
    Index("account_logins_by_account", "account_id"),
)


# -- ratings of rated games (`ludoteca.web.rating_store`) ---------------------------------------

#: One Glicko-2 rating per account, game id and time control (``realtime``, ``correspondence``),
#: with the rated games' count and their wins, draws and losses.
player_ratings_table = Table(
    "player_ratings",
    metadata,
    Column("account_id", String, primary_key=True),
    Column("game", String, primary_key=True),
    Column("time_control", String, primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False, server_default="0"),
    Column("wins", Integer, nullable=False, server_default="0"),
    Column("draws", Integer, nullable=False, server_default="0"),
    Column("losses", Integer, nullable=False, server_default="0"),
    Column("updated", String, nullable=False),
    Index("player_ratings_by_rating", "game", "time_control", "rating"),
)
#: One row per rated game and player: the rating before and after it. A game is rated once: the
#: pair (game row, account) is unique.
rating_history_table = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String, nullable=False),
    Column("account_id", String, nullable=False),
    Column("game", String, nullable=False),
    Column("time_control", String, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("score", Float, nullable=False),
    Column("opponent_id", String),
    Column("rating_before", Float, nullable=False),
    Column("deviation_before", Float, nullable=False),
    Column("volatility_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
    Column("deviation_after", Float, nullable=False),
    Column("volatility_after", Float, nullable=False),
    Column("at", String, nullable=False),
    UniqueConstraint("game_id", "account_id", name="rating_history_once"),
    Index("rating_history_by_account", "account_id", "game", "time_control", "at"),
)
#: One row per passkey (WebAuthn credential) of an account: ``id`` names it on the account page,
#: ``credential_id`` is the authenticator's id of it (base64url), ``public_key`` its COSE public
#: key (base64url), ``sign_count`` the authenticator's counter at its last use.
account_passkeys_table = Table(
    "account_passkeys",
    metadata,
    Column("id", String, primary_key=True),
    Column("account_id", String, nullable=False),
    Column("credential_id", String, nullable=False, unique=True),
    Column("public_key", Text, nullable=False),
    Column("sign_count", Integer, nullable=False, server_default="0"),
    Column("name", String, nullable=False),
    Column("created", String, nullable=False),
    Column("used", String),
    Index("account_passkeys_by_account", "account_id"),
)
#: The WebAuthn challenge a browser session was given, one per session and purpose
#: (``register`` or ``login``): single use (taken out when answered), ``expires`` in seconds
#: since the epoch; ``account_id`` is the account a ``register`` challenge adds a passkey to.
webauthn_challenges_table = Table(
    "webauthn_challenges",
    metadata,
    Column("session", String, primary_key=True),
    Column("purpose", String, primary_key=True),
    Column("challenge", String, nullable=False),
    Column("account_id", String),
    Column("expires", Float, nullable=False),
)
