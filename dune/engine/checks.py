"""Shared validators for event handlers: each returns quietly or raises a RuleViolation."""

from __future__ import annotations

from typing import Any, NoReturn

from dune.engine.board import HIDDEN_MOBILE_STRONGHOLD, POLAR_SINK, SHIELD_WALL, TERRITORIES
from dune.engine.editions import corrected, sheltered
from dune.engine.errors import IllegalAction, InvalidPosition, UnknownIdentifier, WrongPhase
from dune.engine.factions import BENE_GESSERIT, ECAZ, IXIANS, RICHESE
from dune.engine.names import faction_name, factions_text, join_names, phase_name, phases_text, place_name
from dune.engine.position import Position, Stack
from dune.engine.storm import in_storm


def refuse(
    pos: Position, rule_key: str, msg: str, value: Any = None, *, field: str | None = None
) -> NoReturn:
    """Raise IllegalAction citing the ruleset's rule for `rule_key` (or the key itself) and,
    when given, the event's field at fault."""
    rule = pos.ruleset.cite.get(rule_key, rule_key) if pos.setup is not None else rule_key
    raise IllegalAction(rule=rule, msg=msg, phase=pos.phase, input=value, field=field)


def need_phase(pos: Position, phases: tuple[str, ...], rule_key: str, what: str) -> None:
    if pos.phase not in phases:
        rule = pos.ruleset.cite.get(rule_key, rule_key)
        raise WrongPhase(
            rule=rule,
            msg=f"{what} only in the {phases_text(phases)} phase, not in the {phase_name(pos.phase)} phase",
            phase=pos.phase,
            input=pos.phase,
        )


def need_faction(pos: Position, faction: str) -> None:
    """The faction plays in this game and has not dropped out."""
    setup = pos.setup
    assert setup is not None
    if faction not in setup.factions:
        raise UnknownIdentifier(
            rule=pos.ruleset.cite["setup"],
            msg=f"{faction_name(faction)} does not play in this game",
            phase=pos.phase,
            input=faction,
        )
    if faction not in pos.playing:
        refuse(pos, "dropout", f"{faction_name(faction)} has dropped out of the game", faction)


def need_piece(
    pos: Position, territory: str, sector: int | None, *, invalid: type[Exception] = UnknownIdentifier
) -> None:
    """The territory exists (and is in play) and spans the sector."""
    t = TERRITORIES.get(territory)
    if t is None:
        raise UnknownIdentifier(
            rule="board", msg=f"unknown territory {place_name(territory)}", phase=pos.phase, input=territory
        )
    if t.id == HIDDEN_MOBILE_STRONGHOLD and (pos.setup is None or IXIANS not in pos.setup.factions):
        own = pos.setup is None or pos.ruleset.expansion_pieces
        raise UnknownIdentifier(
            rule="2.07.02" if own else pos.ruleset.cite["no_expansion"],
            msg="the Hidden Mobile Stronghold is in play only with the Ixians"
            if own
            else f"there is no Hidden Mobile Stronghold in {pos.ruleset.name}",
            input=territory,
        )
    if not t.sectors:
        if sector is not None:
            raise UnknownIdentifier(
                rule="board",
                msg=f"{place_name(territory)} spans no sector; sector must be null",
                phase=pos.phase,
                input=sector,
            )
    elif sector not in t.sectors:
        raise UnknownIdentifier(
            rule="board",
            msg=f"{place_name(territory)} spans sectors {join_names(map(str, t.sectors), last='or')}, not {sector}",
            phase=pos.phase,
            input=sector,
        )


def need_counts(pos: Position, normal: int, special: int, advisors: int, faction: str | None) -> None:
    if min(normal, special, advisors) < 0:
        raise InvalidPosition(
            rule="forces", msg="force counts cannot be negative", input=(normal, special, advisors)
        )
    if normal + special + advisors == 0:
        refuse(pos, "forces", "no forces given", (normal, special, advisors))
    if faction is not None:
        sheet = pos.sheet(faction)
        if special and not sheet.special_forces:
            refuse(pos, "forces", f"{faction_name(faction)} has no special forces", special)
        if advisors and not sheet.has_advisors:
            refuse(
                pos, "coexist", f"only the Bene Gesserit has advisors, not {faction_name(faction)}", advisors
            )


