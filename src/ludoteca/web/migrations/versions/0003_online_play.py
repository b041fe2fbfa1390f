"""Online play: display names, open challenges, clocks, draw offers, rematches, time outs.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the clock, ending and offer columns, seat names, challenges and session names."""
    op.add_column("games", sa.Column("clock", sa.Text))
    op.add_column("games", sa.Column("clock_state", sa.Text))
    op.add_column("games", sa.Column("timed_out", sa.Integer))
    op.add_column("games", sa.Column("agreed", sa.String))
    op.add_column("games", sa.Column("draw_offer", sa.Integer))
    op.add_column("games", sa.Column("rematch_offer", sa.Integer))
    op.add_column("games", sa.Column("rematch_id", sa.String))
    op.add_column("seats", sa.Column("name", sa.String))
    op.create_table(
        "challenges",
        sa.Column("id", sa.String, primary_key=True),
        sa.Column("game", sa.String, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("clock", sa.Text),
        sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("poster_seat", sa.Integer, nullable=False),
        sa.Column("poster_name", sa.String, nullable=False),
        sa.Column("poster_session", sa.String),
        sa.Column("secret", sa.String, nullable=False),
        sa.Column("game_id", sa.String, nullable=False),
        sa.Column("poster_token", sa.String, nullable=False),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("accepter_name", sa.String),
        sa.Column("created", sa.String, nullable=False),
        sa.Column("updated", sa.String, nullable=False),
    )
    op.create_index("challenges_by_status", "challenges", ["status", "created"])
    op.create_table(
        "session_names",
        sa.Column("session", sa.String, primary_key=True),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("updated", sa.String, nullable=False),
    )


def downgrade() -> None:
    """Remove what `upgrade` added."""
    op.drop_table("session_names")
    op.drop_index("challenges_by_status", "challenges")
    op.drop_table("challenges")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("name")
    with op.batch_alter_table("games") as batch:
        for column in (
            "rematch_id",
            "rematch_offer",
            "draw_offer",
            "agreed",
            "timed_out",
            "clock_state",
            "clock",
        ):
            batch.drop_column(column)
