"""The one declaration of a position snapshot: each object of the JSON format is a frozen
dataclass here, each key a field whose metadata (`kinds.Part`) gives its JSON shape, what it
holds with its rule, its codec and the position's attribute it fills.

From these classes come the shape checks (`checked`), the loader and the dumper
(`codec.position`) and the pages' typed read view: `SnapshotView.of(snapshot)` reads a stored
(possibly redacted) snapshot into these same classes, a key the snapshot leaves out reading as
its empty value. The fields are in the order a snapshot is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any

from dune.engine.board import TERRITORIES
from dune.engine.codec.kinds import (
    ALWAYS,
    ANY,
    AS_TUPLE,
    BOOL,
    INT,
    NUMBER,
    OBJECT,
    TEXT,
    TEXTS,
    Bespoke,
    Codec,
    Context,
    Count,
    Listed,
    Members,
    One,
    Part,
    Rows,
    Shape,
    Tally,
    bad,
    count,
    list_of,
    need_mapping,
    or_null,
    part,
)
from dune.engine.errors import InvalidPosition, UnknownIdentifier
from dune.engine.events import CLOCKS, INFLATION_SIDES, MOVE_KINDS, Prediction
from dune.engine.ids import FACTIONS, ResultKind
from dune.engine.impossible import TERROR_TOKENS
from dune.engine.movement import Movement
from dune.engine.names import faction_name, place_name
from dune.engine.position import Outcome
from dune.engine.revival_limits import GUILD_SHIPMENTS
from dune.engine.spice import blow_sector

#: A piece on the board as a snapshot writes it: `[territory, sector]` (sector None for a
#: territory without sectors), or None when it is not on the board.
Piece = tuple[str, int | None] | None


def _int(value: Any) -> int:
    return int(value or 0)


# --- rows -----------------------------------------------------------------------------------


def _given(cls: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """The declared fields of `cls` that `data` has, by the field's own name (the key)."""
    return {name: data[name] for name in _names(cls) if name in data}


_NAMES: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in fields(cls) if "part" in f.metadata)
    return names


@dataclass(frozen=True)
class _Forces:
    """The keys a row of `forces` and a row of `losses` share, in the order they are written: a
    faction's normal and special forces and advisors in a territory's sector. Each row declares
    its own `faction` in the first place."""

    faction: str | None = part(or_null(TEXT), "the faction whose forces they are")
    territory: str = part(TEXT, "a territory (board data)", view_default="")
    sector: int | None = part(or_null(INT), "a sector the territory spans")
    normal: int = part(INT, "normal forces", view_default=0)
    special: int = part(INT, "special forces", view_default=0)
    advisors: int = part(INT, "Bene Gesserit advisors", view_default=0)

    @staticmethod
    def _forces(given: Mapping[str, Any]) -> dict[str, Any]:
        """The shared keys of a row, one the row leaves out read as its empty value."""
        return {
            "territory": str(given.get("territory") or ""), "sector": given.get("sector"),
            "normal": _int(given.get("normal")), "special": _int(given.get("special")),
            "advisors": _int(given.get("advisors")),
        }


@dataclass(frozen=True)
class Stack(_Forces):
    """A row of `forces`."""

    faction: str = part(TEXT, "a faction of the game", view_default="")

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Stack:
        given = _given(cls, data)
        return cls(faction=str(given.get("faction") or ""), **cls._forces(given))

    @property
    def total(self) -> int:
        return self.normal + self.special + self.advisors


@dataclass(frozen=True)
class Removed(_Forces):
    """A row of `losses` (`losses.losses_json`): forces a faction lost, spice (no faction), or
    an Ecaz Ambassador the storm sent back (`ambassador`, LoLV 2.11.09)."""

    faction: str | None = part(or_null(TEXT), "the faction that lost forces; null for spice")
    spice: int = part(INT, "spice lost", view_default=0)
    ambassador: str | None = part(or_null(TEXT), "an Ecaz Ambassador's symbol, for a token the storm took back "
                                  "(LoLV 2.11.09)")
    rule: str | None = part(TEXT, "the rule that removed it")

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Removed:
        given = _given(cls, data)
        return cls(
            faction=given.get("faction") or None, **cls._forces(given), spice=_int(given.get("spice")),
            rule=given.get("rule"), ambassador=given.get("ambassador") or None,
        )

    def count(self, kind: str) -> int:
        """Its `normal`, `special` or `advisors` forces."""
        return int(getattr(self, kind))


@dataclass(frozen=True)
class MoveRow:
    """A row of `moves`: a faction's movement or cross-shipment this phase (LoLV 1.06.04.01)."""

    faction: str = part(TEXT, "the faction that moved", view_default="")
    via: str = part(TEXT, "how (events.MOVE_KINDS)", view_default="")
    from_territory: str = part(TEXT, "from", view_default="")
    from_sector: int | None = part(or_null(INT), "from sector")
    to_territory: str = part(TEXT, "to", view_default="")
    to_sector: int | None = part(or_null(INT), "to sector")
    reach: int = part(INT, "territories it may cross", view_default=1)
    actions: int = part(INT, "movements used", view_default=1)
    allowed: int = part(INT, "movements allowed", view_default=1)

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> MoveRow:
        return cls(**_given(cls, data))


