"""The judge's record: typed, versioned, JSON-serialisable events.

Each event is a frozen dataclass with a stable `type` string. `to_dict()` gives
`{"type": ..., "v": SCHEMA_VERSION, <fields>}` and `from_dict()` / `event_from_dict()`
read it back, refusing an unknown type, a missing, unknown or badly typed field (named in
the error), or an unknown faction id. Whether an event is *legal* in a position is
decided by `dune.engine.replay.apply`, not here.

Conventions: sectors are 0..17 (`None` for the Polar Sink and the Hidden Mobile
Stronghold, which span no sector); factions are the ids of `dune.engine.ids`;
`void.seq` is the 1-based index of an event in the game's log (voids included), and so
is `insert.before`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, TypeVar

from dune.clock_limits import LIMITS
from dune.engine.editions import CURRENT, EDITIONS
from dune.engine.errors import InvalidEvent, UnknownIdentifier
from dune.engine.ids import CARD_KINDS, FACTIONS, ONE_TIME_BATTLE_CARDS, RULESETS, VOICE_CARDS, ResultKind
from dune.engine.phases import ALL_PHASES

#: Version of the event dict layout; bump when a field changes meaning.
SCHEMA_VERSION = 1

_FACTION_SET = frozenset(FACTIONS)

#: Where forces leave to (`forces_removed.to`).
REMOVAL_TARGETS: tuple[str, ...] = ("tanks", "reserves")
#: What sends another faction's forces back to reserves (`forces_removed.cause`).
REMOVAL_CAUSES: tuple[str, ...] = ("face_dancer", "trip_to_gamont")
#: Where placed forces come from (`forces_placed.source`).
#: How forces go from one sector piece to another (ForcesMoved.via).
MOVE_KINDS: tuple[str, ...] = ("move", "worm", "cross_ship", "ambassador")
#: Treachery cards that change a movement (LoLV 3.01.09, 3.02.06, 2.09.07.04; WBC card aid).
MOVE_CARDS: tuple[str, ...] = ("hajr", "ornithopter", "kulon")
#: Cards that change who goes when in storm order (`order_card_played`): Juice of Sappho
#: (LoLV 3.02.02) and a Karama card forcing the Guild into order (WBC Player Aid 19).
ORDER_CARDS: tuple[str, ...] = ("juice_of_sappho", "karama")
#: What such a card does: a faction goes first or last (3.02.02.02-03), is the aggressor in a
#: battle (3.02.02.01), or the Guild takes its turn in storm order (WBC Player Aid 19).
ORDER_PLACES: tuple[str, ...] = ("first", "last", "aggressor", "guild_in_order")
PLACEMENT_SOURCES: tuple[str, ...] = ("reserves", "tanks")
#: Leader states (`leader_changed.status`).
LEADER_STATES: tuple[str, ...] = ("active", "tanks_face_up", "tanks_face_down", "captured", "held")
#: How an alliance came about (`alliance_formed.how`): in a nexus (LoLV 1.10.01, AH XII.C),
#: through the Moritani's Enemy of My Enemy (2.12.10-11) or the Ecaz Ambassador (2.11.10.11).
ALLIANCE_WAYS: tuple[str, ...] = ("nexus", "moritani", "ecaz_ambassador")
#: Moritani Terror token effects (LoLV 2.12.09).
TERROR_EFFECTS: tuple[str, ...] = (
    "assassination",
    "atomics",
    "extortion",
    "robbery",
    "sabotage",
    "sneak_attack",
)
#: The table clocks a `time_up` event may name (the clocks' limit keys).
CLOCKS: tuple[str, ...] = tuple(LIMITS)
#: Default actions when a called clock expires (WBC time guidelines).
DEFAULT_ACTIONS: tuple[str, ...] = ("bid", "turn", "battle_plan", "nexus")
#: The sides of the CHOAM's Inflation token (`inflation_placed.face`), LoLV 2.09.10-11.
INFLATION_SIDES: tuple[str, ...] = ("double", "cancel")
#: BG flip targets (`forces_flipped.side`), LoLV 2.02.10.
FLIP_TARGETS: tuple[str, ...] = ("advisors", "fighters")


def _bad(field: str, msg: str, value: Any) -> InvalidEvent:
    return InvalidEvent(rule="event schema", msg=f"field {field!r}: {msg}", input=value)


# --- field coercers: (field name, raw JSON value) -> typed value -------------------------


def _str(name: str, v: Any) -> str:
    if not isinstance(v, str):
        raise _bad(name, "must be a string", v)
    return v


def _int(name: str, v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise _bad(name, "must be an integer", v)
    return v


def _count(name: str, v: Any) -> int:
    n = _int(name, v)
    if n < 0:
        raise _bad(name, "must not be negative", v)
    return n


def _bool(name: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise _bad(name, "must be true or false", v)
    return v


def _edition(name: str, v: Any) -> int:
    n = _int(name, v)
    if n not in EDITIONS:
        raise _bad(name, f"this engine knows the editions {list(EDITIONS)}", v)
    return n


def _faction(name: str, v: Any) -> str:
    s = _str(name, v)
    if s not in _FACTION_SET:
        raise UnknownIdentifier(rule="event schema", msg=f"field {name!r}: unknown faction {s!r}", input=v)
    return s


def _sector(name: str, v: Any) -> int | None:
    if v is None:
        return None
    n = _int(name, v)
    if not 0 <= n <= 17:
        raise _bad(name, "a sector is 0..17 (or null for the Polar Sink)", v)
    return n


def _opt(inner: Callable[[str, Any], Any]) -> Callable[[str, Any], Any]:
    def coerce(name: str, v: Any) -> Any:
        return None if v is None else inner(name, v)

    return coerce


def _tuple_of(inner: Callable[[str, Any], Any]) -> Callable[[str, Any], Any]:
    def coerce(name: str, v: Any) -> tuple[Any, ...]:
        if not isinstance(v, (list, tuple)):
            raise _bad(name, "must be a list", v)
        return tuple(inner(f"{name}[{i}]", x) for i, x in enumerate(v))

    return coerce


def _factions(name: str, v: Any) -> tuple[str, ...]:
    out: tuple[str, ...] = _tuple_of(_faction)(name, v)
    if len(set(out)) != len(out):
        raise _bad(name, "lists a faction twice", v)
    return out


def _one_of(choices: tuple[str, ...]) -> Callable[[str, Any], str]:
    def coerce(name: str, v: Any) -> str:
        s = _str(name, v)
        if s not in choices:
            raise _bad(name, f"must be one of {', '.join(choices)}", v)
        return s

    return coerce


def _ruleset(name: str, v: Any) -> str:
    s = _str(name, v)
    if s not in RULESETS:
        raise UnknownIdentifier(rule="event schema", msg=f"field {name!r}: unknown ruleset {s!r}", input=v)
    return s


def _phase(name: str, v: Any) -> str:
    s = _str(name, v)
    if s not in ALL_PHASES:
        raise UnknownIdentifier(rule="event schema", msg=f"field {name!r}: unknown phase {s!r}", input=v)
    return s


def _kind(name: str, v: Any) -> str:
    s = _str(name, v)
    if s not in ResultKind.__members__.values():
        raise UnknownIdentifier(
            rule="event schema", msg=f"field {name!r}: unknown result kind {s!r}", input=v
        )
    return s


def _mapping(name: str, v: Any) -> Mapping[str, Any]:
    if not isinstance(v, Mapping):
        raise _bad(name, "must be an object", v)
    return v


def _marker_pairs(name: str, v: Any) -> tuple[tuple[str, int], ...]:
    """`{faction: sector}` (player markers) stored as sorted pairs so events stay hashable."""
    if isinstance(v, (list, tuple)):
        v = dict(v)
    m = _mapping(name, v)
    return tuple(sorted((_faction(f"{name}.key", k), _int(f"{name}[{k!r}]", x)) for k, x in m.items()))


def _occupant_pairs(name: str, v: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`{territory or "territory@sector": [factions]}` stored as sorted pairs."""
    if isinstance(v, (list, tuple)):
        v = dict(v)
    m = _mapping(name, v)
    return tuple(sorted((_str(f"{name}.key", k), _factions(f"{name}[{k!r}]", x)) for k, x in m.items()))


