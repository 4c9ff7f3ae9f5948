"""Exact-number helpers: reading report numbers and showing Fractions as decimals."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from dune.engine.numbers import MAX_PLACES, MAX_WHOLE_DIGITS, bounded_decimal


def to_fraction(value: object) -> Fraction:
    """Read an int, Decimal, Fraction, decimal string or JSON float as an exact Fraction.

    A float goes through its shortest decimal text, so the JSON `9.5` or `0.1` is read as
    written rather than as its binary approximation. Every number is held to the engine's
    bounds on digits and exponent (`bounded_decimal`) before any arithmetic.

    Raises:
        TypeError: a bool or another type.
        ValueError: not a finite decimal number within the bounds (the message says which).
    """
    if isinstance(value, bool):
        raise TypeError(f"{value!r} is not a number")
    if isinstance(value, Fraction):
        if abs(value) >= 10**MAX_WHOLE_DIGITS or value.denominator > 10**MAX_PLACES:
            raise ValueError(f"{value} is outside the bounds of a decimal the platform reads")
        return value
    if isinstance(value, int):
        return Fraction(bounded_decimal(value))
    if isinstance(value, float):
        return Fraction(bounded_decimal(repr(value)))
    if isinstance(value, (Decimal, str)):
        return Fraction(bounded_decimal(str(value)))
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


def plural_count(value: Fraction | int) -> int:
    """The whole number that picks the plural form a number of points is read with: the number
    itself when whole; a fraction is read in the plural ("0.5 points", "1.5 points"), which 2
    picks. Plural rules take whole numbers only."""
    frac = Fraction(value)
    return frac.numerator if frac.denominator == 1 else 2


def to_decimal(value: Fraction | int, *, places: int = 3) -> Decimal:
    """The exact number rounded half up to `places` decimals (for JSON and CSV output)."""
    return Decimal(fmt(value, places=places))
