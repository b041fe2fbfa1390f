"""Stepping through a saved game in the terminal."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from ludoteca.analysis.review_model import Review, ReviewedDecision
from ludoteca.cli.play import ReadLine
from ludoteca.core.records import GameRecord

REPLAY_HELP = "Enter: next move · b: back · a number: go to that ply · q: quit"


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
    players = ", ".join(
        f"{name} = {player}" for name, player in zip(game.player_names, record.players, strict=True)
    )
    console.print(f"[bold]{escape(game.name)}[/bold] · {escape(players)}")
    console.print(f"Options: {escape(game.describe_options())}")
    outcome = record.outcome
    result = "unfinished" if outcome is None else outcome.reason
    console.print(f"{len(record.moves)} moves · result: {escape(result)}")
    if review is not None:
        console.print(f"Reviewed ({review.method}): each move shows its label.")
    if all_at_once:
        for ply in range(len(record.states)):
            _show(record, ply, console, judged)
        return 0
    console.print(REPLAY_HELP)
    ply = 0
    _show(record, ply, console, judged)
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
                console.print("That was the last move. b goes back, q quits.")
                continue
            ply += 1
        elif line in ("b", "back"):
            if ply == 0:
                console.print("This is the start. Enter goes forward, q quits.")
                continue
            ply -= 1
        elif line.isdigit() and int(line) <= last:
            ply = int(line)
        else:
            console.print(
                f"[red]Not understood: {escape(line)!s}. {REPLAY_HELP}; plies 0 to {last}.[/red]"
            )
            continue
        _show(record, ply, console, judged)


def _show(
    record: GameRecord, ply: int, console: Console, judged: dict[int, ReviewedDecision]
) -> None:
    heading = "Start" if ply == 0 else f"Ply {ply}: {record.moves[ply - 1]}"
    decision = judged.get(ply - 1)
    if decision is not None:
        heading += f" · {decision.label}"
        if decision.label != "best" and decision.best_move != decision.move:
            heading += f" (better: {decision.best_move})"
        heading += f" · chance {decision.chance_before:.0%} → {decision.chance_after:.0%}"
    console.rule(escape(heading))
    console.print(escape(str(record.states[ply])))