def _amount_pairs(name: str, v: Any) -> tuple[tuple[str, int], ...]:
    """`{faction: spice}` stored as sorted pairs."""
    if isinstance(v, (list, tuple)):
        v = dict(v)
    m = _mapping(name, v)
    return tuple(sorted((_faction(f"{name}.key", k), _count(f"{name}[{k!r}]", x)) for k, x in m.items()))


def _harvests(name: str, v: Any) -> tuple[tuple[str, str, int], ...]:
    """`[{faction, territory, amount}]` (or `[faction, territory, amount]` rows)."""
    if not isinstance(v, (list, tuple)):
        raise _bad(name, "must be a list", v)
    out = []
    for i, row in enumerate(v):
        where = f"{name}[{i}]"
        if isinstance(row, Mapping):
            extra = set(row) - {"faction", "territory", "amount"}
            if extra or not {"faction", "territory", "amount"} <= set(row):
                raise _bad(where, "needs exactly the keys 'faction', 'territory' and 'amount'", row)
            row = (row["faction"], row["territory"], row["amount"])
        if not isinstance(row, (list, tuple)) or len(row) != 3:
            raise _bad(where, "is {faction, territory, amount}", row)
        out.append((_faction(f"{where}.faction", row[0]), _str(f"{where}.territory", row[1]), _count(f"{where}.amount", row[2])))
    return tuple(out)


def _die_pairs(name: str, v: Any) -> tuple[tuple[str, int], ...]:
    if isinstance(v, (list, tuple)):
        v = dict(v)
    m = _mapping(name, v)
    out = []
    for k, x in m.items():
        n = _int(f"{name}[{k!r}]", x)
        if not 1 <= n <= 6:
            raise _bad(f"{name}[{k!r}]", "a die roll is 1..6", x)
        out.append((_faction(f"{name}.key", k), n))
    return tuple(sorted(out))


# --- nested records ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ForcesAt:
    """Forces of one faction in one sector piece (a starting placement)."""

    faction: str
    territory: str
    sector: int | None
    normal: int = 0
    special: int = 0
    advisors: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "faction": self.faction,
            "territory": self.territory,
            "sector": self.sector,
            "normal": self.normal,
            "special": self.special,
            "advisors": self.advisors,
        }

    @classmethod
    def from_dict(cls, d: Any, *, field: str = "forces") -> ForcesAt:
        """Raises InvalidEvent, UnknownIdentifier."""
        m = _mapping(field, d)
        extra = set(m) - {"faction", "territory", "sector", "normal", "special", "advisors"}
        if extra:
            raise _bad(field, f"unknown keys {sorted(extra)}", d)
        for req in ("faction", "territory"):
            if req not in m:
                raise _bad(f"{field}.{req}", "is required", d)
        return cls(
            faction=_faction(f"{field}.faction", m["faction"]),
            territory=_str(f"{field}.territory", m["territory"]),
            sector=_sector(f"{field}.sector", m.get("sector")),
            normal=_count(f"{field}.normal", m.get("normal", 0)),
            special=_count(f"{field}.special", m.get("special", 0)),
            advisors=_count(f"{field}.advisors", m.get("advisors", 0)),
        )


@dataclass(frozen=True, slots=True)
class Prediction:
    """The Bene Gesserit prediction: a faction and a turn (LoLV 2.02.03, AH III.E.1.a)."""

    faction: str
    turn: int

    def to_dict(self) -> dict[str, Any]:
        return {"faction": self.faction, "turn": self.turn}

    @classmethod
    def from_dict(cls, d: Any, *, field: str = "bg_prediction") -> Prediction:
        """Raises InvalidEvent, UnknownIdentifier."""
        m = _mapping(field, d)
        if set(m) != {"faction", "turn"}:
            raise _bad(field, "needs exactly the keys 'faction' and 'turn'", d)
        turn = _int(f"{field}.turn", m["turn"])
        if turn < 1:
            raise _bad(f"{field}.turn", "turns start at 1", d)
        return cls(faction=_faction(f"{field}.faction", m["faction"]), turn=turn)


#: Treachery cards a battle plan may hold (LoLV 3.01, AH X.B.3, WBC Player Aid): the classic
#: cards by name, and the kinds by name for a judge who records only the kind.
BATTLE_CARDS: tuple[str, ...] = (
    *CARD_KINDS,
    "crysknife",
    "maula_pistol",
    "slip_tip",
    "stunner",
    "chaumas",
    "chaumurky",
    "ellaca_drug",
    "gom_jabbar",
    "baliset",
    "jubba_cloak",
    "kulon",
    "la_la_la",
    "trip_to_gamont",
    *ONE_TIME_BATTLE_CARDS,
)

#: The element of a battle plan the Atreides' Prescience asks to see (AH X.B.5, LoLV 2.01.08).
PRESCIENCE_ELEMENTS: tuple[str, ...] = ("leader", "weapon", "defense", "dial")


