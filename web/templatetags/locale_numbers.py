"""Numbers as the reader's locale writes them: `{{ value|points }}` shows a score the scoring
presenters wrote as a short decimal ("1.5", `dune.points.numbers.fmt`) with the locale's decimal
mark (1,5 in Spanish, French and German), keeping its places."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import template
from django.utils import formats

register = template.Library()


def locale_number(value: Any) -> str | None:
    """A number (a score kept as "0.5", an int, a float, a Decimal) with the locale's decimal
    mark, keeping its places; None for anything else (a flag, a word, a list)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        return None
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
    if not number.is_finite():
        return None
    return str(formats.number_format(number, decimal_pos=max(0, -number.as_tuple().exponent)))  # type: ignore[operator]


@register.filter
def points(value: Any) -> Any:
    """A decimal written with a point, in the active locale's format; anything else as it is."""
    shown = locale_number(value)
    return value if shown is None else shown
