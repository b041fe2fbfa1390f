"""Agent specs: the one-line texts that name a computer player on the command line and the web.

``kind`` or ``kind:name=value,name=value``::

    random                      random:seed=7
    level:3                     level:5,seed=1          (levels 1-5, and 6 where declared)
    mcts:iters=2000             mcts:seconds=0.5,c=1.4,rollout=20,seed=3
    alphabeta:seconds=1         alphabeta:depth=4           alphabeta:nodes=50000
    expert                      (the game's own expert: Pente Grammai, Steppin' Stones)
    neural                      neural:iters=3000,c=1.5   (the learned player a game ships)

and players from outside Ludoteca (`ludoteca.ai.outside`): ``onnx:PATH``, ``module:callable``
and the names of ``ludoteca.agents`` entry points.
"""

from __future__ import annotations

import math

from ludoteca.ai.agents import Agent, AgentError, RandomAgent
from ludoteca.ai.alphabeta import AlphaBetaAgent
from ludoteca.ai.expert import ExpertAgent
from ludoteca.ai.levels import make_agent, rollout_plies
from ludoteca.ai.mcts import MCTSAgent
from ludoteca.ai.neural.agent import DEFAULT_EXPLORATION, NeuralAgent
from ludoteca.ai.outside import OUTSIDE_AGENT_SPECS, is_outside_agent_spec, outside_agent
from ludoteca.core.game import Game

AGENT_SPECS = (
    "random[:seed=N], level:1..5 (6 where the game ships one)[,seed=N], "
    "mcts:iters=N[,seconds=S,c=C,rollout=N|end,seed=N], "
    "alphabeta:seconds=S|depth=N|nodes=N[,seed=N], expert, neural[:iters=N,seconds=S,c=C,seed=N]"
)

#: Every accepted form: the built-in kinds and the players from outside Ludoteca.
ALL_AGENT_SPECS = f"{AGENT_SPECS}, {OUTSIDE_AGENT_SPECS}"

_PARAMETERS = {
    "random": ("seed",),
    "level": ("seed",),
    "mcts": ("iters", "seconds", "c", "rollout", "seed"),
    "alphabeta": ("seconds", "depth", "nodes", "seed"),
    "expert": (),
    "neural": ("iters", "seconds", "c", "seed"),
}


def is_agent_spec(spec: str) -> bool:
    """Whether ``spec`` names a kind of computer player (``level:9`` does, though badly)."""
    if not isinstance(spec, str):
        return False
    return spec.strip().partition(":")[0].strip().lower() in _PARAMETERS or (
        is_outside_agent_spec(spec)
    )


def agent_from_spec(spec: str, game: Game, *, seed: int | None = None) -> Agent:
    """Build an agent from its text spec, e.g. ``"random"``, ``"level:4"``, ``"mcts:iters=500"``.

    Args:
        spec: The agent spec (``human`` is not an agent: front ends handle people).
        game: The game the agent will play (agents that search need its rules).
        seed: Seed used when the spec gives none.

    Raises:
        AgentError: An unknown agent or parameter, or a bad value; the message lists what is
            accepted.
    """
    if not isinstance(spec, str):
        raise AgentError(f"an agent spec is text; got {spec!r}; accepted: {ALL_AGENT_SPECS}")
    kind, _, parameter_text = spec.strip().partition(":")
    kind = kind.strip().lower()
    if kind not in _PARAMETERS:
        return outside_agent(spec.strip(), game, seed=seed, accepted=ALL_AGENT_SPECS)
    items = [item.strip() for item in parameter_text.split(",") if item.strip()]
    level_text = None
    if kind == "level" and items and "=" not in items[0]:
        level_text = items.pop(0)
    parameters = _parameters(kind, items)
    if "seed" in parameters:
        seed = _integer(parameters, "seed", minimum=None)
    if kind == "random":
        return RandomAgent(seed)
    if kind == "level":
        if level_text is None or not level_text.isdigit():
            raise AgentError(
                f"write a level as level:N with N a level of the game (1 to 5); got {spec!r}"
            )
        return make_agent(game, int(level_text), seed=seed)
    if kind == "expert":
        return ExpertAgent(game)
    if kind == "mcts":
        return _mcts(parameters, game, seed, spec.strip())
    if kind == "neural":
        return _neural(parameters, game, seed, spec.strip())
    return _alphabeta(parameters, game, seed, spec.strip())


def _alphabeta(parameters: dict[str, str], game: Game, seed: int | None, name: str) -> Agent:
    seconds: float | None = 1.0
    if "seconds" in parameters:
        seconds = _number(parameters, "seconds")
    elif "depth" in parameters or "nodes" in parameters:
        seconds = None  # a fixed depth or node budget, searched to the end
    depth = _integer(parameters, "depth", minimum=1) if "depth" in parameters else 64
    nodes = _integer(parameters, "nodes", minimum=1) if "nodes" in parameters else None
    return AlphaBetaAgent(
        game, seconds=seconds, max_depth=depth, max_nodes=nodes, seed=seed, name=name
    )


def _mcts(parameters: dict[str, str], game: Game, seed: int | None, name: str) -> MCTSAgent:
    rollout: int | None = rollout_plies(game)
    if "rollout" in parameters:
        rollout = None if parameters["rollout"] == "end" else _integer(parameters, "rollout", 0)
    seconds = _number(parameters, "seconds") if "seconds" in parameters else None
    iterations = _integer(parameters, "iters", minimum=1) if "iters" in parameters else None
    if iterations is None and seconds is None:
        iterations = 1000
    return MCTSAgent(
        game,
        iterations=iterations,
        seconds=seconds,
        exploration=_number(parameters, "c") if "c" in parameters else 1.0,
        rollout_plies=rollout,
        seed=seed,
        name=name,
    )


def _neural(parameters: dict[str, str], game: Game, seed: int | None, name: str) -> Agent:
    return NeuralAgent(
        game,
        iterations=_integer(parameters, "iters", minimum=1) if "iters" in parameters else None,
        seconds=_number(parameters, "seconds") if "seconds" in parameters else None,
        exploration=_number(parameters, "c") if "c" in parameters else DEFAULT_EXPLORATION,
        seed=seed,
        name=name,
    )


def _parameters(kind: str, items: list[str]) -> dict[str, str]:
    parameters: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise AgentError(f"agent parameter {item!r} is not of the form name=value")
        key = key.strip()
        if not _PARAMETERS[kind]:
            raise AgentError(f"the {kind} agent takes no parameters; got {item!r}")
        if key not in _PARAMETERS[kind]:
            raise AgentError(
                f"the {kind} agent has no parameter {key!r}; accepted: "
                + ", ".join(_PARAMETERS[kind])
            )
        parameters[key] = value.strip()
    return parameters


def _integer(parameters: dict[str, str], name: str, minimum: int | None) -> int:
    text = parameters[name]
    try:
        value = int(text)
    except ValueError:
        raise AgentError(f"{name} must be an integer; got {text!r}") from None
    if minimum is not None and value < minimum:
        raise AgentError(f"{name} must be at least {minimum}; got {value}")
    return value


def _number(parameters: dict[str, str], name: str) -> float:
    text = parameters[name]
    try:
        value = float(text)
    except ValueError:
        raise AgentError(f"{name} must be a number; got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise AgentError(f"{name} must be a positive number; got {text!r}")
    return value
