"""Stepping through a saved game in the terminal."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from ludoteca.analysis.review_model import Review, ReviewedDecision
from ludoteca.cli.play import ReadLine
from ludoteca.cli.text import say
from ludoteca.core.notation import NumberedPly, numbered_plies
from ludoteca.core.records import GameRecord

REPLAY_HELP = "Enter: next ply · b: back · a number: go to that ply · q: quit"


def run_replay(
    record: GameRecord,
    *,
    console: Console,
    read_line: ReadLine,
    all_at_once: bool,
    review: Review | None = None,
) -> int:
    """Show ``record`` position by position; return the exit status (0).

    With a ``review`` of the game (``ludoteca review FILE --save``), each move shows its label
    and, where there was one, the better move.
    """
    game = record.game
    judged = {} if review is None else {d.ply: d for d in review.decisions}
    plies = numbered_plies(record.states, record.moves)
    players = ", ".join(
        f"{name} = {player}" for name, player in zip(game.player_names, record.players, strict=True)
    )
    say(console, f"{game.name} · {players}", style="bold")
    say(console, f"Options: {game.describe_options()}")
    outcome = record.outcome
    result = "unfinished" if outcome is None else outcome.reason
    moves = sum(1 for ply in plies if ply.number is not None)
    say(console, f"{len(record.moves)} plies, {moves} of them moves · result: {result}")
    if review is not None:
        say(console, f"Reviewed ({review.method}): each move shows its label.")
    if all_at_once:
        for ply in range(len(record.states)):
            _show(record, ply, console, judged, plies)
        return 0
    say(console, REPLAY_HELP)
    ply = 0
    _show(record, ply, console, judged, plies)
    last = len(record.states) - 1
    while True:
        try:
            line = read_line("replay> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            console.print()  # end the prompt's line
            return 0
        if line in ("q", "quit", "exit"):
            return 0
        if line in ("", "n", "next"):
            if ply == last:
                say(console, "That was the last move. b goes back, q quits.")
                continue
            ply += 1
        elif line in ("b", "back"):
            if ply == 0:
                say(console, "This is the start. Enter goes forward, q quits.")
                continue
            ply -= 1
        elif line.isdigit() and int(line) <= last:
            ply = int(line)
        else:
            say(console, f"Not understood: {line}. {REPLAY_HELP}; plies 0 to {last}.", style="red")
            continue
        _show(record, ply, console, judged, plies)


def ply_heading(ply: NumberedPly) -> str:
    """``"Ply 5 · 3. hand-W4 (5)"``: the ply (`ludoteca.core.notation`) and its move."""
    return f"Ply {ply.ply} · {ply.label}"


def _show(
    record: GameRecord,
    ply: int,
    console: Console,
    judged: dict[int, ReviewedDecision],
    plies: list[NumberedPly],
) -> None:
    heading = "Start" if ply == 0 else ply_heading(plies[ply - 1])
    decision = judged.get(ply - 1)
    if decision is not None:
        heading += f" · {decision.label}"
        if decision.label != "best" and decision.best_move != decision.move:
            heading += f" (better: {decision.best_move})"
        heading += f" · chance {decision.chance_before:.0%} → {decision.chance_after:.0%}"
    console.rule(escape(heading))
    console.print(escape(str(record.states[ply])))