def _dial(name: str, v: Any) -> int | float:
    """A number dialed on the battle wheel: whole, or a half with spice dialing (LoLV 1.13.03.02)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise _bad(name, "must be a number", v)
    if v < 0 or v * 2 != int(v * 2):
        raise _bad(name, "is a whole number or a half (2.5), not negative", v)
    return int(v) if v == int(v) else float(v)


@dataclass(frozen=True, slots=True)
class BattlePlan:
    """One side's battle plan as revealed (LoLV 1.07.04, AH X.B): the faction, its leader
    (`leader`, of `leader_of` when it is a captured leader or a ghola it holds) or a Cheap Hero,
    the number dialed and the spice paid to support it (spice dialing, LoLV 1.13.03), the weapon
    and defense cards, the Kwisatz Haderach (Atreides), and `traitor`: this side calls the
    opponent's leader a traitor (LoLV 1.07.06.06, AH X.D). `lost_normal` / `lost_special`: how
    a winner takes the losses it dialed (AH X.C.6.b; the engine chooses normal forces first when
    they are left out); `lost_sectors`: the sectors a winner takes them from, in order, "in any
    manner" (AH X.C.6; the engine takes the lowest sectors first when left out); `discard`: cards
    a winner chooses to discard (1.07.06.05); `keep`: cards a winner keeps that would otherwise
    go (a worthless card, AH X.C.6, LoLV 1.07.06.05; after a LoLV traitor call its one-time
    cards, 1.07.06.06.00); `keep_captive`: after a LoLV traitor call, the captive it played is
    considered not used and stays captive (1.07.06.06.00); `stone_burner_kill`: the Stone Burner's
    player kills both leaders whatever their defense (LoLV 3.02.10); `full_strength`: the Fremen
    let their ally count its forces at full strength without spice (WBC house rules). The new fields are left out
    of the dict while empty, so battles recorded before them keep their bodies."""

    faction: str
    dial: int | float = 0
    leader: str | None = None
    leader_of: str | None = None
    cheap_hero: bool = False
    weapon: str | None = None
    defense: str | None = None
    spice: int = 0
    kwisatz_haderach: bool = False
    traitor: bool = False
    lost_normal: int | None = None
    lost_special: int | None = None
    discard: tuple[str, ...] = ()
    keep: tuple[str, ...] = ()
    keep_captive: bool = False
    stone_burner_kill: bool = False
    lost_sectors: tuple[int | None, ...] = ()
    full_strength: bool = False

    _KEYS: ClassVar[frozenset[str]] = frozenset(
        {
            "keep",
            "keep_captive",
            "stone_burner_kill",
            "lost_sectors",
            "full_strength",
            "faction",
            "dial",
            "leader",
            "leader_of",
            "cheap_hero",
            "weapon",
            "defense",
            "spice",
            "kwisatz_haderach",
            "traitor",
            "lost_normal",
            "lost_special",
            "discard",
        }
    )

    def to_dict(self) -> dict[str, Any]:
        return {
            "faction": self.faction,
            "dial": self.dial,
            "leader": self.leader,
            "leader_of": self.leader_of,
            "cheap_hero": self.cheap_hero,
            "weapon": self.weapon,
            "defense": self.defense,
            "spice": self.spice,
            "kwisatz_haderach": self.kwisatz_haderach,
            "traitor": self.traitor,
            "lost_normal": self.lost_normal,
            "lost_special": self.lost_special,
            "discard": list(self.discard),
            **({"keep": list(self.keep)} if self.keep else {}),
            **({"keep_captive": True} if self.keep_captive else {}),
            **({"stone_burner_kill": True} if self.stone_burner_kill else {}),
            **({"lost_sectors": list(self.lost_sectors)} if self.lost_sectors else {}),
            **({"full_strength": True} if self.full_strength else {}),
        }

    @classmethod
    def from_dict(cls, d: Any, *, field: str = "plan") -> BattlePlan:
        """Raises InvalidEvent, UnknownIdentifier."""
        m = _mapping(field, d)
        extra = set(m) - cls._KEYS
        if extra:
            raise _bad(f"{field}.{sorted(extra)[0]}", "is not a field of a battle plan", d)
        if "faction" not in m:
            raise _bad(f"{field}.faction", "is required", d)
        card = _opt(_one_of(BATTLE_CARDS))
        return cls(
            faction=_faction(f"{field}.faction", m["faction"]),
            dial=_dial(f"{field}.dial", m.get("dial", 0)),
            leader=_opt(_str)(f"{field}.leader", m.get("leader")),
            leader_of=_opt(_faction)(f"{field}.leader_of", m.get("leader_of")),
            cheap_hero=_bool(f"{field}.cheap_hero", m.get("cheap_hero", False)),
            weapon=card(f"{field}.weapon", m.get("weapon")),
            defense=card(f"{field}.defense", m.get("defense")),
            spice=_count(f"{field}.spice", m.get("spice", 0)),
            kwisatz_haderach=_bool(f"{field}.kwisatz_haderach", m.get("kwisatz_haderach", False)),
            traitor=_bool(f"{field}.traitor", m.get("traitor", False)),
            lost_normal=_opt(_count)(f"{field}.lost_normal", m.get("lost_normal")),
            lost_special=_opt(_count)(f"{field}.lost_special", m.get("lost_special")),
            discard=_tuple_of(_one_of(BATTLE_CARDS + ("cheap_hero",)))(f"{field}.discard", m.get("discard", ())),
            keep=_tuple_of(_one_of(BATTLE_CARDS + ("cheap_hero",)))(f"{field}.keep", m.get("keep", ())),
            keep_captive=_bool(f"{field}.keep_captive", m.get("keep_captive", False)),
            stone_burner_kill=_bool(f"{field}.stone_burner_kill", m.get("stone_burner_kill", False)),
            lost_sectors=_tuple_of(_sector)(f"{field}.lost_sectors", m.get("lost_sectors", ())),
            full_strength=_bool(f"{field}.full_strength", m.get("full_strength", False)),
        )


@dataclass(frozen=True, slots=True)
class Voice:
    """The Bene Gesserit Voice in this battle (AH X.B.4, WBC X.9-11, LoLV 2.02.06): `by` (the
    BG, or its ally's battle with the BG's grant, WBC X.5-6) commands `to` (a side of the
    battle) to play (`play`) or not to play a `card` kind; `karama`: a Karama card cancelled it
    (WBC XVII.12)."""

    by: str
    to: str
    card: str
    play: bool
    karama: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"by": self.by, "to": self.to, "card": self.card, "play": self.play, "karama": self.karama}

    @classmethod
    def from_dict(cls, d: Any, *, field: str = "voice") -> Voice:
        """Raises InvalidEvent, UnknownIdentifier."""
        m = _mapping(field, d)
        extra = set(m) - {"by", "to", "card", "play", "karama"}
        if extra:
            raise _bad(f"{field}.{sorted(extra)[0]}", "is not a field of the Voice", d)
        for req in ("by", "to", "card", "play"):
            if req not in m:
                raise _bad(f"{field}.{req}", "is required", d)
        return cls(
            by=_faction(f"{field}.by", m["by"]),
            to=_faction(f"{field}.to", m["to"]),
            card=_one_of(VOICE_CARDS)(f"{field}.card", m["card"]),
            play=_bool(f"{field}.play", m["play"]),
            karama=_bool(f"{field}.karama", m.get("karama", False)),
        )


@dataclass(frozen=True, slots=True)
class Prescience:
    """The Atreides' Prescience in this battle (AH X.B.5, WBC X.7-8, LoLV 2.01.08): `by` (the
    Atreides, or its ally's battle) asks `of` (a side of the battle) to show one `element` of
    its plan; `answer` is what was shown (a leader id, a card, a dial, or null: no weapon or
    defense); `karama`: a Karama card cancelled it (WBC XVII.10)."""

    by: str
    of: str
    element: str
    answer: str | int | float | None = None
    karama: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"by": self.by, "of": self.of, "element": self.element, "answer": self.answer, "karama": self.karama}

    @classmethod
    def from_dict(cls, d: Any, *, field: str = "prescience") -> Prescience:
        """Raises InvalidEvent, UnknownIdentifier."""
        m = _mapping(field, d)
        extra = set(m) - {"by", "of", "element", "answer", "karama"}
        if extra:
            raise _bad(f"{field}.{sorted(extra)[0]}", "is not a field of the Prescience", d)
        for req in ("by", "of", "element"):
            if req not in m:
                raise _bad(f"{field}.{req}", "is required", d)
        element = _one_of(PRESCIENCE_ELEMENTS)(f"{field}.element", m["element"])
        raw = m.get("answer")
        answer: str | int | float | None
        if element == "dial":
            answer = _dial(f"{field}.answer", raw if raw is not None else 0)
        elif element in ("weapon", "defense"):
            answer = _opt(_one_of(BATTLE_CARDS))(f"{field}.answer", raw)
        else:
            answer = _opt(_str)(f"{field}.answer", raw)
        return cls(
            by=_faction(f"{field}.by", m["by"]),
            of=_faction(f"{field}.of", m["of"]),
            element=element,
            answer=answer,
            karama=_bool(f"{field}.karama", m.get("karama", False)),
        )


@dataclass(frozen=True, slots=True)
class Capture:
    """The Harkonnen's pick after a battle won (LoLV 2.05.10, AH X.B.2.a.ii): the loser's
    `leader` (of `faction`), killed for 2 spice (`kill`) or captured."""

    faction: str
    leader: str
    kill: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"faction": self.faction, "leader": self.leader, "kill": self.kill}

    @classmethod
    def from_dict(cls, d: Any, *, field: str = "capture") -> Capture:
        """Raises InvalidEvent, UnknownIdentifier."""
        m = _mapping(field, d)
        extra = set(m) - {"faction", "leader", "kill"}
        if extra:
            raise _bad(f"{field}.{sorted(extra)[0]}", "is not a field of a capture", d)
        for req in ("faction", "leader"):
            if req not in m:
                raise _bad(f"{field}.{req}", "is required", d)
        return cls(
            faction=_faction(f"{field}.faction", m["faction"]),
            leader=_str(f"{field}.leader", m["leader"]),
            kill=_bool(f"{field}.kill", m.get("kill", False)),
        )


#: Event types an `insert` may not carry: the log's own start and the corrections.
NOT_INSERTED: frozenset[str] = frozenset({"game_setup", "void", "insert"})


def _inserted(name: str, v: Any) -> Event:
    """The event an `insert` records earlier in the log: any of the judge's record but the
    setup and the corrections themselves."""
    event = v if isinstance(v, Event) else event_from_dict(_mapping(name, v))
    if event.type in NOT_INSERTED:
        raise _bad(name, f"a {event.type!r} cannot be inserted earlier in the log", event.type)
    return event


def _plan(name: str, v: Any) -> BattlePlan:
    return v if isinstance(v, BattlePlan) else BattlePlan.from_dict(v, field=name)


def _capture(name: str, v: Any) -> Capture | None:
    if v is None or isinstance(v, Capture):
        return v
    return Capture.from_dict(v, field=name)


def _voice(name: str, v: Any) -> Voice | None:
    if v is None or isinstance(v, Voice):
        return v
    return Voice.from_dict(v, field=name)


def _prescience(name: str, v: Any) -> Prescience | None:
    if v is None or isinstance(v, Prescience):
        return v
    return Prescience.from_dict(v, field=name)


def _placements(name: str, v: Any) -> tuple[ForcesAt, ...]:
    if not isinstance(v, (list, tuple)):
        raise _bad(name, "must be a list", v)
    return tuple(
        x if isinstance(x, ForcesAt) else ForcesAt.from_dict(x, field=f"{name}[{i}]") for i, x in enumerate(v)
    )


def _prediction(name: str, v: Any) -> Prediction | None:
    if v is None or isinstance(v, Prediction):
        return v
    return Prediction.from_dict(v, field=name)


_COERCERS: dict[str, Callable[[str, Any], Any]] = {
    "str": _str,
    "int": _int,
    "bool": _bool,
    "int | None": _opt(_int),
    "str | None": _opt(_str),
    "tuple[str, ...]": _tuple_of(_str),
    "tuple[str, ...] | None": _opt(_tuple_of(_str)),
}

#: Per-field coercers that check more than the type (faction ids, counts, sectors, ...).
_NAMED: dict[str, Callable[[str, Any], Any]] = {
    "faction": _faction,
    "captor": _opt(_faction),
    "factions": _factions,
    "winners": _factions,
    "to_factions": _factions,
    "ruleset": _ruleset,
    "sector": _sector,
    "from_sector": _sector,
    "to_sector": _sector,
    "normal": _count,
    "special": _count,
    "advisors": _count,
    "count": _count,
    "amount": _count,
    "sectors": _count,
    "seq": _count,
    "before": _count,
    "event": _inserted,
    "markers": _marker_pairs,
    "occupants": _occupant_pairs,
    "placements": _placements,
    "bg_prediction": _prediction,
    "phase": _phase,
    "kind": _opt(_kind),
    "die": _die_pairs,
    "worms": _opt(_count),
    "storm": _opt(_sector),
    "clock": _one_of(CLOCKS),
    "action": _one_of(DEFAULT_ACTIONS),
    "status": _one_of(LEADER_STATES),
    "source": _one_of(PLACEMENT_SOURCES),
    "to": _one_of(REMOVAL_TARGETS),
    "side": _one_of(FLIP_TARGETS),
    "face": _one_of(INFLATION_SIDES),
    "via": _one_of(MOVE_KINDS),
    "card": _opt(_one_of(MOVE_CARDS)),
    "order_card": _one_of(ORDER_CARDS),
    "place": _one_of(ORDER_PLACES),
    "how": _one_of(ALLIANCE_WAYS),
    "effect": _opt(_one_of(TERROR_EFFECTS)),
    "holder": _opt(_faction),
    "from_faction": _opt(_faction),
    "triggered_by": _opt(_faction),
    "raised_by": _opt(_faction),
    "cause": _opt(_one_of(REMOVAL_CAUSES)),
    "ambassador": _faction,
    "ambassadors": _factions,
    "supply": _factions,
    "set_aside": _factions,
    "out_of_game": _factions,
    "no_field": _count,
    "edition": _edition,
    "aggressor": _plan,
    "defender": _plan,
    "capture": _capture,
    "price": _count,
    "ally_paid": _count,
    "amounts": _amount_pairs,
    "income": _amount_pairs,
    "collections": _harvests,
    "voice": _voice,
    "prescience": _prescience,
}


def _plain(value: Any) -> Any:
    """A field value as JSON (pairs back to objects, records to dicts, tuples to lists)."""
    if isinstance(value, (ForcesAt, Prediction, BattlePlan, Capture, Voice, Prescience, Event)):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_plain(x) for x in value]
    return value


#: Fields stored as sorted pairs but sent as JSON objects.
_PAIR_FIELDS = frozenset({"markers", "occupants", "die", "amounts", "income"})

#: Optional fields left out of an event's dict while empty, so the events recorded before they
#: existed keep the very same stored body (`forces_placed.cost`, `forces_revived.cost`,
#: `battle.voice`, `battle.prescience`).
_OMITTED_WHEN_NONE = frozenset({"cost", "voice", "prescience"})


class Event:
    """Base of every event. Subclasses are frozen dataclasses registered in `EVENT_TYPES`."""

    __slots__ = ()
    type: ClassVar[str]
    _spec: ClassVar[tuple[tuple[str, Callable[[str, Any], Any], Any], ...]]

    def to_dict(self) -> dict[str, Any]:
        """`{"type", "v", <fields>}`; `from_dict(to_dict())` gives an equal event."""
        d: dict[str, Any] = {"type": self.type, "v": SCHEMA_VERSION}
        for name, _coerce, _default in self._spec:
            value = getattr(self, name)
            if value is None and name in _OMITTED_WHEN_NONE:
                continue
            if name in _PAIR_FIELDS:
                d[name] = {k: _plain(x) for k, x in value}
            else:
                d[name] = _plain(value)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        """Build this event from its dict. Raises InvalidEvent, UnknownIdentifier."""
        if not isinstance(d, Mapping):
            raise _bad("event", "must be an object", d)
        if d.get("type", cls.type) != cls.type:
            raise _bad("type", f"expected {cls.type!r}", d.get("type"))
        v = d.get("v", SCHEMA_VERSION)
        if v != SCHEMA_VERSION:
            raise _bad("v", f"unsupported schema version (this engine reads {SCHEMA_VERSION})", v)
        known = {name for name, _c, _d in cls._spec}
        extra = set(d) - known - {"type", "v"}
        if extra:
            raise _bad(sorted(extra)[0], f"is not a field of {cls.type!r}", d)
        kwargs: dict[str, Any] = {}
        for name, coerce, default in cls._spec:
            if name in d:
                kwargs[name] = coerce(name, d[name])
            elif default is MISSING:
                raise _bad(name, f"is required for {cls.type!r}", d)
        return cls(**kwargs)


#: Every event class by its `type` string.
EVENT_TYPES: dict[str, type[Event]] = {}


_E = TypeVar("_E", bound=type[Event])


def _register(type_name: str) -> Callable[[_E], _E]:
    def wrap(cls: _E) -> _E:
        cls.type = type_name
        spec = []
        for f in fields(cls):  # type: ignore[arg-type]  # every registered event is a dataclass
            coerce = _NAMED.get(f.name)
            if coerce is not None and str(f.type).endswith("| None"):
                coerce = _opt(coerce)  # a named field that may also be left out (null)
            coerce = coerce or _COERCERS.get(str(f.type))
            if coerce is None:
                raise TypeError(f"no coercer for {cls.__name__}.{f.name}: {f.type}")
            spec.append((f.name, coerce, f.default))
        cls._spec = tuple(spec)
        EVENT_TYPES[type_name] = cls
        return cls

    return wrap


def describe_events() -> dict[str, dict[str, Any]]:
    """Every event type with its fields (name, annotation, default or required) and the
    first line of its docstring: JSON for API docs and the table judge's page."""
    out: dict[str, dict[str, Any]] = {}
    for type_name, cls in EVENT_TYPES.items():
        rows = []
        for f in fields(cls):  # type: ignore[arg-type]  # every registered event is a dataclass
            required = f.default is MISSING
            rows.append(
                {
                    "name": f.name,
                    "type": str(f.type),
                    "required": required,
                    "default": None if required else _plain(f.default),
                }
            )
        doc = (cls.__doc__ or "").strip().split("\n\n")[0]
        out[type_name] = {"fields": rows, "doc": " ".join(doc.split())}
    return out


