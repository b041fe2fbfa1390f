"""Schema migrations of the games database (Alembic), run whenever a database is opened.

A database made by an older Ludoteca is upgraded in place. The first version of the schema was
marked only with SQLite's ``user_version``; such a database is stamped with revision ``0001``
(that schema) and upgraded from there. Concurrent servers opening one database migrate one at a
time (the SQLite write lock; a PostgreSQL advisory lock).
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, inspect, text

#: Any number that other applications are unlikely to use for a PostgreSQL advisory lock.
_MIGRATION_LOCK = 7_271_001


def alembic_config() -> Config:
    """Alembic's configuration for Ludoteca's migrations (no alembic.ini needed)."""
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent))
    return config


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest schema."""
    config = alembic_config()
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
        tables = set(inspect(connection).get_table_names())
        config.attributes["connection"] = connection
        if "games" in tables and "alembic_version" not in tables:
            command.stamp(config, "0001")
        command.upgrade(config, "head")
