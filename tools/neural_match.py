"""A match between two agent specs, game by game into a file, resumable, with its Wilson interval.

Game ``i`` (from 0) gives the first spec seat ``i % 2`` (seats alternate), seeds both agents and
the chance outcomes with ``seed + i``, and appends one JSON line to ``--out``: the seats, the
winner, the plies and each side's CPU seconds and moves. A run that is stopped goes on from the
games already in the file. At the end (or with ``--summary``) it prints the first spec's score
(a win 1, a draw 1/2) with its 95 % Wilson interval, each side's mean CPU seconds per move, and
the wall and CPU time and load of the games.

    python tools/neural_match.py salt_n_pepper neural level:5 --games 400
        --out match.jsonl [--seed 0] [--summary]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import ludoteca
from ludoteca.ai import agent_from_spec
from ludoteca.analysis.ratings import wilson_interval
from ludoteca.core.outcome import CHANCE


def play(game_id: str, specs: tuple[str, str], index: int, seed: int) -> dict[str, Any]:
    """Game ``index``: the first spec in seat ``index % 2``."""
    game = ludoteca.make(game_id)
    first_seat = index % 2
    seat_specs = [specs[0], specs[1]] if first_seat == 0 else [specs[1], specs[0]]
    agents = [agent_from_spec(spec, game, seed=seed + index) for spec in seat_specs]
    rng = random.Random(seed + index)
    cpu = [0.0, 0.0]
    moves = [0, 0]
    state = game.initial_state()
    started = time.perf_counter()
    plies = 0
    while not state.is_over:
        if state.to_move == CHANCE:
            outcomes = state.chance_outcomes()
            move = rng.choices([m for m, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            seat = state.to_move
            assert seat is not None
            before = time.process_time()
            move = agents[seat].choose(state)
            cpu[seat] += time.process_time() - before
            moves[seat] += 1
        state = state.apply(move)
        plies += 1
    outcome = state.outcome
    assert outcome is not None
    mine = first_seat
    return {
        "game": index,
        "first_seat": first_seat,
        "winner": outcome.winner,
        "score": (outcome.returns[mine] + 1) / 2,
        "plies": plies,
        "first_cpu": round(cpu[mine], 3),
        "first_moves": moves[mine],
        "second_cpu": round(cpu[1 - mine], 3),
        "second_moves": moves[1 - mine],
        "wall": round(time.perf_counter() - started, 2),
        "load": round(os.getloadavg()[0], 2),
    }


def summary(lines: list[dict[str, Any]], specs: tuple[str, str]) -> dict[str, Any]:
    """The first spec's score, its Wilson interval, and the costs."""
    games = len(lines)
    score = sum(line["score"] for line in lines)
    low, high = wilson_interval(score, games)
    first_moves = sum(line["first_moves"] for line in lines)
    second_moves = sum(line["second_moves"] for line in lines)
    cpu = sum(line["first_cpu"] + line["second_cpu"] for line in lines)
    return {
        "first": specs[0],
        "second": specs[1],
        "games": games,
        "wins": sum(1 for line in lines if line["score"] == 1.0),
        "draws": sum(1 for line in lines if line["score"] == 0.5),
        "losses": sum(1 for line in lines if line["score"] == 0.0),
        "score": round(score / games, 4) if games else None,
        "wilson_95": [round(low, 4), round(high, 4)],
        "first_cpu_per_move": round(sum(x["first_cpu"] for x in lines) / max(first_moves, 1), 4),
        "second_cpu_per_move": round(sum(x["second_cpu"] for x in lines) / max(second_moves, 1), 4),
        "mean_plies": round(sum(line["plies"] for line in lines) / max(games, 1), 1),
        "cpu_seconds": round(cpu, 1),
        "wall_seconds": round(sum(line["wall"] for line in lines), 1),
        "mean_load": round(sum(line["load"] for line in lines) / max(games, 1), 2),
    }


def main() -> None:
    """Play the games missing from ``--out``, then print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--summary", action="store_true", help="print the summary only")
    args = parser.parse_args()
    specs = (args.first, args.second)
    lines: list[dict[str, Any]] = []
    if args.out.exists():
        for text in args.out.read_text().splitlines():
            try:
                lines.append(json.loads(text))
            except json.JSONDecodeError:
                continue  # a line cut short by a stop: that game is played again
    done = {line["game"] for line in lines}
    if args.out.exists() and not args.out.read_bytes().endswith(b"\n"):
        with args.out.open("a") as handle:  # end a line cut short, so the next one stands alone
            handle.write("\n")
    if not args.summary:
        for index in range(args.games):
            if index in done:
                continue
            line = play(args.game, specs, index, args.seed)
            with args.out.open("a") as handle:
                handle.write(json.dumps(line) + "\n")
            lines.append(line)
            print(json.dumps(line), flush=True)
    print(json.dumps(summary(lines, specs)))


if __name__ == "__main__":
    main()
