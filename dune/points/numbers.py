"""Exact-number helpers: reading report numbers and showing Fractions as decimals."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction


def to_fraction(value: object) -> Fraction:
    """Read an int, Decimal, Fraction, decimal string or JSON float as an exact Fraction.

    A float goes through its shortest decimal text, so the JSON `9.5` or `0.1` is read as
    written rather than as its binary approximation.

    Raises:
        TypeError: a bool or another type.
        ValueError: a string that is not a finite decimal number.
    """
    if isinstance(value, bool):
        raise TypeError(f"{value!r} is not a number")
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(Decimal(repr(value)))
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{value!r} is not finite")
        return Fraction(value)
    if isinstance(value, str):
        try:
            dec = Decimal(value.strip())
        except ArithmeticError as exc:
            raise ValueError(f"{value!r} is not a decimal number") from exc
        if not dec.is_finite():
            raise ValueError(f"{value!r} is not finite")
        return Fraction(dec)
    raise TypeError(f"{value!r} is not a number")


def fmt(value: Fraction | int, *, places: int = 3) -> str:
    """Show an exact number as a short decimal: 3, 0.5, 1.131 (rounded half up to `places`)."""
    if isinstance(value, int):
        return str(value)
    frac = value
    if frac.denominator == 1:
        return str(frac.numerator)
    if frac.denominator == 2:
        # Halves (adjudicated points, weighted tokens) are the common case: show them directly.
        whole = abs(frac.numerator) // 2
        return f"{'-' if frac.numerator < 0 else ''}{whole}.5"
    quantum = Decimal(1).scaleb(-places)
    dec = (Decimal(frac.numerator) / Decimal(frac.denominator)).quantize(quantum, rounding=ROUND_HALF_UP)
    text = format(dec, "f").rstrip("0").rstrip(".")
    return text or "0"


def to_decimal(value: Fraction | int, *, places: int = 3) -> Decimal:
    """The exact number rounded half up to `places` decimals (for JSON and CSV output)."""
    return Decimal(fmt(value, places=places))
