"""The embedded default (`make run`) and the venue laptop run on SQLite: the written-out SQL of
the live pages' versions and of a judge's post must work there as on PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.venue import sqlite_template

ROOT = Path(__file__).resolve().parents[2]


def test_live_pages_and_a_post_on_sqlite(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'embedded.sqlite3'}",
        "DEBUG": "true",
        "VAR_DIR": str(tmp_path / "var"),
        "ALLOWED_HOSTS": "testserver",
    }
    env.pop("REDIS_URL", None)  # the embedded default: file cache, file-system broker
    sqlite_template.migrated(tmp_path / "embedded.sqlite3")  # the probe's migrate has nothing left to apply
    done = subprocess.run(
        [sys.executable, "-m", "tests.venue.embedded_probe"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["round"] == [200, 304] and seen["standings"] == 200
    assert seen["post"] == [201, 201, "true"]
    assert seen["seq"][1] == seen["seq"][0] + 1  # recorded once
    assert seen["changed"] == 304  # a move changes no public page


def test_on_sqlite_an_export_and_a_pull_racing_a_phone_read_one_moment(tmp_path: Path) -> None:
    """The venue laptop's SQLite: every read of a backup, an export or a pull is one read
    transaction, so a phone's records written meanwhile are in it with their answers or not at all."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'embedded.sqlite3'}",
        "DEBUG": "true",
        "VAR_DIR": str(tmp_path / "var"),
        "ALLOWED_HOSTS": "testserver",
    }
    env.pop("REDIS_URL", None)
    sqlite_template.migrated(tmp_path / "embedded.sqlite3")
    done = subprocess.run(
        [sys.executable, "-m", "tests.venue.embedded_moment_probe"], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["recorded"] > 0, "the phone recorded nothing while the tournament was read"
    assert seen["tears"] == [], seen
