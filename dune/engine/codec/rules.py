"""What the rules make impossible in a snapshot, checked as it loads (`position.load_position`):
a faction the ruleset does not have, forces beyond what a faction owns, a sheet whose reserves
and tanks do not add up, alliances beyond the limit, a third faction in a stronghold, captives
whose captor has no leader left, Bene Gesserit sides the ruleset does not have. Each refusal
cites the ruleset's rule number and names the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from dune.engine.battle.captives import prison_break_fates
from dune.engine.board import POLAR_SINK, SHIELD_WALL, TERRITORIES
from dune.engine.codec.kinds import Context, count, need_mapping
from dune.engine.codec.kinds import bad as _bad
from dune.engine.codec.schema import SHEET_FIELDS, read_parts
from dune.engine.errors import InvalidPosition, UnknownIdentifier
from dune.engine.factions import BENE_GESSERIT
from dune.engine.ids import FACTIONS
from dune.engine.losses import Loss
from dune.engine.names import faction_name, join_names, place_name
from dune.engine.numbers import parse_decimal
from dune.engine.position import EMPTY, FactionState, Position, Setup
from dune.engine.rulesets import Ruleset
from dune.engine.spice import SpiceLoss, blow_sector

_LEADER_STATES = ("active", "tanks_face_up", "tanks_face_down", "captured", "held", "out")


def _int(d: Mapping[str, Any], key: str, default: Any = None, *, low: int = 0, high: int | None = None) -> Any:
    return count(d.get(key, default), key, low=low, high=high)


def _bool(d: Mapping[str, Any], key: str, default: bool = False) -> bool:
    v = d.get(key, default)
    if type(v) is not bool:
        raise _bad("snapshot", f"{key!r} must be true or false", v)
    return v


_mapping = need_mapping


def faction_id(f: Any, rs: Ruleset) -> str:
    if f not in FACTIONS:
        raise UnknownIdentifier(rule="snapshot", msg=f"unknown faction {f!r}", input=f)
    if f not in rs.factions:
        raise InvalidPosition(
            rule=rs.cite["setup"], msg=f"{faction_name(f)} is not a faction of {rs.name}", input=f
        )
    return str(f)


def faction_state(
    f: str, raw: Mapping[str, Any], on_board: tuple[int, int], rs: Ruleset, ctx: Context
) -> FactionState:
    """One faction's state from its sheet in a snapshot: what the rules account for (forces in
    reserve and in the tanks against what is on the board, the hand limit, the leaders, PP)
    read here, every other part of the sheet by its codec (`schema.Sheet`).

    Long because the forces a faction owns are accounted for across four keys.
    """
    sheet = EMPTY.sheet(f)
    on_n, on_s = on_board  # normal forces and advisors, special forces
    cite = rs.cite["forces"]
    if on_s > sheet.special_forces:
        raise _bad(
            cite,
            f"{faction_name(f)} owns only {sheet.special_forces} special forces, {on_s} are on the board",
            on_s,
        )
    if on_n + on_s > sheet.forces:
        raise _bad(
            cite, f"{faction_name(f)} owns {sheet.forces} forces, {on_n + on_s} are on the board", on_n + on_s
        )
    dropped = _bool(raw, "dropped")
    reserves = _int(raw, "reserves")
    tanks = _int(raw, "tanks")
    free = sheet.forces - on_n - on_s
    if reserves is not None and tanks is None and not dropped:
        tanks = free - reserves
    if tanks is not None and reserves is None and not dropped:
        reserves = free - tanks
    res_pair: tuple[int, int] | None = None
    tank_pair: tuple[int, int] | None = None
    if reserves is not None and tanks is not None:
        if not dropped and (reserves < 0 or tanks < 0 or reserves + tanks != free):
            raise _bad(
                cite,
                f"{faction_name(f)} owns {sheet.forces} forces: {on_n + on_s} on the board + {reserves} in reserve "
                f"+ {tanks} in the tanks do not add up",
                {"reserves": reserves, "tanks": tanks},
            )
        free_s = sheet.special_forces - on_s
        rs_ = _int(raw, "reserves_special")
        ts_ = _int(raw, "tanks_special")
        if rs_ is None and ts_ is None:
            rs_ = min(reserves, free_s)
            ts_ = free_s - rs_
        elif rs_ is None:
            rs_ = free_s - ts_
        elif ts_ is None:
            ts_ = free_s - rs_
        if not dropped and (rs_ + ts_ != free_s or rs_ > reserves or ts_ > tanks or rs_ < 0 or ts_ < 0):
            raise _bad(cite, f"{faction_name(f)}: special forces in reserve and tanks do not add up", raw)
        res_pair = (reserves - rs_, rs_)
        tank_pair = (tanks - ts_, ts_)
    cards = _int(raw, "cards", None, high=sheet.hand_limit)
    status = raw.get("leader_status")
    leaders: tuple[tuple[str, str | None], ...] = ()
    if status is not None:
        status = _mapping(status, f"{faction_name(f)} leader_status")
        out = []
        for ld in sheet.leaders:
            v = status.get(ld.id, "active")
            st, _, captor = str(v).partition(":")
            if st not in _LEADER_STATES:
                raise UnknownIdentifier(rule="leaders", msg=f"{f!r}: unknown leader state {v!r}", input=v)
            out.append((st, captor or None))
        leaders = tuple(out)
    elif raw.get("leaders") is not None:
        n = raw["leaders"]
        if isinstance(n, int) and not isinstance(n, bool) and n > len(sheet.leaders):
            raise _bad(
                rs.cite.get("leader_count", "leaders"),
                f"{faction_name(f)} has {len(sheet.leaders)} leaders, not {n}",
                n,
            )
        n = _int(raw, "leaders", high=len(sheet.leaders))
        leaders = tuple(("active" if i < n else "tanks_face_up", None) for i in range(len(sheet.leaders)))
    pp_raw = raw.get("pp_total", "0")
    if pp_raw == "0" or (type(pp_raw) is int and pp_raw == 0):
        pp = _NO_PP
    else:
        pp = _pp(f, pp_raw)
    return FactionState(
        cards=cards, reserves=res_pair, tanks=tank_pair, leaders=leaders, pp=pp, **read_parts(SHEET_FIELDS, raw, ctx)
    )


_NO_PP = Fraction(0)


def _pp(f: str, pp_raw: Any) -> Fraction:
    """A faction's PP from its sheet's `pp_total` (WBC PP). Raises InvalidPosition."""
    try:
        # Bounded in digits and exponent before any arithmetic (numbers.bounded_decimal).
        plain = isinstance(pp_raw, (str, int)) and not isinstance(pp_raw, bool)
        pp = parse_decimal(pp_raw if plain else repr(pp_raw))
    except ValueError as exc:
        raise _bad("snapshot", f"{faction_name(f)} 'pp_total' must be a decimal number: {exc}", None) from None
    return pp


def alliances_of(raw: Any, factions: tuple[str, ...], setup: Setup, rs: Ruleset) -> tuple[tuple[str, ...], ...]:
    seen: set[str] = set()
    out = []
    limit = rs.alliance_limit(len(factions), setup.three_alliances, setup.options)
    for a in raw:
        side = tuple(sorted(a))
        for f in side:
            if f not in factions:
                raise UnknownIdentifier(
                    rule=rs.cite["setup"],
                    msg=f"alliance member {faction_name(f)} does not play here",
                    input=a,
                )
            if f in seen:
                raise _bad(rs.cite["one_alliance"], f"{faction_name(f)} is in two alliances", a)
            seen.add(f)
        if len(side) < 2 or (limit is not None and len(side) > limit):
            raise _bad(rs.cite["alliance_limit"], f"an alliance has 2..{limit or len(factions)} factions", a)
        out.append(side)
    return tuple(sorted(out))


def check_cohabitation(pos: Position) -> None:
    """No third faction in a stronghold (LoLV 1.06.02.05, AH IX.C.1.d).

    Allies may share a territory: players sharing one may ally (WBC XII.1-2) and LoLV
    1.06.06 sends such forces to the tanks only after the ally's movement."""
    rs = pos.ruleset
    present: dict[str, set[str]] = {}
    for (f, t, _s), (n, sp, _a) in pos.forces.items():
        if n + sp and not (f == BENE_GESSERIT and t in pos.coexisting):
            present.setdefault(t, set()).add(f)
    for t, fs in present.items():
        if t == POLAR_SINK:
            continue
        if TERRITORIES[t].is_stronghold and t != SHIELD_WALL and len(fs) > 2:
            raise _bad(
                rs.cite["occupancy"],
                f"{place_name(t)} holds forces of {len(fs)} factions; at most two",
                sorted(fs),
            )


