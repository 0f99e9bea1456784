"""The docstring examples run, and the engine imports nothing outside the standard library."""

from __future__ import annotations

import ast
import doctest
import importlib
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
MODULES = sorted(p.stem for p in ENGINE.glob("*.py"))


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(
        "games.engine" if name == "__init__" else f"games.engine.{name}"
    )
    result = doctest.testmod(module)
    assert result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_standard_library_only(name):
    tree = ast.parse((ENGINE / f"{name}.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            roots = [(node.module or "").split(".")[0]]
        else:
            continue
        for root in roots:
            assert root in sys.stdlib_module_names or root == "__future__", root
