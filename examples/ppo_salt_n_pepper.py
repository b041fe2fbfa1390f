"""Train a PPO policy for Salt 'n' Pepper on `VectorEnv`, export it to ONNX, rate it in the arena.

Step by step (docs/rl.md, "Training example"):

1. ``VectorEnv`` plays ``--envs`` games side by side in compiled code. In each game the policy
   plays one seat (game ``i`` gives it seat ``i % 2``) and the other seat plays uniformly random
   moves (`VectorEnv.random_actions`), so the policy learns both Salt and Pepper.
2. A rollout of ``--steps`` batch steps collects the policy's decisions: observation, legal-move
   mask, action, log-probability and value. Rewards come only when a game ends: the policy's
   seat's return (+1 win, -1 loss, 0 draw).
3. Advantages by GAE along each game's sequence of the policy's decisions; a sequence cut by the
   end of the rollout is bootstrapped with the value of the position it stands in.
4. PPO updates: the clipped surrogate on masked logits (illegal actions get no probability), a
   value loss and an entropy bonus, ``--epochs`` passes over shuffled minibatches.
5. After ``--seconds`` of training (or ``--updates`` updates) the policy is exported to ONNX
   (input ``observation``: ``(batch, 8, ranks, 10)``; output ``logits``: ``(batch, 2401)``) and
   can be rated: ``ludoteca arena salt_n_pepper onnx:ppo.onnx level:3 level:5 --games 200``.

Needs the ``learn`` extra (PyTorch and ONNX): ``pip install torch==2.13.0`` where that CPU build
is at hand, then ``pip install -e '.[learn]'``. Run::

    python examples/ppo_salt_n_pepper.py --seconds 600 --out ppo.onnx
"""

from __future__ import annotations

import argparse
import json
import resource
import time
import warnings
from pathlib import Path

import numpy as np
import torch
from torch import nn

from ludoteca.rl import VectorEnv

GAME = "salt_n_pepper"
ILLEGAL = -1e9  # the logit of an illegal action: no probability, and no NaN in the softmax


