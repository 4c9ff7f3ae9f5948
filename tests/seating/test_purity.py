"""The planner is a pure core: no Django import, and it passes mypy --strict (DESIGN.md, STYLE.md 12, 15)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PURE_MODULES = ("tournament/seating.py", "tournament/seating_draw.py", "tournament/seating_changes.py")


def test_pure_modules_import_no_django() -> None:
    """Importing the planner in a fresh interpreter loads no django module."""
    code = (
        "import sys; import tournament.seating, tournament.seating_draw, tournament.seating_changes; "
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_pure_modules_pass_mypy_strict() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", *PURE_MODULES], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
