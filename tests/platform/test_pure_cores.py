"""The pure cores import no Django (DESIGN.md principle 1; STYLE.md example 12).

The rules engine, the seating planner, the scoring systems and the clock arithmetic must
run without a database, settings or translation: each is imported in a fresh interpreter
and the test fails if any `django` module got loaded along the way.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PURE_PACKAGES = ["gameplay.engine", "scoring.systems", "formats", "refusals"]
PURE_MODULES = [
    "tournament.seating",
    "tournament.seating_draw",
    "tournament.seating_changes",
    "tournament.seating_words",
    "tournament.text_rules",
    "tournament.csv_export",
    "gameplay.turn_flow",
    "clocks.limits",
    "insights.figures",
    "insights.charts",
    "ratings.compute",
    "ratings.charts",
    "venue.document",
]


def pure_module_names() -> list[str]:
    names: list[str] = []
    for package in PURE_PACKAGES:
        names.append(package)
        path = ROOT.joinpath(*package.split("."))
        names += [f"{package}.{info.name}" for info in pkgutil.iter_modules([str(path)])]
    return names + PURE_MODULES


def test_every_listed_pure_module_exists() -> None:
    """A module that moved or was renamed must be listed again, never silently left out."""
    missing = [name for name in (*PURE_PACKAGES, *PURE_MODULES) if find_spec(name) is None]
    assert missing == []


@pytest.mark.parametrize("module", pure_module_names())
def test_pure_module_imports_no_django(module: str) -> None:
    code = (
        "import importlib, sys\n"
        f"importlib.import_module({module!r})\n"
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(','.join(loaded))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"{module} loads Django modules: {result.stdout.strip()}"


def test_public_engine_names_resolve_without_django() -> None:
    code = (
        "import sys, gameplay.engine as e\n"
        "[getattr(e, n) for n in e.__all__]\n"
        "print(any(m == 'django' or m.startswith(('django.', 'rest_framework')) for m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False", result.stderr


def test_importing_ids_stays_cheap() -> None:
    """`gameplay.engine.ids` is imported by every layer; it must not load the board data."""
    code = "import sys, gameplay.engine.ids; print('gameplay.engine.board' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False", result.stderr


def test_pure_cores_pass_mypy_strict() -> None:
    """STYLE.md example 15: the pure packages are type-checked strictly."""
    paths = [p.replace(".", "/") for p in PURE_PACKAGES]
    paths += [name.replace(".", "/") + ".py" for name in PURE_MODULES]
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *paths],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