@dataclass(frozen=True)
class SideRow:
    """A side of an `outcome`."""

    factions: tuple[str, ...] = part(TEXTS, "the side's factions", view_default=())
    kind: str = part(TEXT, "its kind", view_default="")


@dataclass(frozen=True)
class OutcomeRow:
    """The `outcome` object (`Outcome.to_dict()`)."""

    winners: tuple[str, ...] = part(TEXTS, "the winning factions", view_default=())
    kind: str = part(TEXT, "the result kind (ids.ResultKind)", view_default="")
    rule: str | None = part(or_null(TEXT), "the rule that ended the game")
    ended_by: str | None = part(or_null(TEXT), "what ended it")
    sides: tuple[Any, ...] = part(list_of(OBJECT), "each side: {factions, kind}", view_default=())


@dataclass(frozen=True)
class ApartRow:
    """A value of `declared_apart` (WBC XV.8)."""

    factions: tuple[str, ...] = part(TEXTS, "factions there", view_default=())
    vacated: bool = part(BOOL, "vacated", view_default=False)


@dataclass(frozen=True)
class Sheet:
    """A faction's sheet (`factions[f]`): counts are None when the sheet says null (not
    tracked) or leaves them out; `has` names the keys it gives. `attr` names the
    `FactionState` part a key fills; the others are read together by the loader (the player
    marker, forces in reserve and in the tanks, the leaders)."""

    marker: int | None = part(INT, "the player marker's dot (player_dots)", attr=None)
    spice: int | None = part(or_null(INT), "spice behind the shield, null when not tracked", Count(), attr="spice")
    cards: int | None = part(or_null(INT), "treachery cards in hand, up to the hand limit", attr=None)
    card_names: tuple[str, ...] | None = part(or_null(TEXTS), "the cards' names, when known", AS_TUPLE,
                                              attr="card_names")
    leaders: int | None = part(or_null(INT), "leaders still active", attr=None)
    leader_status: Mapping[str, str] | None = part(
        or_null(Shape("object", TEXT)), "each leader's state (and captor)", attr=None)
    reserves: int | None = part(or_null(INT), "forces in reserve", attr=None)
    reserves_special: int | None = part(or_null(INT), "special forces in reserve", attr=None)
    tanks: int | None = part(or_null(INT), "forces in the Tleilaxu Tanks", attr=None)
    tanks_special: int | None = part(or_null(INT), "special forces in the tanks", attr=None)
    win_attempts: int | None = part(INT, "win attempts made (LoLV 4.01.12)", Count(), attr="win_attempts")
    pp_total: Any = part(NUMBER, "performance points (WBC PP)", attr=None)
    chips: int | None = part(INT, "diplomacy chips used (WBC, at most 3)", Count(high=3), attr="chips")
    defaults: int | None = part(INT, "defaults of the faction", Count(), attr="defaults")
    dropped: bool = part(BOOL, "the player dropped out", attr="dropped", view_default=False)
    die: int | None = part(or_null(INT), "the die rolled for the first player, 1..6", Count(low=1, high=6), attr="die")
    spice_front: int | None = part(INT, "spice in front of the shield", Count(), attr="spice_front", default=0)
    has: frozenset[str] = frozenset()

    @classmethod
    def of(cls, data: Any) -> Sheet:
        given = _given(cls, data) if isinstance(data, Mapping) else {}
        has = frozenset(given)
        given["dropped"] = bool(given.get("dropped"))
        return cls(**given, has=has)

    def counted(self, kind: str, engine: Any) -> Any:
        """The sheet's `spice`, `cards` or `leaders` when it gives one (null included), else
        the engine's count `engine`."""
        return getattr(self, kind) if kind in self.has else engine

    def all_forces(self, kind: str) -> int | None:
        """Every force in `reserves` or the `tanks`, special ones included: the snapshot's
        count is the whole (`reserves_special` / `tanks_special` say how many of them are
        special), so they are counted once; None when unknown (quick tracking knows neither)."""
        value = getattr(self, kind)
        return None if value is None else int(value)


# --- the bespoke codecs of the position's fields ----------------------------------------------


def _piece_reader(sector_required: bool) -> Any:
    def read(key: str, raw: Any, ctx: Context) -> Any:
        if raw is None:
            return None
        if not isinstance(raw, (list, tuple)) or len(raw) != 2 or not isinstance(raw[0], str) or raw[0] not in TERRITORIES:
            raise bad("snapshot", f"{key!r} is [territory, sector]", raw)
        if sector_required and not isinstance(raw[1], int):
            raise bad("snapshot", f"{key!r} points at a sector", raw)
        return str(raw[0]), raw[1]

    return read


def _view_piece(value: Any) -> Piece:
    if not value or isinstance(value, str):
        return None
    territory, sector = value
    return str(territory), (None if sector is None else int(sector))


def _read_time_up(key: str, value: Any, ctx: Context) -> Any:
    if value is not None and value not in CLOCKS:
        raise bad("snapshot", f"'time_up' is one of {list(CLOCKS)} or null", value)
    return value


