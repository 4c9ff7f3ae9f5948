"""Positions to and from JSON snapshots.

`load_position(data)` builds a Position from a judge's snapshot and refuses an impossible
one with the same typed errors (and rule numbers) as events: more forces than a faction
owns, an unknown territory or a sector the territory does not span, forces of factions
where the rules forbid it (a third faction in a stronghold), a faction the ruleset does
not have. `dump_position(position)` writes the same shape with every extra
key needed so that `load_position(dump_position(p)) == p` (the event log is not part of
a snapshot; corrections need the log).

Shape (keys beyond the issue's example are optional on input):
`{"ruleset", "turn", "phase", "last_turn", "turn_limit", "storm", "worms", "family_atomics",
"nexus", "quick", "time_up", "options", "three_alliances", "seed", "seats": [...],
"factions": {f: {"marker", "spice", "cards", "card_names", "leaders", "leader_status",
"reserves", "reserves_special", "tanks", "tanks_special", "win_attempts", "pp_total",
"chips", "defaults", "dropped", "die"}}, "forces": [{"faction", "territory", "sector",
"normal", "special", "advisors"}], "alliances", "bg_prediction", "prediction_revealed",
"coexisting", "attempts": [[turn, [side]]], "outcome", "ended", "seq"}`. `seq` is the
number of log events behind the position (bookkeeping, not compared). The supplies off the
board are written only when set (`supplies`): `"ambassador_supply"` (absent: not tracked),
`"ambassadors_aside"`, `"ambassadors_out"`, `"no_field_face_up"`; and `"karama_used"` lists
the factions that have used their once-a-game Karama power (`karama`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dune.engine.battle.captives import prison_break_fates
from dune.engine.board import PLAYER_DOTS, POLAR_SINK, SHIELD_WALL, TERRITORIES
from dune.engine.checks import need_piece
from dune.engine.coexistence import assume_coexisting
from dune.engine.editions import CURRENT, EDITIONS, accounted, distinguished, limited, ordered, refined
from dune.engine.errors import InvalidPosition, UnknownIdentifier
from dune.engine.events import CLOCKS, INFLATION_SIDES, MOVE_KINDS, Prediction
from dune.engine.factions import BENE_GESSERIT
from dune.engine.ids import FACTIONS, ResultKind
from dune.engine.impossible import TERROR_TOKENS, check_limits, check_pieces, check_supplies
from dune.engine.losses import Loss, losses_json
from dune.engine.movement import Movement
from dune.engine.names import faction_name, join_names, place_name
from dune.engine.numbers import decimal_str, parse_decimal
from dune.engine.phases import ALL_PHASES, MENTAT_PAUSE
from dune.engine.position import EMPTY, FactionState, ForceKey, Outcome, Position, Setup, Stack
from dune.engine.revival_limits import GUILD_SHIPMENTS
from dune.engine.rulesets import Ruleset, get_ruleset, ruleset_with
from dune.engine.spice import SpiceLoss, blow_sector
from dune.engine.supplies import NO_SUPPLIES, supplies_from_snapshot, supplies_to_snapshot

_LEADER_STATES = ("active", "tanks_face_up", "tanks_face_down", "captured", "held", "out")


# --- the declaration: every field of a snapshot, its JSON shape and what it holds -------------
#
# One table per object of the format, in the order `dump_position` writes the keys. Loading
# checks every field present against its shape first (a malformed value is refused naming
# the field, before anything reads it); the rules (markers on dots, forces a faction owns,
# who may share a stronghold...) are checked after, citing the ruleset's rule numbers.


@dataclass(frozen=True)
class Shape:
    """A JSON shape: `kind` is "int", "bool", "text", "number" (an int or decimal text),
    "list" (of `item`), "pair" (a two-item list: `item` then `second`), "object" (its values
    `item`; any when None) or "any"; `null` when null is allowed."""

    kind: str
    item: Shape | None = None
    second: Shape | None = None
    null: bool = False

    @property
    def words(self) -> str:
        what = {
            "int": "an integer", "bool": "true or false", "text": "a string", "number": "a number or decimal text",
            "any": "a value",
        }.get(self.kind)
        if what is None and self.kind == "list":
            what = f"a list of {self.item.words if self.item else 'values'}"
        elif what is None and self.kind == "pair":
            what = f"a pair [{self.item.words if self.item else 'value'}, {self.second.words if self.second else 'value'}]"
        elif what is None:
            what = f"an object of {self.item.words}" if self.item else "an object"
        return what + (" or null" if self.null else "")


INT, BOOL, TEXT, NUMBER, ANY = Shape("int"), Shape("bool"), Shape("text"), Shape("number"), Shape("any")
OBJECT = Shape("object")


def _or_null(shape: Shape) -> Shape:
    return Shape(shape.kind, shape.item, shape.second, null=True)


def _list(item: Shape) -> Shape:
    return Shape("list", item)


TEXTS = _list(TEXT)


#: A field without a default: written in every snapshot.
ALWAYS: Any = object()


@dataclass(frozen=True)
class Field:
    """One key of a snapshot object: its JSON shape and what it holds (with its rule); a
    position part with a `default` is written only when it differs from it, so a snapshot
    written before the part existed loads unchanged."""

    key: str
    shape: Shape
    holds: str
    default: Any = ALWAYS


#: The position's own fields, in the order they are written.
POSITION_FIELDS: tuple[Field, ...] = (
    Field("ruleset", TEXT, "the ruleset's key (rulesets.RULESETS)"),
    Field("turn", INT, "the game turn, 1 to the turn limit"),
    Field("phase", TEXT, "the phase (phases.ALL_PHASES)"),
    Field("last_turn", BOOL, "whether this is the game's last turn"),
    Field("turn_limit", INT, "the last turn (LoLV 4.01.10, WBC: the format's)"),
    Field("storm", _or_null(INT), "the storm's sector 0..17, null before it is placed"),
    Field("worms", INT, "sandworms seen this game"),
    Field("family_atomics", BOOL, "the Shield Wall destroyed"),
    Field("nexus", BOOL, "a Nexus is open"),
    Field("quick", BOOL, "quick tracking (only what ends a game)"),
    Field("time_up", _or_null(TEXT), "the clock that ran out (events.CLOCKS)"),
    Field("options", TEXTS, "the ruleset's options in play"),
    Field("three_alliances", BOOL, "three-faction alliances allowed"),
    Field("seed", _or_null(INT), "the seed of the game's random draws"),
    Field("seats", TEXTS, "the factions in seat order"),
    Field("factions", Shape("object", OBJECT), "each faction's sheet (SHEET_FIELDS)"),
    Field("forces", _list(OBJECT), "forces on the board (FORCE_FIELDS)"),
    Field("alliances", _list(TEXTS), "the alliances, each a list of factions"),
    Field("bg_prediction", _or_null(OBJECT), "the Bene Gesserit's prediction {faction, turn}"),
    Field("prediction_revealed", BOOL, "the prediction shown"),
    Field("coexisting", TEXTS, "territories where the Bene Gesserit coexist (WBC XV.5, AH XV.B)"),
    Field("attempts", _list(Shape("pair", INT, TEXTS)), "win attempts: [turn, [side]] (LoLV 4.01.12)"),
    Field("outcome", _or_null(OBJECT), "how the game ended (OUTCOME_FIELDS)"),
    Field("ended", BOOL, "the game is over"),
    Field("moves", _list(OBJECT), "this phase's movements (MOVE_FIELDS, LoLV 1.06.04.01)"),
    Field("flyers", _or_null(TEXTS), "factions still to move this phase"),
    Field("seq", INT, "events behind the position (bookkeeping)"),
    Field("storm_moved", BOOL, "the storm moved this turn (LoLV 1.01.02)", False),
    Field("nexus_allied", TEXTS, "factions that allied in this Nexus (LoLV 1.10.01.01)", frozenset()),
    Field("acting", _or_null(TEXT), "the faction acting now", None),
    Field("acted", TEXTS, "factions whose turn to ship and move is over this phase (LoLV 1.06.01)", frozenset()),
    Field("shipments", _or_null(Shape("object", TEXT)), "where each faction shipped this phase (LoLV 1.06.02)", {}),
    Field(
        "order_cards",
        _or_null(Shape("object", TEXT)),
        "who a card put first or last, or made the aggressor, and who forced the Guild into order this phase "
        "(LoLV 3.02.02, WBC Player Aid 19)",
        {},
    ),
    Field("declared", TEXTS, "territories declared this phase", frozenset()),
    Field("worm_pending", _or_null(TEXT), "a sandworm's territory waiting to devour", None),
    Field("hms", _or_null(_list(ANY)), "the Hidden Mobile Stronghold: [territory, sector] (LoLV 2.07.17)", None),
    Field("no_field", _or_null(_list(ANY)), "a No-Field token: [territory, sector] (LoLV 2.10.11)", None),
    Field("terror", TEXTS, "strongholds holding a Terror token (LoLV 2.12.09)", frozenset()),
    Field("terror_spent", INT, "Terror tokens spent", 0),
    Field("aftermath", _or_null(TEXT), "the territory of the last battle", None),
    Field("ambassadors", _or_null(Shape("object", TEXT)), "Ambassadors by stronghold (LoLV 2.11.05)", {}),
    Field("vidal", _or_null(TEXT), "the faction holding Duke Vidal", None),
    Field("spice_on_board", _or_null(Shape("object", INT)), "spice in Spice Blow territories (LoLV 1.02.04)", {}),
    Field("karama_used", TEXTS, "factions that used their once-a-game Karama power", frozenset()),
    Field("fought", _or_null(_list(ANY)), "leaders that fought: [turn, faction, leader, territory] (LoLV 1.07.04.03)",
          frozenset()),
    Field("kh_losses", INT, "Atreides forces lost in battles: the Kwisatz Haderach awakens at 7 (LoLV 2.01.10)", 0),
    Field("kh_dead", BOOL, "the Kwisatz Haderach killed by a lasgun/shield explosion (LoLV 2.01.13)", False),
    Field("leaders_revived", _or_null(_list(ANY)), "leaders revived from the tanks: [faction, leader] (LoLV 1.05.04)",
          frozenset()),
    Field("ghola_used", _or_null(_list(INT)), "the Tleilaxu Ghola card's uses this turn: [turn, uses] (LoLV 3.01.20)", None),
    Field("revived", _or_null(Shape("object", _list(INT))),
          "forces revived this turn: faction -> [turn, forces, starred forces] (LoLV 1.05.01)", {}),
    Field("shipped", _or_null(_list(ANY)),
          "the last off-planet shipment an advisor may follow: [turn, faction, territory, sector] (LoLV 2.02.11)", None),
    Field("guild_shipment", _or_null(_list(ANY)), "the Guild's kind of shipment this turn: [turn, kind] (LoLV 2.06.05)",
          None),
    Field("blown", _or_null(_list(INT)), "the Spice Blows placed this turn: [turn, count] (AH VII.A, LoLV 1.13.02)", None),
    Field("envoys", _or_null(_list(INT)), "the Ambassadors the Ecaz placed this turn: [turn, count] (LoLV 2.11.06)", None),
    Field("auction", _or_null(_list(INT)), "the bidding round: [turn, cards sold, cards dealt, over 0/1] (LoLV 1.04, AH VIII)", None),
    Field("opened", _or_null(_list(ANY)), "who opened the bidding for the last card sold: [turn, faction] (LoLV 1.04.07)",
          None),
    Field("charity_turn", _or_null(INT), "the turn CHOAM Charity was collected (LoLV 1.03.02)", None),
    Field("inflation", _or_null(_list(ANY)), "the CHOAM's Inflation token: [side placed, turn placed] (LoLV 2.09.09-12)",
          None),
    Field("harvest_turn", _or_null(INT), "the turn the collection round was recorded in one record (LoLV 1.08)", None),
    Field("ambassador_supply", _or_null(TEXTS), "the Ambassador supply (LoLV 2.11.10; absent: not tracked)"),
    Field("ambassadors_aside", _or_null(TEXTS), "Ambassadors set aside (LoLV 2.11.10)"),
    Field("ambassadors_out", _or_null(TEXTS), "Ambassadors out of the game (LoLV 2.11.10)"),
    Field("no_field_face_up", _or_null(_list(ANY)), "No-Field tokens face up (LoLV 2.10.03)"),
    Field("declared_apart", _or_null(Shape("object", OBJECT)), "forces declared apart (WBC XV.8)"),
    Field("losses", _or_null(_list(OBJECT)), "what the last event removed by itself"),
    Field("automatic_losses", BOOL, "losses taken by the engine"),
    Field("edition", INT, "the edition of the rulings (editions.EDITIONS)"),
)

#: A faction's sheet (`factions[f]`).
SHEET_FIELDS: tuple[Field, ...] = (
    Field("marker", INT, "the player marker's dot (player_dots)"),
    Field("spice", _or_null(INT), "spice behind the shield, null when not tracked"),
    Field("cards", _or_null(INT), "treachery cards in hand, up to the hand limit"),
    Field("card_names", _or_null(TEXTS), "the cards' names, when known"),
    Field("leaders", _or_null(INT), "leaders still active"),
    Field("leader_status", _or_null(Shape("object", TEXT)), "each leader's state (and captor)"),
    Field("reserves", _or_null(INT), "forces in reserve"),
    Field("reserves_special", _or_null(INT), "special forces in reserve"),
    Field("tanks", _or_null(INT), "forces in the Tleilaxu Tanks"),
    Field("tanks_special", _or_null(INT), "special forces in the tanks"),
    Field("win_attempts", INT, "win attempts made (LoLV 4.01.12)"),
    Field("pp_total", NUMBER, "performance points (WBC PP)"),
    Field("chips", INT, "diplomacy chips used (WBC, at most 3)"),
    Field("defaults", INT, "defaults of the faction"),
    Field("dropped", BOOL, "the player dropped out"),
    Field("die", _or_null(INT), "the die rolled for the first player, 1..6"),
    Field("spice_front", INT, "spice in front of the shield"),
)

#: A row of `forces`.
FORCE_FIELDS: tuple[Field, ...] = (
    Field("faction", TEXT, "a faction of the game"),
    Field("territory", TEXT, "a territory (board data)"),
    Field("sector", _or_null(INT), "a sector the territory spans"),
    Field("normal", INT, "normal forces"),
    Field("special", INT, "special forces"),
    Field("advisors", INT, "Bene Gesserit advisors"),
)

#: A row of `moves`.
MOVE_FIELDS: tuple[Field, ...] = (
    Field("faction", TEXT, "the faction that moved"),
    Field("via", TEXT, "how (events.MOVE_KINDS)"),
    Field("from_territory", TEXT, "from"),
    Field("from_sector", _or_null(INT), "from sector"),
    Field("to_territory", TEXT, "to"),
    Field("to_sector", _or_null(INT), "to sector"),
    Field("reach", INT, "territories it may cross"),
    Field("actions", INT, "movements used"),
    Field("allowed", INT, "movements allowed"),
)

#: The `outcome` object (`Outcome.to_dict()`).
OUTCOME_FIELDS: tuple[Field, ...] = (
    Field("winners", TEXTS, "the winning factions"),
    Field("kind", TEXT, "the result kind (ids.ResultKind)"),
    Field("rule", _or_null(TEXT), "the rule that ended the game"),
    Field("ended_by", _or_null(TEXT), "what ended it"),
    Field("sides", _list(OBJECT), "each side: {factions, kind}"),
)

#: A row of `losses` (`losses.losses_json`): forces a faction lost, or spice (no faction).
LOSS_FIELDS: tuple[Field, ...] = (
    Field("faction", _or_null(TEXT), "the faction that lost forces; null for spice"),
    *FORCE_FIELDS[1:],
    Field("spice", INT, "spice lost"),
    Field("ambassador", _or_null(TEXT), "an Ecaz Ambassador's symbol, for a token the storm took back (LoLV 2.11.09)"),
    Field("rule", TEXT, "the rule that removed it"),
)

_SIDE_FIELDS: tuple[Field, ...] = (Field("factions", TEXTS, "the side's factions"), Field("kind", TEXT, "its kind"))


def _fits(shape: Shape, value: Any) -> bool:
    if value is None:
        return shape.null or shape.kind == "any"
    kind = shape.kind
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "text":
        return isinstance(value, str)
    if kind == "number":
        return isinstance(value, (int, str)) and not isinstance(value, bool)
    if kind == "list":
        return isinstance(value, list) and (shape.item is None or all(_fits(shape.item, v) for v in value))
    if kind == "pair":
        return (
            isinstance(value, list) and len(value) == 2
            and (shape.item is None or _fits(shape.item, value[0]))
            and (shape.second is None or _fits(shape.second, value[1]))
        )
    if kind == "object":
        return isinstance(value, Mapping) and all(isinstance(k, str) for k in value) and (
            shape.item is None or all(_fits(shape.item, v) for v in value.values())
        )
    return True


def check_fields(data: Any, fields: tuple[Field, ...], where: str) -> Mapping[str, Any]:
    """`data` as an object whose declared fields present fit their shapes. Raises
    InvalidPosition naming the first field that does not (`where` + its key)."""
    if not isinstance(data, Mapping):
        raise InvalidPosition(rule="snapshot", msg=f"{where or 'a snapshot'} must be an object", input=data,
                              field=where or None)
    for f in fields:
        if f.key in data and not _fits(f.shape, data[f.key]):
            name = f"{where}.{f.key}" if where else f.key
            raise InvalidPosition(
                rule="snapshot", msg=f"{name!r} must be {f.shape.words} ({f.holds})", input=data[f.key], field=name
            )
    checked: Mapping[str, Any] = data
    return checked


def _check_shapes(data: Any) -> Mapping[str, Any]:
    """Every declared field of the snapshot, its sheets and rows fits its shape (one pass,
    before any value is read). Raises InvalidPosition naming the field."""
    data = check_fields(data, POSITION_FIELDS, "")
    for f, sheet in data.get("factions", {}).items():
        check_fields(sheet, SHEET_FIELDS, f"factions.{f}")
    for i, row in enumerate(data.get("forces", ())):
        check_fields(row, FORCE_FIELDS, f"forces[{i}]")
    for i, row in enumerate(data.get("moves", ())):
        check_fields(row, MOVE_FIELDS, f"moves[{i}]")
    if data.get("outcome") is not None:
        outcome = check_fields(data["outcome"], OUTCOME_FIELDS, "outcome")
        for i, side in enumerate(outcome.get("sides", ())):
            check_fields(side, _SIDE_FIELDS, f"outcome.sides[{i}]")
    for t, row in (data.get("declared_apart") or {}).items():
        check_fields(row, (Field("factions", TEXTS, "factions there"), Field("vacated", BOOL, "vacated")),
                     f"declared_apart.{t}")
    for i, row in enumerate(data.get("losses") or ()):
        check_fields(row, LOSS_FIELDS, f"losses[{i}]")
    checked: Mapping[str, Any] = data
    return checked


def _ordered(out: dict[str, Any], fields: tuple[Field, ...]) -> dict[str, Any]:
    """`out` with its keys in the declaration's order (a key not declared is a bug: KeyError)."""
    order = {f.key: n for n, f in enumerate(fields)}
    return dict(sorted(out.items(), key=lambda item: order[item[0]]))


