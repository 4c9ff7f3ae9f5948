"""Absolute links people follow from paper or another device: the QR codes on printed sheets
and badges, and the players' self check-in links.

They use `settings.VENUE_URL` when it is set (`make venue` sets it to the laptop's address on
the venue's network), so a sheet printed from the laptop's own browser at 127.0.0.1 still
sends phones to the address they can reach; otherwise the address of the request.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings


def absolute_link(request: Any, path: str) -> str:
    base = getattr(settings, "VENUE_URL", "")
    if base:
        return f"{base.rstrip('/')}{path}"
    return str(request.build_absolute_uri(path))