def _read_coexisting(key: str, value: Any, ctx: Context) -> frozenset[str]:
    for t in value:
        if t not in TERRITORIES:
            raise UnknownIdentifier(rule="board", msg=f"unknown territory {t!r} in 'coexisting'", input=t)
        # Coexistence is attached to the territory for the turn (WBC XV.5), so it may
        # outlast the BG tokens that were there; it needs a Bene Gesserit in the game.
        if "bene_gesserit" not in ctx.factions:
            raise bad(ctx.rs.cite["coexist"], "coexistence needs the Bene Gesserit in the game", t)
    return frozenset(value)


def _read_attempts(key: str, value: Any, ctx: Context) -> frozenset[tuple[int, tuple[str, ...]]]:
    return frozenset((int(t), tuple(sorted(side))) for t, side in value)


def _write_attempts(value: Any) -> Any:
    return sorted([t, list(side)] for t, side in value)


def load_outcome(raw: Any) -> Outcome | None:
    """An outcome from its JSON (`Outcome.to_dict()`); None for null.
    Raises InvalidPosition (not an object) or UnknownIdentifier (an unknown result kind)."""
    if raw is None:
        return None
    m = need_mapping(raw, "'outcome'")
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


def _read_moves(key: str, raw: Any, ctx: Context) -> dict[tuple[str, str], Movement]:
    """This phase's movement records (LoLV 1.06.04.01). Raises InvalidPosition, UnknownIdentifier."""
    out: dict[tuple[str, str], Movement] = {}
    for i, item in enumerate(raw):
        row = need_mapping(item, f"moves[{i}]")
        f = row.get("faction")
        if f not in ctx.factions:
            raise UnknownIdentifier(rule="snapshot", msg=f"moves[{i}]: {faction_name(str(f))} does not play", input=f)
        via = row.get("via")
        if via not in MOVE_KINDS:
            raise bad("snapshot", f"moves[{i}]: unknown kind {via!r}", via)
        for t in (row.get("from_territory"), row.get("to_territory")):
            if t not in TERRITORIES:
                raise UnknownIdentifier(rule="board", msg=f"moves[{i}]: unknown territory {t!r}", input=t)
        out[(str(f), str(via))] = Movement(
            from_territory=str(row["from_territory"]),
            from_sector=count(row.get("from_sector"), "from_sector", high=17),
            to_territory=str(row["to_territory"]),
            to_sector=count(row.get("to_sector"), "to_sector", high=17),
            reach=count(row.get("reach", 1), "reach"),
            actions=count(row.get("actions", 1), "actions"),
            allowed=count(row.get("allowed", 1), "allowed"),
        )
    return out


def _write_moves(moves: Any) -> list[dict[str, Any]]:
    return [
        {"faction": f, "via": via, **{name: getattr(m, name) for name in _names(MoveRow)[2:]}}
        for (f, via), m in sorted(moves.items())
    ]


def _read_flyers(key: str, raw: Any, ctx: Context) -> frozenset[str] | None:
    if raw is None:
        return None
    if any(f not in ctx.factions for f in raw):
        raise bad("snapshot", "'flyers' lists factions of the game", raw)
    return frozenset(raw)


def _read_shipments(key: str, raw: Any, ctx: Context) -> dict[str, str]:
    if not raw:
        return {}
    if any(f not in ctx.factions for f in raw):
        raise bad("snapshot", "'shipments' maps factions of the game to where they shipped", raw)
    return dict(raw)


def _read_order_cards(key: str, raw: Any, ctx: Context) -> dict[str, str]:
    """Who a card put first or last, made the aggressor, or forced the Guild into order this
    phase (`Position.order_cards`; LoLV 3.02.02, WBC Player Aid 19)."""
    if not raw:
        return {}
    places = ("first", "last", "guild_in_order")
    if any(
        f not in ctx.factions or not (k in places or (k.startswith("aggressor@") and k[10:] in TERRITORIES))
        for k, f in raw.items()
    ):
        raise bad("snapshot",
                  "'order_cards' maps first, last, guild_in_order or aggressor@<territory> to factions of the game", raw)
    if "sappho_first" not in ctx.rs.cite and set(raw) - {"guild_in_order"}:
        raise bad(ctx.rs.cite["juice_of_sappho"], f"there is no Juice of Sappho in {ctx.rs.name}", raw)
    return dict(raw)


def _read_ambassadors(key: str, raw: Any, ctx: Context) -> dict[str, str]:
    if not raw:
        return {}
    if any(t not in TERRITORIES or a not in FACTIONS for t, a in raw.items()):
        raise bad("snapshot", "'ambassadors' maps strongholds to faction symbols", raw)
    return dict(raw)


def _read_board_spice(key: str, raw: Any, ctx: Context) -> dict[str, int]:
    """`{territory: spice}` lying in Spice Blow territories (LoLV 1.02.04)."""
    out: dict[str, int] = {}
    for t, amount in (raw or {}).items():
        where = place_name(t) if t in TERRITORIES else repr(t)
        if blow_sector(t) is None:
            raise bad("snapshot", f"'spice_on_board': {where} is not a Spice Blow territory", t)
        if type(amount) is not int or amount < 1:
            raise bad("snapshot", f"'spice_on_board': {where} holds a positive whole amount of spice", amount)
        out[str(t)] = amount
    return out