def event_from_dict(d: Mapping[str, Any]) -> Event:
    """Parse any event dict by its `type`. Raises InvalidEvent, UnknownIdentifier."""
    if not isinstance(d, Mapping):
        raise _bad("event", "must be an object", d)
    t = d.get("type")
    cls = EVENT_TYPES.get(t) if isinstance(t, str) else None
    if cls is None:
        raise InvalidEvent(rule="event schema", msg=f"field 'type': unknown event type {t!r}", input=t)
    return cls.from_dict(d)


# --- setup ------------------------------------------------------------------------------


@_register("game_setup")
@dataclass(frozen=True, slots=True)
class GameSetup(Event):
    """A game starts (LoLV 0.xx, AH III): ruleset, factions in seat order, player markers,
    the random seed, the turn limit (None: the ruleset's), optional ruleset flags, starting
    placements of factions that choose (Fremen, BG, Moritani), the BG prediction, the
    storm's first sector if already known, the tracking depth (`quick`), whether the
    engine removes what storms and worms destroy (`automatic_losses`; absent in logs
    recorded before it existed, which keep the judge's taps as the only removals), and the
    edition of the engine's rulings the game is played under (`edition`, see `editions`;
    absent: the current rulings; games stored before the corrections say `1`)."""

    ruleset: str
    factions: tuple[str, ...]
    markers: tuple[tuple[str, int], ...]
    seed: int | None = None
    turns: int | None = None
    three_alliances: bool = False
    options: tuple[str, ...] = ()
    placements: tuple[ForcesAt, ...] = ()
    bg_prediction: Prediction | None = None
    storm: int | None = None
    quick: bool = False
    automatic_losses: bool = False
    edition: int = CURRENT


