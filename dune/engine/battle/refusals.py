"""The refusals of a battle plan: the ruleset's rule number for a check, and the refusal naming the plan's field."""

from __future__ import annotations

from typing import Any, NoReturn

from dune.engine.errors import IllegalAction
from dune.engine.position import Position


def rule_for(pos: Position, key: str, fallback: str | None = None) -> str:
    cite = pos.ruleset.cite
    return cite.get(key) or (cite.get(fallback, fallback) if fallback else key)


def refuse(pos: Position, key: str, msg: str, value: Any, field: str, fallback: str | None = None) -> NoReturn:
    raise IllegalAction(rule=rule_for(pos, key, fallback), msg=msg, phase=pos.phase, input=value, field=field)