def _read_fought(key: str, raw: Any, ctx: Context) -> frozenset[tuple[int, str, str, str]]:
    """`[[turn, owner, leader, territory], ...]`: the leaders that fought (LoLV 1.07.04.03)."""
    if not raw:
        return frozenset()
    out = set()
    for row in raw:
        if (
            not isinstance(row, (list, tuple)) or len(row) != 4 or type(row[0]) is not int
            or row[1] not in ctx.factions or not isinstance(row[2], str) or row[3] not in TERRITORIES
        ):
            raise bad("snapshot", "'fought' rows are [turn, faction, leader, territory]", row)
        out.add((int(row[0]), str(row[1]), str(row[2]), str(row[3])))
    return frozenset(out)


def _read_leaders_revived(key: str, rows: Any, ctx: Context) -> frozenset[tuple[str, str]]:
    if not rows:
        return frozenset()
    if any(not isinstance(r, list) or len(r) != 2 or r[0] not in ctx.factions or not isinstance(r[1], str)
           for r in rows):
        raise bad("snapshot", "'leaders_revived' is a list of [faction, leader]", rows)
    return frozenset((str(r[0]), str(r[1])) for r in rows)


def _read_revived(key: str, rows: Any, ctx: Context) -> dict[str, tuple[int, int, int]]:
    if not rows:
        return {}
    if any(f not in ctx.factions or not isinstance(v, list) or len(v) != 3 for f, v in rows.items()):
        raise bad("snapshot", "'revived' maps factions to [turn, forces, starred forces]", rows)
    return {str(f): (count(v[0], "v"), count(v[1], "v"), count(v[2], "v")) for f, v in rows.items()}


def _read_shipped(key: str, row: Any, ctx: Context) -> tuple[int, str, str, int | None] | None:
    if row is None:
        return None
    if len(row) != 4 or type(row[0]) is not int or row[1] not in ctx.factions or row[2] not in TERRITORIES:
        raise bad("snapshot", "'shipped' is [turn, faction, territory, sector]", row)
    return int(row[0]), str(row[1]), str(row[2]), row[3]


def _read_guild_shipment(key: str, row: Any, ctx: Context) -> tuple[int, str] | None:
    if row is None:
        return None
    if len(row) != 2 or type(row[0]) is not int or row[1] not in GUILD_SHIPMENTS:
        raise bad("snapshot", f"'guild_shipment' is [turn, one of {', '.join(GUILD_SHIPMENTS)}]", row)
    return int(row[0]), str(row[1])


def _read_opened(key: str, row: Any, ctx: Context) -> tuple[int, str] | None:
    if row is None:
        return None
    if len(row) != 2 or type(row[0]) is not int or row[1] not in ctx.factions:
        raise bad("snapshot", "'opened' is [turn, a faction of the game]", row)
    return int(row[0]), str(row[1])


def _read_inflation(key: str, row: Any, ctx: Context) -> tuple[str, int] | None:
    if row is None:
        return None
    if len(row) != 2 or row[0] not in INFLATION_SIDES or type(row[1]) is not int or row[1] < 1:
        raise bad("snapshot", f"'inflation' is [one of {', '.join(INFLATION_SIDES)}, the turn placed]", row)
    return str(row[0]), int(row[1])


def _read_declared_apart(key: str, raw: Any, ctx: Context) -> dict[str, tuple[frozenset[str], bool]]:
    """`{territory: {"factions": [...], "vacated": bool}}` (WBC XV.8)."""
    out: dict[str, tuple[frozenset[str], bool]] = {}
    for t, row in (raw or {}).items():
        fs = row.get("factions")
        if t not in TERRITORIES or not isinstance(fs, list) or any(f not in ctx.factions for f in fs):
            raise bad("snapshot", "'declared_apart' maps territories to the factions there", row)
        vacated = row.get("vacated", False)
        if type(vacated) is not bool:
            raise bad("snapshot", "'vacated' must be true or false", vacated)
        out[str(t)] = (frozenset(fs), vacated)
    return out


def _write_declared_apart(value: Any) -> Any:
    return {t: {"factions": sorted(before), "vacated": vacated} for t, (before, vacated) in sorted(value.items())}


def _read_prediction(key: str, raw: Any, ctx: Context) -> Prediction | None:
    if raw is None:
        return None
    prediction = Prediction.from_dict(raw)
    rule = ctx.rs.cite["prediction"]
    if "bene_gesserit" not in ctx.factions or prediction.faction not in ctx.factions \
            or prediction.faction == "bene_gesserit":
        raise bad(rule, "the BG predicts another faction of the game", raw)
    if prediction.turn > ctx.turn_limit:
        raise bad(rule, f"the predicted turn is past the last turn {ctx.turn_limit}", raw)
    return prediction


def _write_prediction(value: Any) -> Any:
    return None if value is None else value.to_dict()


def _write_outcome(value: Any) -> Any:
    return None if value is None else value.to_dict()


def _view_attempts(value: Any) -> tuple[tuple[int, tuple[str, ...]], ...]:
    return tuple((int(turn), tuple(side)) for turn, side in value or ())


