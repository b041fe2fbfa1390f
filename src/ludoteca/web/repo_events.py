"""The change feed's table in the games database (SQLite; PostgreSQL uses NOTIFY)."""

from __future__ import annotations

import time

from sqlalchemy import (
    delete,
    func,
    select,
)

from ludoteca.web.database import Database
from ludoteca.web.schema import (
    events_table,
)


class EventsRepository(Database):
    """SQLite's change feed: the announcements each process reads."""

    # -- the change feed (SQLite) ------------------------------------------------------------

    def latest_event(self) -> int:
        """The sequence number of the newest change (0 if none)."""
        with self._read() as db:
            return int(db.execute(select(func.max(events_table.c.seq))).scalar() or 0)

    def events_after(self, seq: int, *, limit: int = 5000) -> list[tuple[int, str, int]]:
        """Changes after ``seq``: (sequence number, game id, new version), oldest first."""
        with self._read() as db:
            rows = db.execute(
                select(events_table.c.seq, events_table.c.game_id, events_table.c.version)
                .where(events_table.c.seq > seq)
                .order_by(events_table.c.seq)
                .limit(limit)
            ).all()
        return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]

    def prune_events(self, older_than_seconds: float) -> None:
        """Forget announcements every process has long read."""
        with self._write() as db:
            cutoff = time.time() - older_than_seconds
            db.execute(delete(events_table).where(events_table.c.at < cutoff))
