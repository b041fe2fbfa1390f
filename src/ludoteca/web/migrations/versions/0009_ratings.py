"""Rated games: the rated flag, each game's winner, the seats' accounts, ratings and history.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``rated``, ``winner``, the seats' accounts, ``player_ratings`` and ``rating_history``."""
    op.add_column(
        "games", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column("games", sa.Column("winner", sa.Integer))
    op.add_column(
        "challenges", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column("challenges", sa.Column("poster_account", sa.String))
    op.add_column("seats", sa.Column("account_id", sa.String))
    op.create_index("seats_by_account", "seats", ["account_id"])
    op.create_table(
        "player_ratings",
        sa.Column("account_id", sa.String, primary_key=True),
        sa.Column("game", sa.String, primary_key=True),
        sa.Column("time_control", sa.String, primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("wins", sa.Integer, nullable=False, server_default="0"),
        sa.Column("draws", sa.Integer, nullable=False, server_default="0"),
        sa.Column("losses", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated", sa.String, nullable=False),
    )
    op.create_index(
        "player_ratings_by_rating", "player_ratings", ["game", "time_control", "rating"]
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String, nullable=False),
        sa.Column("account_id", sa.String, nullable=False),
        sa.Column("game", sa.String, nullable=False),
        sa.Column("time_control", sa.String, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("opponent_id", sa.String),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("deviation_before", sa.Float, nullable=False),
        sa.Column("volatility_before", sa.Float, nullable=False),
        sa.Column("rating_after", sa.Float, nullable=False),
        sa.Column("deviation_after", sa.Float, nullable=False),
        sa.Column("volatility_after", sa.Float, nullable=False),
        sa.Column("at", sa.String, nullable=False),
        sa.UniqueConstraint("game_id", "account_id", name="rating_history_once"),
    )
    # Games already over get their winner from the rules (`ludoteca.web.backfill`); the note is
    # the settings row `ludoteca.web.backfill.WINNERS_PENDING` names.
    op.execute(
        "INSERT INTO settings (name, value) SELECT 'winners_pending', 'pending' "
        "WHERE EXISTS (SELECT 1 FROM games)"
    )
    op.create_index(
        "rating_history_by_account", "rating_history", ["account_id", "game", "time_control", "at"]
    )


def downgrade() -> None:
    """Remove what `upgrade` added."""
    op.execute("DELETE FROM settings WHERE name = 'winners_pending'")
    op.drop_index("rating_history_by_account", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("player_ratings_by_rating", table_name="player_ratings")
    op.drop_table("player_ratings")
    op.drop_index("seats_by_account", table_name="seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("account_id")
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("poster_account")
        batch.drop_column("rated")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("winner")
        batch.drop_column("rated")
