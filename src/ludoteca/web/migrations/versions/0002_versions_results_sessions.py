"""Versioned games (conditional writes), results for the lobby, the change feed, sessions.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the version, move count, result and hints columns; count the moves."""
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
    """Count the moves of existing games (plain SQL) and note that their results are missing.

    The results are not computed here: that needs the rules, and a migration must do the same
    thing whatever the rules become. The application fills them when it opens the database
    (`ludoteca.web.backfill`), wherever this note is.
    """
    op.execute(
        "UPDATE games SET "
        "move_count = (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id), "
        "version = (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id) "
        "+ CASE WHEN resigned IS NULL THEN 0 ELSE 1 END"
    )
    # The note is the settings row `ludoteca.web.backfill.RESULTS_PENDING` names.
    op.execute(
        "INSERT INTO settings (name, value) SELECT 'results_pending', 'pending' "
        "WHERE EXISTS (SELECT 1 FROM games)"
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