class PolicyNet(nn.Module):
    """A small fully connected network: policy logits over every action, and a value.

    Two hidden layers over the flattened observation; most of its cost is the policy head
    (2,401 actions), which a convolutional body would not make cheaper.
    """

    def __init__(self, shape: tuple[int, ...], num_actions: int, width: int = 256) -> None:
        super().__init__()
        size = int(np.prod(shape))
        self.body = nn.Sequential(
            nn.Flatten(),
            nn.Linear(size, width),
            nn.ReLU(),
            nn.Linear(width, width),
            nn.ReLU(),
        )
        self.policy = nn.Linear(width, num_actions)
        self.value = nn.Linear(width, 1)

    def forward(self, observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits ``(batch, num_actions)`` and values in [-1, 1] ``(batch,)``."""
        hidden = self.body(observations)
        return self.policy(hidden), torch.tanh(self.value(hidden)).squeeze(-1)


class LogitsOnly(nn.Module):
    """The policy head alone, as the ONNX file holds it (docs/rl.md: logits per action)."""

    def __init__(self, net: PolicyNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        """The logits only."""
        return self.net(observations)[0]


def masked(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """The logits with every illegal action's set to `ILLEGAL`."""
    return torch.where(masks, logits, torch.full_like(logits, ILLEGAL))


def advantages(
    rewards: np.ndarray,
    values: np.ndarray,
    dones: np.ndarray,
    last_values: np.ndarray,
    gamma: float,
    lam: float,
) -> np.ndarray:
    """GAE over one sequence of decisions; ``last_values`` bootstraps a sequence not ended."""
    out = np.zeros_like(values)
    running = 0.0
    for k in reversed(range(len(values))):
        following = last_values if k == len(values) - 1 else values[k + 1]
        following = 0.0 if dones[k] else following
        delta = rewards[k] + gamma * following - values[k]
        running = delta + gamma * lam * (0.0 if dones[k] else running)
        out[k] = running
    return out


def train(arguments: argparse.Namespace) -> dict[str, float]:
    """Train as the module docs say, write the ONNX file; the run's counts and times."""
    torch.manual_seed(arguments.seed)
    torch.set_num_threads(arguments.threads)
    rng = np.random.default_rng(arguments.seed)
    env = VectorEnv(GAME, num_envs=arguments.envs, seed=arguments.seed, ranks=arguments.ranks)
    net = PolicyNet(env.observation_shape, env.num_actions)
    optimiser = torch.optim.Adam(net.parameters(), lr=arguments.lr)
    seats = np.arange(arguments.envs) % 2  # the policy's seat in each game
    observations, masks = env.reset()
    steps, envs = arguments.steps, arguments.envs
    started, cpu_started = time.monotonic(), time.process_time()
    finished_games, won, updates = 0, 0.0, 0
    while True:
        elapsed = time.monotonic() - started
        if updates >= arguments.updates or (arguments.seconds and elapsed >= arguments.seconds):
            break
        # -- rollout ------------------------------------------------------------------------
        buffer_obs = np.zeros((steps, envs, *env.observation_shape), np.float32)
        buffer_masks = np.zeros((steps, envs, env.num_actions), np.bool_)
        buffer_actions = np.zeros((steps, envs), np.int64)
        buffer_logp = np.zeros((steps, envs), np.float32)
        buffer_values = np.zeros((steps, envs), np.float32)
        mine = np.zeros((steps, envs), np.bool_)  # the policy chose in this env at this step
        rewards = np.zeros((steps, envs), np.float32)  # its seat's return, at a game's end
        ended = np.zeros((steps, envs), np.bool_)
        for t in range(steps):
            players = env.players.copy()
            actions = env.random_actions()
            turn = players == seats
            buffer_obs[t], buffer_masks[t], mine[t] = observations, masks, turn
            with torch.no_grad():
                logits, values = net(torch.from_numpy(observations[turn]))
                dist = torch.distributions.Categorical(
                    logits=masked(logits, torch.from_numpy(masks[turn]))
                )
                chosen = dist.sample()
            actions[turn] = chosen.numpy()
            buffer_actions[t, turn] = chosen.numpy()
            buffer_logp[t, turn] = dist.log_prob(chosen).numpy()
            buffer_values[t, turn] = values.numpy()
            result = env.step(actions)
            rewards[t] = result.rewards[np.arange(envs), seats]
            ended[t] = result.terminated
            finished_games += int(result.terminated.sum())
            won += float((rewards[t][result.terminated] > 0).sum())
            observations, masks = result.observations.copy(), result.masks.copy()
        # -- advantages per game, along the policy's own decisions ---------------------------
        with torch.no_grad():
            own_view = np.stack(
                [
                    state.observation(int(seat))
                    for state, seat in zip(env.states(), seats, strict=True)
                ]
            )
            bootstrap = net(torch.from_numpy(own_view))[1].numpy()
        adv = np.zeros((steps, envs), np.float32)
        for i in range(envs):
            decisions = np.flatnonzero(mine[:, i])
            if len(decisions) == 0:
                continue
            # A decision's reward and end: whatever happened before the policy's next decision.
            bounds = [*decisions[1:], steps]
            seq_rewards = np.array(
                [rewards[a:b, i].sum() for a, b in zip(decisions, bounds, strict=True)]
            )
            seq_dones = np.array(
                [ended[a:b, i].any() for a, b in zip(decisions, bounds, strict=True)]
            )
            adv[decisions, i] = advantages(
                seq_rewards,
                buffer_values[decisions, i],
                seq_dones,
                float(bootstrap[i]),
                arguments.gamma,
                arguments.lam,
            )
        returns = adv + buffer_values
        # -- PPO update ---------------------------------------------------------------------
        flat = mine.reshape(-1)
        data = {
            "obs": torch.from_numpy(buffer_obs.reshape(-1, *env.observation_shape)[flat]),
            "masks": torch.from_numpy(buffer_masks.reshape(-1, env.num_actions)[flat]),
            "actions": torch.from_numpy(buffer_actions.reshape(-1)[flat]),
            "logp": torch.from_numpy(buffer_logp.reshape(-1)[flat]),
            "adv": torch.from_numpy(adv.reshape(-1)[flat]),
            "returns": torch.from_numpy(returns.reshape(-1)[flat]),
        }
        count = len(data["actions"])
        for _ in range(arguments.epochs):
            order = rng.permutation(count)
            for first in range(0, count, arguments.minibatch):
                batch = torch.from_numpy(order[first : first + arguments.minibatch])
                logits, values = net(data["obs"][batch])
                dist = torch.distributions.Categorical(logits=masked(logits, data["masks"][batch]))
                logp = dist.log_prob(data["actions"][batch])
                advantage = data["adv"][batch]
                advantage = (advantage - advantage.mean()) / (advantage.std(correction=0) + 1e-8)
                ratio = torch.exp(logp - data["logp"][batch])
                clipped = torch.clamp(ratio, 1 - arguments.clip, 1 + arguments.clip)
                policy_loss = -torch.min(ratio * advantage, clipped * advantage).mean()
                value_loss = ((values - data["returns"][batch]) ** 2).mean()
                loss = policy_loss + 0.5 * value_loss - arguments.entropy * dist.entropy().mean()
                optimiser.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                optimiser.step()
        updates += 1
        if updates % arguments.report_every == 0:
            rate = won / finished_games if finished_games else float("nan")
            print(
                f"update {updates}: {finished_games} games, won {rate:.1%} against random, "
                f"{time.monotonic() - started:.0f} s",
                flush=True,
            )
            finished_games, won = 0, 0.0
    export(net, env.observation_shape, Path(arguments.out))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "updates": updates,
        "wall_seconds": round(time.monotonic() - started, 1),
        "cpu_seconds": round(time.process_time() - cpu_started, 1),
        "process_cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
    }


