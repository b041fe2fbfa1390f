"""`OnnxPolicyAgent`: a trained policy network in an ONNX file, as a computer player.

The agent spec is ``onnx:PATH``. What the network must be (docs/rl.md, "A policy in the arena"):

- **Input**: its first input takes float32 observations of shape ``(batch,
  *game.observation_shape)``, the tensor of ``state.observation(player)`` (docs/rl.md gives each
  game's planes), always from the view of the player to move. The batch dimension may be fixed
  at 1 or left free; the agent sends one observation at a time.
- **Output**: its first output is float logits of shape ``(batch, game.num_actions)``, one per
  action index (``move.index``).
- **Choice**: the legal action with the highest logit (the network's illegal actions are masked
  out; ties go to the lower index). The agent is deterministic.
- **Chance**: the agent is asked only where a player chooses; dice and draws are rolled by
  whoever runs the game (the arena, the environments), never by the policy.

It runs with onnxruntime (``pip install 'ludoteca[onnx]'``), on one thread: the arena plays
games in several processes at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ludoteca.ai.agents import Agent, AgentError
from ludoteca.core.game import Game, Move, State

#: What to install to run ONNX policies.
ONNX_HINT = "pip install 'ludoteca[onnx]'"


class OnnxPolicyAgent(Agent):
    """Plays the legal move to which an ONNX policy gives the highest logit (module docs).

    Args:
        path: The ``.onnx`` file.
        game: The game (and options) the network was trained for; its observation shape and
            action count are checked against the network's input and output.
        name: The agent's name in tables (default ``onnx:<path>``).

    Raises:
        AgentError: onnxruntime is missing, the file cannot be read or is no ONNX model, or the
            network's input or output does not fit the game; one line says which.
    """

    def __init__(self, path: str | Path, game: Game, *, name: str | None = None) -> None:
        self.path = str(path)
        self.game = game
        self.name = name or f"onnx:{path}"
        if not self.path:
            raise AgentError("write an ONNX policy as onnx:PATH, the path of a .onnx file")
        try:
            self._model = Path(self.path).read_bytes()
        except OSError as error:
            raise AgentError(
                f"cannot read the ONNX policy {self.path!r}: {error.strerror or error}"
            ) from None
        self._start()

    def _start(self) -> None:
        try:
            import onnxruntime
        except ImportError:
            raise AgentError(f"onnx:PATH agents need onnxruntime: {ONNX_HINT}") from None
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # errors only: warnings would go to stderr mid-table
        try:
            self._session = onnxruntime.InferenceSession(
                self._model, options, providers=["CPUExecutionProvider"]
            )
        except Exception as error:  # onnxruntime raises its own types for a bad model
            message = str(error).strip().splitlines()[0] if str(error).strip() else ""
            raise AgentError(
                f"{self.path!r} is not an ONNX model onnxruntime can run: {message}"
            ) from None
        self._input = self._session.get_inputs()[0].name
        self._check_shapes()

    def _check_shapes(self) -> None:
        game = self.game
        assert game is not None
        model_input = self._session.get_inputs()[0]
        model_output = self._session.get_outputs()[0]
        expected = (None, *game.observation_shape)
        if not _fits(model_input.shape, expected, batch=True):
            raise AgentError(
                f"the ONNX policy {self.path!r} takes input {_shape_text(model_input.shape)}; "
                f"{game.name} with these options gives observations of shape "
                f"(batch, {', '.join(map(str, game.observation_shape))})"
            )
        if not _fits(model_output.shape, (None, game.num_actions), batch=True):
            raise AgentError(
                f"the ONNX policy {self.path!r} gives output {_shape_text(model_output.shape)}; "
                f"it must give logits of shape (batch, {game.num_actions}), one per action"
            )

    def _choose(self, state: State) -> Move:
        observation = state.observation(int(state.to_move or 0))[np.newaxis]
        logits = self._session.run(None, {self._input: observation.astype(np.float32)})[0]
        scores = np.asarray(logits, dtype=np.float64).reshape(-1)
        # argmax takes the first of equal scores: the legal actions in index order.
        legal = np.sort(np.asarray(state.legal_actions(), dtype=np.int64))
        return state.move_from_index(int(legal[np.argmax(scores[legal])]))

    # An inference session cannot be pickled: a copy keeps the model's bytes and starts its own.
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("_session", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._start()


def _fits(shape: list[Any], expected: tuple[int | None, ...], *, batch: bool) -> bool:
    """Whether a model's declared shape (ints, or names/None for free dimensions) fits."""
    if len(shape) != len(expected):
        return False
    for place, (declared, wanted) in enumerate(zip(shape, expected, strict=True)):
        if not isinstance(declared, int):
            continue  # a free dimension takes anything
        if place == 0 and batch:
            if declared != 1:
                return False
        elif declared != wanted:
            return False
    return True


def _shape_text(shape: list[Any]) -> str:
    return "(" + ", ".join(str(d) if isinstance(d, int) else "?" for d in shape) + ")"
