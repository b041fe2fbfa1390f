"""Checks shared by the games' tests of their named accessors (see docs/kernels.md)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from types import ModuleType

from ludoteca.core.kernels import parameter_names


def stub_parameters(module: ModuleType) -> dict[str, list[str]]:
    """The parameter names of every function in the typed stub beside ``module``."""
    stub = Path(inspect.getfile(module)).with_suffix(".pyi")
    return {
        node.name: [a.arg for a in node.args.posonlyargs + node.args.args]
        for node in ast.parse(stub.read_text()).body
        if isinstance(node, ast.FunctionDef) and node.name != "__getattr__"
    }


def stub_problems(module: ModuleType, names: tuple[str, ...]) -> list[str]:
    """The accessors in ``names`` that the stub misses or declares with other parameters."""
    declared = stub_parameters(module)
    problems = []
    for name in names:
        if name not in declared:
            problems.append(f"{name}: not in the stub")
        elif declared[name] != parameter_names(getattr(module, name)):
            problems.append(f"{name}: the stub's parameters differ")
    return problems