def active_count(pos: Position, faction: str, territory: str, stack: Stack) -> int:
    if faction == BENE_GESSERIT and territory in pos.coexisting:
        return 0
    return stack[0] + stack[1]


def factions_active_in(pos: Position, territory: str) -> set[str]:
    out = set()
    for (f, t, _s), stack in pos.forces.items():
        if t == territory and active_count(pos, f, t, stack):
            out.add(f)
    if pos.no_field is not None and pos.no_field[0] == territory:
        out.add(RICHESE)  # LoLV 2.10.11: the No-Field token counts for the occupancy limit
    return out


def factions_in(pos: Position, territory: str) -> set[str]:
    return {f for (f, t, _s), st in pos.forces.items() if t == territory and any(st)}


def piece_in_storm(pos: Position, territory: str, sector: int | None) -> bool:
    """Whether a sector piece is under the storm; the Hidden Mobile Stronghold is where it
    points (LoLV 2.07.17)."""
    if territory == HIDDEN_MOBILE_STRONGHOLD and pos.hms is not None:
        sector = pos.hms[1]
    return in_storm(territory, sector, pos.storm, sheltered(pos))


def need_room(
    pos: Position,
    faction: str,
    territory: str,
    *,
    inert: bool,
    entering: bool = True,
    limit_rule: str = "occupancy",
) -> None:
    """Occupancy limit and allies. `inert`: the entering forces are advisors/coexisting.
    `entering`: forces arrive by shipment or movement; under the LoLV nothing is refused
    for an ally there, the end of the action settles it (1.06.06, 4.01.16). `limit_rule`:
    the cite key of the occupancy limit refused (a shipment's is "ship_occupancy")."""
    t = TERRITORIES[territory]
    if territory == POLAR_SINK:
        return
    if t.is_stronghold and territory != SHIELD_WALL and not inert:
        others = limit_counted(pos, faction, factions_active_in(pos, territory))
        if len(others) >= 2:
            refuse(
                pos,
                limit_rule,
                f"{place_name(territory)} already holds forces of {factions_text(sorted(others))}: no third faction may enter",
                territory,
            )
    allies = set(pos.allies_of(faction))
    if not allies:
        return
    if inert:
        return
    if entering and pos.ruleset.ally_entry == "tanks_at_action_end" and corrected(pos):
        return
    if pos.ruleset.ecaz_co_occupy and (faction == ECAZ or ECAZ in allies):
        return  # LoLV 2.11.11: Ecaz and ally may share a territory
    for ally in allies & factions_in(pos, territory):
        if ally == BENE_GESSERIT and _bg_inert_in(pos, territory):
            continue  # AH XII.E.5.a, LoLV 4.01.16: advisors / coexisting BG are no obstacle
        refuse(
            pos,
            "ally_cohabit",
            f"{faction_name(faction)} may not end in {place_name(territory)} with its ally {faction_name(ally)}",
            territory,
        )


def limit_counted(pos: Position, faction: str, present: set[str]) -> set[str]:
    """The factions in `present` that count against `faction` for the occupancy limit
    (LoLV 1.06.02.05, 1.06.04.09): everyone else, except the ally of an Ecaz alliance, with
    whom it may co-occupy (LoLV 2.11.11)."""
    others = present - {faction}
    if pos.setup is not None and pos.ruleset.ecaz_co_occupy:
        allies = set(pos.allies_of(faction))
        if faction == ECAZ or ECAZ in allies:
            others -= allies
    return others


def _bg_inert_in(pos: Position, territory: str) -> bool:
    if territory in pos.coexisting:
        return True
    return all(
        st[0] + st[1] == 0 for (f, t, _s), st in pos.forces.items() if f == BENE_GESSERIT and t == territory
    )


def need_full_tracking(pos: Position, what: str) -> None:
    if pos.quick:
        raise IllegalAction(
            rule="quick tracking",
            msg=f"{what} needs full tracking; this game records only the strongholds (use quick_record)",
            phase=pos.phase,
        )
