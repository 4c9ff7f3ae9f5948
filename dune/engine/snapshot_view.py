"""The pages' typed read of a stored snapshot: what the table page, the report draft and the
redaction read of a position, as attributes instead of string keys.

`SnapshotView.of(snapshot)` reads the JSON a game stores (`dump_position`'s shape, or a
redacted copy of it) into frozen dataclasses whose attribute names are the declared keys of
`dune.engine.snapshot` (`POSITION_FIELDS`, `SHEET_FIELDS`, `FORCE_FIELDS`, `LOSS_FIELDS`; a
test holds them to it). A key the snapshot leaves out reads as its empty value; a sheet also
says which of its keys it has (`has`), since a page falls back to the engine's count for a
sheet value that is absent but not for one that is null (quick tracking knows none).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

__all__ = ["SnapshotView", "Sheet", "Stack", "Removed", "Piece", "prediction_hidden", "without_prediction"]

#: A piece on the board as a snapshot writes it: `[territory, sector]` (sector None for a
#: territory without sectors), or None when it is not on the board.
Piece = tuple[str, int | None] | None


def _int(value: Any) -> int:
    return int(value or 0)


def _piece(value: Any) -> Piece:
    if not value:
        return None
    territory, sector = value
    return str(territory), (None if sector is None else int(sector))


def _given(cls: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """The declared fields of `cls` that `data` has, by the field's own name (the key)."""
    return {f.name: data[f.name] for f in fields(cls) if f.name in data}


@dataclass(frozen=True)
class Sheet:
    """A faction's sheet (`SHEET_FIELDS`): counts are None when the sheet says null (not
    tracked) or leaves them out; `has` names the keys it gives."""

    marker: int | None = None
    spice: int | None = None
    cards: int | None = None
    leaders: int | None = None
    reserves: int | None = None
    reserves_special: int | None = None
    tanks: int | None = None
    tanks_special: int | None = None
    win_attempts: int | None = None
    dropped: bool = False
    die: int | None = None
    has: frozenset[str] = frozenset()

    @classmethod
    def of(cls, data: Any) -> Sheet:
        given = _given(cls, data) if isinstance(data, Mapping) else {}
        given.pop("has", None)
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
        count = getattr(self, kind)
        return None if count is None else int(count)


@dataclass(frozen=True)
class Stack:
    """A row of `forces` (`FORCE_FIELDS`)."""

    faction: str
    territory: str
    sector: int | None = None
    normal: int = 0
    special: int = 0
    advisors: int = 0

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Stack:
        given = _given(cls, data)
        return cls(
            faction=str(given.get("faction") or ""), territory=str(given.get("territory") or ""),
            sector=given.get("sector"), normal=_int(given.get("normal")), special=_int(given.get("special")),
            advisors=_int(given.get("advisors")),
        )

    @property
    def total(self) -> int:
        return self.normal + self.special + self.advisors


@dataclass(frozen=True)
class Removed:
    """A row of `losses` (`LOSS_FIELDS`): forces a faction lost, spice (no faction), or an
    Ecaz Ambassador the storm sent back (`ambassador`, LoLV 2.11.09)."""

    faction: str | None = None
    territory: str = ""
    sector: int | None = None
    normal: int = 0
    special: int = 0
    advisors: int = 0
    spice: int = 0
    rule: str | None = None
    ambassador: str | None = None

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Removed:
        given = _given(cls, data)
        return cls(
            faction=given.get("faction") or None, territory=str(given.get("territory") or ""),
            sector=given.get("sector"), normal=_int(given.get("normal")), special=_int(given.get("special")),
            advisors=_int(given.get("advisors")), spice=_int(given.get("spice")), rule=given.get("rule"),
            ambassador=given.get("ambassador") or None,
        )

    def count(self, kind: str) -> int:
        """Its `normal`, `special` or `advisors` forces."""
        return int(getattr(self, kind))


@dataclass(frozen=True)
class SnapshotView:
    """What the pages read of a position (`POSITION_FIELDS`)."""

    turn: int | None = None
    phase: str | None = None
    last_turn: bool = False
    storm: int | None = None
    worms: int = 0
    nexus: bool = False
    ended: bool = False
    factions: Mapping[str, Sheet] | None = None
    alliances: tuple[tuple[str, ...], ...] = ()
    forces: tuple[Stack, ...] = ()
    coexisting: frozenset[str] = frozenset()
    attempts: tuple[tuple[int, tuple[str, ...]], ...] = ()
    spice_on_board: Mapping[str, int] | None = None
    losses: tuple[Removed, ...] = ()
    ambassadors: Mapping[str, str] | None = None
    terror: tuple[str, ...] = ()
    no_field: Piece = None
    hms: Piece = None
    #: The Bene Gesserit's prediction: {faction, turn}, or "hidden" in a redacted copy.
    bg_prediction: Any = None
    prediction_revealed: bool = False
    #: The table agreed at the start to allow three-faction alliances (WBC house rules).
    three_alliances: bool = False

    @classmethod
    def of(cls, snapshot: Mapping[str, Any] | SnapshotView | None) -> SnapshotView:
        """The view of a stored snapshot (a view is returned as it is; None reads as empty)."""
        if isinstance(snapshot, SnapshotView):
            return snapshot
        data = _given(cls, snapshot or {})
        return cls(
            turn=data.get("turn"),
            phase=data.get("phase"),
            last_turn=bool(data.get("last_turn")),
            storm=data.get("storm"),
            worms=_int(data.get("worms")),
            nexus=bool(data.get("nexus")),
            ended=bool(data.get("ended")),
            factions={f: Sheet.of(sheet) for f, sheet in (data.get("factions") or {}).items()},
            alliances=tuple(tuple(group) for group in data.get("alliances") or ()),
            forces=tuple(Stack.of(row) for row in data.get("forces") or ()),
            coexisting=frozenset(data.get("coexisting") or ()),
            attempts=tuple((int(turn), tuple(side)) for turn, side in data.get("attempts") or ()),
            spice_on_board=dict(data.get("spice_on_board") or {}),
            losses=tuple(Removed.of(row) for row in data.get("losses") or ()),
            ambassadors=dict(data.get("ambassadors") or {}),
            terror=tuple(data.get("terror") or ()),
            no_field=_piece(data.get("no_field")),
            hms=_piece(data.get("hms")),
            bg_prediction=data.get("bg_prediction"),
            prediction_revealed=bool(data.get("prediction_revealed")),
            three_alliances=bool(data.get("three_alliances")),
        )

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
