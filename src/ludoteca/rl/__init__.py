"""Reinforcement-learning interfaces: observation tensors, batched games (docs/rl.md)."""

from ludoteca.rl.vector import VectorEnv, VectorStep

__all__ = ["VectorEnv", "VectorStep"]
