"""The policy/value network of the neural player, run in numpy and numba (no torch needed).

The network is a small multilayer perceptron over a game's observation tensor, flattened
(``State.observation``, docs/rl.md)::

    h_0 = x                                  the observation of the player to move, flat
    h_i = relu(h_{i-1} @ W_i + b_i)          hidden layers, i = 1..L
    logits = h_L @ P.T + p                   one logit per action of the game (``num_actions``)
    policy = softmax of the logits of the legal actions only
    value = tanh(h_L @ v + c)                the mover's expected return, in [-1, 1]

Weights live in an ``.npz`` file (`save_weights` writes it, `load_network` reads and checks it):
``hidden_0_weight`` (inputs x units), ``hidden_0_bias``, ... ``policy_weight`` (``num_actions``
x units: one row per action, so that only the rows of the legal actions are read),
``policy_bias``, ``value_weight`` (units), ``value_bias`` (one number), and the metadata
``format`` (`FORMAT`), ``game`` (the game id) and ``observation_size``. Weights are stored as
float16 to keep the shipped files small and computed in float32.
"""

from __future__ import annotations

import functools
import os
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
from numba import njit

from ludoteca.core.errors import LudotecaError

FORMAT = 1  # bump when the file layout or the meaning of an array changes

Float32Array = npt.NDArray[np.float32]
Float64Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


class NetworkError(LudotecaError):
    """A weights file is missing, damaged, or made for another game or another format."""


@dataclass(frozen=True, slots=True)
class Network:
    """A loaded policy/value network (see the module docs for its shape).

    Attributes:
        game_id: The game it was trained for.
        hidden: The hidden layers' ``(weight, bias)`` pairs, float32, first layer first.
        policy_weight: ``(num_actions, units)`` float32.
        policy_bias: ``(num_actions,)`` float32.
        value_weight: ``(units,)`` float32.
        value_bias: The value head's bias.
    """

    game_id: str
    hidden: tuple[tuple[Float32Array, Float32Array], ...]
    policy_weight: Float32Array
    policy_bias: Float32Array
    value_weight: Float32Array
    value_bias: float

    @property
    def observation_size(self) -> int:
        """How many numbers the flat observation has."""
        return int(self.hidden[0][0].shape[0])

    @property
    def num_actions(self) -> int:
        """How many actions the policy head scores."""
        return int(self.policy_weight.shape[0])

    def evaluate(self, observation: Float32Array, legal: IntArray) -> tuple[Float64Array, float]:
        """The policy over the ``legal`` actions (summing to 1) and the mover's value.

        Args:
            observation: The mover's observation, any shape with `observation_size` numbers.
            legal: The legal actions (at least one).
        """
        trunk = _trunk(np.ascontiguousarray(observation, dtype=np.float32).reshape(-1), self)
        return _heads(
            trunk,
            self.policy_weight,
            self.policy_bias,
            self.value_weight,
            np.float32(self.value_bias),
            legal,
        )


def _trunk(x: Float32Array, network: Network) -> Float32Array:
    for weight, bias in network.hidden:
        x = _dense_relu(x, weight, bias)
    return x


@njit(cache=True, fastmath=True)
def _dense_relu(x: Float32Array, weight: Float32Array, bias: Float32Array) -> Float32Array:
    """``relu(x @ weight + bias)``, skipping the zero inputs (observations are mostly zeros)."""
    out = bias.copy()
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            row = weight[i]
            for j in range(out.shape[0]):
                out[j] += xi * row[j]
    for j in range(out.shape[0]):
        if out[j] < 0.0:
            out[j] = 0.0
    return out


@njit(cache=True, fastmath=True)
def _heads(
    h: Float32Array,
    policy_weight: Float32Array,
    policy_bias: Float32Array,
    value_weight: Float32Array,
    value_bias: np.float32,
    legal: IntArray,
) -> tuple[Float64Array, float]:
    logits = np.empty(legal.shape[0], dtype=np.float64)
    for n in range(legal.shape[0]):
        row = policy_weight[legal[n]]
        total = np.float32(policy_bias[legal[n]])
        for j in range(h.shape[0]):
            total += h[j] * row[j]
        logits[n] = total
    logits -= logits.max()
    priors = np.exp(logits)
    priors /= priors.sum()
    value = np.float32(value_bias)
    for j in range(h.shape[0]):
        value += h[j] * value_weight[j]
    return priors, float(np.tanh(value))