def _view_mapping(value: Any) -> Mapping[str, Any]:
    return dict(value or {})


class _Alliances(Codec):
    """The alliances: read with the faction states (`codec.position`), written sorted."""

    def dump(self, value: Any) -> Any:
        return [list(a) for a in value]

    def view(self, value: Any) -> Any:
        return tuple(tuple(group) for group in value or ())


class _Sheets(Codec):
    """The factions' sheets: read and written with the setup (`codec.position`)."""

    def view(self, value: Any) -> Any:
        return {f: Sheet.of(sheet) for f, sheet in (value or {}).items()} if isinstance(value, Mapping) else {}


def _as_is(key: str, value: Any, ctx: Context) -> Any:
    return value


def _key(ruleset: Any) -> Any:
    return ruleset.key


def _write_forces(forces: Any) -> list[dict[str, Any]]:
    return [
        {"faction": f, "territory": t, "sector": s, "normal": n, "special": sp, "advisors": a}
        for (f, t, s), (n, sp, a) in forces.items()
    ]


def _turn_high(ctx: Context) -> int:
    return ctx.turn_limit


_FACTIONS, _TERRITORIES = "factions", "territories"
_PIECE_VIEW = Bespoke(_piece_reader(False), view=_view_piece)
#: The view's empty mapping.
EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class SnapshotView:
    """A position's snapshot: every key, its shape, its codec and the position's part it fills
    (`attr`; None: read with the setup, the sheets or a group of keys). As the pages' typed
    view, `SnapshotView.of(snapshot)` reads a stored snapshot leniently."""

    ruleset: str | None = part(TEXT, "the ruleset's key (rulesets.RULESETS)", Bespoke(_as_is, _key),
                               attr="setup.ruleset")
    turn: int | None = part(INT, "the game turn, 1 to the turn limit", Count(low=1, high=_turn_high), attr="turn")
    phase: str | None = part(TEXT, "the phase (phases.ALL_PHASES)", attr="phase")
    last_turn: bool = part(BOOL, "whether this is the game's last turn", attr="last_turn", view_default=False)
    turn_limit: int | None = part(INT, "the last turn (LoLV 4.01.10, WBC: the format's)", attr="setup.turn_limit")
    storm: int | None = part(or_null(INT), "the storm's sector 0..17, null before it is placed", Count(high=17),
                             attr="storm")
    worms: int = part(INT, "sandworms seen this game", Count(), attr="worms", view_default=0)
    family_atomics: bool = part(BOOL, "the Shield Wall destroyed", attr="family_atomics", view_default=False)
    nexus: bool = part(BOOL, "a Nexus is open", attr="nexus", view_default=False)
    quick: bool = part(BOOL, "quick tracking (only what ends a game)", attr="quick", view_default=False)
    time_up: str | None = part(or_null(TEXT), "the clock that ran out (events.CLOCKS)", Bespoke(_read_time_up),
                               attr="time_up")
    options: tuple[str, ...] = part(TEXTS, "the ruleset's options in play", attr="setup.options", view_default=())
    three_alliances: bool = part(BOOL, "three-faction alliances allowed", attr="setup.three_alliances",
                                 view_default=False)
    seed: int | None = part(or_null(INT), "the seed of the game's random draws", attr="setup.seed")
    seats: tuple[str, ...] = part(TEXTS, "the factions in seat order", attr="setup.factions", view_default=())
    factions: Mapping[str, Sheet] | None = part(Shape("object", OBJECT), "each faction's sheet (Sheet)", _Sheets(),
                                                attr=None, view_default=EMPTY)
    forces: tuple[Stack, ...] = part(list_of(OBJECT), "forces on the board (Stack)", Rows(Stack, write=_write_forces),
                                     attr="forces",
                                     view_default=())
    alliances: tuple[tuple[str, ...], ...] = part(list_of(TEXTS), "the alliances, each a list of factions",
                                                  _Alliances(), attr="alliances", view_default=())
    #: The Bene Gesserit's prediction: {faction, turn}, or "hidden" in a redacted copy.
    bg_prediction: Any = part(or_null(OBJECT), "the Bene Gesserit's prediction {faction, turn}",
                              Bespoke(_read_prediction, _write_prediction), attr="prediction")
    prediction_revealed: bool = part(BOOL, "the prediction shown", attr="prediction_revealed", view_default=False)
    coexisting: frozenset[str] = part(TEXTS, "territories where the Bene Gesserit coexist (WBC XV.5, AH XV.B)",
                                      Bespoke(_read_coexisting, view=frozenset), attr="coexisting",
                                      view_default=frozenset())
    attempts: tuple[tuple[int, tuple[str, ...]], ...] = part(
        list_of(Shape("pair", INT, TEXTS)), "win attempts: [turn, [side]] (LoLV 4.01.12)",
        Bespoke(_read_attempts, _write_attempts, _view_attempts), attr="attempts", view_default=())
    outcome: Any = part(or_null(OBJECT), "how the game ended (OutcomeRow)",
                        Bespoke(lambda k, v, c: load_outcome(v), _write_outcome), attr="outcome")
    ended: bool = part(BOOL, "the game is over", attr="ended", view_default=False)
    moves: Any = part(list_of(OBJECT), "this phase's movements (MoveRow, LoLV 1.06.04.01)",
                      Bespoke(_read_moves, _write_moves), attr="moves")
    flyers: Any = part(or_null(TEXTS), "factions still to move this phase", Bespoke(_read_flyers), attr="flyers")
    seq: int = part(INT, "events behind the position (bookkeeping)", Count(), attr="seq", view_default=0)
    storm_moved: bool = part(BOOL, "the storm moved this turn (LoLV 1.01.02)", attr="storm_moved", default=False,
                             view_default=False)
    nexus_allied: Any = part(TEXTS, "factions that allied in this Nexus (LoLV 1.10.01.01)", Members(_FACTIONS),
                             attr="nexus_allied", default=frozenset())
    acting: str | None = part(or_null(TEXT), "the faction acting now", One(_FACTIONS), attr="acting", default=None)
    acted: Any = part(TEXTS, "factions whose turn to ship and move is over this phase (LoLV 1.06.01)",
                      Members(_FACTIONS), attr="acted", default=frozenset())
    shipments: Any = part(or_null(Shape("object", TEXT)), "where each faction shipped this phase (LoLV 1.06.02)",
                          Bespoke(_read_shipments), attr="shipments", default={})
    order_cards: Any = part(
        or_null(Shape("object", TEXT)),
        "who a card put first or last, or made the aggressor, and who forced the Guild into order this phase "
        "(LoLV 3.02.02, WBC Player Aid 19)", Bespoke(_read_order_cards), attr="order_cards", default={})
    declared: Any = part(TEXTS, "territories declared this phase", Members(_TERRITORIES), attr="declared",
                         default=frozenset())
    worm_pending: str | None = part(or_null(TEXT), "a sandworm's territory waiting to devour", One(_TERRITORIES),
                                    attr="worm_pending", default=None)
    hms: Piece = part(or_null(list_of(ANY)), "the Hidden Mobile Stronghold: [territory, sector] (LoLV 2.07.17)",
                      Bespoke(_piece_reader(True), view=_view_piece), attr="hms", default=None)
    no_field: Piece = part(or_null(list_of(ANY)), "a No-Field token: [territory, sector] (LoLV 2.10.11)",
                           _PIECE_VIEW, attr="no_field", default=None)
    terror: tuple[str, ...] = part(TEXTS, "strongholds holding a Terror token (LoLV 2.12.09)", Listed(_TERRITORIES),
                                   attr="terror", default=frozenset(), view_default=())
    terror_spent: int = part(INT, "Terror tokens spent", Count(high=TERROR_TOKENS), attr="terror_spent", default=0,
                             view_default=0)
    aftermath: str | None = part(or_null(TEXT), "the territory of the last battle", One(_TERRITORIES),
                                 attr="aftermath", default=None)
    ambassadors: Mapping[str, str] | None = part(
        or_null(Shape("object", TEXT)), "Ambassadors by stronghold (LoLV 2.11.05)",
        Bespoke(_read_ambassadors, view=_view_mapping), attr="ambassadors", default={},
        view_default=EMPTY)
    vidal: str | None = part(or_null(TEXT), "the faction holding Duke Vidal", One(_FACTIONS), attr="vidal",
                             default=None)
    spice_on_board: Mapping[str, int] | None = part(
        or_null(Shape("object", INT)), "spice in Spice Blow territories (LoLV 1.02.04)",
        Bespoke(_read_board_spice, view=_view_mapping), attr="spice_on_board", default={},
        view_default=EMPTY)
    karama_used: Any = part(TEXTS, "factions that used their once-a-game Karama power", Members(_FACTIONS),
                            attr="karama_used", default=frozenset())
    fought: Any = part(or_null(list_of(ANY)), "leaders that fought: [turn, faction, leader, territory] "
                       "(LoLV 1.07.04.03)", Bespoke(_read_fought), attr="fought", default=frozenset())
    kh_losses: int = part(INT, "Atreides forces lost in battles: the Kwisatz Haderach awakens at 7 (LoLV 2.01.10)",
                          Count(), attr="kh_losses", default=0, view_default=0)
    kh_dead: bool = part(BOOL, "the Kwisatz Haderach killed by a lasgun/shield explosion (LoLV 2.01.13)",
                         attr="kh_dead", default=False, view_default=False)
    leaders_revived: Any = part(or_null(list_of(ANY)), "leaders revived from the tanks: [faction, leader] "
                                "(LoLV 1.05.04)", Bespoke(_read_leaders_revived), attr="leaders_revived",
                                default=frozenset())
    ghola_used: Any = part(or_null(list_of(INT)), "the Tleilaxu Ghola card's uses this turn: [turn, uses] "
                           "(LoLV 3.01.20)", Tally(2, "[turn, uses of the Tleilaxu Ghola card]"), attr="ghola_used",
                           default=None)
    revived: Any = part(or_null(Shape("object", list_of(INT))),
                        "forces revived this turn: faction -> [turn, forces, starred forces] (LoLV 1.05.01)",
                        Bespoke(_read_revived), attr="revived", default={})
    shipped: Any = part(or_null(list_of(ANY)), "the last off-planet shipment an advisor may follow: "
                        "[turn, faction, territory, sector] (LoLV 2.02.11)", Bespoke(_read_shipped), attr="shipped",
                        default=None)
    guild_shipment: Any = part(or_null(list_of(ANY)), "the Guild's kind of shipment this turn: [turn, kind] "
                               "(LoLV 2.06.05)", Bespoke(_read_guild_shipment), attr="guild_shipment", default=None)
    blown: Any = part(or_null(list_of(INT)), "the Spice Blows placed this turn: [turn, count] (AH VII.A, LoLV 1.13.02)",
                      Tally(2, "[turn, count of Spice Blows]"), attr="blown", default=None)
    envoys: Any = part(or_null(list_of(INT)), "the Ambassadors the Ecaz placed this turn: [turn, count] "
                       "(LoLV 2.11.06)", Tally(2, "[turn, count of Ambassadors placed]"), attr="envoys", default=None)
    auction: Any = part(or_null(list_of(INT)), "the bidding round: [turn, cards sold, cards dealt, over 0/1] "
                        "(LoLV 1.04, AH VIII)", Tally(4, "a list of 4 counts"), attr="auction", default=None)
    opened: Any = part(or_null(list_of(ANY)), "who opened the bidding for the last card sold: [turn, faction] "
                       "(LoLV 1.04.07)", Bespoke(_read_opened), attr="opened", default=None)
    charity_turn: int | None = part(or_null(INT), "the turn CHOAM Charity was collected (LoLV 1.03.02)",
                                    Tally(0, "a turn"), attr="charity_turn", default=None)
    inflation: Any = part(or_null(list_of(ANY)), "the CHOAM's Inflation token: [side placed, turn placed] "
                          "(LoLV 2.09.09-12)", Bespoke(_read_inflation), attr="inflation", default=None)
    harvest_turn: int | None = part(or_null(INT), "the turn the collection round was recorded in one record "
                                    "(LoLV 1.08)", Tally(0, "a turn"), attr="harvest_turn", default=None)
    ambassador_supply: Any = part(or_null(TEXTS), "the Ambassador supply (LoLV 2.11.10; absent: not tracked)",
                                  attr=None)
    ambassadors_aside: Any = part(or_null(TEXTS), "Ambassadors set aside (LoLV 2.11.10)", attr=None)
    ambassadors_out: Any = part(or_null(TEXTS), "Ambassadors out of the game (LoLV 2.11.10)", attr=None)
    no_field_face_up: Any = part(or_null(list_of(ANY)), "No-Field tokens face up (LoLV 2.10.03)", attr=None)
    declared_apart: Any = part(or_null(Shape("object", OBJECT)), "forces declared apart (WBC XV.8)",
                               Bespoke(_read_declared_apart, _write_declared_apart), attr="declared_apart",
                               default={})
    losses: tuple[Removed, ...] = part(or_null(list_of(OBJECT)), "what the last event removed by itself (Removed)",
                                       Rows(Removed), attr=None, view_default=())
    automatic_losses: bool = part(BOOL, "losses taken by the engine", attr="setup.automatic_losses", default=False,
                                   view_default=False)
    edition: int | None = part(INT, "the edition of the rulings (editions.EDITIONS)", attr="setup.edition")

    @classmethod
    def of(cls, snapshot: Mapping[str, Any] | SnapshotView | None) -> SnapshotView:
        """The view of a stored snapshot (a view is returned as it is; None reads as empty)."""
        if isinstance(snapshot, SnapshotView):
            return snapshot
        data = snapshot or {}
        given = {}
        for name, codec in _VIEWERS:
            if name in data:
                value = data[name]
                given[name] = value if codec is None else codec.view(value)
        return cls(**given)

    def sheet(self, faction: str) -> Sheet:
        """The faction's sheet (an empty one when the snapshot has none)."""
        return (self.factions or {}).get(faction) or Sheet()

    def allies_of(self, faction: str) -> tuple[str, ...]:
        """The alliance the faction is in (itself included), or ()."""
        return next((group for group in self.alliances if faction in group), ())

    @property
    def predicted_faction(self) -> str | None:
        """The faction the Bene Gesserit predicted, when the view shows it."""
        prediction = self.bg_prediction
        return str(prediction.get("faction")) if isinstance(prediction, Mapping) and prediction.get("faction") else None