def _bad(rule: str, msg: str, value: Any) -> InvalidPosition:
    return InvalidPosition(rule=rule, msg=msg, input=value)


def _int(
    d: Mapping[str, Any], key: str, default: Any = None, *, low: int = 0, high: int | None = None
) -> Any:
    v = d.get(key, default)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or v < low or (high is not None and v > high):
        rng = f"{low}..{high}" if high is not None else f">= {low}"
        raise _bad("snapshot", f"{key!r} must be an integer {rng}", v)
    return v


def _bool(d: Mapping[str, Any], key: str, default: bool = False) -> bool:
    v = d.get(key, default)
    if not isinstance(v, bool):
        raise _bad("snapshot", f"{key!r} must be true or false", v)
    return v


def _edition(d: Mapping[str, Any]) -> int:
    """The edition of the rulings (`editions`); a snapshot without one means the current."""
    v = d.get("edition", CURRENT)
    if isinstance(v, bool) or v not in EDITIONS:
        raise _bad("snapshot", f"'edition' must be one of {list(EDITIONS)}", v)
    edition: int = v
    return edition


def _mapping(v: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(v, Mapping):
        raise _bad("snapshot", f"{what} must be an object", v)
    return v


def _faction_id(f: Any, rs: Ruleset) -> str:
    if f not in FACTIONS:
        raise UnknownIdentifier(rule="snapshot", msg=f"unknown faction {f!r}", input=f)
    if f not in rs.factions:
        raise InvalidPosition(
            rule=rs.cite["setup"], msg=f"{faction_name(f)} is not a faction of {rs.name}", input=f
        )
    return str(f)


def load_position(data: Mapping[str, Any]) -> Position:
    """A Position from a JSON snapshot.

    Raises InvalidPosition, UnknownIdentifier (both RuleViolation) for an impossible one.

    Long because it reads and checks each field of the snapshot format in turn; the format reads top
    to bottom here.
    """
    data = _check_shapes(data)
    rs = get_ruleset(data.get("ruleset"))  # type: ignore[arg-type]
    raw_factions = _mapping(data.get("factions"), "'factions'")
    seats = data.get("seats", list(raw_factions))
    if not isinstance(seats, list) or set(seats) != set(raw_factions):
        raise _bad("snapshot", "'seats' must list the factions of 'factions'", seats)
    factions = tuple(_faction_id(f, rs) for f in seats)
    if not 2 <= len(factions) <= 6:
        raise _bad(rs.cite["setup"], "a game has 2 to 6 factions", factions)
    markers: dict[str, int] = {}
    for f in factions:
        m = _int(_mapping(raw_factions[f], f"faction {faction_name(f)}"), "marker")
        if m not in PLAYER_DOTS:
            raise _bad(
                rs.cite["markers"],
                f"{faction_name(f)}: the player marker stands on one of the dots {list(PLAYER_DOTS)}",
                m,
            )
        markers[f] = m
    if len(set(markers.values())) != len(markers):
        raise _bad(rs.cite["markers"], "two player markers on one dot", markers)
    turn_limit = _int(data, "turn_limit", rs.turn_limit, low=1, high=rs.max_turns)
    options = frozenset(data.get("options", ()))
    rs = ruleset_with(rs, options)  # the format's rule options; UnknownIdentifier for others
    setup = Setup(
        ruleset=rs,
        factions=factions,
        markers=markers,
        turn_limit=turn_limit,
        options=options,
        three_alliances=_bool(data, "three_alliances"),
        seed=_int(data, "seed", None, low=-(2**63)),
        automatic_losses=_bool(data, "automatic_losses"),
        edition=_edition(data),
    )
    turn = _int(data, "turn", 1, low=1, high=turn_limit)
    phase = data.get("phase", MENTAT_PAUSE)
    if phase not in ALL_PHASES:
        raise UnknownIdentifier(rule="snapshot", msg=f"unknown phase {phase!r}", input=phase)
    quick = _bool(data, "quick")
    pos = Position(setup=setup, turn=turn, phase=phase, quick=quick, playing=factions)

    forces: dict[ForceKey, Stack] = {}
    for i, raw in enumerate(data.get("forces", ())):
        row = _mapping(raw, f"forces[{i}]")
        fid = row.get("faction")
        if fid not in factions:
            raise UnknownIdentifier(
                rule=rs.cite["setup"],
                msg=f"forces[{i}]: {faction_name(str(fid))} does not play in this game",
                input=fid,
            )
        f = str(fid)
        t, s = row.get("territory"), row.get("sector")
        if not isinstance(t, str):
            raise UnknownIdentifier(rule="board", msg=f"forces[{i}]: unknown territory {t!r}", input=t)
        need_piece(pos, t, s)
        n, sp, a = (_int(row, k, 0) for k in ("normal", "special", "advisors"))
        if a and f != BENE_GESSERIT:
            raise _bad(rs.cite["coexist"], f"forces[{i}]: only the Bene Gesserit has advisors", row)
        key: ForceKey = (f, t, s)
        if key in forces:
            raise _bad(
                "snapshot", f"forces[{i}]: {faction_name(f)} in {place_name(t)} sector {s} listed twice", row
            )
        if n + sp + a:
            forces[key] = (n, sp, a)

    states: dict[str, FactionState] = {}
    for f in factions:
        states[f] = _faction_state(f, _mapping(raw_factions[f], f), forces, rs)

    for f in factions:
        if states[f].dropped and any(k[0] == f for k in forces):
            raise _bad(rs.cite["dropout"], f"{faction_name(f)} dropped out: its forces left the board", f)
    alliances = _alliances(data.get("alliances", ()), factions, setup, rs)
    if dropped_allied := [f for a in alliances for f in a if states[f].dropped]:
        raise _bad(rs.cite["dropout"], f"{faction_name(dropped_allied[0])} dropped out: it is in no alliance",
                   dropped_allied)
    coexisting = frozenset(data.get("coexisting", ()))
    for t in coexisting:
        if t not in TERRITORIES:
            raise UnknownIdentifier(rule="board", msg=f"unknown territory {t!r} in 'coexisting'", input=t)
        # Coexistence is attached to the territory for the turn (WBC XV.5), so it may
        # outlast the BG tokens that were there; it needs a Bene Gesserit in the game.
        if BENE_GESSERIT not in factions:
            raise _bad(rs.cite["coexist"], "coexistence needs the Bene Gesserit in the game", t)

    pred = data.get("bg_prediction")
    prediction = None
    if pred is not None:
        prediction = Prediction.from_dict(pred)
        if (
            BENE_GESSERIT not in factions
            or prediction.faction not in factions
            or prediction.faction == BENE_GESSERIT
        ):
            raise _bad(rs.cite["prediction"], "the BG predicts another faction of the game", pred)
        if prediction.turn > turn_limit:
            raise _bad(rs.cite["prediction"], f"the predicted turn is past the last turn {turn_limit}", pred)

    attempts = frozenset((int(t_), tuple(sorted(side))) for t_, side in data.get("attempts", ()))
    time_up = data.get("time_up")
    if time_up is not None and time_up not in CLOCKS:
        raise _bad("snapshot", f"'time_up' is one of {list(CLOCKS)} or null", time_up)
    pos = Position(
        setup=setup,
        turn=turn,
        phase=phase,
        storm=_int(data, "storm", None, high=17),
        worms=_int(data, "worms", 0),
        family_atomics=_bool(data, "family_atomics"),
        nexus=_bool(data, "nexus"),
        alliances=alliances,
        forces=forces,
        coexisting=coexisting,
        states=states,
        playing=tuple(f for f in factions if not states[f].dropped),
        prediction=prediction,
        prediction_revealed=_bool(data, "prediction_revealed"),
        last_turn=_bool(data, "last_turn", turn >= turn_limit),
        time_up=time_up,
        quick=quick,
        attempts=attempts,
        outcome=load_outcome(data.get("outcome")),
        ended=_bool(data, "ended"),
        moves=_moves(data.get("moves", ()), factions),
        flyers=_flyers(data.get("flyers"), factions),
        seq=_int(data, "seq", 0),
        **_extras(data, factions, rs),
    )
    if refined(pos):
        if rs.coexistence_assumed:
            pos = pos.evolve(coexisting=assume_coexisting(pos))  # AH XV.B
        check_pieces(pos)
    if accounted(pos):
        check_supplies(pos)
    if limited(pos):
        _check_captives(pos)
        _check_bg_sides(pos)
    if ordered(pos):
        _check_no_advisor_side(pos)
    if distinguished(pos):
        check_limits(pos)
    _check_cohabitation(pos)
    return pos


def _check_no_advisor_side(pos: Position) -> None:
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


def _check_bg_sides(pos: Position) -> None:
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


def _check_captives(pos: Position) -> None:
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


def _piece(raw: Any, what: str, *, sector_required: bool = False) -> tuple[str, Any]:
    if not isinstance(raw, (list, tuple)) or len(raw) != 2 or not isinstance(raw[0], str) or raw[0] not in TERRITORIES:
        raise _bad("snapshot", f"{what!r} is [territory, sector]", raw)
    if sector_required and not isinstance(raw[1], int):
        raise _bad("snapshot", f"{what!r} points at a sector", raw)
    return str(raw[0]), raw[1]


def _order_cards(raw: Any, factions: tuple[str, ...], rs: Ruleset) -> dict[str, str]:
    """Who a card put first or last, made the aggressor, or forced the Guild into order this
    phase (`Position.order_cards`; LoLV 3.02.02, WBC Player Aid 19)."""
    cards = _mapping(raw, "'order_cards'")
    places = ("first", "last", "guild_in_order")
    if any(
        f not in factions or not (k in places or (k.startswith("aggressor@") and k[10:] in TERRITORIES))
        for k, f in cards.items()
    ):
        raise _bad(
            "snapshot",
            "'order_cards' maps first, last, guild_in_order or aggressor@<territory> to factions of the game",
            cards,
        )
    if "sappho_first" not in rs.cite and set(cards) - {"guild_in_order"}:
        raise _bad(rs.cite["juice_of_sappho"], f"there is no Juice of Sappho in {rs.name}", cards)
    return dict(cards)


def _extras(data: Mapping[str, Any], factions: tuple[str, ...], rs: Ruleset) -> dict[str, Any]:
    """Optional parts of a position; a snapshot written before they existed has none, and
    `dump_position` writes them only when they differ from the default."""
    out: dict[str, Any] = {}
    for key in ("storm_moved",):
        if key in data:
            out[key] = _bool(data, key)
    for key in ("nexus_allied", "karama_used", "acted"):
        if key in data:
            fs = data[key]
            if not isinstance(fs, list) or any(f not in factions for f in fs):
                raise _bad("snapshot", f"{key!r} lists factions of the game", fs)
            out[key] = frozenset(fs)
    if data.get("shipments"):
        made = _mapping(data["shipments"], "'shipments'")
        if any(f not in factions or not isinstance(w, str) for f, w in made.items()):
            raise _bad("snapshot", "'shipments' maps factions of the game to where they shipped", made)
        out["shipments"] = dict(made)
    if data.get("order_cards"):
        out["order_cards"] = _order_cards(data["order_cards"], factions, rs)
    for key in ("acting", "vidal"):
        if data.get(key) is not None:
            if data[key] not in factions:
                raise _bad("snapshot", f"{key!r} is a faction of the game", data[key])
            out[key] = str(data[key])
    for key in ("declared", "terror"):
        if key in data:
            ts = data[key]
            if not isinstance(ts, list) or any(t not in TERRITORIES for t in ts):
                raise _bad("snapshot", f"{key!r} lists territories", ts)
            out[key] = frozenset(ts)
    out.update(_battle_marks(data, factions))
    if "terror_spent" in data:
        out["terror_spent"] = _int(data, "terror_spent", 0, high=TERROR_TOKENS)
    for key in ("worm_pending", "aftermath"):
        if data.get(key) is not None:
            if data[key] not in TERRITORIES:
                raise UnknownIdentifier(rule="board", msg=f"{key!r}: unknown territory", input=data[key])
            out[key] = str(data[key])
    if data.get("hms") is not None:
        out["hms"] = _piece(data["hms"], "hms", sector_required=True)
    if data.get("no_field") is not None:
        out["no_field"] = _piece(data["no_field"], "no_field")
    if data.get("ambassadors"):
        amb = _mapping(data["ambassadors"], "'ambassadors'")
        if any(t not in TERRITORIES or a not in FACTIONS for t, a in amb.items()):
            raise _bad("snapshot", "'ambassadors' maps strongholds to faction symbols", amb)
        out["ambassadors"] = dict(amb)
    supplies = supplies_from_snapshot(data)
    if supplies != NO_SUPPLIES:
        out["supplies"] = supplies
    if data.get("declared_apart"):
        out["declared_apart"] = _declared_apart(data["declared_apart"], factions)
    if data.get("spice_on_board"):
        out["spice_on_board"] = _board_spice(data["spice_on_board"])
    if data.get("losses"):
        out.update(_last_losses(data["losses"], factions))
    return out


def _last_losses(rows: Any, factions: tuple[str, ...]) -> dict[str, Any]:
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


def _battle_marks(data: Mapping[str, Any], factions: tuple[str, ...]) -> dict[str, Any]:
    """The Kwisatz Haderach's count and state and the leaders that fought (`battle`)."""
    out: dict[str, Any] = {}
    if "kh_dead" in data:
        out["kh_dead"] = _bool(data, "kh_dead")
    if "kh_losses" in data:
        out["kh_losses"] = _int(data, "kh_losses", 0)
    if data.get("fought"):
        out["fought"] = _fought(data["fought"], factions)
    if data.get("ghola_used") is not None:
        out["ghola_used"] = _turn_count(data, "ghola_used", "uses of the Tleilaxu Ghola card")
    if data.get("leaders_revived"):
        rows = data["leaders_revived"]
        if not isinstance(rows, list) or any(
            not isinstance(r, list) or len(r) != 2 or r[0] not in factions or not isinstance(r[1], str) for r in rows
        ):
            raise _bad("snapshot", "'leaders_revived' is a list of [faction, leader]", rows)
        out["leaders_revived"] = frozenset((str(r[0]), str(r[1])) for r in rows)
    if data.get("shipped") is not None:
        row = data["shipped"]
        if (
            not isinstance(row, list)
            or len(row) != 4
            or isinstance(row[0], bool)
            or not isinstance(row[0], int)
            or row[1] not in factions
            or row[2] not in TERRITORIES
        ):
            raise _bad("snapshot", "'shipped' is [turn, faction, territory, sector]", row)
        out["shipped"] = (int(row[0]), str(row[1]), str(row[2]), row[3])
    if data.get("guild_shipment") is not None:
        row = data["guild_shipment"]
        if not isinstance(row, list) or len(row) != 2 or not isinstance(row[0], int) or row[1] not in GUILD_SHIPMENTS:
            raise _bad("snapshot", f"'guild_shipment' is [turn, one of {', '.join(GUILD_SHIPMENTS)}]", row)
        out["guild_shipment"] = (int(row[0]), str(row[1]))
    if data.get("blown") is not None:
        out["blown"] = _turn_count(data, "blown", "count of Spice Blows")
    for key, size in (("auction", 4), ("charity_turn", 0), ("harvest_turn", 0)):
        if data.get(key) is None:
            continue
        raw_value = data[key]
        values = raw_value if size else [raw_value]
        if not isinstance(values, list) or len(values) != max(size, 1) or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in values):
            raise _bad("snapshot", f"'{key}' is {'a list of ' + str(size) + ' counts' if size else 'a turn'}", raw_value)
        out[key] = tuple(int(v) for v in values) if size else int(values[0])
    if data.get("envoys") is not None:
        out["envoys"] = _turn_count(data, "envoys", "count of Ambassadors placed")
    if data.get("opened") is not None:
        row = data["opened"]
        if (not isinstance(row, list) or len(row) != 2 or isinstance(row[0], bool) or not isinstance(row[0], int)
                or row[1] not in factions):
            raise _bad("snapshot", "'opened' is [turn, a faction of the game]", row)
        out["opened"] = (int(row[0]), str(row[1]))
    if data.get("inflation") is not None:
        row = data["inflation"]
        if (not isinstance(row, list) or len(row) != 2 or row[0] not in INFLATION_SIDES
                or isinstance(row[1], bool) or not isinstance(row[1], int) or row[1] < 1):
            raise _bad("snapshot", f"'inflation' is [one of {', '.join(INFLATION_SIDES)}, the turn placed]", row)
        out["inflation"] = (str(row[0]), int(row[1]))
    if data.get("revived"):
        rows = _mapping(data["revived"], "'revived'")
        if any(f not in factions or not isinstance(v, list) or len(v) != 3 for f, v in rows.items()):
            raise _bad("snapshot", "'revived' maps factions to [turn, forces, starred forces]", rows)
        out["revived"] = {
            str(f): (_int({"v": v[0]}, "v", 0), _int({"v": v[1]}, "v", 0), _int({"v": v[2]}, "v", 0))
            for f, v in rows.items()
        }
    return out