@_register("bg_prediction_made")
@dataclass(frozen=True, slots=True)
class BgPredictionMade(Event):
    """The BG writes down a faction and a turn (WBC III.2, LoLV 2.02.03); setup only."""

    faction: str
    turn: int


@_register("bg_prediction_revealed")
@dataclass(frozen=True, slots=True)
class BgPredictionRevealed(Event):
    """The BG reveals the prediction (it came true: LoLV 2.02.03, AH IV.A)."""


# --- storm, worms, nexus ----------------------------------------------------------------


@_register("storm_placed")
@dataclass(frozen=True, slots=True)
class StormPlaced(Event):
    """The storm's first placement (LoLV 0.16, AH VI.A): the sector it lands on."""

    sector: int | None


@_register("storm_moved")
@dataclass(frozen=True, slots=True)
class StormMoved(Event):
    """The storm moves `sectors` counterclockwise (LoLV 1.01.02, AH VI.C)."""

    sectors: int


@_register("worm")
@dataclass(frozen=True, slots=True)
class Worm(Event):
    """A worm appeared (in `territory` if known). Every worm after turn 1 counts for the
    Shield Wall rule, Karama worms included (WBC house rules, LoLV 4.02.00). Opens a nexus.
    `karama`: the Fremen placed it with a Karama card (LoLV 1.14.03, WBC XVII.8).
    `allies_spared`: the Fremen protect their allies from it (LoLV 2.04.10 lets them decline;
    AH and WBC VII.8 do not)."""

    territory: str | None = None
    karama: bool = False
    allies_spared: bool = True


