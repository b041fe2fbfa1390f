"""Time to a working site: start ``make run`` and time the lobby and a first Salta game.

Starts ``make run`` (``ludoteca serve``, its output a pipe, not a terminal) on a free port with a
fresh data directory, then marks, in seconds from the start, with the CPU time of the whole
process tree (the server, its preparation and search processes, those already ended included)
and the load average:

- ``lobby``: the lobby page first answers,
- ``salta_created``: a Salta game against level 3 is created (asked once at once, which is
  refused with 503 while Salta is being prepared, then once the lobby says Salta is ready:
  it is asked every 0.2 s, as the lobby page does every 2.5 s),
- ``first_move``: that game accepts the person's first move,
- ``computer_reply``: level 3's reply is on the board,
- ``all_ready``: the server printed that every game is ready.

Then stops the server with Ctrl+C (SIGINT to its process group, as a terminal does) and checks
that it stopped cleanly. Prints one JSON object. A cold start: point ``LUDOTECA_NUMBA_CACHE`` at an
empty directory (``--cache DIR`` does it); a warm start: run it again with the same directory.

    python tools/time_to_site.py [--cache /tmp/numba-cold] [--port 8765]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

TICKS = os.sysconf("SC_CLK_TCK")
GUARD_SECONDS = 1800.0


def tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and every live descendant, with their ended, waited-for children."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        times[pid] = sum(int(value) for value in fields[11:15]) / TICKS  # utime..cstime
    total = 0.0
    for pid in times:
        ancestor = pid
        while ancestor not in (root, 0, 1) and ancestor in parents:
            ancestor = parents[ancestor]
        if ancestor == root:
            total += times[pid]
    return total


def free_port() -> int:
    """A port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def request(url: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """GET ``url`` (POST ``body`` as JSON if given): the status and the JSON (or text) answer."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, data=data, headers=headers), timeout=30
        ) as answer:
            text = answer.read().decode()
            status = answer.status
    except urllib.error.HTTPError as error:
        text, status = error.read().decode(), error.code
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def main() -> None:
    """Start the server, time it, stop it, print the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", help="LUDOTECA_NUMBA_CACHE for the server (default: as set)")
    parser.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    arguments = parser.parse_args()
    port = arguments.port or free_port()
    env = {**os.environ, "XDG_DATA_HOME": tempfile.mkdtemp(prefix="ludoteca-site-")}
    if arguments.cache:
        env["LUDOTECA_NUMBA_CACHE"] = arguments.cache
    base = f"http://127.0.0.1:{port}"
    started = time.monotonic()
    server = subprocess.Popen(
        ["make", "--no-print-directory", "run", f"SERVE_ARGS=--port {port}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    marks: dict[str, dict[str, Any]] = {}
    printed: list[str] = []

    def mark(name: str) -> None:
        marks[name] = {
            "seconds": round(time.monotonic() - started, 2),
            "cpu_seconds": round(tree_cpu(server.pid), 2),
            "load": [round(value, 2) for value in os.getloadavg()],
        }

    def read_output() -> None:
        assert server.stdout is not None
        for line in server.stdout:
            printed.append(f"{time.monotonic() - started:7.1f}  {line.rstrip()}")
            if "Games ready in" in line:
                mark("all_ready")

    reader = threading.Thread(target=read_output, daemon=True)
    reader.start()
    load_at_start = [round(value, 2) for value in os.getloadavg()]
    try:
        guard = started + GUARD_SECONDS
        while True:
            assert server.poll() is None, "the server stopped"
            assert time.monotonic() < guard, "no answer"
            try:
                if request(f"{base}/")[0] == 200:
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.1)
        mark("lobby")
        seats = {"game": "salta", "seats": ["human", "level:3"]}
        refused = request(f"{base}/api/games", seats)
        while "salta" in request(f"{base}/api/lobby")[1]["preparing"]:  # as the lobby page does
            assert time.monotonic() < guard, "Salta never became ready"
            time.sleep(0.2)
        answer = request(f"{base}/api/games", seats)
        assert answer[0] == 201, answer
        mark("salta_created")
        game = answer[1]
        token = game["seats"][0]["token"]
        moved = request(f"{base}/api/games/{game['id']}/moves", {"move": "c3-d4", "token": token})
        assert moved[0] == 200, moved
        mark("first_move")
        while request(f"{base}/api/games/{game['id']}")[1]["ply"] < 2:
            assert time.monotonic() < guard, "the computer did not move"
            time.sleep(0.05)
        mark("computer_reply")
        while "all_ready" not in marks:
            assert time.monotonic() < guard and server.poll() is None, "games never all ready"
            time.sleep(0.2)
    finally:
        os.killpg(server.pid, signal.SIGINT)
        server.wait(timeout=60)
        reader.join(timeout=10)
        assert server.stderr is not None
        err = server.stderr.read()
    print(
        json.dumps(
            {
                "cache": env.get("LUDOTECA_NUMBA_CACHE"),
                "cpus": os.cpu_count(),
                "load_at_start": load_at_start,
                "marks": marks,
                "first_creation": refused,
                "stopped_cleanly": any("has stopped" in line for line in printed)
                and "Traceback" not in err,
                "total_cpu_seconds": round(
                    sum(getattr(os.times(), f) for f in ("children_user", "children_system")), 2
                ),
                "output": printed,
            },
            indent=1,
        )
    )
    if "Traceback" in err:
        print(err, file=sys.stderr)


if __name__ == "__main__":
    main()
