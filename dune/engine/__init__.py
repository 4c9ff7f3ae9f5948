"""The rules engine: pure Python, no Django, no clock, no database.

Public face (names other parts depend on): `load_position`, `evaluate`, `replay`, `apply`.
They are resolved lazily so that importing the stable ids in `dune.engine.ids`
never loads the board data.
"""

from __future__ import annotations

from typing import Any

__all__ = ["load_position", "evaluate", "replay", "apply"]

_PUBLIC = {
    "load_position": "dune.engine.codec.position",
    "evaluate": "dune.engine.evaluation",
    "replay": "dune.engine.game_log",
    "apply": "dune.engine.game_log",
}


def __getattr__(name: str) -> Any:
    module_name = _PUBLIC.get(name)
    if module_name is None:
        raise AttributeError(f"module 'dune.engine' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module_name), name)
