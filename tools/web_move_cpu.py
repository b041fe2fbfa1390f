"""The CPU time one web server process spends on a move (a benchmark, not a test).

Plays ``--rounds`` rounds of one game of each of the five games, up to ``--moves`` random legal
moves each, through a game service on a fresh SQLite file, as a server does for a watched game:
the move (its transaction included), the game's JSON and its board. Prints the process's CPU
time (`time.process_time`, the database threads included) per move, after a first round that is
not counted (it loads the rules' compiled code).

    .venv/bin/python tools/web_move_cpu.py --rounds 3 --moves 60
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from ludoteca.core.registry import make
from ludoteca.web.searches import SearchPool
from ludoteca.web.service import GameService
from ludoteca.web.storage import GameStore

GAMES = ("salta", "salt_n_pepper", "pente_grammai", "splinter", "steppin_stones")


async def _measure(database: Path, rounds: int, moves: int, board: bool) -> tuple[int, float]:
    service = GameService(GameStore(database), seed=1, pool=SearchPool())
    rng = random.Random(5)
    played, cpu = 0, 0.0
    try:
        for round_number in range(rounds + 1):
            counted = round_number > 0
            for game in GAMES:
                seats = ["human"] * len(make(game).player_names)
                made = await service.create(game, options={}, seats=seats)
                live = made.live
                for _ in range(moves):
                    seat = live.to_move
                    if live.is_over or seat is None:
                        break
                    text = rng.choice(live.state.legal_moves()).text
                    began = time.process_time()
                    live = await service.play(live.id, text, made.tokens[seat])
                    service.snapshot(live)
                    if board:
                        service.board_json(live)
                    if counted:
                        cpu += time.process_time() - began
                        played += 1
    finally:
        await service.close()
        service.store.close()
    return played, cpu


def main() -> None:
    """Measure and print the CPU time per move."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=60, help="moves a game at most")
    parser.add_argument("--no-board", action="store_true", help="the game's JSON alone")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        played, cpu = asyncio.run(
            _measure(
                Path(folder) / "g.sqlite3",
                arguments.rounds,
                arguments.moves,
                not arguments.no_board,
            )
        )
    print(f"{played} moves, {cpu / played * 1000:.3f} ms of CPU a move")


if __name__ == "__main__":
    main()
