"""A game from outside Ludoteca ships its own course: declared in its GameInfo, nothing else."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient

import ludoteca
from ludoteca.core.lessons import LessonError, course
from ludoteca.core.registry import unregister
from ludoteca.web.app import ServerSettings, create_app
from tests.support import run_combined

EXAMPLE = Path(__file__).resolve().parents[1] / "example_game"

RULES = """# Nim with lessons

## Moves

Take one to three counters from the pile.

## The end

Whoever takes the last counter wins.

## History

An old game.
"""

COURSE = """title = "Learn Nim"
[untaught]
History = "background"

[[step]]
id = "take"
rule = "Moves"
title = "Take one to three"
text = "A move takes one, two or three counters."
after = []
[step.task]
kind = "any"
solutions = [["t1"], ["t2"], ["t3"]]
wrong = [{ move = "t4", says = "too many" }]
hint = "Take at most three."

[[step]]
id = "last"
rule = "The end"
title = "Take the last counter"
text = "Three are left: take them all and win."
position = "3 0 12"
[step.task]
kind = "move"
solutions = [["t3"]]
wrong = [{ move = "t4", says = "too many" }]
hint = "Take all three: t3."
"""


@pytest.fixture
def nim_with_lessons(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Any]:
    """The example game Nim, declaring a rules page and a course file of its own."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    import ludoteca_nim

    lessons = tmp_path / "lessons.toml"
    lessons.write_text(COURSE, encoding="utf-8")

    class NimWithLessons(ludoteca_nim.NimGame):
        id: ClassVar[str] = "nim_lessons"
        name: ClassVar[str] = "Nim with lessons"
        info: ClassVar[ludoteca.GameInfo] = dataclasses.replace(
            ludoteca_nim.NimGame.info, rules=RULES, lessons=lessons
        )

    ludoteca.register(NimWithLessons)
    try:
        yield NimWithLessons
    finally:
        unregister("nim_lessons")


def test_a_plug_in_course_is_checked_and_taught_everywhere(
    nim_with_lessons: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert [step.id for step in course("nim_lessons").steps] == ["take", "last"]
    status, out = run_combined(capsys, ["learn", "nim_lessons"], "t4", "t2", "t3")
    assert status == 0
    assert "t4 takes too many" in out and "Hint: Take at most three." in out
    assert "Course complete: 2 of 2 steps done." in out
    app = create_app(tmp_path / "games.sqlite3", settings=ServerSettings(warm_up=False))
    with TestClient(app) as client:
        body = client.get("/api/lessons/nim_lessons").json()
        assert body["game"] == "nim_lessons" and body["steps"][1]["position"] == "3 0 12"
        answer = client.post("/api/lessons/nim_lessons/last", json={"moves": ["t3"]}).json()
        assert answer["verdict"] == "done"


def test_a_plug_in_course_that_disagrees_with_its_rules_is_refused(nim_with_lessons: Any) -> None:
    path = nim_with_lessons.info.lessons
    path.write_text(COURSE.replace('rule = "The end"', 'rule = "Endgame"'), encoding="utf-8")
    from ludoteca.core import lessons

    lessons._cached_course.cache_clear()
    with pytest.raises(LessonError) as error:
        course("nim_lessons")
    assert "rule 'Endgame' is not a section of the rules page" in str(error.value)
    assert "no step teaches the section 'The end'" in str(error.value)
    lessons._cached_course.cache_clear()
