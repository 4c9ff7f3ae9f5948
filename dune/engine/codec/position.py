"""A position to and from its JSON snapshot, by the declaration in `schema`.

`load_position(data)` checks every declared key's shape (refusing a malformed one naming the
field), reads the setup, the forces, the factions' sheets and the alliances with the rules
(`rules`: forces a faction owns, markers on the dots, a third faction in a stronghold, ...),
then every other key by its codec, and refuses an impossible position with the same typed errors
(and rule numbers) as events. `dump_position(position)` writes every declared key by its codec
in the declared order, a part with a default only when it differs from it, so that
`load_position(dump_position(p)) == p` (the event log is not part of a snapshot; corrections
need the log). `seq` is the number of log events behind the position (bookkeeping, not compared).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dune.engine.board import PLAYER_DOTS
from dune.engine.checks import need_piece
from dune.engine.codec.kinds import Context, bad, count, need_mapping
from dune.engine.codec.rules import (
    alliances_of,
    check_bg_sides,
    check_captives,
    check_cohabitation,
    check_no_advisor_side,
    faction_id,
    faction_state,
    last_losses,
)
from dune.engine.codec.schema import (
    POSITION_FIELDS,
    SHEET_FIELDS,
    SHEET_ORDER,
    checked,
    read_parts,
    write_parts,
)
from dune.engine.coexistence import assume_coexisting
from dune.engine.editions import CURRENT, EDITIONS, accounted, distinguished, limited, ordered, refined
from dune.engine.errors import InvalidPosition, UnknownIdentifier
from dune.engine.factions import BENE_GESSERIT
from dune.engine.impossible import check_limits, check_pieces, check_supplies
from dune.engine.losses import losses_json
from dune.engine.names import faction_name, place_name
from dune.engine.numbers import decimal_str
from dune.engine.phases import ALL_PHASES, MENTAT_PAUSE
from dune.engine.position import FactionState, ForceKey, Position, Setup, Stack
from dune.engine.rulesets import Ruleset, get_ruleset, ruleset_with
from dune.engine.supplies import NO_SUPPLIES, supplies_from_snapshot, supplies_to_snapshot

__all__ = ["dump_position", "load_position", "read_stored_position"]


def _flag(data: Mapping[str, Any], key: str, default: bool = False) -> bool:
    v = data.get(key, default)
    if type(v) is not bool:
        raise bad("snapshot", f"{key!r} must be true or false", v)
    return v


def _setup(data: Mapping[str, Any]) -> Setup:
    """The setup a snapshot states: ruleset, seats, markers, turn limit, options, edition.
    Raises InvalidPosition, UnknownIdentifier."""
    rs = get_ruleset(data.get("ruleset"))  # type: ignore[arg-type]
    raw_factions = need_mapping(data.get("factions"), "'factions'")
    seats = data.get("seats", list(raw_factions))
    if set(seats) != set(raw_factions):
        raise bad("snapshot", "'seats' must list the factions of 'factions'", seats)
    factions = tuple(faction_id(f, rs) for f in seats)
    if not 2 <= len(factions) <= 6:
        raise bad(rs.cite["setup"], "a game has 2 to 6 factions", factions)
    markers: dict[str, int] = {}
    for f in factions:
        m = count(need_mapping(raw_factions[f], f"faction {faction_name(f)}").get("marker"), "marker")
        if m not in PLAYER_DOTS:
            raise bad(
                rs.cite["markers"],
                f"{faction_name(f)}: the player marker stands on one of the dots {list(PLAYER_DOTS)}",
                m,
            )
        markers[f] = m
    if len(set(markers.values())) != len(markers):
        raise bad(rs.cite["markers"], "two player markers on one dot", markers)
    turn_limit = count(data.get("turn_limit", rs.turn_limit), "turn_limit", low=1, high=rs.max_turns)
    options = frozenset(data.get("options", ()))
    edition = data.get("edition", CURRENT)
    if type(edition) is not int or edition not in EDITIONS:
        raise bad("snapshot", f"'edition' must be one of {list(EDITIONS)}", edition)
    return Setup(
        ruleset=ruleset_with(rs, options),  # the format's rule options; UnknownIdentifier for others
        factions=factions,
        markers=markers,
        turn_limit=turn_limit,
        options=options,
        three_alliances=_flag(data, "three_alliances"),
        seed=count(data.get("seed"), "seed", low=-(2**63)),
        automatic_losses=_flag(data, "automatic_losses"),
        edition=edition,
    )


def _forces(rows: Any, pos: Position, rs: Ruleset) -> dict[ForceKey, Stack]:
    """The forces on the board (`schema.Stack` rows). Raises InvalidPosition, UnknownIdentifier."""
    factions = pos.playing
    forces: dict[ForceKey, Stack] = {}
    for i, raw in enumerate(rows):
        row = need_mapping(raw, f"forces[{i}]")
        fid = row.get("faction")
        if fid not in factions:
            raise UnknownIdentifier(
                rule=rs.cite["setup"], msg=f"forces[{i}]: {faction_name(str(fid))} does not play in this game", input=fid
            )
        f = str(fid)
        t, s = row.get("territory"), row.get("sector")
        if not isinstance(t, str):
            raise UnknownIdentifier(rule="board", msg=f"forces[{i}]: unknown territory {t!r}", input=t)
        need_piece(pos, t, s)
        n, sp, a = (count(row.get(k, 0), k) for k in ("normal", "special", "advisors"))
        if a and f != BENE_GESSERIT:
            raise bad(rs.cite["coexist"], f"forces[{i}]: only the Bene Gesserit has advisors", row)
        key: ForceKey = (f, t, s)
        if key in forces:
            raise bad("snapshot", f"forces[{i}]: {faction_name(f)} in {place_name(t)} sector {s} listed twice", row)
        if n + sp + a:
            forces[key] = (n, sp, a)
    return forces


def load_position(data: Mapping[str, Any]) -> Position:
    """A Position from a JSON snapshot.

    Raises InvalidPosition, UnknownIdentifier (both RuleViolation) for an impossible one.
    """
    return _load(checked(data), proven=False)


def read_stored_position(data: Mapping[str, Any]) -> Position:
    """A Position from a snapshot this engine wrote (`dump_position` of a position it made or
    loaded, as a game stores it): read by the same codecs, without checking again the shapes
    and the position-wide rules the engine checked when it made the position. Anything else
    (a judge's snapshot, a file) goes through `load_position`."""
    return _load(data, proven=True)


def _load(data: Mapping[str, Any], *, proven: bool) -> Position:
    setup = _setup(data)
    rs, factions, turn_limit = setup.ruleset, setup.factions, setup.turn_limit
    turn = count(data.get("turn", 1), "turn", low=1, high=turn_limit)
    phase = data.get("phase", MENTAT_PAUSE)
    if phase not in ALL_PHASES:
        raise UnknownIdentifier(rule="snapshot", msg=f"unknown phase {phase!r}", input=phase)
    quick = _flag(data, "quick")
    forces = _forces(data.get("forces", ()), Position(setup=setup, turn=turn, phase=phase, quick=quick,
                                                      playing=factions), rs)
    ctx = Context(rs, factions, turn_limit, data)
    sheets = data["factions"]
    on_board = dict.fromkeys(factions, (0, 0))
    for (f, _t, _s), (n, sp, a) in forces.items():
        normal, special = on_board[f]
        on_board[f] = (normal + n + a, special + sp)
    states: dict[str, FactionState] = {f: faction_state(f, sheets[f], on_board[f], rs, ctx) for f in factions}
    for f in factions:
        if states[f].dropped and any(k[0] == f for k in forces):
            raise bad(rs.cite["dropout"], f"{faction_name(f)} dropped out: its forces left the board", f)
    alliances = alliances_of(data.get("alliances", ()), factions, setup, rs)
    if dropped_allied := [f for a in alliances for f in a if states[f].dropped]:
        raise bad(rs.cite["dropout"], f"{faction_name(dropped_allied[0])} dropped out: it is in no alliance",
                  dropped_allied)
    parts = read_parts(POSITION_FIELDS, data, ctx)
    supplies = supplies_from_snapshot(data)
    if supplies != NO_SUPPLIES:
        parts["supplies"] = supplies
    if data.get("losses"):
        parts.update(last_losses(data["losses"], factions))
    pos = Position(
        setup=setup,
        turn=turn,
        phase=phase,
        quick=quick,
        last_turn=_flag(data, "last_turn", turn >= turn_limit),
        forces=forces,
        states=states,
        playing=tuple(f for f in factions if not states[f].dropped),
        alliances=alliances,
        **parts,
    )
    if refined(pos) and rs.coexistence_assumed:
        pos = pos.evolve(coexisting=assume_coexisting(pos))  # AH XV.B
    if proven:
        return pos
    if refined(pos):
        check_pieces(pos)
    if accounted(pos):
        check_supplies(pos)
    if limited(pos):
        check_captives(pos)
        check_bg_sides(pos)
    if ordered(pos):
        check_no_advisor_side(pos)
    if distinguished(pos):
        check_limits(pos)
    check_cohabitation(pos)
    return pos


def _sheet(position: Position, setup: Setup, f: str) -> dict[str, Any]:
    """A faction's sheet: its declared parts by their codecs, and what the loader reads with
    the rules (marker, cards, leaders, reserves and tanks, PP)."""
    st = position.states[f]
    sheet = position.sheet(f)
    row: dict[str, Any] = {
        "marker": setup.markers[f],
        "cards": st.cards,
        "leaders": sum(1 for s, _c in st.leaders if s == "active") if st.leaders else None,
        "leader_status": {
            ld.id: (s if c is None else f"{s}:{c}") for ld, (s, c) in zip(sheet.leaders, st.leaders, strict=True)
        } if st.leaders else None,
        "reserves": None if st.reserves is None else sum(st.reserves),
        "reserves_special": None if st.reserves is None else st.reserves[1],
        "tanks": None if st.tanks is None else sum(st.tanks),
        "tanks_special": None if st.tanks is None else st.tanks[1],
        "pp_total": decimal_str(st.pp),
    }
    write_parts(SHEET_FIELDS, st, row)
    return dict(sorted(row.items(), key=lambda item: SHEET_ORDER[item[0]]))


def dump_position(position: Position) -> dict[str, Any]:
    """The snapshot of a position (JSON-serialisable), in the declared order. Raises
    InvalidPosition before setup."""
    setup = position.setup
    if setup is None:
        raise InvalidPosition(rule="setup", msg="the game has not been set up", input=None)
    out: dict[str, Any] = {}
    for key, group in _GROUPS:
        if group is None:
            write_parts(_RUNS[key], position, out, setup=setup)
        else:
            out.update(group(position, setup))
    return out


def _factions(position: Position, setup: Setup) -> dict[str, Any]:
    return {"factions": {f: _sheet(position, setup, f) for f in setup.factions}}


def _supplies(position: Position, setup: Setup) -> dict[str, Any]:
    return supplies_to_snapshot(position.supplies)


def _losses(position: Position, setup: Setup) -> dict[str, Any]:
    if position.losses or position.spice_lost or position.pieces_lost:
        return {"losses": losses_json(position)}
    return {}


#: The keys written by a group (several keys or attributes at once), in their declared place.
_GROUP_WRITERS = {"factions": _factions, "ambassador_supply": _supplies, "losses": _losses}


def _runs() -> tuple[list[tuple[str, Any]], dict[str, Any]]:
    """The declaration cut into runs of keys written by their codecs, between the groups."""
    steps: list[tuple[str, Any]] = []
    runs: dict[str, Any] = {}
    run: list[Any] = []
    for d in POSITION_FIELDS:
        if d.attr:
            if not run:
                steps.append((d.key, None))
            run.append(d)
            runs[steps[-1][0]] = tuple(run)
            continue
        run = []
        if d.key in _GROUP_WRITERS:
            steps.append((d.key, _GROUP_WRITERS[d.key]))
    return steps, runs


_GROUPS, _RUNS = _runs()
