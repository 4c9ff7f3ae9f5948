"""End-of-game statistics per faction (WBC adjudication criteria; LoLV 4.01.10 tiebreaks).

`strongholds` controlled, `forces` on the board (every token), `tokens` with the WBC
weighting (normal 1, starred 2, coexisting BG / advisors 0.5), `spice`, `cards`, active
`leaders` (own leaders in the pool plus captured ones held). Unknown values are None:
a quick-tracked position knows only the strongholds. Tokens are counted in halves
(`tokens2`) so that sums stay exact integers.
"""

from __future__ import annotations

from dune.engine.control import Occupancy, occupants
from dune.engine.factions import ECAZ
from dune.engine.position import Position

#: One faction's numbers; `tokens2` is twice the WBC weighted token count.
Stats = dict[str, "int | None"]


def faction_stats(position: Position, occ: Occupancy, control: dict[str, str | None]) -> dict[str, Stats]:
    factions = position.factions
    held = dict.fromkeys(factions, 0)
    for c in control.values():
        if c is not None and c in held:
            held[c] += 1
    states = position.states
    rs = position.ruleset
    if rs.ecaz_shared_credit == "both" and ECAZ in held:
        # LoLV 2.11.14 read the other way: the shared stronghold counts for the ally too.
        allies = position.allies_of(ECAZ)
        for s, c in control.items():
            if c == ECAZ:
                for other in occupants(position, occ, s) & set(allies):
                    held[other] += 1
    captured: dict[str, int] = {}
    for f in factions:
        for status, captor in states[f].leaders:
            # Captured leaders and gholas (LoLV 2.08.16) lead for the faction that holds them.
            if status in ("captured", "held") and captor is not None:
                captured[captor] = captured.get(captor, 0) + 1
    if position.vidal is not None:
        # Duke Vidal is nobody's own leader; he counts for the faction he leads for (2.11.16).
        captured[position.vidal] = captured.get(position.vidal, 0) + 1
    quick = position.quick
    tokens, halves = occ.tokens, occ.halves
    out: dict[str, Stats] = {}
    for f in factions:
        st = states[f]
        leaders = None
        if st.leaders:
            leaders = captured.get(f, 0)
            for status, _c in st.leaders:
                if status == "active":
                    leaders += 1
        out[f] = {
            "strongholds": held[f],
            "forces": None if quick else tokens.get(f, 0),
            "tokens2": None if quick else halves.get(f, 0),
            "spice": st.spice,
            "cards": st.cards,
            "leaders": leaders,
            "win_attempts": st.win_attempts,
        }
    return out


def halves_str(h: int) -> str:
    """A count of halves as a decimal string: 19 -> "9.5"."""
    return f"{h // 2}.5" if h % 2 else str(h // 2)
