"""Open challenges in the games database (taken up by `GamesRepository.create_game`)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import (
    insert,
    select,
    update,
)

from ludoteca.web.database import Database
from ludoteca.web.rows import (
    LOBBY_CHANGE,
    ChallengeRow,
    ChallengeTakenError,
    now_stamp,
)
from ludoteca.web.schema import (
    challenges_table,
)


class ChallengesRepository(Database):
    """The lobby's open challenges."""

    # -- open challenges -------------------------------------------------------------------

    def post_challenge(self, challenge: ChallengeRow) -> None:
        """Store a new open challenge."""
        values = {
            name: getattr(challenge, name)
            for name in ChallengeRow.__dataclass_fields__
            if name != "options"
        }
        with self._write() as db:
            db.execute(
                insert(challenges_table).values(options=json.dumps(challenge.options), **values)
            )
            self._announce(db, LOBBY_CHANGE + challenge.id, 0)

    def challenge(self, challenge_id: str) -> ChallengeRow | None:
        """The challenge with this id, or ``None``."""
        with self._read() as db:
            row = db.execute(
                select(challenges_table).where(challenges_table.c.id == challenge_id)
            ).first()
        return None if row is None else _challenge_row(row)

    def open_challenges(self, limit: int = 50) -> list[ChallengeRow]:
        """The open challenges, newest first."""
        with self._read() as db:
            rows = db.execute(
                select(challenges_table)
                .where(challenges_table.c.status == "open")
                .order_by(challenges_table.c.created.desc(), challenges_table.c.id)
                .limit(limit)
            ).all()
        return [_challenge_row(row) for row in rows]

    def withdraw_challenge(self, challenge_id: str) -> None:
        """Withdraw an open challenge.

        Raises:
            ChallengeTakenError: It is no longer open.
        """
        with self._write() as db:
            changed = db.execute(
                update(challenges_table)
                .where(challenges_table.c.id == challenge_id, challenges_table.c.status == "open")
                .values(status="withdrawn", updated=now_stamp())
            ).rowcount
            if changed == 1:
                self._announce(db, LOBBY_CHANGE + challenge_id, 0)
        if changed != 1:
            raise ChallengeTakenError("this challenge is no longer open")


def _challenge_row(row: Any) -> ChallengeRow:
    values = {name: getattr(row, name) for name in ChallengeRow.__dataclass_fields__}
    values["options"] = json.loads(row.options)
    values["hints"] = bool(row.hints)
    values["rated"] = bool(row.rated)
    return ChallengeRow(**values)
