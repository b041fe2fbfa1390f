"""Reinforcement learning: observation tensors, batched games and standard interfaces (docs/rl.md).

- `VectorEnv` plays many games at once in compiled code; it needs nothing beyond Ludoteca.
- `pettingzoo_env` gives a game as a PettingZoo AEC environment (`ludoteca.rl.pettingzoo`), whose
  ``parallel_env`` gives the parallel API through PettingZoo's own conversion.
- Importing this package registers each game's Gymnasium environment, ``ludoteca/<Game>-v0``
  (`ludoteca.rl.gymnasium`), when Gymnasium is installed.
- ``import ludoteca.rl.openspiel`` registers each game with OpenSpiel as ``ludoteca_<game id>``.
- `ludoteca.rl.rendering` draws a position as the web page does, as an RGB array
  (``render_mode="rgb_array"``).

Every interface follows one rule for illegal actions (the player who chose one loses the game),
and everything in it copies and pickles (docs/rl.md).

The three interfaces need the ``rl`` extra: ``pip install 'ludoteca[rl]'``.
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import TYPE_CHECKING, Any

from ludoteca.rl.vector import VectorEnv, VectorStep

if TYPE_CHECKING:
    from ludoteca.rl.pettingzoo import LudotecaAECEnv

#: What to install for the PettingZoo, Gymnasium and OpenSpiel interfaces.
EXTRA_HINT = "pip install 'ludoteca[rl]'"


def pettingzoo_env(game_id: str, **options: Any) -> LudotecaAECEnv:
    """The PettingZoo AEC environment of ``game_id`` (`ludoteca.rl.pettingzoo`).

    ``render_mode`` (``None`` or ``"ansi"``) is taken from the keywords; the others are the game's
    options.

    Raises:
        ImportError: PettingZoo is not installed (the message says how to install it).
        UnknownGameError, InvalidOptionError: A bad game id or option.
    """
    if find_spec("pettingzoo") is None:
        raise ImportError(f"the PettingZoo environments need PettingZoo: {EXTRA_HINT}")
    from ludoteca.rl.pettingzoo import pettingzoo_env as make_env

    return make_env(game_id, **options)


if find_spec("gymnasium") is not None:
    import ludoteca.rl.gymnasium  # noqa: F401 (registers the environments with Gymnasium)

__all__ = ["EXTRA_HINT", "VectorEnv", "VectorStep", "pettingzoo_env"]
