"""Exact numbers for JSON: fractions are sent as decimal strings ("9.5"), never floats."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction


def decimal_str(value: Fraction | int) -> str:
    """`Fraction(19, 2)` -> `"9.5"`. Raises ValueError for a non-terminating decimal."""
    if isinstance(value, int):
        return str(value)
    num, den = value.numerator, value.denominator
    if den == 1:
        return str(num)
    digits = 0
    scale = 1
    while scale % den:
        scale *= 10
        digits += 1
        if digits > 30:
            raise ValueError(f"{value!r} has no exact decimal form")
    scaled = abs(num) * (scale // den)
    whole, frac = divmod(scaled, scale)
    text = f"{whole}.{frac:0{digits}d}".rstrip("0").rstrip(".")
    return "-" + text if num < 0 else text


def parse_decimal(text: str | int) -> Fraction:
    """Inverse of `decimal_str`. Raises ValueError (decimal.InvalidOperation)."""
    return Fraction(Decimal(str(text)))
