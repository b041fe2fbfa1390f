"""Golden playthroughs: seeded random Pente Grammai games written out ply by ply.

A playthrough file starts with a header line naming the options, the seed and the number of
plies, then one line per ply: the ply number, the move (die rolls included) and the position
text after it. The files change only when the rules or the notation change; after such a change
(and a bump of the game's ``version``), write them again with::

    .venv/bin/python -m tests.games.pente_grammai.playthrough
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import ludoteca
from ludoteca.core.chance import sample_outcome

DATA = Path(__file__).parent / "data"
GOLDEN = {
    "playthrough_default.txt": ({}, 7, 160),
    "playthrough_storage_capture.txt": ({"sacred": "storage", "capture": True}, 3, 400),
}


def header(options: dict[str, object], seed: int, plies: int) -> str:
    return (
        f"# pente_grammai options={json.dumps(options, sort_keys=True)} seed={seed} plies={plies}"
    )


def playthrough(options: dict[str, object], seed: int, plies: int) -> list[str]:
    """The header and one line per ply of a seeded random game (at most ``plies`` plies)."""
    rng = random.Random(seed)
    state = ludoteca.make("pente_grammai", **options).initial_state()
    lines = [header(options, seed, plies), f"0 start {state.to_text()}"]
    for ply in range(1, plies + 1):
        if state.is_over:
            break
        moves = state.legal_moves()
        move = sample_outcome(state, rng) if moves[0].is_chance else rng.choice(moves)
        state = state.apply(move)
        lines.append(f"{ply} {move} {state.to_text()}")
    outcome = state.outcome
    lines.append(f"# result: {'running' if outcome is None else outcome.reason}")
    return lines


def main() -> None:
    DATA.mkdir(exist_ok=True)
    for name, (options, seed, plies) in GOLDEN.items():
        (DATA / name).write_text("\n".join(playthrough(options, seed, plies)) + "\n")


if __name__ == "__main__":
    main()