def prediction_hidden(snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of the snapshot with the Bene Gesserit's prediction, if it has one, written as
    "hidden" (what a non-judge sees until it is revealed)."""
    out = dict(snapshot)
    if SnapshotView.of(snapshot).bg_prediction:
        out["bg_prediction"] = "hidden"
    return out


def without_prediction(snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of the snapshot as if no prediction had been made (to evaluate what everyone
    can see on the board)."""
    return {**snapshot, "bg_prediction": None}


# --- the declaration read back: fields, shapes, checks ------------------------------------------


@dataclass(frozen=True)
class Declared:
    """One key of a snapshot object as declared: its name, shape, meaning, codec, attribute
    and default."""

    key: str
    shape: Shape
    holds: str
    codec: Codec
    attr: str | None
    default: Any


def declared(cls: type) -> tuple[Declared, ...]:
    """The keys `cls` declares, in the order they are written."""
    out = []
    for f in fields(cls):
        p: Part | None = f.metadata.get("part")
        if p is not None:
            out.append(Declared(f.name, p.shape, p.holds, p.codec, p.attr, p.default))
    return tuple(out)


POSITION_FIELDS = declared(SnapshotView)
SHEET_FIELDS = declared(Sheet)
FORCE_FIELDS = declared(Stack)
MOVE_FIELDS = declared(MoveRow)
OUTCOME_FIELDS = declared(OutcomeRow)
LOSS_FIELDS = declared(Removed)
SIDE_FIELDS = declared(SideRow)
APART_FIELDS = declared(ApartRow)

#: How the view reads each key: None keeps the JSON value as it is.
_VIEWERS: tuple[tuple[str, Codec | None], ...] = tuple(
    (d.key, None if type(d.codec) is Codec else d.codec) for d in POSITION_FIELDS
)
#: The order a snapshot's keys are written in.
ORDER: dict[str, int] = {d.key: n for n, d in enumerate(POSITION_FIELDS)}
SHEET_ORDER: dict[str, int] = {d.key: n for n, d in enumerate(SHEET_FIELDS)}

#: Caches by the id of a declaration (a module constant).
_CHECKS: dict[int, dict[str, Declared]] = {}


def check_fields(data: Any, fields_: tuple[Declared, ...], where: str) -> Mapping[str, Any]:
    """`data` as an object whose declared fields present fit their shapes. Raises
    InvalidPosition naming the first field that does not (`where` + its key)."""
    if not isinstance(data, Mapping):
        raise InvalidPosition(rule="snapshot", msg=f"{where or 'a snapshot'} must be an object", input=data,
                              field=where or None)
    checks = _CHECKS.get(id(fields_))
    if checks is None:
        checks = _CHECKS[id(fields_)] = {d.key: d for d in fields_}
    for key, value in data.items():
        d = checks.get(key)
        if d is not None and not d.shape.fits(value):
            name = f"{where}.{key}" if where else key
            raise InvalidPosition(
                rule="snapshot", msg=f"{name!r} must be {d.shape.words} ({d.holds})", input=value, field=name
            )
    return data


def checked(data: Any) -> Mapping[str, Any]:
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
            check_fields(side, SIDE_FIELDS, f"outcome.sides[{i}]")
    for t, row in (data.get("declared_apart") or {}).items():
        check_fields(row, APART_FIELDS, f"declared_apart.{t}")
    for i, row in enumerate(data.get("losses") or ()):
        check_fields(row, LOSS_FIELDS, f"losses[{i}]")
    result: Mapping[str, Any] = data
    return result


#: The position's parts the loader reads first, with the rules (`codec.position`).
READ_FIRST = frozenset({"turn", "phase", "quick", "last_turn", "forces", "alliances"})
_READERS: dict[int, tuple[tuple[str, str, Codec], ...]] = {}


def read_parts(decl: tuple[Declared, ...], data: Mapping[str, Any], ctx: Context) -> dict[str, Any]:
    """The attributes `data` states, each read by its codec: `{attr: value}` for every declared
    key present with an attribute of its own (a key left out keeps the attribute's default;
    the setup's keys and those in `READ_FIRST` are the loader's)."""
    readers = _READERS.get(id(decl))
    if readers is None:
        readers = _READERS[id(decl)] = tuple(
            (d.key, str(d.attr), d.codec) for d in decl
            if d.attr and not d.attr.startswith("setup.") and d.key not in READ_FIRST
        )
    return {attr: codec.load(key, data[key], ctx) for key, attr, codec in readers if key in data}


_WRITERS: dict[int, tuple[tuple[str, str, bool, Any, Any], ...]] = {}
#: Shapes whose JSON value is the position's value as it is.
_AS_IS = frozenset({"int", "bool", "text", "number"})


def write_parts(decl: tuple[Declared, ...], obj: Any, out: dict[str, Any], *, setup: Any = None) -> dict[str, Any]:
    """`out` with every declared key that has an attribute written from `obj` (a `setup.` one
    from `setup`) by its codec; a part with a default only when it differs from it."""
    writers = _WRITERS.get(id(decl))
    if writers is None:
        writers = _WRITERS[id(decl)] = tuple(
            (
                d.key,
                str(d.attr).removeprefix("setup."),
                str(d.attr).startswith("setup."),
                d.default,
                None if d.shape.kind in _AS_IS and type(d.codec) in (Codec, Count) else d.codec.dump,
            )
            for d in decl if d.attr
        )
    for key, attr, of_setup, default, dump in writers:
        value = getattr(setup if of_setup else obj, attr)
        if default is not ALWAYS and value == default:
            continue
        out[key] = value if dump is None else dump(value)
    return out


__all__ = [
    "Declared", "Piece", "prediction_hidden", "without_prediction", "Removed", "Sheet", "SnapshotView", "Stack", "check_fields", "checked",
    "declared", "load_outcome", "POSITION_FIELDS", "SHEET_FIELDS", "FORCE_FIELDS", "MOVE_FIELDS",
    "OUTCOME_FIELDS", "LOSS_FIELDS",
]
