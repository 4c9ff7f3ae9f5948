"""Tournament time zones: IANA names (zoneinfo), checked before anything is stored."""

from __future__ import annotations

import zoneinfo
from functools import cache
from typing import Any


@cache
def known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def zone_name(value: Any) -> str | None:
    """The IANA zone name `value` names ("America/Los_Angeles"), or None if it names none."""
    name = value.strip() if isinstance(value, str) else None
    return name if name in known_zones() else None


def zone_label(name: str) -> str:
    """How a page names a zone: "America/Los Angeles" (the IANA name, underscores as spaces)."""
    return name.replace("_", " ")


def common_zones() -> list[str]:
    """Zone names for a form's suggestion list, sorted."""
    return sorted(known_zones())
