"""Player accounts: ``accounts`` and the browser sessions logged in to them.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``accounts`` and ``account_logins``."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.String, primary_key=True),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("name_key", sa.String, nullable=False, unique=True),
        sa.Column("password", sa.Text, nullable=False),
        sa.Column("created", sa.String, nullable=False),
    )
    op.create_table(
        "account_logins",
        sa.Column("session", sa.String, primary_key=True),
        sa.Column("account_id", sa.String, nullable=False),
        sa.Column("public_id", sa.String, nullable=False, unique=True),
        sa.Column("created", sa.String, nullable=False),
        sa.Column("seen", sa.String, nullable=False),
        sa.Column("address", sa.String),
        sa.Column("agent", sa.String),
    )
    op.create_index("account_logins_by_account", "account_logins", ["account_id"])


def downgrade() -> None:
    """Remove what `upgrade` added."""
    op.drop_index("account_logins_by_account", table_name="account_logins")
    op.drop_table("account_logins")
    op.drop_table("accounts")
