"""Tournament time zones: IANA names (zoneinfo), checked before anything is stored."""

from __future__ import annotations

import zoneinfo
from functools import cache
from typing import Any

#: Names in the zone database that are not places: the machine's own zone (`localtime`, a
#: different zone on every server), the placeholder `Factory` ("-00") and the POSIX rule file.
NOT_PLACES = frozenset({"localtime", "Factory", "posixrules"})


@cache
def known_zones() -> frozenset[str]:
    return frozenset(
        name for name in zoneinfo.available_timezones()
        if name not in NOT_PLACES and not name.startswith(("posix/", "right/"))
    )


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
