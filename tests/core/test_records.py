from __future__ import annotations

import json
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
    assert data["format"] == "ludoteca-game" and data["format_version"] == 1
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