def check_no_advisor_side(pos: Position) -> None:
    """Sixth edition: under AH and the WBC the Bene Gesserit tokens have no advisor side; they
    coexist by territory, by declaration (AH XV.A-B, WBC XV.5-7: `coexisting`)."""
    rs = pos.ruleset
    if "spiritual_advisor" in rs.cite:
        return  # the LoLV advisors (2.02.10)
    where = sorted({t for (f, t, _s), (_n, _sp, a) in pos.forces.items() if f == BENE_GESSERIT and a})
    if where:
        places = join_names(place_name(t) for t in where)
        raise InvalidPosition(
            rule=rs.cite["no_advisors"],
            msg=f"Bene Gesserit tokens have no advisor side under {rs.name}: they coexist by territory, not as advisors ({places})",
            input=where,
            field="forces",
        )


def check_bg_sides(pos: Position) -> None:
    """Fifth edition: LoLV fighters and advisors never share a territory (2.02.20: they flip to
    match). (AH and WBC tokens coexist by territory, AH XV.A, WBC XV.5.)"""
    rs = pos.ruleset
    sides: dict[str, tuple[int, int]] = {}
    for (f, t, _s), (n, sp, a) in pos.forces.items():
        if f == BENE_GESSERIT:
            fighters, advisors = sides.get(t, (0, 0))
            sides[t] = (fighters + n + sp, advisors + a)
    for t, (fighters, advisors) in sides.items():
        if "bg_advisors" not in rs.cite:
            continue  # AH XV.A, WBC XV.5: coexistence by territory (`coexisting`), no sides
        if fighters and advisors and t != POLAR_SINK:
            raise _bad(rs.cite.get("bg_adapt", "2.02.20"), f"Bene Gesserit fighters and advisors never share {place_name(t)}", t)


