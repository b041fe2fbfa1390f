"""``ludoteca loadtest``: concurrent games and live watchers against running Ludoteca servers.

Each of ``--games`` slots creates a game between people (``POST /api/games``), plays random
legal moves in it (``POST /api/games/{id}/moves``, continuing from each reply) and starts a new
game when it ends. ``--watchers`` WebSocket connections follow the slots' games
(``/ws/games/{id}``), spread evenly over the slots. After ``--seconds`` (or Ctrl+C) the load
stops, in-flight requests get a short grace, and every game the run created is downloaded as a
saved game and replayed through the rules (`ludoteca.core.records.loads`).

Several URLs are several server processes on one database: slots are spread round-robin over
them, each game's watchers connect through another URL than its moves, and a slot whose URL stops
answering fails over to another one, resynchronising from the server (the authority on every
game). The client is kept cheap on CPU, because it usually shares the machine with the server:
no per-move work beyond one JSON decode and a random choice, and the saved games are parsed only
at the end.

The modules: `ludoteca.loadtest.settings` (the bounds and the check of the arguments),
`ludoteca.loadtest.driver` (the run and its players), `ludoteca.loadtest.watchers` (the
WebSocket watchers), `ludoteca.loadtest.replay` (the replay check), `ludoteca.loadtest.report`
(the figures) and `ludoteca.loadtest.tracks` (what the run keeps). It talks to the servers over
HTTP and WebSocket only: nothing here imports the web server.
"""

from ludoteca.loadtest.driver import LoadTest
from ludoteca.loadtest.report import percentile, report_fields
from ludoteca.loadtest.settings import (
    LoadTestError,
    Settings,
    Target,
    is_loopback,
    parse_target,
    settings_from,
)

__all__ = [
    "LoadTest",
    "LoadTestError",
    "Settings",
    "Target",
    "is_loopback",
    "parse_target",
    "percentile",
    "report_fields",
    "settings_from",
]
