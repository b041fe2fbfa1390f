"""The games database: where the file lives, conditional writes, upgrades, refusals.

The store tests run on SQLite and on PostgreSQL (the latter skipped where no server runs,
except under CI=true).
"""

from __future__ import annotations

import ast
import random
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory

from ludoteca.core.registry import make
from ludoteca.web import migrations
from ludoteca.web.backfill import RESULTS_PENDING
from ludoteca.web.migrations import alembic_config
from ludoteca.web.storage import (
    GameStore,
    SeatRow,
    StorageError,
    StorageUnavailableError,
    VersionConflictError,
    database_url,
    default_db_path,
)

#: The newest schema revision: an older database is upgraded to it.
HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()
SEATS = [SeatRow(0, "human", None, "t0"), SeatRow(1, "computer", "random", None)]

#: Exactly what the first server wrote: its tables, marked with SQLite's user_version only.
FIRST_SCHEMA = """
CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,
    start TEXT, resigned INTEGER, created TEXT NOT NULL, updated TEXT NOT NULL);
CREATE TABLE seats (game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL, kind TEXT NOT NULL, agent TEXT, token TEXT,
    PRIMARY KEY (game_id, seat));
CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    number INTEGER NOT NULL, text TEXT NOT NULL, played TEXT NOT NULL,
    PRIMARY KEY (game_id, number));
PRAGMA user_version = 1;
"""


@pytest.fixture
def opened() -> Iterator[Callable[..., GameStore]]:
    """Open stores (each like another server process) and close them all after the test."""
    stores: list[GameStore] = []

    def open_store(location: str | Path, **options: float) -> GameStore:
        store = GameStore(location, **options)
        stores.append(store)
        return store

    yield open_store
    for store in stores:
        store.close()


def test_the_default_file_is_in_the_user_data_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/data")
    assert default_db_path() == Path("/data/ludoteca/games.sqlite3")
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_db_path() == Path.home() / ".local/share/ludoteca/games.sqlite3"


def test_db_locations_are_paths_or_postgresql_urls() -> None:
    assert database_url("/tmp/g.sqlite3") == "sqlite+pysqlite:////tmp/g.sqlite3"
    assert database_url("postgresql://u@h/d") == "postgresql+psycopg://u@h/d"
    assert database_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    with pytest.raises(StorageError, match="SQLite file .* or in PostgreSQL"):
        database_url("mysql://u:secret@h/d")


def test_writes_are_conditional_on_the_version(
    database: str, opened: Callable[..., GameStore]
) -> None:
    store = opened(database)
    store.create_game("g1", game="salta", options={"goal": "seed"}, start=None, seats=SEATS)
    assert store.append_moves("g1", based_on=0, first=1, texts=["c3-d4"]).version == 1
    with pytest.raises(VersionConflictError, match="version 1, not 0"):
        store.append_moves("g1", based_on=0, first=1, texts=["a3-b4"])
    store.append_moves("g1", based_on=1, first=2, texts=["h8-g7"])
    # A stale writer (based on version 1) can neither undo nor resign the newer game.
    with pytest.raises(VersionConflictError):
        store.truncate_moves("g1", 0, based_on=1)
    with pytest.raises(VersionConflictError):
        store.set_resigned("g1", 0, based_on=1, result="Green resigned")
    assert store.truncate_moves("g1", 1, based_on=2).version == 3
    assert store.set_resigned("g1", 0, based_on=3, result="Green resigned").version == 4
    store.close()
    row = opened(database).load("g1")
    assert row is not None
    assert row.moves == ("c3-d4",) and row.resigned == 0 and row.seats == tuple(SEATS)
    assert row.options == {"goal": "seed"} and row.version == 4
    summaries, total = opened(database).list_games()
    assert total == 1 and summaries[0].move_count == 1 and summaries[0].result == "Green resigned"