def export(net: PolicyNet, shape: tuple[int, ...], path: Path) -> None:
    """Write the policy as ONNX: ``observation`` (batch, *shape) in, ``logits`` out."""
    net.eval()
    example = torch.zeros((1, *shape), dtype=torch.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    # The TorchScript exporter needs nothing beyond torch and onnx (the newer one needs
    # onnxscript too); PyTorch warns that it is the older one.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            LogitsOnly(net),
            (example,),
            str(path),
            input_names=["observation"],
            output_names=["logits"],
            dynamic_axes={"observation": {0: "batch"}, "logits": {0: "batch"}},
            dynamo=False,
        )


def main(argv: list[str] | None = None) -> int:
    """The command line: train, export, print a JSON summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="ppo_salt_n_pepper.onnx", help="the ONNX file to write")
    parser.add_argument("--seconds", type=float, default=600, help="training time (0: no limit)")
    parser.add_argument("--updates", type=int, default=10**9, help="stop after this many updates")
    parser.add_argument("--ranks", type=int, default=10, help="the board's ranks (game option)")
    parser.add_argument("--envs", type=int, default=64, help="games played side by side")
    parser.add_argument("--steps", type=int, default=128, help="batch steps per rollout")
    parser.add_argument("--epochs", type=int, default=3, help="PPO passes over a rollout")
    parser.add_argument("--minibatch", type=int, default=512, help="decisions per gradient step")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate")
    parser.add_argument("--gamma", type=float, default=0.99, help="discount per decision")
    parser.add_argument("--lam", type=float, default=0.95, help="GAE's lambda")
    parser.add_argument("--clip", type=float, default=0.2, help="PPO's ratio clip")
    parser.add_argument("--entropy", type=float, default=0.01, help="entropy bonus")
    parser.add_argument("--seed", type=int, default=0, help="seeds the games and the network")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch's CPU threads")
    parser.add_argument("--report-every", type=int, default=5, help="updates between reports")
    arguments = parser.parse_args(argv)
    summary = train(arguments)
    print(json.dumps({"onnx": arguments.out, **summary}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
