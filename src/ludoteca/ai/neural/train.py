"""Train a game's policy/value network by self-play (AlphaZero's loop); needs torch (``learn``).

    python -m ludoteca.ai.neural.train GAME --out DIR [--generations N --games N ...]

Each generation plays ``--games`` self-play games with the current network
(`ludoteca.ai.neural.selfplay`, the same numpy/numba search that plays in the game), keeps the
examples of the last ``--window`` generations, and trains the network on them with torch for
``--epochs`` passes: cross-entropy between the policy and the search's visit shares (over the
legal actions only) plus the squared error between the value and a target that mixes the game's
result with the search's root value (``--value-mix``, the share of the search value).

Everything a run needs to go on lives in ``DIR``: ``run.json`` (the settings, which a resumed run
must repeat), ``progress.json`` (the last finished generation and the CPU and wall time spent),
``examples-G.npz``, ``network-G.npz`` (the network after generation ``G``, float16 as shipped),
``trainer.pt`` (torch's weights and optimiser) and ``log.jsonl`` (one line per generation). Each
file is written whole and then renamed, so an interrupted run restarts at the generation it was
in, and a run with the same command and seed gives the same network whether or not it was
interrupted (the generators of generation ``G`` are seeded from ``(seed, G)``; torch uses one
thread). ``DIR/network.npz`` is the latest network; copy it into the game's package to ship it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ludoteca.ai.neural.network import Network, network_from_arrays, save_weights
from ludoteca.ai.neural.selfplay import Examples, SelfPlaySettings, play_game
from ludoteca.core.game import Game
from ludoteca.core.registry import make

try:
    import torch
    from torch import nn
except ImportError:  # pragma: no cover - the message below says what to install
    torch = None  # type: ignore[assignment]


def _require_torch() -> None:
    if torch is None:
        raise SystemExit(
            "training needs torch: pip install 'ludoteca[learn]' (playing a trained network "
            "does not)"
        )


class PolicyValueMLP(nn.Module if torch is not None else object):  # type: ignore[misc]
    """The torch twin of `ludoteca.ai.neural.network.Network` (same layers, same arrays)."""

    def __init__(self, inputs: int, hidden: Sequence[int], num_actions: int) -> None:
        super().__init__()
        layers = []
        width = inputs
        for units in hidden:
            layers.append(nn.Linear(width, units))
            width = units
        self.hidden = nn.ModuleList(layers)
        self.policy = nn.Linear(width, num_actions)
        self.value = nn.Linear(width, 1)
        # Start from uniform priors and a value of 0: the search alone at first.
        for head in (self.policy, self.value):
            nn.init.zeros_(head.weight)
            nn.init.zeros_(head.bias)

    def forward(self, x: Any) -> tuple[Any, Any]:
        """Logits over every action and the value (tanh) of a batch of flat observations."""
        for layer in self.hidden:
            x = torch.relu(layer(x))
        return self.policy(x), torch.tanh(self.value(x)).squeeze(-1)

    def linears(self) -> list[Any]:
        """The hidden layers (``nn.Linear``), first first."""
        return list(self.hidden)

    def arrays(self) -> dict[str, npt.NDArray[np.float32]]:
        """The weights as the network file names them."""
        out: dict[str, npt.NDArray[np.float32]] = {}
        with torch.no_grad():
            for i, layer in enumerate(self.linears()):
                out[f"hidden_{i}_weight"] = layer.weight.T.contiguous().numpy().copy()
                out[f"hidden_{i}_bias"] = layer.bias.numpy().copy()
            out["policy_weight"] = self.policy.weight.numpy().copy()
            out["policy_bias"] = self.policy.bias.numpy().copy()
            out["value_weight"] = self.value.weight[0].numpy().copy()
            out["value_bias"] = self.value.bias.numpy().copy()
        return out

    def load_arrays(self, arrays: dict[str, npt.NDArray[np.float32]]) -> None:
        """Set the weights from arrays named as in the network file."""
        with torch.no_grad():
            for i, layer in enumerate(self.linears()):
                layer.weight.copy_(torch.from_numpy(arrays[f"hidden_{i}_weight"].T.copy()))
                layer.bias.copy_(torch.from_numpy(arrays[f"hidden_{i}_bias"]))
            self.policy.weight.copy_(torch.from_numpy(arrays["policy_weight"]))
            self.policy.bias.copy_(torch.from_numpy(arrays["policy_bias"]))
            self.value.weight.copy_(torch.from_numpy(arrays["value_weight"]).reshape(1, -1))
            self.value.bias.copy_(torch.from_numpy(arrays["value_bias"]).reshape(1))


def _batch_targets(
    examples: Examples, rows: npt.NDArray[np.int64], num_actions: int
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float32]]:
    """The legal masks and the dense policy targets of the examples ``rows``."""
    starts = examples.offsets[rows]
    counts = examples.offsets[rows + 1] - starts
    batch_rows = np.repeat(np.arange(len(rows)), counts)
    within = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    flat = np.repeat(starts, counts) + within
    mask = np.zeros((len(rows), num_actions), dtype=np.bool_)
    target = np.zeros((len(rows), num_actions), dtype=np.float32)
    mask[batch_rows, examples.actions[flat]] = True
    target[batch_rows, examples.actions[flat]] = examples.targets[flat]
    return mask, target


def train_epochs(
    model: PolicyValueMLP,
    optimiser: Any,
    examples: Examples,
    *,
    epochs: float,
    batch: int,
    value_mix: float,
    num_actions: int,
    generator: np.random.Generator,
) -> tuple[float, float]:
    """Train on ``examples``; the mean policy and value losses of the last epoch's batches."""
    values = (1 - value_mix) * examples.returns + value_mix * examples.search_values
    steps = max(1, int(epochs * len(examples) / batch))
    per_epoch = max(1, len(examples) // batch)
    policy_losses: list[float] = []
    value_losses: list[float] = []
    observations = torch.from_numpy(examples.observations)
    for step in range(steps):
        rows = generator.integers(0, len(examples), size=batch)
        mask, target = _batch_targets(examples, rows, num_actions)
        logits, value = model(observations[rows])
        logits = logits.masked_fill(~torch.from_numpy(mask), -1e9)
        policy_loss = -(torch.from_numpy(target) * torch.log_softmax(logits, dim=-1)).sum(-1)
        value_loss = (value - torch.from_numpy(values[rows])) ** 2
        loss = policy_loss.mean() + value_loss.mean()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if step >= steps - per_epoch:
            policy_losses.append(float(policy_loss.mean().detach()))
            value_losses.append(float(value_loss.mean().detach()))
    return float(np.mean(policy_losses)), float(np.mean(value_losses))


def _write_json(path: Path, data: dict[str, Any]) -> None:
    with tempfile.NamedTemporaryFile("w", dir=path.parent, suffix=".json", delete=False) as f:
        json.dump(data, f, indent=1)
    os.replace(f.name, path)


def _save_examples(path: Path, examples: Examples) -> None:
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npz", delete=False) as handle:
        np.savez(handle, **examples.arrays())  # type: ignore[arg-type]
    os.replace(handle.name, path)


def _load_examples(path: Path) -> Examples:
    with np.load(path, allow_pickle=False) as data:
        return Examples(**{name: data[name] for name in data.files})


def _parse_options(items: Sequence[str]) -> dict[str, str]:
    options = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--option takes name=value; got {item!r}")
        options[name.strip()] = value.strip()
    return options


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m ludoteca.ai.neural.train",
        description="Train a game's policy/value network by self-play (see the module docs).",
    )
    parser.add_argument("game", help="game id, e.g. pente_grammai")
    parser.add_argument("--out", type=Path, required=True, help="run folder (resumed if it exists)")
    parser.add_argument("--option", action="append", default=[], help="game option name=value")
    parser.add_argument("--generations", type=int, default=10)
    parser.add_argument("--games", type=int, default=100, help="self-play games per generation")
    parser.add_argument("--iterations", type=int, default=100, help="PUCT iterations per move")
    parser.add_argument("--sampled-moves", type=int, default=20)
    parser.add_argument("--hidden", default="128,128", help="hidden layer widths, e.g. 128,64")
    parser.add_argument("--window", type=int, default=4, help="generations of examples kept")
    parser.add_argument("--epochs", type=float, default=2.0, help="passes over the examples kept")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--weight-decay", type=float, default=1e-4)
    parser.add_argument("--value-mix", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


_SETTINGS = (
    "game", "option", "games", "iterations", "sampled_moves", "hidden", "window", "epochs",
    "batch", "lr", "weight_decay", "value_mix", "seed",
)  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    """Run or resume a training run; see the module docs."""
    _require_torch()
    args = _arguments(argv)
    torch.set_num_threads(1)
    game: Game = make(args.game, **_parse_options(args.option))
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    settings = {name: getattr(args, name) for name in _SETTINGS}
    run_file = out / "run.json"
    if run_file.exists():
        recorded = json.loads(run_file.read_text())
        if recorded != settings:
            raise SystemExit(
                f"{out} holds a run with other settings ({recorded}); use another --out"
            )
    else:
        _write_json(run_file, settings)
    hidden = [int(width) for width in args.hidden.split(",")]
    inputs = int(np.prod(game.observation_shape))
    torch.manual_seed(args.seed)
    model = PolicyValueMLP(inputs, hidden, game.num_actions)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    progress_file = out / "progress.json"
    progress = {"generation": 0, "cpu_seconds": 0.0, "wall_seconds": 0.0}
    if progress_file.exists():
        progress = json.loads(progress_file.read_text())
        saved = torch.load(out / "trainer.pt", weights_only=True)
        model.load_state_dict(saved["model"])
        optimiser.load_state_dict(saved["optimiser"])
    self_play = SelfPlaySettings(iterations=args.iterations, sampled_moves=args.sampled_moves)
    for generation in range(int(progress["generation"]) + 1, args.generations + 1):
        started_wall, started_cpu = time.perf_counter(), time.process_time()
        network: Network = network_from_arrays(game.id, model.arrays())
        generator = np.random.default_rng([args.seed, generation])
        games, lengths, wins = [], [], [0, 0, 0]
        for _ in range(args.games):
            examples, final = play_game(game, network, self_play, generator)
            games.append(examples)
            lengths.append(len(examples))
            outcome = final.outcome
            wins[2 if outcome is None or outcome.winner is None else outcome.winner] += 1
        _save_examples(out / f"examples-{generation}.npz", Examples.joined(games))
        play_cpu = time.process_time() - started_cpu
        kept = [
            _load_examples(out / f"examples-{g}.npz")
            for g in range(max(1, generation - args.window + 1), generation + 1)
        ]
        buffer = Examples.joined(kept)
        torch.manual_seed(args.seed * 100_003 + generation)
        policy_loss, value_loss = train_epochs(
            model, optimiser, buffer, epochs=args.epochs, batch=args.batch,
            value_mix=args.value_mix, num_actions=game.num_actions, generator=generator,
        )  # fmt: skip
        trained = network_from_arrays(game.id, model.arrays())
        save_weights(trained, out / f"network-{generation}.npz")
        save_weights(trained, out / "network.npz")
        with tempfile.NamedTemporaryFile(dir=out, suffix=".pt", delete=False) as handle:
            torch.save({"model": model.state_dict(), "optimiser": optimiser.state_dict()}, handle)
        os.replace(handle.name, out / "trainer.pt")
        cpu = time.process_time() - started_cpu
        wall = time.perf_counter() - started_wall
        progress = {
            "generation": generation,
            "cpu_seconds": float(progress["cpu_seconds"]) + cpu,
            "wall_seconds": float(progress["wall_seconds"]) + wall,
        }
        line = {
            "generation": generation, "examples": int(sum(lengths)), "buffer": len(buffer),
            "wins": wins, "self_play_cpu": round(play_cpu, 1), "cpu": round(cpu, 1),
            "wall": round(wall, 1), "load": round(os.getloadavg()[0], 2),
            "policy_loss": round(policy_loss, 4), "value_loss": round(value_loss, 4),
        }  # fmt: skip
        with open(out / "log.jsonl", "a") as log:
            log.write(json.dumps(line) + "\n")
        _write_json(progress_file, progress)
        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