def _turn_count(data: Mapping[str, Any], key: str, meaning: str) -> tuple[int, int]:
    """`[turn, count]`: a per-turn tally (`meaning` says what is counted)."""
    row = data[key]
    if not isinstance(row, list) or len(row) != 2 or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in row):
        raise _bad("snapshot", f"'{key}' is [turn, {meaning}]", row)
    return int(row[0]), int(row[1])


def _fought(raw: Any, factions: tuple[str, ...]) -> frozenset[tuple[int, str, str, str]]:
    """`[[turn, owner, leader, territory], ...]`: the leaders that fought (LoLV 1.07.04.03)."""
    if not isinstance(raw, list):
        raise _bad("snapshot", "'fought' is a list of [turn, faction, leader, territory]", raw)
    out = set()
    for row in raw:
        if (
            not isinstance(row, (list, tuple))
            or len(row) != 4
            or isinstance(row[0], bool)
            or not isinstance(row[0], int)
            or row[1] not in factions
            or not isinstance(row[2], str)
            or row[3] not in TERRITORIES
        ):
            raise _bad("snapshot", "'fought' rows are [turn, faction, leader, territory]", row)
        out.add((int(row[0]), str(row[1]), str(row[2]), str(row[3])))
    return frozenset(out)


def _declared_apart(raw: Any, factions: tuple[str, ...]) -> dict[str, tuple[frozenset[str], bool]]:
    """`{territory: {"factions": [...], "vacated": bool}}` (WBC XV.8)."""
    out: dict[str, tuple[frozenset[str], bool]] = {}
    for t, row in _mapping(raw, "'declared_apart'").items():
        entry = _mapping(row, f"'declared_apart'[{t!r}]")
        fs = entry.get("factions")
        if t not in TERRITORIES or not isinstance(fs, list) or any(f not in factions for f in fs):
            raise _bad("snapshot", "'declared_apart' maps territories to the factions there", row)
        out[str(t)] = (frozenset(fs), _bool(entry, "vacated"))
    return out