def check_captives(pos: Position) -> None:
    """Fifth edition: no leader stays captive once every Harkonnen leader of its own is dead
    (2.05.11, AH X.B.2.a.ii)."""
    leaders = {f: list(st.leaders) for f, st in pos.states.items() if st.leaders}
    freed = prison_break_fates(pos, leaders)
    if freed:
        names = ", ".join(pos.sheet(f.owner).leaders[pos.sheet(f.owner).leader_index(f.leader) or 0].name for f in freed)
        raise _bad(
            freed[0].rule,
            f"every Harkonnen leader of its own is dead, so its captives ({names}) have gone home",
            names,
        )


def last_losses(rows: Any, factions: tuple[str, ...]) -> dict[str, Any]:
    """The last event's losses, one list in the snapshot: forces and leaders, spice, and the
    Ambassadors the storm took back, each read into its own part."""
    if not isinstance(rows, list):
        raise _bad("snapshot", "'losses' must be a list", rows)
    out: dict[str, Any] = {}
    pieces = [r for r in rows if isinstance(r, Mapping) and r.get("ambassador") is not None]
    rows = [r for r in rows if not (isinstance(r, Mapping) and r.get("ambassador") is not None)]
    out["losses"] = _losses([r for r in rows if not _is_spice_row(r)], factions)
    spice = _spice_lost([r for r in rows if _is_spice_row(r)])
    if spice:
        out["spice_lost"] = spice
    if pieces:
        out["pieces_lost"] = _pieces_lost(pieces)
    return out


def _losses(rows: Any, factions: tuple[str, ...]) -> tuple[Loss, ...]:
    """What the last event removed by itself (`losses_json` rows), kept so a page reading the
    snapshot can show it."""
    out: list[Loss] = []
    for i, raw in enumerate(rows):
        row = _mapping(raw, f"losses[{i}]")
        f, t, rule = row.get("faction"), row.get("territory"), row.get("rule")
        if f not in factions or t not in TERRITORIES or not isinstance(rule, str):
            raise _bad("snapshot", f"losses[{i}] names a faction of the game, a territory and a rule", row)
        s = row.get("sector")
        if s is not None and s not in TERRITORIES[t].sectors:
            raise _bad("snapshot", f"losses[{i}]: sector {s!r} is not part of the territory", s)
        counts = [_int(row, k, 0) for k in ("normal", "special", "advisors")]
        out.append((str(f), str(t), s, counts[0], counts[1], counts[2], rule))
    return tuple(out)


def _is_spice_row(row: Any) -> bool:
    return isinstance(row, Mapping) and row.get("faction") is None and "spice" in row


def _spice_lost(rows: list[Any]) -> tuple[SpiceLoss, ...]:
    out: list[SpiceLoss] = []
    for i, row in enumerate(rows):
        t, rule = row.get("territory"), row.get("rule")
        sector = blow_sector(t) if isinstance(t, str) else None
        if sector is None or not isinstance(rule, str):
            raise _bad("snapshot", f"spice losses[{i}] name a Spice Blow territory and a rule", row)
        out.append((str(t), sector, _int(row, "spice", 0), rule))
    return tuple(out)


def _pieces_lost(rows: list[Any]) -> tuple[tuple[str, str, int | None, str], ...]:
    """The Ambassadors the last event took off the board (`losses.pieces_lost_json` rows)."""
    out: list[tuple[str, str, int | None, str]] = []
    for i, row in enumerate(rows):
        symbol, t, s, rule = row.get("ambassador"), row.get("territory"), row.get("sector"), row.get("rule")
        if symbol not in FACTIONS or t not in TERRITORIES or not isinstance(rule, str):
            raise _bad("snapshot", f"losses[{i}] names an Ambassador's faction symbol, a territory and a rule", row)
        out.append((str(symbol), str(t), s if isinstance(s, int) else None, rule))
    return tuple(out)
