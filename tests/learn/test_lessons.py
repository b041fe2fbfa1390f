"""The courses of lessons: checked against the engine and against the rules pages, both ways."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludoteca.core import make
from ludoteca.core.info import GameInfo, declaration_problems
from ludoteca.core.lessons import (
    Lesson,
    LessonError,
    NoCourseError,
    course,
    has_course,
    load_course,
    rule_sections,
)
from ludoteca.core.registry import built_in_game_ids
from ludoteca.core.rules_pages import rules_text

GAMES = built_in_game_ids()

# The only kinds of section a course may leave untaught: about the program, the history, formats
# for programs, engine limits, other versions, and the explanations of our readings (whose
# choices are practised in the steps of the sections they belong to).
NOT_RULES = {
    "How to play it in Ludoteca",
    "History and credit",
    "Engine safeguards (not rules of the game)",
    "Engine safeguard (not a rule of the game)",
    "Position text",
    "Readings that are ours",
    "Consequences worth knowing",
    "How Ludii differs",
    "How other versions differ",
    "What is not implemented",
    "The game is solved",
    "Playing statistics",
}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_a_course_that_matches_its_rules_page_both_ways(game_id: str) -> None:
    lessons = course(game_id)
    sections = rule_sections(rules_text(game_id))
    taught = {step.rule for step in lessons.steps}
    # No step points at a missing section ...
    assert taught <= set(sections), taught - set(sections)
    # ... and no section is left untaught, except the ones that hold no rule.
    untaught = set(sections) - taught
    assert untaught == set(lessons.untaught)
    assert untaught <= NOT_RULES, untaught - NOT_RULES
    assert len(lessons.steps) >= 8


@pytest.mark.parametrize("game_id", GAMES)
def test_every_option_that_changes_play_is_taught(game_id: str) -> None:
    game = make(game_id)
    lessons = course(game_id)
    changed = {
        name
        for step in lessons.steps
        for name, value in step.options.items()
        if value != game.options[name]
    }
    for spec in game.option_specs:
        if spec.description.startswith("Engine safeguard"):
            continue
        assert spec.name in changed, f"no step of {game_id} plays with option {spec.name}"


@pytest.mark.parametrize("game_id", GAMES)
def test_each_step_solves_with_its_solutions_and_refuses_its_wrong_moves(game_id: str) -> None:
    for step in course(game_id).steps:
        for solution in step.task.solutions:
            lesson = Lesson.of(game_id, step)
            verdicts = [lesson.answer(move).verdict for move in solution]
            assert verdicts == ["right"] * (len(solution) - 1) + ["done"], (step.id, solution)
        for wrong in step.task.wrong:
            answer = Lesson.of(game_id, step).answer(wrong.move)
            assert answer.verdict == "refused"
            assert wrong.reason in answer.message and step.task.hint in answer.message
        assert step.task.kind == "watch" or step.task.wrong


def test_a_legal_move_that_is_not_asked_for_is_told_apart_from_a_refused_one() -> None:
    step = next(s for s in course("salta").steps if s.id == "no-block")
    lesson = Lesson.of("salta", step)
    refused = lesson.answer("g5-f6")
    assert refused.verdict == "refused"
    assert "no-block rule" in refused.message and "Step back onto f6" in refused.message
    other = lesson.answer("a1-b2")
    assert other.verdict == "not-asked" and "legal, but not what this step asks" in other.message
    nonsense = lesson.answer("zz")
    assert nonsense.verdict == "refused" and "accepted forms" in nonsense.message
    assert lesson.answer("e7-f6").verdict == "done"


def test_a_sequence_plays_the_scripted_replies() -> None:
    step = next(s for s in course("pente_grammai").steps if s.task.kind == "sequence")
    lesson = Lesson.of("pente_grammai", step)
    first = lesson.answer("hand-B1")
    assert first.verdict == "right" and first.replies == ("d1", "pass", "d3")
    assert lesson.state.to_text().endswith("w 3 6")
    assert lesson.answer("hand-W3").verdict == "done"


RULES = "# Toy\n\n## Moves\n\n```\n## not a heading\n```\n\n### Options\n\n## History\n"
START = (
    ".s5.s4.s3.s2.s1/m5.m4.m3.m2.m1./.o5.o4.o3.o2.o1/........../........../"
    "........../........../O1.O2.O3.O4.O5./.M1.M2.M3.M4.M5/S1.S2.S3.S4.S5. g 0"
)


def _course(step: str, extra: str = "") -> str:
    return f'[untaught]\nHistory = "background"\n{extra}\n[[step]]\n{step}'


GOOD = f"""id = "a"
rule = "Moves"
title = "t"
text = "x"
position = "{START}"
[step.task]
kind = "move"
solutions = [["c3-d4"]]
wrong = ["c3-c4"]
hint = "h"
[[step]]
id = "b"
rule = "Options"
title = "t"
text = "x"
after = ["c3-d4"]
options = {{ goal = "ludii" }}
[step.task]
kind = "watch"
solutions = [["h8-g7"]]
explain = ["Red answers."]
"""


def test_rule_sections_are_the_headings_of_levels_two_and_three_outside_code() -> None:
    assert rule_sections(RULES) == ("Moves", "Options", "History")


def test_a_good_course_loads() -> None:
    loaded = load_course("salta", _course(GOOD), RULES)
    assert [step.id for step in loaded.steps] == ["a", "b"]
    assert loaded.steps[1].options["goal"] == "ludii"
    assert loaded.steps[0].task.wrong[0].reason.startswith("c3-c4: a step goes")
    assert loaded.public()["steps"][0]["task"]["solutions"] == [["c3-d4"]]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('c3-d4"]]', 'c3-c4"]]'), "solution move 'c3-c4' is refused: c3-c4: a step goes"),
        (('wrong = ["c3-c4"]', 'wrong = ["a3-b4"]'), "wrong move 'a3-b4' is legal here"),
        (('rule = "Moves"', 'rule = "Jumps"'), "rule 'Jumps' is not a section"),
        ((" g 0", " r 0"), "position does not parse"),
        (('["h8-g7"]', '["h8-h7"]'), "solution move 'h8-h7' is refused"),
        (('goal = "ludii"', 'goal = "moon"'), "options:"),
        (('kind = "move"', 'kind = "puzzle"'), "task.kind must be one of"),
        (('explain = ["Red answers."]', "explain = []"), "one explain sentence per move"),
        (('wrong = ["c3-c4"]', 'wrong = [{ move = "c3-c4", says = "jump" }]'), "not with 'jump'"),
        (('id = "b"', 'id = "a"'), "the id 'a' is used twice"),
    ],
)
def test_a_course_that_disagrees_with_the_engine_is_refused_with_the_reason(
    change: tuple[str, str], message: str
) -> None:
    with pytest.raises(LessonError, match="has problems") as error:
        load_course("salta", _course(GOOD.replace(*change, 1)), RULES)
    assert message in str(error.value)


def test_an_untaught_section_is_reported_and_so_is_a_missing_one() -> None:
    only_moves = GOOD.split("[[step]]")[0]
    with pytest.raises(LessonError, match="no step teaches the section 'Options'"):
        load_course("salta", _course(only_moves), RULES)
    with pytest.raises(LessonError, match="names 'Rules', not a section"):
        load_course("salta", _course(GOOD, 'Rules = "gone"'), RULES)
    with pytest.raises(LessonError, match="not valid TOML"):
        load_course("salta", "[[step", RULES)


def test_a_game_declares_its_course_in_its_game_info() -> None:
    assert all(has_course(game_id) for game_id in GAMES)
    assert declaration_problems(GameInfo(lessons="lessons.toml")) == [  # type: ignore[arg-type]
        "lessons must be a pathlib.Path to its file; got 'lessons.toml'"
    ]
    assert declaration_problems(GameInfo(lessons=Path("x.toml"))) == []


def test_a_game_without_a_course_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from ludoteca.core import registry

    cls = registry.game_class("salta")
    monkeypatch.setattr(cls, "info", GameInfo())
    with pytest.raises(NoCourseError, match="Salta has no course of lessons yet"):
        course("salta")