def _board_spice(raw: Any) -> dict[str, int]:
    """`{territory: spice}` lying in Spice Blow territories (LoLV 1.02.04)."""
    board = _mapping(raw, "'spice_on_board'")
    out: dict[str, int] = {}
    for t, amount in board.items():
        where = place_name(t) if t in TERRITORIES else repr(t)
        if blow_sector(t) is None:
            raise _bad("snapshot", f"'spice_on_board': {where} is not a Spice Blow territory", t)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            raise _bad(
                "snapshot", f"'spice_on_board': {where} holds a positive whole amount of spice", amount
            )
        out[str(t)] = amount
    return out


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


#: Optional position parts and their defaults (written only when set).
_EXTRA_DEFAULTS: dict[str, Any] = {f.key: f.default for f in POSITION_FIELDS if f.default is not ALWAYS}


def _dump_extras(position: Position) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, default in _EXTRA_DEFAULTS.items():
        value = getattr(position, key)
        if value == default:
            continue
        if isinstance(value, frozenset):
            out[key] = [list(v) if isinstance(v, tuple) else v for v in sorted(value)]
        elif isinstance(value, tuple):
            out[key] = list(value)
        elif isinstance(value, Mapping):
            out[key] = {k: list(v) if isinstance(v, tuple) else v for k, v in sorted(value.items())}
        else:
            out[key] = value
    out.update(supplies_to_snapshot(position.supplies))
    if position.declared_apart:
        out["declared_apart"] = {
            t: {"factions": sorted(before), "vacated": vacated}
            for t, (before, vacated) in sorted(position.declared_apart.items())
        }
    if position.losses or position.spice_lost or position.pieces_lost:
        out["losses"] = losses_json(position)
    return out