@_register("family_atomics")
@dataclass(frozen=True, slots=True)
class FamilyAtomics(Event):
    """Family Atomics played: the Shield Wall's tokens go to the tanks (WBC VI.6)."""

    faction: str


@_register("alliance_formed")
@dataclass(frozen=True, slots=True)
class AllianceFormed(Event):
    """Factions form (or join) an alliance: during a nexus (LoLV 1.10.01, AH XII.C), or
    outside it through a faction's ability (`how`: "moritani", LoLV 2.12.10-11, which
    breaks the alliances either faction was in; "ecaz_ambassador", 2.11.10.11, between two
    unallied factions). Logs without `how` mean a nexus."""

    factions: tuple[str, ...]
    how: str = "nexus"


@_register("alliance_broken")
@dataclass(frozen=True, slots=True)
class AllianceBroken(Event):
    """A faction breaks from its alliance during a nexus (LoLV 1.10.01.05, AH XII.D)."""

    faction: str


@_register("hms_moved")
@dataclass(frozen=True, slots=True)
class HmsMoved(Event):
    """The Hidden Mobile Stronghold points at `sector` of a non-stronghold `territory`:
    deployed after the first storm (LoLV 2.07.04) or moved at the Mentat Pause (2.07.18);
    `karama`: moved with a Karama card in the shipment and movement phase (1.14.07)."""

    territory: str
    sector: int | None
    karama: bool = False


@_register("no_field_placed")
@dataclass(frozen=True, slots=True)
class NoFieldPlaced(Event):
    """The Richese ships a No-Field token from its supply (LoLV 2.10.10); it counts as one
    force (2.10.11). The tokens face up in front of the shield go back to the supply."""

    territory: str
    sector: int | None


@_register("no_field_revealed")
@dataclass(frozen=True, slots=True)
class NoFieldRevealed(Event):
    """The No-Field token is revealed: `normal` is its number (0, 3 or 5, LoLV 2.10.03), and
    that many Richese forces from reserves, or all that are left if fewer, take its place; the
    token lies face up in front of the Richese shield (LoLV 2.10.13)."""

    normal: int = 0


@_register("terror_placed")
@dataclass(frozen=True, slots=True)
class TerrorPlaced(Event):
    """A Moritani Terror token goes into a stronghold, or moves there `from_territory`
    (LoLV 2.12.05)."""

    territory: str
    from_territory: str | None = None


@_register("terror_revealed")
@dataclass(frozen=True, slots=True)
class TerrorRevealed(Event):
    """A Terror token is revealed and leaves the game (LoLV 2.12.07); `effect` "atomics"
    sends every force in the territory to the tanks and leaves the Atomics Aftermath there
    (2.12.09.02); `triggered_by` is the faction whose entry set it off (2.12.06), when known;
    `to_supply`: the token goes back behind the Moritani's shield instead of leaving the game
    (not revealed after Enemy of My Enemy, 2.12.11; an Extortion regained, 2.12.09.03)."""

    territory: str
    effect: str | None = None
    triggered_by: str | None = None
    to_supply: bool = False


@_register("ambassador_placed")
@dataclass(frozen=True, slots=True)
class AmbassadorPlaced(Event):
    """An Ecaz Ambassador token (`ambassador`: its faction symbol) goes into a stronghold
    not in storm that has none (LoLV 2.11.05). `cost`: the spice the Ecaz pay the bank for it,
    1 for the turn's first and 1 more for each next one (2.11.06; `payments`; absent: no
    payment recorded with it)."""

    territory: str
    ambassador: str
    cost: int | None = None


@_register("ambassador_removed")
@dataclass(frozen=True, slots=True)
class AmbassadorRemoved(Event):
    """An Ambassador token leaves the board: triggered by the faction `triggered_by` that
    entered its stronghold (2.11.07), or hit by the storm (2.11.09; `triggered_by` null).
    Where the supply is tracked, a triggered token is set aside (the Ecaz Ambassador goes back
    to the supply, 2.11.10.11; the Bene Gesserit one leaves the game, 2.11.10.02) and a
    stormed one goes back to the supply (2.11.09)."""

    territory: str
    triggered_by: str | None = None


@_register("ambassador_supply_set")
@dataclass(frozen=True, slots=True)
class AmbassadorSupplySet(Event):
    """The judge records the Ecaz Ambassador supply face up in front of the shield (at setup
    the Ecaz Ambassador and five drawn at random, LoLV 2.11.03), with the tokens triggered and
    set aside (2.11.07) and out of the game (2.11.10.02): when tracking starts, or to correct
    it. From then on only Ambassadors of the supply are placed (2.11.05)."""

    supply: tuple[str, ...]
    set_aside: tuple[str, ...] = ()
    out_of_game: tuple[str, ...] = ()


@_register("ambassadors_drawn")
@dataclass(frozen=True, slots=True)
class AmbassadorsDrawn(Event):
    """Five Ambassadors drawn at random for the Ecaz supply: at setup, beside the Ecaz
    Ambassador (LoLV 2.11.03), or once all five random ones have been triggered, which then go
    back to the unused tokens (2.11.08)."""

    ambassadors: tuple[str, ...]


@_register("duke_vidal")
@dataclass(frozen=True, slots=True)
class DukeVidal(Event):
    """Duke Vidal becomes an active leader of `holder`, or of nobody (null: in the tanks or
    set aside) (LoLV 2.11.10.11, 2.11.16, 2.12.12)."""

    holder: str | None = None


# --- forces -----------------------------------------------------------------------------


@_register("forces_placed")
@dataclass(frozen=True, slots=True)
class ForcesPlaced(Event):
    """Forces enter the board from reserves (shipment, setup, advisors sent) or straight
    from the tanks; `advisors` are BG forces placed advisor side up. `karama`: a shipment
    bought at the Guild rate with a Karama card (LoLV 3.01.11.03, WBC Player Aid 18).
    `no_field`: the Richese's ally ships with a No-Field token of that number from the Richese
    supply, revealed at once (2.10.19, 2.10.13): as many forces land, or all its reserves if
    fewer, and the token lies face up in front of the Richese shield. `cost`: the spice the
    faction pays for the shipment, to the Guild or the bank (`payments`; absent: no payment
    recorded with it)."""

    faction: str
    territory: str
    sector: int | None
    normal: int = 0
    special: int = 0
    advisors: int = 0
    source: str = "reserves"
    karama: bool = False
    no_field: int | None = None
    cost: int | None = None


@_register("forces_moved")
@dataclass(frozen=True, slots=True)
class ForcesMoved(Event):
    """Forces go from one sector piece to another: `via` "move" (the movement action,
    LoLV 1.06.04, AH IX.C.2), "worm" (the Fremen ride a worm, LoLV 2.04.08, AH VII.A.2.b),
    "cross_ship" (Guild cross-planet shipment, LoLV 2.06.05.01, AH IX.C.1.g.ii) or
    "ambassador" (the Ecaz's Fremen Ambassador, LoLV 2.11.10.04); `card` names a movement
    card played with a move (hajr, ornithopter, kulon)."""

    faction: str
    from_territory: str
    from_sector: int | None
    to_territory: str
    to_sector: int | None
    normal: int = 0
    special: int = 0
    advisors: int = 0
    via: str = "move"
    card: str | None = None


