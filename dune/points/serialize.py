"""The stored form of a validated report: plain JSON, exact numbers as decimal strings.

`report_to_data` writes what the database keeps once a report is filed; `table_result_from_data`
reads it back without validating again (it was validated when filed), which is what keeps
standings fast. The two round-trip.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any, cast

from dune.engine.ids import ResultKind
from dune.points.base import EndedBy, PlayerId, ReportRow, TableResult, player_sort_key

INT_FIELDS: tuple[str, ...] = ("win_attempts", "strongholds", "forces", "spice", "cards", "leaders", "die")


def exact_decimal(value: Fraction) -> str:
    """A Fraction with a terminating decimal expansion as exact decimal text ("9.5", "0.1").

    Raises:
        ValueError: the fraction has no terminating decimal expansion (e.g. 1/3).
    """
    den = value.denominator
    twos = fives = 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    if den != 1:
        raise ValueError(f"{value!r} has no exact decimal form")
    places = max(twos, fives)
    if places == 0:
        return str(value.numerator)
    scaled = value * 10**places
    sign = "-" if scaled < 0 else ""
    digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


_KINDS: dict[str, ResultKind] = {k.value: k for k in ResultKind}
_ZERO = Fraction(0)


@lru_cache(maxsize=4096)
def parse_decimal(text: str) -> Fraction:
    """Exact decimal text ("9.5", "12", "-0.05") as a Fraction, faster than `Fraction(text)`.

    Reports repeat the same few values (PP in tenths, tokens in halves), hence the cache.

    Raises:
        ValueError: not a plain decimal number.
    """
    if text == "0":
        return _ZERO
    whole, _, frac = text.partition(".")
    if not frac:
        return Fraction(int(whole))
    return Fraction(int(whole + frac), 10 ** len(frac))


def report_to_data(result: TableResult) -> dict[str, Any]:
    """The JSON the database stores for a validated report (rows keep their seat factions)."""
    data: dict[str, Any] = {
        "turns": result.turns,
        "ended_by": result.ended_by,
        "results": [
            {
                "player": row.player,
                "faction": row.faction,
                "result": row.result.value,
                **{name: getattr(row, name) for name in INT_FIELDS},
                "tokens": exact_decimal(row.tokens),
                "pp": exact_decimal(row.pp),
            }
            for row in result.rows
        ],
    }
    if result.predicted is not None:
        data["predicted"] = result.predicted
    if result.alliances:
        data["alliances"] = [sorted(a, key=player_sort_key) for a in result.alliances]
    return data


def table_result_from_data(
    data: Mapping[str, Any], *, table: Hashable | None = None, round_number: int = 1, is_final: bool = False
) -> TableResult:
    """Rebuild the `TableResult` of a stored report.

    Raises:
        KeyError, ValueError: the data was not written by `report_to_data`.
    """
    rows = tuple(
        ReportRow(
            player=cast(PlayerId, raw["player"]),
            result=_KINDS[raw["result"]],
            faction=raw.get("faction"),
            tokens=parse_decimal(raw.get("tokens", "0")),
            pp=parse_decimal(raw.get("pp", "0")),
            win_attempts=raw.get("win_attempts", 0),
            strongholds=raw.get("strongholds", 0),
            forces=raw.get("forces", 0),
            spice=raw.get("spice", 0),
            cards=raw.get("cards", 0),
            leaders=raw.get("leaders", 0),
            die=raw.get("die", 0),
        )
        for raw in data["results"]
    )
    return TableResult(
        rows=rows,
        turns=int(data["turns"]),
        ended_by=cast(EndedBy, data["ended_by"]),
        table=table,
        round_number=round_number,
        is_final=is_final,
        predicted=data.get("predicted"),
        alliances=tuple(frozenset(a) for a in data.get("alliances", ())),
    )