def _faction_state(
    f: str, raw: Mapping[str, Any], forces: dict[ForceKey, Stack], rs: Ruleset
) -> FactionState:
    """One faction's state from its sheet in a snapshot.

    Long because it reads and checks each field of the sheet in the snapshot format, in turn.
    """
    sheet = EMPTY.sheet(f)
    on_n = sum(st[0] + st[2] for k, st in forces.items() if k[0] == f)
    on_s = sum(st[1] for k, st in forces.items() if k[0] == f)
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
    names = raw.get("card_names")
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
    try:
        # Bounded in digits and exponent before any arithmetic (numbers.bounded_decimal).
        plain = isinstance(pp_raw, (str, int)) and not isinstance(pp_raw, bool)
        pp = parse_decimal(pp_raw if plain else repr(pp_raw))
    except ValueError as exc:
        raise _bad("snapshot", f"{faction_name(f)} 'pp_total' must be a decimal number: {exc}", None) from None
    return FactionState(
        spice=_int(raw, "spice"),
        cards=cards,
        card_names=None if names is None else tuple(names),
        reserves=res_pair,
        tanks=tank_pair,
        leaders=leaders,
        win_attempts=_int(raw, "win_attempts", 0),
        pp=pp,
        chips=_int(raw, "chips", 0, high=3),
        defaults=_int(raw, "defaults", 0),
        dropped=dropped,
        die=_int(raw, "die", None, low=1, high=6),
        spice_front=_int(raw, "spice_front", 0),
    )


