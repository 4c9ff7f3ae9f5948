"""The phone's outbox rules (static/js/outbox_core.js) under node's own test runner: every answer
kind a queued action can get (recorded, 401, 403 for a lost session, a stale CSRF token or the
wrong account, 404, 409, 413, 4xx refusals, 429, 5xx, a network error, a page instead of the
answer), and that only a recorded answer or the judge's discard takes an action out."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")


def test_the_outbox_state_machine_over_every_answer_kind() -> None:
    if NODE is None:
        pytest.fail("node is missing: the outbox's unit tests run under `node --test` (Debian's nodejs)")
    tests = sorted(str(p) for p in (ROOT / "tests" / "js").glob("*.test.mjs"))
    assert tests, "no JavaScript tests found under tests/js"
    run = subprocess.run([NODE, "--test", *tests], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout, run.stdout[-3000:]
