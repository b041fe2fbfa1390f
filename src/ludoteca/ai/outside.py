"""Computer players from outside Ludoteca, named by agent specs like the built-in ones.

Three forms, accepted wherever an agent spec is (``ludoteca arena``, ``ludoteca study
--agents``, ``ludoteca play --p0``, the Gymnasium environments' ``opponent``)::

    onnx:policy.onnx                a policy network run with onnxruntime (ai.onnx_policy)
    mypackage.players:make_player   a callable in an importable module
    myplayer                        an entry point of the group ``ludoteca.agents``

The callable (named directly or by the entry point) is called as ``make(game, seed=seed)`` and
returns an object whose ``choose(state)`` gives a legal move of ``state`` (a `Move`, its text or
its integer action). An installed package offers one in its ``pyproject.toml``::

    [project.entry-points."ludoteca.agents"]
    myplayer = "mypackage.players:make_player"

A built-in kind (``random``, ``level``, ...) keeps its name: an entry point of that name is not
used.
"""

from __future__ import annotations

import importlib
import operator
import re
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from ludoteca.ai.agents import Agent, AgentError
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game, Move, State

#: The entry point group of installed agents.
AGENT_ENTRY_POINT_GROUP = "ludoteca.agents"

#: The forms of outside agents, for error messages and help texts.
OUTSIDE_AGENT_SPECS = (
    "onnx:PATH (a policy network), module:callable (e.g. mypackage.players:make_player), "
    f"or the name of an installed {AGENT_ENTRY_POINT_GROUP} entry point"
)

_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


def is_outside_agent_spec(spec: str) -> bool:
    """Whether ``spec`` has the form of an outside agent (it may still fail to load)."""
    if not isinstance(spec, str):
        return False
    text = spec.strip()
    if text.lower().startswith("onnx:"):
        return True
    module, colon, name = text.partition(":")
    if colon:
        return bool(_DOTTED.fullmatch(module) and _DOTTED.fullmatch(name))
    return text in installed_agents()


def installed_agents() -> tuple[str, ...]:
    """The names of the ``ludoteca.agents`` entry points installed, sorted."""
    return tuple(sorted({point.name for point in entry_points(group=AGENT_ENTRY_POINT_GROUP)}))


def outside_agent(spec: str, game: Game, *, seed: int | None, accepted: str) -> Agent:
    """The agent of an outside spec (see the module docs) for ``game``.

    Args:
        spec: The spec, stripped.
        game: The game the agent will play.
        seed: Passed on to the agent's maker.
        accepted: Every accepted spec form, for the message when ``spec`` is none of them.

    Raises:
        AgentError: ``spec`` is no agent, or its agent cannot be loaded or made; one line says
            why and what is accepted.
    """
    if spec.lower().startswith("onnx:"):
        from ludoteca.ai.onnx_policy import OnnxPolicyAgent

        return OnnxPolicyAgent(spec[len("onnx:") :].strip(), game, name=spec)
    module, colon, name = spec.partition(":")
    if colon and _DOTTED.fullmatch(module) and _DOTTED.fullmatch(name):
        return _made(spec, _import_callable(spec, module, name), game, seed)
    if not colon and _NAME.fullmatch(spec):
        points = [p for p in entry_points(group=AGENT_ENTRY_POINT_GROUP) if p.name == spec]
        if points:
            try:
                maker = points[0].load()
            except Exception as error:  # whatever a plug-in raises on import is reported
                raise AgentError(
                    f"cannot load the agent {spec!r} (entry point {points[0].value!r} of "
                    f"{AGENT_ENTRY_POINT_GROUP}): {type(error).__name__}: {error}"
                ) from None
            return _made(spec, maker, game, seed)
    installed = ", ".join(installed_agents()) or "none"
    raise AgentError(
        f"unknown agent {spec!r}; accepted: {accepted} (installed {AGENT_ENTRY_POINT_GROUP}"
        f" entry points: {installed})"
    )


def _import_callable(spec: str, module_name: str, name: str) -> Callable[..., Any]:
    try:
        found: Any = importlib.import_module(module_name)
    except Exception as error:  # any error of the module's import is reported, not raised
        raise AgentError(
            f"cannot import module {module_name!r} of agent {spec!r}: "
            f"{type(error).__name__}: {error}"
        ) from None
    for part in name.split("."):
        if not hasattr(found, part):
            raise AgentError(f"module {module_name!r} has no {name!r} (agent {spec!r})")
        found = getattr(found, part)
    if not callable(found):
        raise AgentError(f"{spec!r} is not callable; it must make an agent: f(game, seed=...)")
    return found  # type: ignore[no-any-return]


def _made(spec: str, maker: Callable[..., Any], game: Game, seed: int | None) -> Agent:
    try:
        player = maker(game, seed=seed)
    except LudotecaError:
        raise
    except Exception as error:  # the outside code's failure, reported in one line
        raise AgentError(
            f"the agent {spec!r} could not be made for {game.name}: {type(error).__name__}: {error}"
        ) from None
    if not callable(getattr(player, "choose", None)):
        raise AgentError(
            f"{spec!r} returned {type(player).__name__}, which has no choose(state) method"
        )
    if isinstance(player, Agent) and player.game in (None, game):
        return player
    return OutsideAgent(player, spec, game)


class OutsideAgent(Agent):
    """An outside player's object as an `Agent`: its answers are checked and made `Move` values.

    ``choose`` may give a `Move`, a move's text or its integer action; anything that is not a
    legal move of the position raises `AgentError` naming the agent.
    """

    def __init__(self, player: Any, spec: str, game: Game) -> None:
        self.player = player
        self.name = spec
        self.game = game

    def _choose(self, state: State) -> Move:
        answer = self.player.choose(state)
        try:
            if isinstance(answer, Move):
                legal = state.move_from_index(answer.index)
                if legal != answer:
                    raise ValueError(f"the legal move with index {answer.index} is {legal}")
                return legal
            if isinstance(answer, str):
                return state.parse_move(answer)
            return state.move_from_index(operator.index(answer))
        except (ValueError, TypeError) as error:
            raise AgentError(
                f"the agent {self.name!r} chose {answer!r}, not a legal move here: {error}"
            ) from None