def _alliances(raw: Any, factions: tuple[str, ...], setup: Setup, rs: Ruleset) -> tuple[tuple[str, ...], ...]:
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


def _check_cohabitation(pos: Position) -> None:
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


def load_outcome(raw: Any) -> Outcome | None:
    """An outcome from its JSON (`Outcome.to_dict()`); None for null.
    Raises InvalidPosition (not an object) or UnknownIdentifier (an unknown result kind)."""
    if raw is None:
        return None
    m = _mapping(raw, "'outcome'")
    kind = m.get("kind")
    if kind not in ResultKind.__members__.values():
        raise UnknownIdentifier(rule="snapshot", msg=f"unknown result kind {kind!r}", input=kind)
    return Outcome(
        winners=tuple(m.get("winners", ())),
        kind=str(kind),
        rule=str(m.get("rule")),
        ended_by=str(m.get("ended_by")),
        sides=tuple((tuple(s["factions"]), str(s["kind"])) for s in m.get("sides", ())),
    )


def dump_position(position: Position) -> dict[str, Any]:
    """The snapshot of a position (JSON-serialisable). Raises InvalidPosition before setup.

    Long because it writes each field of the snapshot format in turn, mirroring `load_position`.
    """
    setup = position.setup
    if setup is None:
        raise InvalidPosition(rule="setup", msg="the game has not been set up", input=None)
    factions: dict[str, Any] = {}
    for f in setup.factions:
        st = position.states[f]
        sheet = position.sheet(f)
        row: dict[str, Any] = {
            "marker": setup.markers[f],
            "spice": st.spice,
            "cards": st.cards,
            "card_names": None if st.card_names is None else list(st.card_names),
            "leaders": sum(1 for s, _c in st.leaders if s == "active") if st.leaders else None,
            "leader_status": {
                ld.id: (s if c is None else f"{s}:{c}")
                for ld, (s, c) in zip(sheet.leaders, st.leaders, strict=True)
            }
            if st.leaders
            else None,
            "reserves": None if st.reserves is None else sum(st.reserves),
            "reserves_special": None if st.reserves is None else st.reserves[1],
            "tanks": None if st.tanks is None else sum(st.tanks),
            "tanks_special": None if st.tanks is None else st.tanks[1],
            "win_attempts": st.win_attempts,
            "pp_total": decimal_str(st.pp),
            "chips": st.chips,
            "defaults": st.defaults,
            "dropped": st.dropped,
            "die": st.die,
        }
        if st.spice_front:
            row["spice_front"] = st.spice_front
        factions[f] = _ordered(row, SHEET_FIELDS)
    extras = _dump_extras(position)
    if setup.automatic_losses:
        extras["automatic_losses"] = True
    extras["edition"] = setup.edition  # always stated: a snapshot keeps its own version
    return _ordered({
        "ruleset": setup.ruleset.key,
        "turn": position.turn,
        "phase": position.phase,
        "last_turn": position.last_turn,
        "turn_limit": setup.turn_limit,
        "storm": position.storm,
        "worms": position.worms,
        "family_atomics": position.family_atomics,
        "nexus": position.nexus,
        "quick": position.quick,
        "time_up": position.time_up,
        "options": sorted(setup.options),
        "three_alliances": setup.three_alliances,
        "seed": setup.seed,
        "seats": list(setup.factions),
        "factions": factions,
        "forces": [
            {"faction": f, "territory": t, "sector": s, "normal": n, "special": sp, "advisors": a}
            for (f, t, s), (n, sp, a) in position.forces.items()
        ],
        "alliances": [list(a) for a in position.alliances],
        "bg_prediction": None if position.prediction is None else position.prediction.to_dict(),
        "prediction_revealed": position.prediction_revealed,
        "coexisting": sorted(position.coexisting),
        "attempts": sorted([t, list(side)] for t, side in position.attempts),
        "outcome": None if position.outcome is None else position.outcome.to_dict(),
        "ended": position.ended,
        "moves": [
            {
                "faction": f,
                "via": via,
                "from_territory": m.from_territory,
                "from_sector": m.from_sector,
                "to_territory": m.to_territory,
                "to_sector": m.to_sector,
                "reach": m.reach,
                "actions": m.actions,
                "allowed": m.allowed,
            }
            for (f, via), m in sorted(position.moves.items())
        ],
        "flyers": None if position.flyers is None else sorted(position.flyers),
        "seq": position.seq,
        **extras,
    }, POSITION_FIELDS)


