"""SQLite storage: where the file lives, the move-number check, refusing foreign files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ludoteca.web.storage import (
    GameStore,
    MoveConflictError,
    SeatRow,
    StorageError,
    default_db_path,
)


def test_the_default_file_is_in_the_user_data_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/data")
    assert default_db_path() == Path("/data/ludoteca/games.sqlite3")
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_db_path() == Path.home() / ".local/share/ludoteca/games.sqlite3"


def test_moves_are_numbered_and_a_second_move_n_is_refused(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "sub" / "games.sqlite3")
    seats = [SeatRow(0, "human", None, "t0"), SeatRow(1, "computer", "random", None)]
    store.create_game("g1", game="salta", options={"goal": "seed"}, start=None, seats=seats)
    store.append_move("g1", 1, "c3-d4")
    with pytest.raises(MoveConflictError, match="moved on"):
        store.append_move("g1", 1, "a3-b4")
    store.append_move("g1", 2, "h8-g7")
    store.truncate_moves("g1", 1)
    store.set_resigned("g1", 0)
    store.close()
    row = GameStore(tmp_path / "sub" / "games.sqlite3").load("g1")
    assert row is not None
    assert row.moves == ("c3-d4",) and row.resigned == 0 and row.seats == tuple(seats)
    assert row.options == {"goal": "seed"}


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
