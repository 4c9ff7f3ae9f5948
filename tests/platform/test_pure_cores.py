"""The pure cores import no Django (DESIGN.md principle 1; STYLE.md example 12).

The rules engine, the seating planner, the scoring systems and the clock arithmetic must
run without a database, settings or translation: each is imported in a fresh interpreter
and the test fails if any `django` module got loaded along the way.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Everything under `dune/` is a pure core.
PURE_ROOT = "dune"


def pure_module_names() -> list[str]:
    names = [PURE_ROOT]
    names += [info.name for info in pkgutil.walk_packages([str(ROOT / PURE_ROOT)], prefix=f"{PURE_ROOT}.")]
    return names


def test_the_pure_cores_live_outside_the_apps() -> None:
    """The engine, the points systems, the seating planner, the clock limits, the format registry,
    the refusals, the event report's figures and the ratings computation live in `dune/`."""
    names = set(pure_module_names())
    for expected in ("dune.engine", "dune.points", "dune.seating", "dune.clock_limits", "dune.formats",
                     "dune.refusals", "dune.event_report.figures", "dune.ratings.compute"):
        assert expected in names
    for app, core in (("gameplay", "engine"), ("scoring", "systems"), ("clocks", "limits.py"), ("tournament", "seating.py")):
        assert not (ROOT / app / core).exists(), f"{app}/{core} must not live inside an app"
    assert not (ROOT / "formats").exists() and not (ROOT / "refusals").exists()


#: Run in a bare interpreter: for each module, a child forked from it (a fresh interpreter's
#: state, without paying for a new interpreter each time) imports the module and says which
#: `django` modules it loaded, or how the import failed. The parent first loads the standard
#: library modules nearly every core imports (typing, dataclasses, the number types, dates), so
#: that no child loads them again; none of them loads Django, and every project module is still
#: imported first in its child.
FRESH_IMPORTS = """
import importlib, json, os, sys, traceback
import collections.abc, copy, dataclasses, datetime, decimal, fractions, random, typing

answers = {}
for name in json.loads(sys.argv[1]):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            importlib.import_module(name)
            answer = {"ok": True, "loaded": sorted(m for m in sys.modules if m == "django" or m.startswith("django."))}
        except BaseException:
            answer = {"ok": False, "error": traceback.format_exc()}
        with os.fdopen(write, "w") as out:
            out.write(json.dumps(answer))
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as got:
        text = got.read()
    _, status = os.waitpid(pid, 0)
    answers[name] = json.loads(text) if text else {"ok": False, "error": f"import ended with status {status}"}
print(json.dumps(answers))
"""


@pytest.fixture(scope="module")
def fresh_imports() -> dict[str, dict[str, object]]:
    """Each pure module imported in a fresh interpreter state (one forked child per module)."""
    import json

    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    names = pure_module_names()
    result = subprocess.run([sys.executable, "-c", FRESH_IMPORTS, json.dumps(names)], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60 + 10 * len(names))
    assert result.returncode == 0, result.stderr
    answers: dict[str, dict[str, object]] = json.loads(result.stdout)
    return answers


@pytest.mark.parametrize("module", pure_module_names())
def test_pure_module_imports_no_django(fresh_imports: dict[str, dict[str, object]], module: str) -> None:
    answer = fresh_imports[module]
    assert answer["ok"], answer.get("error")
    loaded = ",".join(answer["loaded"])  # type: ignore[arg-type]
    assert loaded == "", f"{module} loads Django modules: {loaded}"


def test_public_engine_names_resolve_without_django() -> None:
    code = (
        "import sys, dune.engine as e\n"
        "[getattr(e, n) for n in e.__all__]\n"
        "print(any(m == 'django' or m.startswith(('django.', 'rest_framework')) for m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False", result.stderr


def test_importing_ids_stays_cheap() -> None:
    """`dune.engine.ids` is imported by every layer; it must not load the board data."""
    code = "import sys, dune.engine.ids; print('dune.engine.board' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False", result.stderr


def test_pure_cores_pass_mypy_strict() -> None:
    """STYLE.md example 15: the pure packages are type-checked strictly. mypy keeps what it
    learnt of each unchanged module in .mypy_cache (as `make typecheck` does) and checks again
    only what changed and what depends on it: the same answer as a check from scratch."""
    paths = [PURE_ROOT]
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", *paths],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
