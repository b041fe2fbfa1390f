"""How much memory a game cached by a web server process costs (a benchmark, not a test).

Plays ``--games`` games of ``--moves`` moves each into a fresh SQLite file, then loads them into
the cache of a fresh game service the way a server does when it serves them (each game read,
its state serialised and its board drawn once, as for a watcher), measuring what the loading
allocated with `tracemalloc`. Prints the bytes per cached game.

    .venv/bin/python tools/web_cache_memory.py --games 200 --moves 20 --game salta
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import tempfile
import tracemalloc
from pathlib import Path

from ludoteca.web.searches import SearchPool
from ludoteca.web.service import GameService
from ludoteca.web.storage import GameStore


async def _play(database: Path, game: str, games: int, moves: int) -> list[str]:
    service = GameService(GameStore(database), seed=1, pool=SearchPool())
    rng = random.Random(1)
    ids = []
    try:
        for _ in range(games):
            made = await service.create(game, options={}, seats=["human"] * _players(game))
            live = made.live
            for _ in range(moves):
                if live.is_over or not live.human_to_move:
                    break
                seat = live.to_move
                assert seat is not None
                move = rng.choice(live.state.legal_moves())
                live = await service.play(live.id, move.text, made.tokens[seat])
            ids.append(live.id)
    finally:
        await service.close()
        service.store.close()
    return ids


def _players(game: str) -> int:
    from ludoteca.core.registry import make

    return make(game).num_players


async def _measure(database: Path, ids: list[str], *, boards: bool) -> tuple[int, int]:
    service = GameService(GameStore(database), seed=1, pool=SearchPool(), cache_size=len(ids))
    try:
        await service.get(ids[0])  # warm up imports and statements outside the measure
        gc.collect()
        tracemalloc.start()
        before, _ = tracemalloc.get_traced_memory()
        for game_id in ids:
            live = await service.get(game_id)
            service.snapshot(live)
            if boards:
                service.board_json(live)
        gc.collect()
        after, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return after - before, len(service.core)
    finally:
        await service.close()
        service.store.close()


def main() -> None:
    """Play the games, load them into a fresh cache and print the bytes per cached game."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--game", default="salta")
    parser.add_argument("--no-boards", action="store_true", help="do not draw the boards")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "games.sqlite3"
        ids = asyncio.run(_play(database, args.game, args.games, args.moves))
        used, cached = asyncio.run(_measure(database, ids, boards=not args.no_boards))
    print(
        f"{args.game}: {cached} games of up to {args.moves} moves cached, "
        f"{used / cached / 1024:.1f} KiB per game (tracemalloc, boards "
        f"{'not ' if args.no_boards else ''}drawn)"
    )


if __name__ == "__main__":
    main()
