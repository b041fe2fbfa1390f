"""Versioned games (conditional writes), results for the lobby, the change feed, sessions.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

import json
import logging

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

log = logging.getLogger(__name__)


def upgrade() -> None:
    """Add the version, move count, result and hints columns; fill them from the moves."""
    op.add_column("games", sa.Column("version", sa.Integer, nullable=False, server_default="0"))
    op.add_column("games", sa.Column("move_count", sa.Integer, nullable=False, server_default="0"))
    op.add_column("games", sa.Column("result", sa.Text))
    op.add_column(
        "games", sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_index("games_by_update", "games", ["updated"])
    op.create_table(
        "events",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("events_by_time", "events", ["at"])
    op.create_table(
        "session_seats",
        sa.Column("session", sa.String, nullable=False),
        sa.Column("game_id", sa.String, sa.ForeignKey("games.id", ondelete="CASCADE")),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("added", sa.String, nullable=False),
        sa.PrimaryKeyConstraint("session", "game_id", "seat"),
    )
    op.create_table(
        "settings",
        sa.Column("name", sa.String, primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    _fill_existing_games()


def _fill_existing_games() -> None:
    """Count the moves of existing games and replay them once to record their results."""
    from ludoteca.core.errors import LudotecaError
    from ludoteca.core.registry import make

    db = op.get_bind()
    games = db.execute(sa.text("SELECT id, game, options, start, resigned FROM games")).all()
    for game_id, game_name, options, start, resigned in games:
        moves = db.execute(
            sa.text("SELECT text FROM moves WHERE game_id = :id ORDER BY number"), {"id": game_id}
        ).scalars()
        texts = list(moves)
        result = None
        try:
            game = make(game_name, **json.loads(options))
            state = game.parse_state(start) if start is not None else game.initial_state()
            for text in texts:
                state = state.apply(text)
            if resigned is not None:
                result = f"{game.player_names[resigned]} resigned"
            elif state.outcome is not None:
                result = state.outcome.reason
        except (LudotecaError, IndexError, ValueError) as error:
            log.warning("game %s could not be replayed while upgrading: %s", game_id, error)
        db.execute(
            sa.text(
                "UPDATE games SET move_count = :count, version = :version, result = :result "
                "WHERE id = :id"
            ),
            {
                "count": len(texts),
                "version": len(texts) + (resigned is not None),
                "result": result,
                "id": game_id,
            },
        )


def downgrade() -> None:
    """Back to the first schema."""
    op.drop_table("settings")
    op.drop_table("session_seats")
    op.drop_index("events_by_time", "events")
    op.drop_table("events")
    op.drop_index("games_by_update", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("hints")
        batch.drop_column("result")
        batch.drop_column("move_count")
        batch.drop_column("version")
