"""CSV exports that open safely in a spreadsheet (pure: no Django).

A spreadsheet reads a cell starting with `=`, `+`, `-` or `@` (or a tab or carriage return
before one) as a formula, so a player named `=HYPERLINK(...)` would run in the organiser's
spreadsheet. As the usual guidance recommends, such text cells are written with a leading
apostrophe, which spreadsheets show as plain text. Plain numbers (`-2.5`) are left alone.
Every CSV download goes through `csv_writer` so no export can forget this.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any, Protocol

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


class _Writable(Protocol):
    def write(self, text: str, /) -> Any: ...


def csv_safe(value: Any) -> Any:
    """`value`, with a leading apostrophe if it is text a spreadsheet would run as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


class SafeCsvWriter:
    """A `csv.writer` whose every cell passes through `csv_safe`."""

    def __init__(self, target: _Writable) -> None:
        self._writer = csv.writer(target)

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([csv_safe(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_writer(target: _Writable) -> SafeCsvWriter:
    return SafeCsvWriter(target)
