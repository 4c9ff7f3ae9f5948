"""The database tests under db/ need pytest-django; the pure tests run without it
(`-p no:django`), in which case db/ is not collected at all."""

from __future__ import annotations

from pathlib import Path

import pytest

DB_TESTS = Path(__file__).parent / "db"


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if DB_TESTS in (collection_path, *collection_path.parents) and not config.pluginmanager.has_plugin(
        "django"
    ):
        return True
    return None
