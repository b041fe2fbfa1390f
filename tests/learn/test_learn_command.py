"""``ludoteca learn GAME``: whole courses typed as a newcomer would, a wrong move included."""

from __future__ import annotations

import pytest

from ludoteca.core.lessons import course
from tests.support import flat, run_combined


def _answers(game_id: str, wrong_at: str, wrong: str) -> list[str]:
    """The lines a learner types: each step's first solution, Enter through watch steps, and
    one wrong move first at step ``wrong_at``."""
    lines: list[str] = []
    for step in course(game_id).steps:
        if step.task.kind == "watch":
            lines += [""] * len(step.task.solutions[0])
            continue
        if step.id == wrong_at:
            lines.append(wrong)
        lines += list(step.task.solutions[0])
    return lines


@pytest.mark.parametrize(
    ("game_id", "wrong_at", "wrong", "reason"),
    [
        ("salta", "jump", "a3-b4", "a3-b4: a jump is compulsory; legal jumps: g5xi7"),
        (
            "pente_grammai",
            "points",
            "hand-W4",
            "W4 already holds a White counter (an ordinary point holds one), so White cannot "
            "enter and must move a counter instead",
        ),
    ],
)
def test_a_whole_course_with_one_wrong_move(
    capsys: pytest.CaptureFixture[str], game_id: str, wrong_at: str, wrong: str, reason: str
) -> None:
    steps = course(game_id).steps
    status, out = run_combined(capsys, ["learn", game_id], *_answers(game_id, wrong_at, wrong))
    assert status == 0
    assert f"Course complete: {len(steps)} of {len(steps)} steps done." in flat(out)
    # The wrong move gets the engine's reason and the step's hint, then the step goes on.
    hint = next(step.task.hint for step in steps if step.id == wrong_at)
    assert f"{reason}" in flat(out) and f"Hint: {hint}" in flat(out)
    assert out.count("Right!") == sum(step.task.kind != "watch" for step in steps)
    # Wrapped to the terminal's width (a prompt and what follows it share a line only here,
    # where what was typed is not echoed).
    shown = out.replace("your move> ", "\n").replace("Enter: next move · q: quit > ", "\n")
    assert max(len(line) for line in shown.splitlines()) <= 80
    for step in steps:
        assert f"(rule: {step.rule})" in flat(out)


def test_watch_steps_explain_each_move(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run_combined(capsys, ["learn", "pente_grammai", "--step", "start"], "", "", "")
    assert status == 0
    assert "first-0: The lot falls to White, who plays first." in flat(out)
    assert "hand-W3: A 3 brings a counter from hand onto White's own point 3" in flat(out)
    assert "Stopped at step 2: 1 done." in flat(out)


def test_a_legal_move_not_asked_for_hint_skip_and_quit(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run_combined(
        capsys, ["learn", "salta", "--step", "no-block"], "a1-b2", "hint", "skip", "q"
    )
    assert status == 0
    assert "a1-b2 is legal, but not what this step asks. Hint: Step back onto f6" in flat(out)
    text = flat(out)
    assert "Skipped." in text and "Step 7/10" in text and "Stopped at step 7: 0 done." in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["learn", "chess"], "unknown game 'chess'; accepted: "),
        (["learn", "salta", "--step", "99"], "no step 99 in this course; steps: 1 to 10"),
    ],
)
def test_bad_input_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out = run_combined(capsys, argv)
    assert status == 2
    assert message in flat(out)
