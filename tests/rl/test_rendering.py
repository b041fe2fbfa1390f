"""``render_mode="rgb_array"``: the web page's drawing of the board, as an RGB array.

Skipped where the rl extra is not installed (``pip install 'ludoteca[rl]'``), except where
the extra is required (tests/extras.py), as in .ci/run's second run: there they must run.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ludoteca
from tests.extras import extra_required

if not extra_required("rl"):
    for module in ("gymnasium", "pettingzoo", "cairosvg"):
        pytest.importorskip(module, reason="the rl extra is missing: pip install 'ludoteca[rl]'")

import gymnasium

from ludoteca.core.registry import game_class
from ludoteca.drawing.svg import render_svg
from ludoteca.rl.gymnasium import LudotecaEnv, env_id
from ludoteca.rl.pettingzoo import pettingzoo_env
from ludoteca.rl.rendering import board_rgb, board_svg, frame_shape


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_gymnasium_frames_are_rgb_arrays_of_one_shape(game_id: str) -> None:
    env = gymnasium.make(env_id(game_class(game_id)), render_mode="rgb_array")
    _, info = env.reset(seed=0)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8
    height, width, channels = first.shape
    assert (width, channels) == (400, 3) and height % 2 == 0 and height >= 300
    assert first.shape == frame_shape(env.unwrapped.game)
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 10  # a picture, not a blank
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    second = env.render()
    assert second.shape == first.shape and not np.array_equal(first, second)


@pytest.mark.parametrize("game_id", ["pente_grammai", "splinter"])
def test_pettingzoo_frames_show_the_position(game_id: str) -> None:
    env = pettingzoo_env(game_id, render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert isinstance(frame, np.ndarray)
    assert np.array_equal(frame, board_rgb(env.position))
    assert frame.shape == frame_shape(env.game)


def test_the_picture_is_the_web_pages_drawing_with_its_colours() -> None:
    state = ludoteca.make("salt_n_pepper", ranks=6).initial_state()
    svg = board_svg(state)
    drawing = state.game.info.view.drawing(state)
    web = render_svg(
        drawing, interactive=False, title=f"{state.game.name} board", game_id="salt_n_pepper"
    )
    # The same markup, with a size and the page's style sheet (app.css, the game's colours).
    opening_end = web.index(">")
    height = frame_shape(state.game)[0]
    assert svg.startswith(web[:opening_end] + f' width="400" height="{height}"')
    assert svg.endswith("]]></style>" + web[opening_end + 1 :])
    assert ".owner-0 .body" in svg and "svg.board.game-salt_n_pepper" in svg
    frame = board_rgb(state)
    colours = {tuple(int(v) for v in c) for c in frame.reshape(-1, 3)}
    for style in state.game.info.piece_styles:  # the colours the game declares for its pieces
        fill = style.fill.lstrip("#")
        assert tuple(int(fill[i : i + 2], 16) for i in (0, 2, 4)) in colours, style


def test_drawing_imports_none_of_the_web_server() -> None:
    code = (
        "import sys, ludoteca\n"
        "from ludoteca.rl.rendering import board_rgb\n"
        "board_rgb(ludoteca.make('salta').initial_state())\n"
        "print(sorted(m for m in ('fastapi', 'starlette', 'uvicorn', 'sqlalchemy')"
        " if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_a_bad_render_mode_or_width_is_refused() -> None:
    with pytest.raises(ValueError, match="accepted: None, 'ansi', 'rgb_array'"):
        LudotecaEnv("salta", render_mode="pixels")
    with pytest.raises(ValueError, match="at least 16 pixels"):
        board_rgb(ludoteca.make("salta").initial_state(), width=3)


def test_record_video_films_an_episode(tmp_path: Path) -> None:
    if not extra_required("video"):
        pytest.importorskip("moviepy", reason="RecordVideo needs moviepy: pip install moviepy")
    from gymnasium.wrappers import RecordVideo

    env = gymnasium.make("ludoteca/SaltNPepper-v0", render_mode="rgb_array", ranks=6, max_plies=8)
    env = RecordVideo(
        env, str(tmp_path / "videos"), episode_trigger=lambda _: True, disable_logger=True
    )
    _, info = env.reset(seed=0)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    env.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000
