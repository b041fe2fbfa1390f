"""Reviews of games in the games database (`ludoteca.web.reviews` runs them)."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import (
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from ludoteca.web.database import Database
from ludoteca.web.rows import (
    REVIEW_CHANGE,
    ReviewRow,
    now_stamp,
)
from ludoteca.web.schema import (
    reviews_table,
)


class ReviewsRepository(Database):
    """Each game's review: claimed by one process, its progress, then the review."""

    # -- reviews -----------------------------------------------------------------------------

    def start_review(
        self,
        game_id: str,
        *,
        owner: str,
        total: int,
        moves: int,
        budget: str | None,
        seed: int,
        stale_before: float,
    ) -> bool:
        """Claim the game's review for ``owner`` (a server process), if nobody works on it.

        The claim is one conditional write: it succeeds where the game has no review, or its
        review is not running, or the process running it stopped beating its heartbeat before
        ``stale_before`` (epoch seconds; it was stopped or crashed). Of several processes
        claiming at once, exactly one succeeds.

        Returns:
            Whether ``owner`` now holds the review (``False``: another process runs it).
        """
        stamp = now_stamp()
        values = {
            "status": "running",
            "done": 0,
            "total": total,
            "budget": budget,
            "seed": seed,
            "owner": owner,
            "heartbeat": time.time(),
            "review": None,
            "paths": None,
            "error": None,
            "moves": moves,
            "started": stamp,
            "updated": stamp,
            "finished": None,
        }
        table = reviews_table
        with self._write() as db:
            claimed = db.execute(
                update(table)
                .where(table.c.game_id == game_id)
                .where(or_(table.c.status != "running", table.c.heartbeat < stale_before))
                .values(**values)
            ).rowcount
            if claimed != 1:
                exists = db.execute(select(table.c.game_id).where(table.c.game_id == game_id))
                if exists.first() is not None:
                    return False
                insert_new = (sqlite_insert if self.is_sqlite else postgresql_insert)(table)
                statement = (
                    insert_new.values(game_id=game_id, **values)
                    .on_conflict_do_nothing(index_elements=["game_id"])
                    .returning(table.c.game_id)  # psycopg's rowcount here is -1
                )
                if db.execute(statement).first() is None:
                    return False  # another process inserted it a moment ago
            self._announce(db, REVIEW_CHANGE + game_id, 0)
        return True

    def review_progress(self, game_id: str, owner: str, done: int) -> bool:
        """Record that ``done`` positions are reviewed (and that ``owner`` is alive).

        Returns:
            Whether ``owner`` still holds the review (``False``: another process took it over).
        """
        return self._update_review(game_id, owner, done=done)

    def finish_review(self, game_id: str, owner: str, review: str, paths: str) -> bool:
        """Store the finished review (its JSON) and the click paths of its moves."""
        return self._update_review(
            game_id,
            owner,
            status="done",
            done=reviews_table.c.total,
            review=review,
            paths=paths,
            finished=now_stamp(),
        )

    def fail_review(self, game_id: str, owner: str, error: str, *, status: str = "failed") -> bool:
        """Mark the review ``failed`` (or ``interrupted``: its server stopped), with the reason."""
        return self._update_review(
            game_id, owner, status=status, error=error[:2000], finished=now_stamp()
        )

    def _update_review(self, game_id: str, owner: str, **values: Any) -> bool:
        table = reviews_table
        with self._write() as db:
            changed = db.execute(
                update(table)
                .where(
                    table.c.game_id == game_id,
                    table.c.owner == owner,
                    table.c.status == "running",
                )
                .values(heartbeat=time.time(), updated=now_stamp(), **values)
            ).rowcount
            if changed == 1:
                self._announce(db, REVIEW_CHANGE + game_id, 0)
        return changed == 1

    def load_review(self, game_id: str) -> ReviewRow | None:
        """The game's review (running, done or failed), or ``None``."""
        with self._read() as db:
            row = db.execute(
                select(reviews_table).where(reviews_table.c.game_id == game_id)
            ).first()
        if row is None:
            return None
        return ReviewRow(**{name: getattr(row, name) for name in ReviewRow.__dataclass_fields__})
