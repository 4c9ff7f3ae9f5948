"""Exact numbers for JSON: fractions are sent as decimal strings ("9.5"), never floats.

Every decimal the platform reads goes through `bounded_decimal`: a number is kept to a few
digits and a small exponent before any arithmetic, because `Fraction(Decimal("1E+999999999"))`
builds an integer of a billion digits (a worker busy for minutes) and a few thousand digits
already cost every later comparison. A table's figures (spice, tokens, PP) are far inside
these bounds.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from fractions import Fraction

#: Significant digits a decimal may carry.
MAX_DIGITS = 30
#: Digits before the decimal point (so every number read is below 10**15).
MAX_WHOLE_DIGITS = 15
#: Digits after the decimal point.
MAX_PLACES = 15


def decimal_problem(
    text: str, *, digits: int = MAX_DIGITS, whole: int = MAX_WHOLE_DIGITS, places: int = MAX_PLACES
) -> str | None:
    """Why `text` is not a decimal the platform reads, in words; None when it is one.

    Looks only at the digits and the exponent: constant time whatever the exponent says. A text
    longer than any decimal within the bounds is refused before it is read, so thousands of
    digits cost no more than a few.
    """
    text = text.strip()
    # The longest a decimal within the bounds is written: its digits, the zeros after the point
    # before them, a sign, a point and an exponent, with room to spare.
    if len(text) > 2 * (digits + places) + 8:
        return f"has more than {digits} digits"
    try:
        dec = Decimal(text)
    except (InvalidOperation, ValueError):
        return "is not a decimal number"
    if not dec.is_finite():
        return "is not a finite number"
    sign, kept, exponent = dec.as_tuple()
    assert isinstance(exponent, int)  # finite
    if len(kept) > digits:
        return f"has more than {digits} digits"
    if dec and dec.adjusted() >= whole:
        return f"is too large: at most {whole} digits before the decimal point"
    if exponent < -places:
        return f"has more than {places} digits after the decimal point"
    return None


def bounded_decimal(value: str | int | Decimal) -> Decimal:
    """`value` as a `Decimal` within the bounds above.

    Raises:
        ValueError: not a finite decimal within the bounds (the message says which bound).
    """
    if isinstance(value, int) and abs(value) >= 10**MAX_WHOLE_DIGITS:
        raise ValueError(
            f"the number is too large: at most {MAX_WHOLE_DIGITS} digits before the decimal point"
        )
    text = str(value)
    problem = decimal_problem(text)
    if problem is not None:
        shown = text if len(text) <= 40 else f"{text[:20]}…{text[-8:]}"
        raise ValueError(f"{shown!r} {problem}")
    return Decimal(text.strip())


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
    """Inverse of `decimal_str`, for a decimal within the bounds of `bounded_decimal`.

    Raises:
        ValueError: not a finite decimal within the bounds.
    """
    return Fraction(bounded_decimal(text))
