"""``ludoteca bench``: the speed of the rules kernels and of the search, with CPU time and load.

docs/bench.md explains every figure and the JSON that ``--json`` prints.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from ludoteca.analysis.bench import (
    SEARCH_SECONDS,
    SETTINGS,
    BenchResult,
    ColdResult,
    EnvRate,
    GpuBenchResult,
    Row,
    Usage,
    VectorBenchResult,
    bench_cold,
    bench_game,
    bench_gpu,
    bench_vector,
    default_rows,
    describe_setting,
    gpu_missing,
    load_average,
    machine_info,
)
from ludoteca.core.errors import LudotecaError
from ludoteca.core.options import parse_option_assignments
from ludoteca.core.registry import game_class, game_ids, make

MAX_BENCH_SECONDS = 86_400


def add_bench_parser(
    commands: Any, option_argument: Callable[[argparse.ArgumentParser], None]
) -> None:
    """Add the ``bench`` command to the ``ludoteca`` subcommands."""
    bench = commands.add_parser(
        "bench",
        help="measure the speed of the rules engines and of the search",
        description="Measure, single-threaded, random playouts (plies, decisions and turns per "
        "second) and MCTS iterations per second over fixed positions in two settings (the "
        "levels' and plain UCT with 200-ply rollouts), with CPU time and the load average. "
        "--cold measures instead the compile time with an empty cache. See docs/bench.md.",
    )
    bench.add_argument("games", nargs="*", metavar="GAME", help="game ids (default: every game)")
    bench.add_argument(
        "--game",
        action="append",
        default=[],
        dest="more_games",
        metavar="GAME",
        help="a game id (repeatable; the same as naming it after bench)",
    )
    bench.add_argument(
        "--seconds",
        type=float,
        default=3.0,
        help="seconds of random playouts per row (default 3)",
    )
    bench.add_argument(
        "--search-seconds",
        type=float,
        default=SEARCH_SECONDS,
        metavar="S",
        help="seconds of each MCTS search, one per position and setting "
        f"(default {SEARCH_SECONDS:g})",
    )
    bench.add_argument("--no-mcts", action="store_true", help="measure random playouts only")
    bench.add_argument("--seed", type=int, default=0, help="seed of the playouts and positions")
    bench.add_argument(
        "--cold",
        action="store_true",
        help="measure the compile time with an empty numba cache, per game, in fresh processes",
    )
    bench.add_argument(
        "--vector",
        type=int,
        default=None,
        metavar="N",
        help="measure instead env steps/s of ludoteca.rl.VectorEnv at N games, beside the "
        "PettingZoo environment's, per game",
    )
    bench.add_argument(
        "--gpu",
        type=int,
        default=None,
        metavar="N",
        help="measure instead env steps/s at N games of ludoteca.rl.gpu.GpuEnv on a CUDA GPU, "
        "beside VectorEnv on one core, with and without the random actions' draws (without a "
        "GPU: the CPU figures, and why no GPU was measured)",
    )
    bench.add_argument("--json", action="store_true", help="print JSON instead of tables")
    option_argument(bench)
    bench.set_defaults(handler=bench_command)


def bench_command(arguments: argparse.Namespace, console: Console, read_line: object) -> int:
    """Run the benchmark the arguments ask for and print it."""
    ids = _game_ids([*arguments.games, *arguments.more_games])
    if arguments.cold:
        if arguments.option:
            raise LudotecaError("--cold measures compiling, which no option changes; drop --option")
        for given, value in (("--vector", arguments.vector), ("--gpu", arguments.gpu)):
            if value is not None:
                raise LudotecaError(f"--cold and {given} measure different things; use one")
        return _cold(ids, arguments.json, console)
    _check_seconds("--seconds", arguments.seconds)
    if arguments.vector is not None and arguments.gpu is not None:
        raise LudotecaError("--vector and --gpu measure different things; use one")
    if arguments.vector is not None:
        return _vector(ids, arguments, console)
    if arguments.gpu is not None:
        return _gpu(ids, arguments, console)
    _check_seconds("--search-seconds", arguments.search_seconds)
    search_seconds = 0.0 if arguments.no_mcts else arguments.search_seconds
    rows = _rows(ids, arguments.option)
    start_load, wall, cpu = load_average(), time.perf_counter(), time.process_time()
    results = []
    for row in rows:
        game = make(row.game, **row.options)
        if not arguments.json:
            console.print(f"Measuring {game.name} ({row.label}) …")
        results.append(
            bench_game(
                game,
                seconds=arguments.seconds,
                seed=arguments.seed,
                search_seconds=search_seconds,
                row=row.label,
                measures=row.measures,
            )
        )
    usage = Usage(time.perf_counter() - wall, time.process_time() - cpu, start_load, load_average())
    machine = machine_info()
    if arguments.json:
        payload = {
            "machine": machine,
            **usage.to_dict(),
            "results": [result.to_dict() for result in results],
        }
        console.print_json(json.dumps(payload))
        return 0
    _print_playouts(console, results)
    if any(result.mcts for result in results):
        _print_mcts(console, results)
    console.print(
        f"The whole run: {usage.wall_seconds:.1f} s wall, {usage.cpu_seconds:.1f} s CPU; load "
        f"average {_load(usage.load_start)} at the start, {_load(usage.load_end)} at the end."
    )
    _print_machine(console, machine)
    return 0


def _seconds_ok(seconds: float) -> bool:
    return 0 < seconds < MAX_BENCH_SECONDS  # also refuses nan and inf


def _check_seconds(name: str, seconds: float) -> None:
    if not _seconds_ok(seconds):
        raise LudotecaError(
            f"{name} must be a number of seconds above 0 and below {MAX_BENCH_SECONDS:,}; "
            f"got {seconds}"
        )


def _game_ids(named: list[str]) -> list[str] | None:
    """The games named (each checked, duplicates dropped), or ``None`` for every game."""
    if not named:
        return None
    ids = [game_class(game_id).id for game_id in named]  # an unknown id: the accepted ones
    return list(dict.fromkeys(ids))


def _rows(ids: list[str] | None, option_texts: list[str]) -> list[Row]:
    if not option_texts:
        return default_rows(ids)
    if ids is None or len(ids) != 1:
        raise LudotecaError("--option needs a game id (exactly one): options differ between games")
    options = parse_option_assignments(option_texts)
    make(ids[0], **options)  # a bad option fails here, before anything is measured
    label = " ".join(option_texts)
    return [Row(ids[0], options, label, f"uniformly random games from the start, {label}")]


# -- tables --------------------------------------------------------------------------------------


def _label(result: BenchResult) -> str:
    return result.game if result.row == "defaults" else f"{result.game} ({result.row})"


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f}"


def _load(load: tuple[float, float, float]) -> str:
    return f"{load[0]:.2f}"


def _cost(wall: float, cpu: float, start: tuple[float, ...], end: tuple[float, ...]) -> str:
    return f"{cpu:.1f}/{wall:.1f} s · {start[0]:.2f}→{end[0]:.2f}"


def _print_playouts(console: Console, results: list[BenchResult]) -> None:
    table = Table(title="Random playouts, single-threaded")
    columns = (
        "game",
        "plies/s",
        "decisions/s",
        "turns/s",
        "turns/game",
        "moves/decision",
        "CPU/wall · load",
    )
    for column in columns:
        table.add_column(column, justify="left" if column == "game" else "right", no_wrap=True)
    for r in results:
        table.add_row(
            _label(r),
            _rate(r.plies_per_second),
            _rate(r.decisions_per_second),
            _rate(r.turns_per_second),
            f"{r.mean_turns:,.1f}",
            f"{r.mean_legal_moves:,.2f}",
            _cost(r.seconds, r.cpu_seconds, r.load_start, r.load_end),
        )
    console.print(table)
    console.print(
        "Plies count every move applied, die rolls and other chance outcomes included; "
        "decisions leave chance outcomes out; a turn is one player's whole turn, rolls included "
        "(the unit to compare engines in). CPU/wall: this process's CPU time over wall time; load: "
        "the 1-minute load average at the start → end."
    )
    for r in results:
        if r.row != "defaults":
            console.print(f"{_label(r)}: {r.measures}.")


def _print_mcts(console: Console, results: list[BenchResult]) -> None:
    table = Table(title="MCTS iterations/s over fixed decision positions, single-threaded")
    table.add_column("game", no_wrap=True)
    for setting in SETTINGS:
        table.add_column(f"{setting} it/s", justify="right", no_wrap=True)
        table.add_column(f"{setting} CPU/wall · load", justify="right", no_wrap=True)
    for r in results:
        cells = [_label(r)]
        for setting in SETTINGS:
            m = r.mcts[setting]
            u = m.usage
            cells += [
                _rate(m.iterations_per_second),
                _cost(u.wall_seconds, u.cpu_seconds, u.load_start, u.load_end),
            ]
        table.add_row(*cells)
    console.print(table)
    first = results[0]
    positions = len(first.mcts["levels"].positions)
    console.print(
        f"Each setting searches {positions} positions with at least two legal moves, reached by "
        "seeded random play, spending its whole budget (no early stop); only iterations over "
        "the time inside the searches count."
    )
    for setting in SETTINGS:
        text = describe_setting(make(first.game), setting)
        if setting == "levels":
            text += " (the rollout length is each game's own)"
        console.print(f"{setting}: {text}.")


def _print_cold(console: Console, results: list[ColdResult]) -> None:
    table = Table(title="Cold start: compiling with an empty numba cache, in a fresh process")
    for column in (
        "game",
        "compile s",
        "compile CPU s",
        "cached load s",
        "load CPU s",
        "import s",
        "load avg",
    ):
        table.add_column(column, justify="left" if column == "game" else "right", no_wrap=True)
    for r in results:
        table.add_row(
            r.game,
            f"{r.compile_seconds:.1f}",
            f"{r.compile_cpu_seconds:.1f}",
            f"{r.load_seconds:.1f}",
            f"{r.load_cpu_seconds:.1f}",
            f"{r.import_seconds:.1f}",
            f"{_load(r.load_start)}→{_load(r.load_end)}",
        )
    console.print(table)
    console.print(
        "Each game is warmed up (its rules kernels and the searches of the computer players) "
        "in a new process with a new cache directory, then again in a second process that loads "
        'what the first one cached; "all" warms up every game in one process, as the first '
        "`ludoteca serve` or `ludoteca warmup` after an install does."
    )


def _cold(ids: list[str] | None, as_json: bool, console: Console) -> int:
    chosen: list[str | None] = list(ids) if ids is not None else [*game_ids(), None]
    results = []
    for game_id in chosen:
        if not as_json:
            console.print(f"Compiling {game_id or 'every game'} with an empty cache …")
        results.append(bench_cold(game_id))
    machine = machine_info()
    if as_json:
        payload = {"machine": machine, "cold": [result.to_dict() for result in results]}
        console.print_json(json.dumps(payload))
        return 0
    _print_cold(console, results)
    _print_machine(console, machine)
    return 0


def _batch_rows(
    ids: list[str] | None, arguments: argparse.Namespace, flag: str, num_envs: int
) -> list[Row]:
    """The games a batch measurement runs (each with its options), the batch size checked."""
    from ludoteca.rl.vector import MAX_ENVS  # here: other commands never load ludoteca.rl

    if not 1 <= num_envs <= MAX_ENVS:
        raise LudotecaError(
            f"{flag} takes a number of games from 1 to {MAX_ENVS:,}; got {num_envs}"
        )
    if arguments.option:
        return _rows(ids, arguments.option)
    return [Row(game_id, {}, "defaults", "") for game_id in (ids or game_ids())]


def _vector(ids: list[str] | None, arguments: argparse.Namespace, console: Console) -> int:
    rows = _batch_rows(ids, arguments, "--vector", arguments.vector)
    return _batch(rows, arguments, console, "vector", bench_vector, _print_vector)


def _gpu(ids: list[str] | None, arguments: argparse.Namespace, console: Console) -> int:
    rows = _batch_rows(ids, arguments, "--gpu", arguments.gpu)
    note = gpu_missing()
    if note and not arguments.json:
        console.print(f"No GPU measured: {note}. The CPU figures follow.")
    return _batch(rows, arguments, console, "gpu", bench_gpu, _print_gpu)


def _batch(
    rows: list[Row],
    arguments: argparse.Namespace,
    console: Console,
    kind: str,
    measure: Callable[..., Any],
    show: Callable[[Console, list[Any]], None],
) -> int:
    """Measure a batch of games for each row (``--vector`` or ``--gpu``: ``kind``), then show it.

    ``measure`` is `bench_vector` or `bench_gpu`, ``show`` the printer of its results; ``kind``
    names the option that gave the batch size and the results' key in the JSON.
    """
    num_envs = getattr(arguments, kind)
    results = []
    for row in rows:
        game = make(row.game, **row.options)
        if not arguments.json:
            console.print(f"Measuring {game.name} ({num_envs:,} games at once) …")
        results.append(measure(game, num_envs, seconds=arguments.seconds, seed=arguments.seed))
    machine = machine_info()
    if arguments.json:
        payload = {"machine": machine, kind: [result.to_dict() for result in results]}
        console.print_json(json.dumps(payload))
        return 0
    show(console, results)
    _print_machine(console, machine)
    return 0


def _env_rate(rate: EnvRate | None) -> str:
    return _rate(None if rate is None else rate.steps_per_second)


def _usage(rate: EnvRate) -> str:
    usage = rate.usage
    return _cost(usage.wall_seconds, usage.cpu_seconds, usage.load_start, usage.load_end)


def _print_batch_table(
    console: Console, title: str, columns: tuple[str, ...], rows: list[list[str]], about: str
) -> None:
    """A table of batch figures (the game first, figures right-aligned) and what they mean."""
    table = Table(title=title)
    for column in ("game", *columns):
        table.add_column(column, justify="left" if column == "game" else "right", no_wrap=True)
    for cells in rows:
        table.add_row(*cells)
    console.print(table)
    console.print(about)


def _print_vector(console: Console, results: list[VectorBenchResult]) -> None:
    envs = results[0].num_envs
    _print_batch_table(
        console,
        f"Env steps/s: VectorEnv at {envs:,} games against PettingZoo, one core",
        ("VectorEnv steps/s", "CPU/wall · load", "PettingZoo", "CPU/wall · load", "ratio"),
        [
            [r.game, _env_rate(r.vector), _usage(r.vector)]
            + (
                ["—", "—", "—"]
                if r.pettingzoo is None
                else [
                    _env_rate(r.pettingzoo),
                    _usage(r.pettingzoo),
                    f"{r.speedup:,.0f}×" if r.speedup is not None else "—",
                ]
            )
            for r in results
        ],
        "An env step is one player's decision; chance outcomes are played inside the "
        "environments. Timed: VectorEnv.step (observations, masks, chance and restarts "
        "included) and the PettingZoo env's reset, last and step; drawing the random legal "
        "actions is not. Ratio: VectorEnv's steps/s over PettingZoo's (wall time); --json adds the "
        "rates per CPU second.",
    )
    for r in results:
        console.print(f"{r.game}: {r.options}.")
        if r.pettingzoo is None:
            console.print(f"{r.game}: PettingZoo not measured: {r.pettingzoo_note}")


def _print_gpu(console: Console, results: list[GpuBenchResult]) -> None:
    first = results[0]
    gpu = f"GpuEnv on {first.device}" if first.device else "no GPU"
    _print_batch_table(
        console,
        f"Env steps/s at {first.num_envs:,} games: VectorEnv on one core, {gpu}",
        ("CPU with draws", "CPU step", "CPU/wall · load", "GPU with draws", "GPU step", "GPU/CPU"),
        [
            [
                r.game,
                _env_rate(r.cpu_with_draws),
                _env_rate(r.cpu_step),
                _usage(r.cpu_with_draws),
                _env_rate(r.gpu_with_draws),
                _env_rate(r.gpu_step),
                "—" if r.speedup is None else f"{r.speedup:,.1f}×",
            ]
            for r in results
        ],
        "An env step is one player's decision (observation, mask, chance and restarts included). "
        "With draws: the random legal actions are drawn in the timed loop (on the CPU by "
        "VectorEnv, on the device by GpuEnv); step: the step alone. A GPU figure waits for the "
        "device at the end of each timed stretch. --json adds the rates per CPU second.",
    )
    if first.gpu_note:
        console.print(f"No GPU figures: {first.gpu_note}.")
    for r in results:
        console.print(f"{r.game}: {r.options}.")


def _print_machine(console: Console, machine: dict[str, str]) -> None:
    console.print(
        f"{machine['cpu']} ({machine['cores']} cores) · Python {machine['python']} · "
        f"numpy {machine['numpy']} · numba {machine['numba']} · ludoteca {machine['ludoteca']}"
    )