@_register("forces_removed")
@dataclass(frozen=True, slots=True)
class ForcesRemoved(Event):
    """Forces leave the board to the tanks (battle, storm, worm) or to reserves: the Guild's
    own shipment back (LoLV 2.06.05.02, AH IX.C.1.g.iii), or another faction's forces sent home
    by a `cause`: "face_dancer" (the Tleilaxu reveal a Face Dancer, LoLV 2.08.05.03) or
    "trip_to_gamont" (CHOAM's Trip to Gamont at the Mentat Pause, LoLV 2.09.07.06)."""

    faction: str
    territory: str
    sector: int | None
    normal: int = 0
    special: int = 0
    advisors: int = 0
    to: str = "tanks"
    cause: str | None = None


@_register("forces_revived")
@dataclass(frozen=True, slots=True)
class ForcesRevived(Event):
    """Forces come back from the tanks to reserves (LoLV 1.05, AH IX.B). `karama`: the
    Emperor's Karama revival of up to three forces for free (LoLV 1.14.02, WBC XVII.9).
    `ghola`: the Tleilaxu Ghola card's extra revival of up to five (LoLV 3.01.20, AH questions
    A.6); `raised_by`: the faction whose ability lets more than three come back this turn (the
    Emperor paying for its ally, 2.03.07; the Tleilaxu raising the limit to five, 2.08.11).
    `cost`: the spice the faction pays for the revival, to the bank or the Tleilaxu
    (`payments`; absent: no payment recorded with it)."""

    faction: str
    normal: int = 0
    special: int = 0
    karama: bool = False
    ghola: bool = False
    raised_by: str | None = None
    cost: int | None = None


@_register("forces_flipped")
@dataclass(frozen=True, slots=True)
class FlipForces(Event):
    """BG forces in a sector piece turn advisor or fighter side up (LoLV 2.02.10)."""

    territory: str
    sector: int | None
    side: str
    count: int


@_register("loss_corrected")
@dataclass(frozen=True, slots=True)
class LossCorrected(Event):
    """The judge puts back forces the engine sent to the tanks by itself (storm, worm, the
    ally constraint), with a reason."""

    faction: str
    territory: str
    sector: int | None
    reason: str
    normal: int = 0
    special: int = 0
    advisors: int = 0


@_register("action_ended")
@dataclass(frozen=True, slots=True)
class ActionEnded(Event):
    """A faction's shipment-and-movement action is over (LoLV 1.06.01): forces it left beside
    allied forces go to the tanks (1.06.06, 4.01.16). Also implied by the next faction's
    shipment or move and by the end of the phase."""

    faction: str


@_register("order_card_played")
@dataclass(frozen=True, slots=True)
class OrderCardPlayed(Event):
    """A card changes who goes when in storm order for the rest of the phase: `faction` plays
    Juice of Sappho to go `first` or `last`, even before or after the Guild (LoLV
    3.02.02.02-03), or to be the `aggressor` in its battle in `territory` (3.02.02.01); or
    `faction` plays a Karama card to force the Guild to take its shipment and movement turn in
    storm order (`guild_in_order`: WBC Player Aid 19; LoLV 3.01.11.02 with 2.06.12)."""

    faction: str
    order_card: str
    place: str
    territory: str | None = None


@_register("coexistence_declared")
@dataclass(frozen=True, slots=True)
class CoexistenceDeclared(Event):
    """The BG declares coexistence in a territory, or its end (AH XV.B, WBC XV.5, WBC XV.7, WBC XV.9)."""

    territory: str
    coexisting: bool = True


# --- spice, cards, leaders --------------------------------------------------------------


@_register("spice_set")
@dataclass(frozen=True, slots=True)
class SpiceSet(Event):
    """A faction's spice behind the shield is now `amount`."""

    faction: str
    amount: int


@_register("spice_changed")
@dataclass(frozen=True, slots=True)
class SpiceChanged(Event):
    """A faction's spice changes by `delta` (may not go below zero)."""

    faction: str
    delta: int


@_register("spice_blow")
@dataclass(frozen=True, slots=True)
class SpiceBlow(Event):
    """A Spice Blow: the card's spice (`amount`, by default the amount printed for the
    territory) lands in the territory's Spice Blow sector, unless that sector is in storm
    (LoLV 1.02.04, AH VII.A.1)."""

    territory: str
    amount: int | None = None


@_register("spice_collected")
@dataclass(frozen=True, slots=True)
class SpiceCollected(Event):
    """A faction takes `amount` spice from a territory it occupies and puts it behind its
    shield (LoLV 1.08.01-02, AH XI.A)."""

    faction: str
    territory: str
    amount: int


@_register("card_bought")
@dataclass(frozen=True, slots=True)
class CardBought(Event):
    """One Treachery Card of the bidding round, card by card (LoLV 1.04.06, AH VIII.B):
    `faction` won it for `price`, paid to the Emperor when he plays and is not the buyer, else
    to the bank (1.04.06.02, 2.03.04, AH VIII.B.3); the Harkonnen draw their extra card with it
    (2.05.08, AH Harkonnen 2). `karama`: bought without paying (3.01.11.04, WBC VIII.10);
    `ally_paid`: the part of the price the buyer's ally paid (1.10.02.04, AH XII.E.3).
    `faction` null: nobody bid, the cards left go back and the bidding is over (1.04.09, AH
    VIII.E)."""

    faction: str | None = None
    price: int = 0
    karama: bool = False
    ally_paid: int = 0


@_register("charity_collected")
@dataclass(frozen=True, slots=True)
class CharityCollected(Event):
    """CHOAM Charity from the bank, once a turn (LoLV 1.03.01-02, 2.02.09; AH VIII.I): `amounts`
    by faction, as the engine derives them from the spice each holds (`income.charity_due`)."""

    amounts: tuple[tuple[str, int], ...] = ()


@_register("inflation_placed")
@dataclass(frozen=True, slots=True)
class InflationPlaced(Event):
    """The CHOAM place their Inflation token on the CHOAM Charity phase at the Mentat Pause,
    `face` up: "double" (Welfare State, 2.09.10) or "cancel" (Market Crash, 2.09.11); it counts
    at the next turn's charity, flipped at the one after, then leaves the game (2.09.09, 2.09.12)."""

    face: str


@_register("spice_harvested")
@dataclass(frozen=True, slots=True)
class SpiceHarvested(Event):
    """The spice collection round in one record, once a turn: each faction's `collections`
    from the territories it occupies (LoLV 1.08.01-02, AH XI.A) and the `income` of Arrakeen,
    Carthag and Tuek's Sietch where the game has it (LoLV 1.13.01, AH XI.C), as the engine
    derives them (`income.collection_due`, `income.income_due`)."""

    collections: tuple[tuple[str, str, int], ...] = ()
    income: tuple[tuple[str, int], ...] = ()


