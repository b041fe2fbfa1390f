"""The kernel contract (`ludoteca.core.kernels`): every game keeps it, the typed stubs that mypy
reads say the same as the compiled functions, and the conformance check catches a kernels module
that breaks it."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from types import ModuleType

import pytest
from numba import njit

import ludoteca
from ludoteca.core.array_state import KernelGame
from ludoteca.core.conformance import ConformanceError, check_kernels
from ludoteca.core.kernels import KERNEL_SIGNATURES, parameter_names, signature_problems
from ludoteca.games.salt_n_pepper import kernels as snp_kernels


def _kernel_game(game_id: str) -> KernelGame:
    game = ludoteca.make(game_id)
    assert isinstance(game, KernelGame)
    return game


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_every_game_keeps_the_signatures(game_id: str) -> None:
    game = _kernel_game(game_id)
    assert signature_problems(game.kernels, len(game.kernel_args)) == []


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_the_typed_stub_matches_the_compiled_kernels(game_id: str) -> None:
    game = _kernel_game(game_id)
    stub = Path(inspect.getfile(game.kernels)).with_suffix(".pyi")
    declared = {
        node.name: [a.arg for a in node.args.posonlyargs + node.args.args]
        for node in ast.parse(stub.read_text()).body
        if isinstance(node, ast.FunctionDef)
    }
    for kernel in KERNEL_SIGNATURES:
        assert declared[kernel] == parameter_names(getattr(game.kernels, kernel)), kernel


def _broken(**replacements: object) -> ModuleType:
    """Salt 'n' Pepper's kernels module with some kernels replaced."""
    module = ModuleType("broken_kernels")
    module.__dict__.update(vars(snp_kernels))
    module.__dict__.update(replacements)
    module.__name__ = "broken_kernels"
    return module


def _salt_n_pepper_with(kernels: ModuleType) -> KernelGame:
    base = type(_kernel_game("salt_n_pepper"))
    game_class = type("BrokenSaltNPepper", (base,), {"kernels": kernels})
    game = game_class()
    assert isinstance(game, KernelGame)
    return game


@njit
def _apply_action_in_the_old_order(s, action, params, targets):  # type: ignore[no-untyped-def]
    return snp_kernels.apply_action(s, params, targets, action)


@njit
def _apply_action_that_writes_its_input(s, params, targets, action):  # type: ignore[no-untyped-def]
    snp_kernels.apply_action_inplace(s, action, params, targets)
    return s.copy()


@njit
def _mask_of_everything(s, params, targets, out):  # type: ignore[no-untyped-def]
    out[:] = True


@njit
def _observation_of_the_wrong_player(s, params, targets, player, out):  # type: ignore[no-untyped-def]
    snp_kernels.observation(s, params, targets, 1 - player, out)


def test_a_wrong_signature_fails_the_conformance_check() -> None:
    broken = _broken(apply_action=_apply_action_in_the_old_order)
    problems = signature_problems(broken, 2)
    assert problems == [
        "broken_kernels.apply_action takes the game's arguments as (action, params); the other"
        " kernels take (params, targets): one order everywhere",
        "broken_kernels.apply_action ends with (targets); the contract wants (action) after the"
        " game's arguments",
    ]
    with pytest.raises(ConformanceError, match="apply_action takes the game's arguments"):
        check_kernels(_salt_n_pepper_with(broken))


def test_a_missing_or_uncompiled_kernel_fails() -> None:
    def expand(s, params, targets):  # type: ignore[no-untyped-def]
        return snp_kernels.expand(s, params, targets)

    problems = signature_problems(_broken(expand=expand, random_playout_records=None), 2)
    assert "broken_kernels.expand is not a numba-compiled function (no py_func)" in problems
    assert "broken_kernels.random_playout_records is missing" in problems


def test_a_kernel_that_writes_its_input_fails() -> None:
    broken = _broken(apply_action=_apply_action_that_writes_its_input)
    assert signature_problems(broken, 2) == []
    with pytest.raises(ConformanceError, match="apply_action must leave its input unchanged"):
        check_kernels(_salt_n_pepper_with(broken))


def test_a_missing_learning_kernel_fails() -> None:
    problems = signature_problems(_broken(vector_step=None, observation=None), 2)
    assert "broken_kernels.vector_step is missing" in problems
    assert "broken_kernels.observation is missing" in problems


def test_a_mask_that_is_not_the_legal_actions_fails() -> None:
    broken = _broken(action_mask=_mask_of_everything)
    assert signature_problems(broken, 2) == []
    with pytest.raises(ConformanceError, match="legal_action_mask must be True exactly"):
        check_kernels(_salt_n_pepper_with(broken))


def test_a_batch_that_disagrees_with_the_observation_kernel_fails() -> None:
    broken = _broken(observation=_observation_of_the_wrong_player)
    with pytest.raises(ConformanceError, match="batch row's observation"):
        check_kernels(_salt_n_pepper_with(broken))
