"""The replay check at the end of a load test: every game's saved record, through the rules.

Each game the run created is downloaded as a saved game (``GET /api/games/{id}/record``) and
read with `ludoteca.core.records.loads`, which validates it and replays every move; the moves the
client last had acknowledged must be the record's first moves.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import httpx

from ludoteca.core import records
from ludoteca.core.errors import LudotecaError
from ludoteca.loadtest.settings import Target
from ludoteca.loadtest.tracks import Track, short

REPLAY_CONCURRENCY = 8
"""Records downloaded and replayed at once."""


async def check_records(
    tracks: Sequence[Track],
    targets: Sequence[Target],
    client: httpx.AsyncClient,
    report: dict[str, Any],
) -> None:
    """Download every game's saved record, replay it, compare with the acknowledged moves.

    The counts go into ``report``: ``games_replayed``, ``replay_checked`` and the
    ``replay_failures`` (texts).
    """
    failures: list[str] = []
    report.update(games_replayed=0, replay_failures=failures, replay_checked=0)
    gate = asyncio.Semaphore(REPLAY_CONCURRENCY)

    async def check(track: Track) -> None:
        async with gate:
            problem = await check_record(track, targets, client)
        report["replay_checked"] += 1
        if problem is None:
            report["games_replayed"] += 1
        else:
            failures.append(f"game {track.id}: {problem}")

    await asyncio.gather(*(check(track) for track in tracks))


async def check_record(
    track: Track, targets: Sequence[Target], client: httpx.AsyncClient
) -> str | None:
    """What is wrong with ``track``'s saved record (``None``: it replays and holds its moves)."""
    text = None
    problem = "no server answered"
    for step in range(len(targets)):
        target = targets[(track.target + step) % len(targets)]
        try:
            response = await client.get(target.api(f"/api/games/{track.id}/record"))
        except httpx.TransportError as error:
            problem = f"GET /record: {type(error).__name__} {error}"
            continue
        if response.status_code != 200:
            return f"GET /record answered {response.status_code}: {short(response.text)}"
        text = response.text
        break
    if text is None:
        return problem
    try:
        record = records.loads(text)
    except LudotecaError as error:
        return f"the saved game does not replay: {error}"
    mine = track.acked_texts()
    if record.game.id != track.state["game"]:
        return f"the saved game is of {record.game.id}, not {track.state['game']}"
    if list(record.moves[: len(mine)]) != mine:
        return (
            f"the saved game's {len(record.moves)} moves do not start with the "
            f"{len(mine)} acknowledged"
        )
    return None