@_register("board_spice_set")
@dataclass(frozen=True, slots=True)
class BoardSpiceSet(Event):
    """The judge corrects the spice lying in a territory (after a storm or worm the engine
    applied, or a miscount), with a reason."""

    territory: str
    amount: int
    reason: str


@_register("cards_set")
@dataclass(frozen=True, slots=True)
class CardsSet(Event):
    """A faction holds `count` treachery cards (names where known). `karama`: the change came
    with a Karama card from that hand: a card bought without paying (LoLV 3.01.11.04, WBC
    VIII.10), or the faction's Karama power over cards (1.14.04, 1.14.09, 1.14.10; WBC XVII.1)."""

    faction: str
    count: int
    names: tuple[str, ...] | None = None
    karama: bool = False


@_register("leader_changed")
@dataclass(frozen=True, slots=True)
class LeaderChanged(Event):
    """A leader's state: active, in the tanks face up/down, captured by `captor`, or held by
    `captor` as its own active leader (a Tleilaxu ghola, LoLV 2.08.16). `karama`: the Emperor
    revives the leader from the tanks with a Karama card (LoLV 1.14.02, WBC XVII.9)."""

    faction: str
    leader: str
    status: str
    captor: str | None = None
    karama: bool = False


@_register("spice_in_front")
@dataclass(frozen=True, slots=True)
class SpiceInFront(Event):
    """Spice put in front of a faction's shield (`delta`), from behind `from_faction`'s shield
    (a bribe, LoLV 1.12.02) or from the bank (Extortion, 2.12.09.03). Collected behind the
    shield when the Mentat Pause begins (1.09.01)."""

    faction: str
    delta: int
    from_faction: str | None = None


@_register("battle")
@dataclass(frozen=True, slots=True)
class Battle(Event):
    """A battle fought in `territory` (LoLV 1.07, AH X): the aggressor's and the defender's
    battle plans as revealed, with the traitor calls made, and the Harkonnen's `capture` after a
    battle it won (LoLV 2.05.10, AH X.B.2.a.ii). The engine resolves it by the table's ruleset
    (`battle.resolve.resolve_battle`): the winner, the forces and spice lost, the leaders killed or
    captured, the cards discarded and the spice paid, each with its rule). `voice` and
    `prescience` record the Bene Gesserit Voice and the Atreides' Prescience the plans obeyed."""

    territory: str
    aggressor: BattlePlan
    defender: BattlePlan
    capture: Capture | None = None
    voice: Voice | None = None
    prescience: Prescience | None = None


# --- flow -------------------------------------------------------------------------------


@_register("phase_advanced")
@dataclass(frozen=True, slots=True)
class PhaseAdvanced(Event):
    """The game moves on to a later phase of the same turn (skipped phases allowed)."""

    phase: str


@_register("turn_advanced")
@dataclass(frozen=True, slots=True)
class TurnAdvanced(Event):
    """The Mentat Pause ends and the next turn starts (LoLV 1.09.04); adds this turn's PP.
    `turn`, if given, must be the new turn number (guards against double taps)."""

    turn: int | None = None


@_register("quick_record")
@dataclass(frozen=True, slots=True)
class QuickRecord(Event):
    """Quick tracking: who stands in each stronghold (keys may be `shield_wall@8`-style
    pieces for the Shield Wall's sides), where the BG is advisors/coexisting, the storm
    sector and the worm count. Everything off the strongholds becomes unknown."""

    occupants: tuple[tuple[str, tuple[str, ...]], ...]
    coexisting: tuple[str, ...] = ()
    storm: int | None = None
    worms: int | None = None


@_register("win_attempt_confirmed")
@dataclass(frozen=True, slots=True)
class WinAttemptConfirmed(Event):
    """The judge confirms a side's win attempt at the start of a battle phase (LoLV 4.01.04)."""

    factions: tuple[str, ...]
    note: str = ""


# --- ending -----------------------------------------------------------------------------


@_register("victory_claimed")
@dataclass(frozen=True, slots=True)
class VictoryClaimed(Event):
    """A stronghold victory claimed at the Mentat Pause; refused unless the position has it."""

    winners: tuple[str, ...]
    kind: str | None = None


@_register("last_turn_ended")
@dataclass(frozen=True, slots=True)
class LastTurnEnded(Event):
    """The last turn's Mentat Pause passed with no stronghold winner: special and default
    victories decide (LoLV 1.09.05, 2.04.09, 2.06.08; AH IV.B-C)."""


@_register("concession")
@dataclass(frozen=True, slots=True)
class Concession(Event):
    """All players concede to an unallied player or a whole alliance (WBC Concessions)."""

    to_factions: tuple[str, ...]
    unanimous: bool = True


@_register("time_up")
@dataclass(frozen=True, slots=True)
class TimeUp(Event):
    """The table's clock ran out (LoLV 4.01.08, WBC heat/final limit): no new turn may start."""

    clock: str


@_register("default_action")
@dataclass(frozen=True, slots=True)
class DefaultAction(Event):
    """A called clock expired; the default action was taken (WBC time guidelines)."""

    faction: str
    action: str


@_register("diplomacy_chip_used")
@dataclass(frozen=True, slots=True)
class DiplomacyChipUsed(Event):
    """A player spends one of their 3 diplomacy chips (WBC time guidelines)."""

    faction: str


@_register("dropout")
@dataclass(frozen=True, slots=True)
class Dropout(Event):
    """A player drops out: tokens and leaders leave, spice and cards go (WBC Dropouts)."""

    faction: str
    reason: str = ""


@_register("die_rolled")
@dataclass(frozen=True, slots=True)
class DieRolled(Event):
    """Recorded die rolls, the last adjudication criterion (WBC adjudication)."""

    die: tuple[tuple[str, int], ...]


@_register("adjudication_confirmed")
@dataclass(frozen=True, slots=True)
class AdjudicationConfirmed(Event):
    """The judge confirms the adjudicated winners after time ran out; an `override_reason`
    lets the head judge differ from the engine's ranking."""

    winners: tuple[str, ...]
    override_reason: str | None = None


@_register("game_ended")
@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The record is closed; only `void` may follow."""

    reason: str = ""


@_register("void")
@dataclass(frozen=True, slots=True)
class Void(Event):
    """A correction: the event with sequence number `seq` no longer counts."""

    seq: int
    reason: str


@_register("insert")
@dataclass(frozen=True, slots=True)
class Insert(Event):
    """A correction: `event` counts as if it had been recorded just before event `before`
    (an action entered late, refused as out of order after the records it should precede).
    Recorded at the end of the log like any correction; the log replays with it in its place."""

    before: int
    event: Event
    reason: str


__all__ = [
    "EVENT_TYPES",
    "SCHEMA_VERSION",
    "Event",
    "BattlePlan",
    "Capture",
    "ForcesAt",
    "Prediction",
    "describe_events",
    "event_from_dict",
] + [cls.__name__ for cls in EVENT_TYPES.values()]
