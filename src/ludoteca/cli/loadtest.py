"""``ludoteca loadtest``: the command's arguments and its printed report.

The load test itself (the client, the watchers, the figures, the replay check) is
`ludoteca.loadtest`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ludoteca.loadtest import LoadTest, report_fields, settings_from
from ludoteca.loadtest.settings import (
    DEFAULT_TIMEOUT,
    MAX_GAMES,
    MAX_SECONDS,
    MAX_WATCHERS,
)


def add_loadtest_parser(commands: Any) -> None:
    """Add the ``loadtest`` command to the ``ludoteca`` subcommands."""
    parser = commands.add_parser(
        "loadtest",
        help="play many games at once against a running server and measure it",
        description=(
            "Play random legal moves in many concurrent games against running Ludoteca servers "
            "(several URLs: several processes on one database), with WebSocket watchers; print "
            "moves/s, move latency, errors and watcher lag, then check that every game replays "
            "from the server's saved record. Exit status 0 when there were no errors and every "
            "game replays, 1 otherwise."
        ),
    )
    parser.add_argument(
        "urls", nargs="+", metavar="URL", help="server address, e.g. http://127.0.0.1:8000"
    )
    parser.add_argument(
        "--games",
        type=int,
        default=10,
        help=f"concurrent games (default 10, at most {MAX_GAMES:,})",
    )
    parser.add_argument(
        "--watchers",
        type=int,
        default=5,
        help=f"WebSocket watchers (default 5, at most {MAX_WATCHERS:,})",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=10.0,
        help=f"how long to play (default 10, at most {MAX_SECONDS:,})",
    )
    parser.add_argument(
        "--game",
        action="append",
        default=[],
        metavar="GAME",
        help="play only this game (repeatable; default: every game in turn)",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        metavar="MOVES_PER_S",
        help="ask for this many moves per second in all, each game moving every GAMES/RATE "
        "seconds like a player who thinks (default 0: each game moves as soon as it is "
        "answered, which measures capacity)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the random moves")
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help=f"seconds to wait for one answer (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a server that is not on this machine (use only against your own servers)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object, no table")
    parser.set_defaults(handler=loadtest_command)


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


def _triple(values: dict[str, float | None]) -> str:
    return " / ".join("–" if v is None else f"{v:,.1f}" for v in values.values())


def print_report(console: Console, fields: dict[str, Any]) -> None:
    """The report as a table, with hints below it."""
    table = Table(title="Ludoteca load test")
    table.add_column("measure")
    table.add_column("value", justify="right")
    interrupted = " (stopped by Ctrl+C)" if fields["interrupted"] else ""
    by_kind = ", ".join(f"{k}: {n}" for k, n in fields["errors_by_kind"].items())
    load = fields["load_average"]
    rows = [
        ("servers", "\n".join(fields["urls"])),
        ("duration", f"{fields['seconds']:.1f} s of {fields['seconds_requested']:g}{interrupted}"),
        ("games / watchers asked", f"{fields['games']:,} / {fields['watchers']:,}"),
        (
            "moves/s asked (--rate)",
            "as fast as answered" if fields["rate"] is None else f"{fields['rate']:,g}",
        ),
        ("moves acknowledged", f"{fields['moves']:,}"),
        ("moves/s", f"{fields['moves_per_s']:,.1f}"),
        ("move latency p50 / p95 / p99 / max (ms)", _triple(fields["latency_ms"])),
        ("games created / finished", f"{fields['games_created']:,} / {fields['games_finished']:,}"),
        ("errors", f"{fields['errors']:,}" + (f" ({by_kind})" if by_kind else "")),
        ("409 conflicts (resynced)", f"{fields['conflicts']:,}"),
        ("429 rate limited", f"{fields['rate_limited']:,}"),
        ("failovers", f"{fields['failovers']:,}"),
        ("stale reads (asked again)", f"{fields['stale_reads']:,}"),
        ("requests cancelled at the stop", f"{fields['requests_cancelled_at_stop']:,}"),
        ("watchers connected", f"{fields['watchers_connected']:,} of {fields['watchers']:,}"),
        (
            "watchers that saw the last move",
            f"{fields['watchers_saw_last_move']:,} of {fields['watchers']:,}",
        ),
        ("watcher lag p50 / p95 / max (ms)", _triple(fields["watcher_lag_ms"])),
        (
            "games replayed from the saved records",
            f"{fields['games_replayed']:,} of {fields['games_created']:,}"
            + (f" ({fields['replay_failures']:,} failed)" if fields["replay_failures"] else ""),
        ),
        (
            "client CPU",
            f"{fields['client_cpu_s']:.2f} s"
            + (
                f" ({fields['client_cpu_ms_per_move']:.2f} ms per move)"
                if fields["client_cpu_ms_per_move"] is not None
                else ""
            ),
        ),
        ("load average 1 / 5 / 15 min", "–" if load is None else " / ".join(map(str, load))),
    ]
    for name, value in rows:
        table.add_row(name, escape(value))
    console.print(table)
    for example in fields["error_examples"]:
        console.print(f"error: {escape(example)}")
    for failure in fields["replay_failure_examples"]:
        console.print(f"replay failure: {escape(failure)}")
    console.print(
        "The load client ran on this machine too: its CPU time and the load average are beside "
        "the wall time above."
    )


def loadtest_command(arguments: argparse.Namespace, console: Console, read_line: object) -> int:
    """Run ``ludoteca loadtest``; return 0 with no errors and every game replayed, else 1."""
    settings = settings_from(arguments)
    progress = None if arguments.json else Console(stderr=True, highlight=False, soft_wrap=True)
    if progress is not None:
        progress.print(
            f"Playing {_count(settings.games, 'game')} with "
            f"{_count(settings.watchers, 'watcher')} for "
            f"{settings.seconds:g} s against {', '.join(t.url for t in settings.targets)} "
            f"(seed {settings.seed}). Ctrl+C stops early."
        )
    # asyncio's events bind to the loop on first use, and httpx's client on its first request,
    # so both can be made before the loop starts.
    test = LoadTest(settings, progress)
    asyncio.run(test.run())
    fields = report_fields(test)
    if arguments.json:
        console.print_json(json.dumps(fields))
    else:
        print_report(console, fields)
    if fields["rate_limited_creation"]:
        Console(stderr=True, highlight=False, soft_wrap=True).print(
            f"The server limited game creation ({fields['rate_limited_creation']:,} answers 429). "
            "For a load test, start it with its limits raised: ludoteca serve --game-rate 0"
        )
    if test.abandoned:
        return 130
    return 0 if fields["errors"] == 0 and fields["replay_failures"] == 0 else 1
