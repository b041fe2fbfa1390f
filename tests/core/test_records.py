from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import ludoteca
from ludoteca import records


def _finished_game() -> records.GameRecord:
    game = ludoteca.make("salta", move_limit=3, scoring="simplified")
    state = game.initial_state()
    moves = []
    while not state.is_over:
        move = state.legal_moves()[0]
        moves.append(move)
        state = state.apply(move)
    return records.create(game, moves, players=["alice", "random"])


def test_a_record_round_trips_through_a_file(tmp_path: Path) -> None:
    record = _finished_game()
    path = tmp_path / "game.json"
    records.save(record, path)
    loaded = records.load(path)
    assert loaded.to_dict() == record.to_dict()
    assert loaded.final_state == record.final_state
    assert loaded.outcome is not None and loaded.outcome == record.outcome


def test_a_record_holds_every_field_design_md_names() -> None:
    data = _finished_game().to_dict()
    assert data["format"] == "ludoteca-game" and data["format_version"] == 2
    assert data["game"] == "salta" and data["game_version"] == ludoteca.make("salta").version
    assert data["options"]["move_limit"] == 3 and data["options"]["goal"] == "seed"
    assert data["start"] is None
    assert len(data["moves"]) == 6 and data["players"] == ["alice", "random"]
    assert data["result"]["reason"].startswith("120-move rule, simplified scoring")
    assert data["created"] and data["updated"]


def test_a_non_default_start_is_recorded() -> None:
    game = ludoteca.make("salta")
    start = game.initial_state().apply("c3-d4")
    record = records.create(game, ["h8-g7"], start=start)
    data = record.to_dict()
    assert data["start"] == start.to_text()
    assert records.loads(record.to_json()).final_state == start.apply("h8-g7")


def _tampered(change: dict[str, object]) -> str:
    data = _finished_game().to_dict()
    data.update(change)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "chess-pgn"}, "expected 'ludoteca-game'"),
        ({"format_version": 99}, "format_version 99 is not supported"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game_version": 0}, "rules version 0"),
        ({"options": {"goal": "moon"}}, "does not accept 'moon'"),
        ({"options": {"move_limit": 3}}, "does not record the options"),
        ({"moves": ["c3-d4", "c3-d4"]}, r"move 2 \('c3-d4'\) cannot be replayed"),
        ({"moves": ["c3-d4", 7]}, "moves must be a list of strings"),
        ({"players": ["solo"]}, "players lists 1 names; Salta has 2"),
        ({"result": None}, "does not match the moves"),
        ({"start": "nonsense"}, "start position is invalid"),
        ({"created": "yesterday"}, "ISO 8601"),
    ],
)
def test_a_tampered_record_is_refused_with_the_reason(
    change: dict[str, object], message: str
) -> None:
    text = _tampered(change)
    if "options" in change and change["options"] == {"move_limit": 3}:
        text = _tampered({"options": {"move_limit": 3, "goal": "seed"}})
    with pytest.raises(ludoteca.InvalidRecordError, match=message):
        records.loads(text)


def test_a_json_file_that_is_not_a_saved_game_says_so() -> None:
    with pytest.raises(ludoteca.InvalidRecordError, match='not a saved Ludoteca game.*"format"'):
        records.loads(json.dumps({"moves": ["c3-d4"]}))


def test_a_result_that_the_moves_do_not_give_is_refused() -> None:
    data = _finished_game().to_dict()
    data["result"]["winner"] = 1 - data["result"]["winner"]
    with pytest.raises(ludoteca.InvalidRecordError, match="does not match"):
        records.loads(json.dumps(data))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "is JSON, and this is not"),
        ("[1, 2]", "a JSON object"),
        ('{"format": "ludoteca-game"}', "missing format_version"),
    ],
)
def test_a_broken_file_is_refused(text: str, message: str) -> None:
    with pytest.raises(ludoteca.InvalidRecordError, match=message):
        records.loads(text)


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(ludoteca.InvalidRecordError, match="unknown cheat"):
        records.loads(_tampered({"cheat": True}))


def test_a_missing_file_is_reported(tmp_path: Path) -> None:
    with pytest.raises(ludoteca.InvalidRecordError, match="cannot read saved game"):
        records.load(tmp_path / "nope.json")


def test_saving_over_a_file_replaces_it_whole(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("old")
    records.save(_finished_game(), path)
    assert records.load(path).moves
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


# -- issue 14: what create accepts, load accepts; format version 2 --------------------------


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["x"], "players lists 1 names; Salta has 2"),
        (["level:9", 42, None], "players must be a list of texts"),
        (["human", ""], "players must be a list of texts"),
    ],
)
def test_create_refuses_players_that_load_would_refuse(players: list[object], message: str) -> None:
    game = ludoteca.make("salta")
    with pytest.raises(ludoteca.InvalidRecordError, match=message):
        records.create(game, ["c3-d4"], players=players)  # type: ignore[arg-type]