def test_of_two_concurrent_writers_on_one_version_exactly_one_wins(
    database: str, opened: Callable[..., GameStore]
) -> None:
    stores = [opened(database), opened(database)]  # two processes' connections
    stores[0].create_game("g", game="salta", options={}, start=None, seats=SEATS)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def write(store: GameStore, text: str) -> None:
        barrier.wait()
        try:
            store.append_moves("g", based_on=0, first=1, texts=[text])
            outcomes.append("stored")
        except VersionConflictError:
            outcomes.append("refused")

    threads = [
        threading.Thread(target=write, args=(s, t))
        for s, t in zip(stores, ["c3-d4", "a3-b4"], strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused", "stored"]
    row = stores[1].load("g")
    assert row is not None and len(row.moves) == 1 and row.version == 1


def test_every_change_is_announced_in_its_transaction(
    tmp_path: Path, opened: Callable[..., GameStore]
) -> None:
    store = opened(tmp_path / "g.sqlite3")
    store.create_game("g", game="salta", options={}, start=None, seats=SEATS)
    before = store.latest_event()
    store.append_moves("g", based_on=0, first=1, texts=["c3-d4"])
    with pytest.raises(VersionConflictError):
        store.append_moves("g", based_on=0, first=1, texts=["a3-b4"])
    assert [(game, version) for _, game, version in store.events_after(before)] == [("g", 1)]


def test_a_database_of_the_first_schema_is_upgraded_in_place(
    tmp_path: Path, opened: Callable[..., GameStore]
) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:  # exactly what the first server wrote
        db.executescript(
            FIRST_SCHEMA
            + """
            INSERT INTO games VALUES ('old', 'salta', '{}', NULL, 1, '2026-01-01T00:00:00+00:00',
                '2026-01-01T00:00:00+00:00');
            INSERT INTO seats VALUES ('old', 0, 'human', NULL, 'tok0');
            INSERT INTO seats VALUES ('old', 1, 'invite', NULL, 'tok1');
            INSERT INTO moves VALUES ('old', 1, 'c3-d4', '2026-01-01T00:00:00+00:00');
            """
        )
    store = opened(path)
    row = store.load("old")
    assert row is not None and row.moves == ("c3-d4",) and row.version == 2
    summaries, _ = store.list_games()
    assert summaries[0].result == "Red resigned" and summaries[0].move_count == 1
    assert store.append_moves("old", based_on=2, first=2, texts=["h8-g7"]).version == 3
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchone() == (HEAD,)


def test_old_games_get_their_results_from_todays_rules_once(
    tmp_path: Path, opened: Callable[..., GameStore]
) -> None:
    game = make("splinter")
    rng = random.Random(1)
    state, texts = game.initial_state(), []
    while not state.is_over:  # a random game to its end (46 plies with this seed)
        texts.append(rng.choice(state.legal_moves()).text)
        state = state.apply(texts[-1])
    assert state.outcome is not None
    stamp = "2026-01-01T00:00:00+00:00"
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(FIRST_SCHEMA)
        for game_id, moves, resigned in (
            ("ended", texts, None),
            ("running", texts[:5], None),
            ("resigned", texts[:3], 1),
            ("unknown", [], None),
        ):
            name = "no_such_game" if game_id == "unknown" else "splinter"
            db.execute(
                "INSERT INTO games VALUES (?, ?, '{}', NULL, ?, ?, ?)",
                (game_id, name, resigned, stamp, stamp),
            )
            db.executemany(
                "INSERT INTO moves VALUES (?, ?, ?, ?)",
                [(game_id, number, text, stamp) for number, text in enumerate(moves, start=1)],
            )
    store = opened(path)
    summaries, _ = store.list_games()
    results = {s.id: (s.result, s.move_count) for s in summaries}
    assert results["ended"] == (state.outcome.reason, len(texts))
    assert results["running"] == (None, 5)
    assert results["resigned"] == (f"{game.player_names[1]} resigned", 3)
    assert results["unknown"] == (None, 0)  # logged, left without a result
    assert store.version("resigned") == 4  # three moves and the resignation
    with sqlite3.connect(path) as db:  # the migration's note is taken: it runs once
        assert (
            db.execute("SELECT name FROM settings WHERE name = ?", (RESULTS_PENDING,)).fetchall()
            == []
        )
    store.close()
    with sqlite3.connect(path) as db:  # a result lost later is not filled again at the next open
        db.execute("UPDATE games SET result = NULL WHERE id = 'ended'")
    summaries, _ = opened(path).list_games()
    assert {s.id: s.result for s in summaries}["ended"] is None


def test_a_new_database_has_nothing_to_fill(
    tmp_path: Path, opened: Callable[..., GameStore]
) -> None:
    path = tmp_path / "new.sqlite3"
    opened(path)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT name FROM settings").fetchall() == []


def test_the_results_migration_runs_no_rules() -> None:
    """Revision 0002 does the same thing whatever the rules become: it imports none of Ludoteca."""
    (script,) = Path(migrations.__file__).parent.glob("versions/0002_*.py")
    tree = ast.parse(script.read_text(encoding="utf-8"))
    imported = [
        name
        for node in ast.walk(tree)
        for name in (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else []
        )
    ]
    assert imported and not [name for name in imported if name.split(".")[0] == "ludoteca"]


def test_a_full_database_refuses_with_a_clear_message_and_keeps_the_game(
    tmp_path: Path, opened: Callable[..., GameStore]
) -> None:
    path = tmp_path / "g.sqlite3"
    store = opened(path)
    store.create_game("g", game="salta", options={}, start=None, seats=SEATS)
    with sqlite3.connect(path) as db:  # SQLite's own "database or disk is full"
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")
    # max_page_count holds per connection: make every connection of the store see it.
    store.close()
    store = opened(path)
    from sqlalchemy import event

    @event.listens_for(store.engine, "connect")
    def _limit(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

    store.engine.dispose()
    with pytest.raises(StorageUnavailableError, match="full.*nothing was changed"):
        store.append_moves("g", based_on=0, first=1, texts=["c3-d4" + " " * 20_000])
    row = store.load("g")
    assert row is not None and row.moves == () and row.version == 0


def test_a_locked_database_is_busy_not_an_error(
    tmp_path: Path, opened: Callable[..., GameStore]
) -> None:
    path = tmp_path / "g.sqlite3"
    store = opened(path, busy_seconds=0.2)
    store.create_game("g", game="salta", options={}, start=None, seats=SEATS)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
    try:
        with pytest.raises(StorageUnavailableError, match="busy.*try again"):
            store.append_moves("g", based_on=0, first=1, texts=["c3-d4"])
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert store.append_moves("g", based_on=0, first=1, texts=["c3-d4"]).version == 1


def test_opening_waits_for_another_process_that_is_opening_the_database(
    tmp_path: Path, opened: Callable[..., GameStore]
) -> None:
    """Two servers started together on a new file: the second waits for the first's upgrade
    (which holds the write lock), however much longer than a move's busy time that takes."""
    path = tmp_path / "g.sqlite3"
    upgrading = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    upgrading.execute("PRAGMA journal_mode = WAL")
    upgrading.execute("BEGIN IMMEDIATE")  # the other server, upgrading
    outcome: list[object] = []
    second = threading.Thread(target=lambda: outcome.append(_open_or_error(path, opened)))
    second.start()
    try:
        second.join(timeout=1.0)  # five times the busy time: it has waited past it by now
    finally:
        upgrading.execute("COMMIT")
        upgrading.close()
    second.join()
    assert len(outcome) == 1 and isinstance(outcome[0], GameStore), outcome
    outcome[0].create_game("g", game="salta", options={}, start=None, seats=SEATS)


def _open_or_error(path: Path, opened: Callable[..., GameStore]) -> object:
    try:
        return opened(path, busy_seconds=0.2)
    except StorageError as error:
        return error


def test_a_read_only_database_refuses_changes_clearly(
    tmp_path: Path, opened: Callable[..., GameStore]
) -> None:
    path = tmp_path / "g.sqlite3"
    store = opened(path)
    store.create_game("g", game="salta", options={}, start=None, seats=SEATS)
    from sqlalchemy import event

    @event.listens_for(store.engine, "connect")
    def _read_only(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        dbapi_connection.execute("PRAGMA query_only = ON")  # SQLite refuses every write

    store.engine.dispose()
    with pytest.raises(StorageUnavailableError, match="read-only.*nothing was changed"):
        store.append_moves("g", based_on=0, first=1, texts=["c3-d4"])
    row = store.load("g")
    assert row is not None and row.version == 0


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello, this is not SQLite" * 100)
    with pytest.raises(StorageError, match="not a usable SQLite database"):
        GameStore(path)


def test_a_database_of_something_else_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE invoices (id INTEGER)")
    with pytest.raises(StorageError, match="something else"):
        GameStore(path)


def test_a_folder_that_cannot_be_created_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(StorageError, match="cannot open"):
        GameStore(tmp_path / "file" / "games.sqlite3")


def test_an_unreachable_postgresql_is_one_clear_error() -> None:
    with pytest.raises(StorageError, match="cannot reach the games database"):
        GameStore("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2")


def test_the_session_secret_is_made_once_and_shared(
    database: str, opened: Callable[..., GameStore]
) -> None:
    first, second = opened(database), opened(database)
    assert first.secret("session") == second.secret("session")
    assert len(first.secret("session")) >= 40
