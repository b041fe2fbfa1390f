"""Board pictures for ``render_mode="rgb_array"``: the web page's drawing, rasterised.

A position is drawn exactly as the browser shows it: the game's declared view
(``game.info.view.drawing``) turned into SVG by `ludoteca.drawing.svg` and coloured by the page's
style sheet (``web/static/app.css``) and the colours the game declares
(`ludoteca.drawing.styles`), the modules the web pages draw with; nothing of the web server
(FastAPI, uvicorn) is imported. CairoSVG rasterises the picture; it needs the system's cairo
library (Debian: ``libcairo2``), which the ``rl`` extra cannot install.
"""

from __future__ import annotations

import io
from functools import lru_cache
from importlib.resources import files

import numpy as np
import numpy.typing as npt

from ludoteca.core.game import Game, State
from ludoteca.core.view import Drawing
from ludoteca.drawing.styles import game_styles_css
from ludoteca.drawing.svg import render_svg

#: Width of a frame in pixels; the height follows the board's proportions.
FRAME_WIDTH = 400
#: The page's background colour (``--paper`` in app.css), behind the board.
BACKGROUND = "#fbf8f1"


class RenderingError(RuntimeError):
    """A board cannot be drawn as pixels: no drawing declared, or no rasteriser installed."""


def board_rgb(state: State, *, width: int = FRAME_WIDTH) -> npt.NDArray[np.uint8]:
    """The board of ``state`` as an RGB array, shape ``(height, width, 3)``, dtype uint8.

    Both sides are even numbers of pixels (video encoders ask for that); the height keeps the
    drawing's proportions, so every frame of a game with given options has one shape.

    Raises:
        RenderingError: The game declares no drawing, or CairoSVG (or the cairo library it
            needs) is missing; the message says what to install.
    """
    svg = board_svg(state, width=width)
    png = _rasterise(svg)
    from PIL import Image  # Pillow comes with matplotlib, a dependency of Ludoteca

    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)


def frame_shape(game: Game, *, width: int = FRAME_WIDTH) -> tuple[int, int, int]:
    """The ``(height, width, 3)`` of every frame of ``game`` (its start position's drawing)."""
    width, height = _size(game.initial_state(), width)
    return (height, width, 3)


def board_svg(state: State, *, width: int = FRAME_WIDTH) -> str:
    """A standalone SVG document of the board: the web's markup with its styles inside.

    Raises:
        RenderingError: The game declares no drawing.
    """
    drawing = _drawing(state)
    pixels_wide, pixels_high = _size(state, width)
    markup = render_svg(
        drawing, interactive=False, title=f"{state.game.name} board", game_id=state.game.id
    )
    opening_end = markup.index(">")
    size = f' width="{pixels_wide}" height="{pixels_high}" preserveAspectRatio="none"'
    style = f"<style><![CDATA[{_style_sheet(type(state.game))}]]></style>"
    return markup[:opening_end] + size + ">" + style + markup[opening_end + 1 :]


def _drawing(state: State) -> Drawing:
    draw = state.game.info.view.drawing
    drawing = None if draw is None else draw(state)
    if not isinstance(drawing, Drawing):
        raise RenderingError(f"{state.game.name} declares no drawing; use render_mode='ansi'")
    return drawing


def _size(state: State, width: int) -> tuple[int, int]:
    if isinstance(width, bool) or not isinstance(width, int) or width < 16:
        raise ValueError(f"width must be an integer of at least 16 pixels; got {width!r}")
    drawing = _drawing(state)
    even_width = width + width % 2
    height = round(even_width * drawing.height / drawing.width)
    return even_width, max(2, height + height % 2)


@lru_cache(maxsize=32)
def _style_sheet(game_class: type[Game]) -> str:
    page = files("ludoteca.web").joinpath("static/app.css").read_text(encoding="utf-8")
    return page + "\n" + game_styles_css([game_class])


def _rasterise(svg: str) -> bytes:
    try:
        import cairosvg
    except ImportError as error:
        raise RenderingError(
            "rgb_array rendering needs CairoSVG: pip install 'ludoteca[rl]'"
        ) from error
    except OSError as error:  # cairocffi found no cairo library
        raise RenderingError(
            f"rgb_array rendering needs the cairo library (Debian: apt-get install libcairo2): "
            f"{error}"
        ) from error
    png: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"), background_color=BACKGROUND)
    return png