def test_create_refuses_a_start_of_another_game_and_a_bad_date() -> None:
    salta = ludoteca.make("salta")
    other = ludoteca.make("splinter").initial_state()
    with pytest.raises(ludoteca.InvalidRecordError, match="start must be a position of"):
        records.create(salta, [], start=other)
    with pytest.raises(ludoteca.InvalidRecordError, match="ISO 8601"):
        records.create(salta, [], created="yesterday")


def test_every_created_record_loads_back() -> None:
    game = ludoteca.make("salta")
    record = records.create(game, ["c3-d4"], players=["human", "level:2"])
    assert records.loads(record.to_json()).to_dict() == record.to_dict()


def test_a_resignation_is_recorded_and_read_back() -> None:
    game = ludoteca.make("salta")
    record = records.create(game, ["c3-d4"], players=["human", "level:2"], resigned=1)
    data = record.to_dict()
    assert data["ending"] == {"resigned": 1}
    assert data["result"] == {"winner": 0, "returns": [1.0, -1.0], "reason": "Red resigned"}
    loaded = records.loads(record.to_json())
    assert loaded.resigned == 1 and loaded.outcome == record.outcome
    assert loaded.final_state.outcome is None  # the rules had not ended it


@pytest.mark.parametrize(
    ("agreed", "winner", "reason"),
    [("draw", None, "draw agreed by the players"), (0, 0, "Green won by agreement")],
)
def test_an_agreed_result_is_recorded_and_read_back(
    agreed: records.Agreed, winner: int | None, reason: str
) -> None:
    record = records.create(ludoteca.make("salta"), ["c3-d4"], agreed=agreed)
    loaded = records.loads(record.to_json())
    assert loaded.outcome is not None
    assert (loaded.outcome.winner, loaded.outcome.reason) == (winner, reason)
    assert loaded.to_dict()["ending"] == {"agreed": agreed}


@pytest.mark.parametrize(
    ("ending", "message"),
    [
        ({"resigned": 2}, "resigned names a player: 0 to 1"),
        ({"agreed": "maybe"}, "ending must be"),
        ({"resigned": 0, "agreed": 1}, "ending must be"),
        ("resigned", "ending must be"),
    ],
)
def test_a_bad_ending_is_refused(ending: object, message: str) -> None:
    data = records.create(ludoteca.make("salta"), ["c3-d4"]).to_dict()
    data["ending"] = ending
    with pytest.raises(ludoteca.InvalidRecordError, match=message):
        records.from_dict(data)


def test_a_game_the_rules_ended_cannot_also_be_resigned() -> None:
    finished = _finished_game()
    with pytest.raises(ludoteca.InvalidRecordError, match="already ended"):
        records.create(finished.game, finished.moves, resigned=0)


def test_version_1_records_still_load() -> None:
    data = _finished_game().to_dict()
    del data["ending"]
    data["format_version"] = 1
    loaded = records.from_dict(data)
    assert loaded.outcome == _finished_game().outcome
    assert loaded.to_dict()["format_version"] == 2
    data["ending"] = None  # a field that version 1 did not have
    with pytest.raises(ludoteca.InvalidRecordError, match="unknown ending"):
        records.from_dict(data)


def test_saved_files_honour_the_umask(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    old = os.umask(0o022)
    try:
        records.save(_finished_game(), path)
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize("where", ["missing-dir/x.json", "."])
def test_a_failed_save_names_the_given_path_not_a_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ludoteca.SaveError) as caught:
        records.save(_finished_game(), where)
    assert f"cannot save to {where!r}" in str(caught.value)
    assert ".tmp" not in str(caught.value)
    assert isinstance(caught.value, OSError)  # callers that caught OSError still do
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    records.save(_finished_game(), path)
    before = path.read_text()

    def no_space(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    with pytest.raises(ludoteca.SaveError, match="No space left on device"):
        records.save(records.create(ludoteca.make("salta"), ["c3-d4"]), path)
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_is_saved_game_tells_records_from_other_files(tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    records.save(_finished_game(), saved)
    other = tmp_path / "pyproject.toml"
    other.write_text("[project]\n")
    assert records.is_saved_game(saved)
    assert not records.is_saved_game(other)
    assert not records.is_saved_game(tmp_path / "missing.json")


def test_a_steppin_stones_resignation_is_a_move_saved_and_replayed() -> None:
    """Steppin' Stones gives up with its own move ``resign``: saved and loaded, the game is over,
    lost, for that reason, and the same result without the move is refused."""
    game = ludoteca.make("steppin_stones")
    record = records.create(game, ["S* M0 C4 A2", "S2:b6-c5", "resign"], players=["alice"])
    loaded = records.loads(record.to_json())
    assert loaded.moves[-1] == "resign"
    assert loaded.outcome is not None and loaded.outcome == record.outcome
    assert loaded.outcome.returns == (-1.0,) and loaded.outcome.reason == "the player resigned"
    assert loaded.final_state.is_over and loaded.final_state.to_text().endswith(" resigned")
    data = json.loads(record.to_json())
    data["moves"] = data["moves"][:-1]
    with pytest.raises(ludoteca.InvalidRecordError):
        records.loads(json.dumps(data))