def _moves(raw: Any, factions: tuple[str, ...]) -> dict[tuple[str, str], Movement]:
    """This phase's movement records (optional; LoLV 1.06.04.01). Raises InvalidPosition,
    UnknownIdentifier."""
    out: dict[tuple[str, str], Movement] = {}
    if not isinstance(raw, (list, tuple)):
        raise _bad("snapshot", "'moves' is a list", raw)
    for i, item in enumerate(raw):
        row = _mapping(item, f"moves[{i}]")
        f = row.get("faction")
        if f not in factions:
            raise UnknownIdentifier(
                rule="snapshot", msg=f"moves[{i}]: {faction_name(str(f))} does not play", input=f
            )
        via = row.get("via")
        if via not in MOVE_KINDS:
            raise _bad("snapshot", f"moves[{i}]: unknown kind {via!r}", via)
        for t in (row.get("from_territory"), row.get("to_territory")):
            if t not in TERRITORIES:
                raise UnknownIdentifier(rule="board", msg=f"moves[{i}]: unknown territory {t!r}", input=t)
        out[(str(f), str(via))] = Movement(
            from_territory=str(row["from_territory"]),
            from_sector=_int(row, "from_sector", None, high=17),
            to_territory=str(row["to_territory"]),
            to_sector=_int(row, "to_sector", None, high=17),
            reach=_int(row, "reach", 1),
            actions=_int(row, "actions", 1),
            allowed=_int(row, "allowed", 1),
        )
    return out


def _flyers(raw: Any, factions: tuple[str, ...]) -> frozenset[str] | None:
    if raw is None:
        return None
    if not isinstance(raw, (list, tuple)) or any(f not in factions for f in raw):
        raise _bad("snapshot", "'flyers' lists factions of the game", raw)
    return frozenset(raw)


__all__ = [
    "dump_position", "load_position", "load_outcome", "check_fields", "Field", "Shape",
    "POSITION_FIELDS", "SHEET_FIELDS", "FORCE_FIELDS", "MOVE_FIELDS", "OUTCOME_FIELDS",
]