def network_arrays(network: Network) -> dict[str, npt.NDArray[np.float32]]:
    """The weights by their file names (float32), e.g. to load them into another framework."""
    arrays: dict[str, npt.NDArray[np.float32]] = {}
    for i, (weight, bias) in enumerate(network.hidden):
        arrays[f"hidden_{i}_weight"] = weight
        arrays[f"hidden_{i}_bias"] = bias
    arrays["policy_weight"] = network.policy_weight
    arrays["policy_bias"] = network.policy_bias
    arrays["value_weight"] = network.value_weight
    arrays["value_bias"] = np.array([network.value_bias], dtype=np.float32)
    return arrays


def network_from_arrays(game_id: str, arrays: dict[str, npt.NDArray[np.float32]]) -> Network:
    """A `Network` from arrays named as in the file (float16 or float32), rounded to float16.

    Rounding here means that a network used in training plays exactly as its saved file does.

    Raises:
        NetworkError: An array is missing or the shapes do not fit together.
    """
    rounded = {
        name: np.asarray(a, dtype=np.float16).astype(np.float32) for name, a in arrays.items()
    }
    hidden = []
    try:
        layer = 0
        while f"hidden_{layer}_weight" in rounded:
            hidden.append((rounded[f"hidden_{layer}_weight"], rounded[f"hidden_{layer}_bias"]))
            layer += 1
        network = Network(
            game_id=game_id,
            hidden=tuple(hidden),
            policy_weight=np.ascontiguousarray(rounded["policy_weight"]),
            policy_bias=rounded["policy_bias"],
            value_weight=rounded["value_weight"],
            value_bias=float(rounded["value_bias"].reshape(-1)[0]),
        )
    except KeyError as missing:
        raise NetworkError(f"the weights lack the array {missing}") from None
    _check_shapes(network)
    return network


def _check_shapes(network: Network) -> None:
    if not network.hidden:
        raise NetworkError("the weights have no hidden layer (hidden_0_weight)")
    units = network.hidden[0][0].shape[0]
    for i, (weight, bias) in enumerate(network.hidden):
        if weight.ndim != 2 or weight.shape[0] != units or bias.shape != (weight.shape[1],):
            raise NetworkError(f"hidden layer {i} has shapes {weight.shape} and {bias.shape}")
        units = weight.shape[1]
    policy, value = network.policy_weight, network.value_weight
    if (
        policy.ndim != 2
        or policy.shape[1] != units
        or network.policy_bias.shape != policy.shape[:1]
    ):
        raise NetworkError(f"the policy head has shape {policy.shape}; it needs (actions, {units})")
    if value.shape != (units,):
        raise NetworkError(f"the value head has shape {value.shape}; it needs ({units},)")


def save_weights(network: Network, path: Path) -> None:
    """Write ``network`` to ``path`` (float16, compressed) atomically: never a half-written file."""
    arrays: dict[str, npt.NDArray[np.generic]] = {
        name: a.astype(np.float16) for name, a in network_arrays(network).items()
    }
    arrays["format"] = np.array(FORMAT)
    arrays["game"] = np.array(network.game_id)
    arrays["observation_size"] = np.array(network.observation_size)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npz", delete=False) as handle:
        np.savez_compressed(handle, **arrays)  # type: ignore[arg-type]
    os.chmod(handle.name, 0o644)  # a temporary file is private; weights are for everyone to read
    os.replace(handle.name, path)


def load_network(path: Path | str, game_id: str) -> Network:
    """Read and check a weights file written by `save_weights` for ``game_id``.

    Raises:
        NetworkError: The file is missing or damaged, of another format, or of another game.
    """
    return _load(str(path), game_id, _modified(path))


def _modified(path: Path | str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return -1.0


@functools.lru_cache(maxsize=16)
def _load(path: str, game_id: str, modified: float) -> Network:
    # ``modified`` is part of the cache key: a file replaced by training is read again.
    try:
        with open(path, "rb") as handle, np.load(handle, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise NetworkError(f"cannot read the network weights {path}: {error}") from None
    try:
        file_format = int(arrays.pop("format"))
        file_game = str(arrays.pop("game"))
        arrays.pop("observation_size", None)
    except (KeyError, TypeError, ValueError):
        raise NetworkError(f"{path} is not a Ludoteca network file (no format or game)") from None
    if file_format != FORMAT:
        raise NetworkError(f"{path} has format {file_format}; this version reads format {FORMAT}")
    if file_game != game_id:
        raise NetworkError(f"{path} holds a network for {file_game!r}, not for {game_id!r}")
    return network_from_arrays(game_id, arrays)
