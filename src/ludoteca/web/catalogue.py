"""What the lobby says about each game: name, summary, players, options, a picture, the rules."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from markdown_it import MarkdownIt

from ludoteca.ai import LEVELS, agent_from_spec, level_setting
from ludoteca.core.errors import LudotecaError
from ludoteca.core.options import OptionSpec, format_option_value
from ludoteca.core.registry import game_class, game_ids, make
from ludoteca.core.rules_pages import rules_text
from ludoteca.drawing.styles import game_styles_css
from ludoteca.web.boards import thumbnail
from ludoteca.web.rated_games import level_words

_RULES_IN_BRIEF = re.compile(r"^Rules in brief(?: \([^)]*\))?:\s*")


@dataclass(frozen=True)
class GameEntry:
    """One game of the lobby."""

    id: str
    name: str
    summary: str
    players: tuple[str, ...]
    options: tuple[dict[str, Any], ...]
    picture: str | None
    computers: tuple[tuple[str, str, bool], ...] = ()
    summary_html: str = ""


def summary_of(game_id: str) -> str:
    """One paragraph about the game: its package docstring's title and rules in brief."""
    cls = game_class(game_id)
    module = sys.modules.get(cls.__module__)
    doc = (module.__doc__ if module is not None else None) or cls.__doc__ or ""
    paragraphs = [" ".join(p.split()) for p in doc.split("\n\n") if p.strip()]
    if not paragraphs:
        return cls.name
    brief = next((p for p in paragraphs[1:] if _RULES_IN_BRIEF.match(p)), "")
    if brief:
        brief = _RULES_IN_BRIEF.sub("", brief)
        brief = brief[:1].upper() + brief[1:]
        return f"{paragraphs[0]} {brief}"
    return paragraphs[0]


def summary_html(game_id: str) -> str:
    """The summary as inline HTML: its markup (````*````, *emphasis*) rendered, raw HTML escaped."""
    html: str = MarkdownIt("commonmark", {"html": False}).renderInline(summary_of(game_id))
    return html


#: How a game's description marks an option that only guards the engine (a limit on a game's
#: length): the form puts those under "Advanced".
_SAFEGUARD = re.compile(r"^Engine safeguard:\s*", re.IGNORECASE)
#: Where an option's label ends in its description: its first colon, parenthesis, semicolon
#: or full stop.
_LABEL_END = re.compile(r"\s*[:(;]|\.(?:\s|$)")


def option_label(spec: OptionSpec) -> str:
    """A short label for an option, from the start of its description (not its identifier).

    ``"Who starts: 'random' = ..."`` is labelled "Who starts"; an engine safeguard by what it
    does ("A game without a result after this many plies is a draw").
    """
    text = spec.description.strip()
    safeguard = _SAFEGUARD.match(text)
    if safeguard:
        rest = text[safeguard.end() :]
        end = re.search(r"\.(?:\s|$)", rest)
        label = rest[: end.start()] if end else rest
    else:
        end = _LABEL_END.search(text)
        label = text[: end.start()] if end else text
    label = label.strip() or spec.name.replace("_", " ")
    return label[:1].upper() + label[1:]


def option_field(spec: OptionSpec) -> dict[str, Any]:
    """How the new-game form asks for one option."""
    field: dict[str, Any] = {
        "name": spec.name,
        "label": option_label(spec),
        "advanced": bool(_SAFEGUARD.match(spec.description.strip())),
        "description": spec.description,
        "default": format_option_value(spec.default),
        "accepted": getattr(spec, "form", None) or spec.accepted,
    }
    if spec.choices is not None:
        field["input"] = "select"
        field["choices"] = [format_option_value(c) for c in spec.choices]
    elif isinstance(spec.default, bool):
        field["input"] = "select"
        field["choices"] = ["false", "true"]
    elif isinstance(spec.default, int) and not spec.allow_none:
        field["input"] = "number"
        field["minimum"], field["maximum"] = spec.minimum, spec.maximum
    else:
        field["input"] = "text"
    return field


@cache
def entry(game_id: str) -> GameEntry:
    """The lobby entry of one game, but its picture (computed once; runs no kernel)."""
    cls = game_class(game_id)
    return GameEntry(
        id=cls.id,
        name=cls.name,
        summary=summary_of(game_id),
        summary_html=summary_html(game_id),
        players=tuple(cls.player_names),
        options=tuple(option_field(spec) for spec in cls.option_specs),
        picture=None,
        computers=computer_choices(game_id),
    )


@cache
def picture(game_id: str) -> str | None:
    """The game's start position, small (drawing it runs the game's kernels)."""
    return thumbnail(make(game_id).initial_state())


def _level_label(game_id: str, level: int, summary: str) -> str:
    strength = level_words(game_id, level)
    return f"computer level {level}: {summary}" + (f"; {strength}" if strength else "")


def computer_choices(game_id: str) -> tuple[tuple[str, str, bool], ...]:
    """The computer players the form offers: (seat spec, label, whether it is available)."""
    game = make(game_id)
    choices = []
    for spec, label in [
        *(
            (f"level:{level}", _level_label(game_id, level, level_setting(game, level).summary))
            for level in LEVELS
        ),
        ("random", "random player: random moves"),
    ]:
        try:
            agent_from_spec(spec, game, seed=0)
            available = True
        except LudotecaError:
            available = False
        choices.append((spec, label if available else f"{label} (not available)", available))
    return tuple(choices)


def entries(is_ready: Callable[[str], bool] = lambda _: True) -> list[GameEntry]:
    """Every registered game's lobby entry; only the games ready to play have their picture.

    Args:
        is_ready: Whether a game's kernels are loaded (`ludoteca.web.readiness`): the picture
            of a game still being prepared would compile them on the event loop.
    """
    return [
        replace(entry(game_id), picture=picture(game_id)) if is_ready(game_id) else entry(game_id)
        for game_id in game_ids()
    ]


@cache
def rules_html(game_id: str) -> str:
    """The game's rules page (docs/rules/<game>.md) as HTML."""
    html: str = (
        MarkdownIt("commonmark", {"html": False}).enable("table").render(rules_text(game_id))
    )
    return html


def styles_css() -> str:
    """The style sheet of every registered game's declared colours (`ludoteca.drawing.styles`)."""
    return _styles_css(game_ids())


@cache
def _styles_css(ids: tuple[str, ...]) -> str:
    return game_styles_css(game_class(game_id) for game_id in ids)
