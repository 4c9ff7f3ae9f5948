"""The engine is pure: importing every gameplay.engine module loads no Django (DESIGN
principle 1; STYLE example 12)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "gameplay" / "engine"


def test_engine_imports_no_django() -> None:
    modules = sorted(f"gameplay.engine.{p.stem}" for p in ENGINE.glob("*.py") if p.stem != "__init__")
    assert "gameplay.engine.events" in modules and "gameplay.engine.game_log" in modules
    code = (
        "import importlib, json, sys\n"
        f"mods = {modules!r}\n"
        "for m in mods: importlib.import_module(m)\n"
        "import gameplay.engine as e\n"
        "[getattr(e, n) for n in e.__all__]\n"
        "print(json.dumps(sorted(k for k in sys.modules if k == 'django' or k.startswith('django.')"
        " or k.startswith('rest_framework'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_importing_ids_stays_cheap() -> None:
    """gameplay.engine.ids must not load the board data."""
    code = "import sys, gameplay.engine.ids; print('gameplay.engine.board' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
