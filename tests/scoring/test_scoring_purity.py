"""Scoring arithmetic is exact: no float() call or float literal in the points systems (STYLE.md 9).

(Import purity and mypy --strict for every pure core are checked in tests/platform/test_pure_cores.py.)
"""

from __future__ import annotations

import ast
import pathlib

import dune.points

PACKAGE = pathlib.Path(dune.points.__file__).parent


def test_no_float_calls_or_literals_in_source() -> None:
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id != "float", f"float() in {path.name}:{node.lineno}"
            if isinstance(node, ast.Constant) and isinstance(node.value, float):
                raise AssertionError(f"float literal in {path.name}:{node.lineno}")
