"""WBC performance points for one turn (WBC Best Faction Awards).

Carthag and Arrakeen 1 PP each; any other stronghold 1 for the Fremen, 1/2 for others;
the BG 1/10 for each stronghold it coexists in. The per-game normalisation (divide by turns
played, times 5/6 at a 5-player table) belongs to scoring. The Shield Wall is a stronghold
"for the purposes of victory only" (WBC house rules), so it earns no PP.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from dune.engine.board import PRINTED_STRONGHOLDS
from dune.engine.control import Occupancy
from dune.engine.factions import BENE_GESSERIT, FREMEN
from dune.engine.position import Position
from dune.engine.rulesets import PpTable


def turn_pp(position: Position, occ: Occupancy, control: dict[str, str | None]) -> dict[str, Fraction] | None:
    """PP each faction earns if the turn ended now; None when the ruleset has no PP."""
    tenths = turn_pp_tenths(position, occ, control)
    return None if tenths is None else {f: Fraction(v, 10) for f, v in tenths.items()}


def turn_pp_tenths(
    position: Position, occ: Occupancy, control: dict[str, str | None]
) -> dict[str, int] | None:
    """`turn_pp` in tenths of a point (exact integers)."""
    table = position.ruleset.pp
    if table is None:
        return None
    tenths = dict.fromkeys(position.factions, 0)
    cities, fremen_other, other, bg = _in_tenths(table)
    for s in PRINTED_STRONGHOLDS:
        c = control.get(s)
        if c is not None and c in tenths:
            if s in table.cities_ids:
                tenths[c] += cities
            else:
                tenths[c] += fremen_other if c == FREMEN else other
        if BENE_GESSERIT in tenths and s in occ.inert:
            tenths[BENE_GESSERIT] += bg
    return tenths


@lru_cache(maxsize=8)
def _in_tenths(table: PpTable) -> tuple[int, int, int, int]:
    values = (table.cities, table.fremen_other, table.other, table.bg_coexisting)
    out = tuple(int(v * 10) for v in values)
    if any(Fraction(o, 10) != v for o, v in zip(out, values, strict=True)):
        raise ValueError(f"PP values must be whole tenths: {values!r}")
    return out  # type: ignore[return-value]
