"""The leaders a side may put in a battle plan: a leader's state, who is free to fight here and who
fought elsewhere this phase (LoLV 1.07.04.03, AH X.C.8)."""

from __future__ import annotations

from typing import Any

from dune.engine.position import Position


def leader_status(pos: Position, owner: str, index: int) -> tuple[str, str | None] | None:
    st = pos.states.get(owner)
    if st is None or not st.leaders:
        return None  # not tracked
    return st.leaders[index]


def available_leaders(pos: Position, faction: str, territory: str) -> list[str] | None:
    """The faction's leaders it could put on its wheel here, or None when not tracked."""
    st = pos.states.get(faction)
    if st is None or not st.leaders:
        return None
    out: list[str] = []
    used = fought_elsewhere(pos, territory)
    for ld, (status, _captor) in zip(pos.sheet(faction).leaders, st.leaders, strict=False):
        if status == "active" and (faction, ld.id) not in used:
            out.append(ld.id)
    for owner, ost in pos.states.items():
        if owner == faction:
            continue
        for ld, (status, captor) in zip(pos.sheet(owner).leaders, ost.leaders, strict=False):
            if status in ("captured", "held") and captor == faction and (owner, ld.id) not in used:
                out.append(ld.id)
    return out


def fought_elsewhere(pos: Position, territory: str) -> set[tuple[str, str]]:
    return {(owner, ld) for turn, owner, ld, t in pos.fought if turn == pos.turn and t != territory}


def leader_options(pos: Position, faction: str, territory: str) -> list[dict[str, Any]] | None:
    """The leader discs the faction may put on its wheel here (`leader_of` for captives and
    gholas), or None when leaders are not tracked."""
    st = pos.states.get(faction)
    if st is None or not st.leaders:
        return None
    used = fought_elsewhere(pos, territory)
    out: list[dict[str, Any]] = []
    for owner, ost in pos.states.items():
        for ld, (status, captor) in zip(pos.sheet(owner).leaders, ost.leaders, strict=False):
            mine = owner == faction and status == "active"
            held = owner != faction and status in ("captured", "held") and captor == faction
            if (mine or held) and (owner, ld.id) not in used:
                out.append({"leader": ld.id, "leader_of": None if mine else owner, "strength": ld.strength})
    return out
