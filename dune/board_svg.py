"""The Dune board as a picture: a position and the board data in, an SVG document out.

A pure function, like python-chess's `chess.svg.board`: no state of its own, no clock, no
database. The map is schematic: the 18 storm sectors as wedges around the Polar Sink, each
wedge cut into rings, one ring per sector piece of a territory (nearest the Polar Sink
innermost, by the territories' distance from it over the board's adjacency). Every piece of a
territory shares the territory's `data-territory`.

Hooks other tools read (kept stable):

- the storm: an element with `data-storm-sector="<n>"` (only while the position has a storm);
- every force stack: an element with `data-territory`, `data-sector` (the sector, or empty for
  the Polar Sink and the Hidden Mobile Stronghold), `data-faction` and `data-count`, whose
  text holds the faction's short mark and the stack's total count;
- every stronghold the engine counts: an element with `data-stronghold="<id>"` and
  `data-controlled-by="<faction id or empty>"`, control as `dune.engine.evaluate()` says
  (the Shield Wall only while it counts, LoLV 4.02.01 / WBC house rules; the Hidden Mobile
  Stronghold where it points, LoLV 2.07.17).

Faction colours come from the Okabe-Ito and Paul Tol palettes, which stay apart for readers
with the common colour-vision deficiencies; every stack also carries its faction's mark, so
colour is never the only cue.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from itertools import chain
from typing import Any

from dune.engine.board import (
    HIDDEN_MOBILE_STRONGHOLD,
    POLAR_SINK,
    SECTOR_COUNT,
    SHIELD_WALL,
    TERRITORIES,
)
from dune.engine.evaluation import Evaluation, evaluate
from dune.engine.factions import FACTION_SHEETS
from dune.engine.names import PHASE_NAMES, faction_name
from dune.words import ENGLISH, Words

__all__ = ["FACTION_STYLE", "StackRow", "board_svg", "stack_rows", "describe"]


@dataclass(frozen=True, slots=True)
class FactionStyle:
    mark: str  # the short mark printed on every stack
    fill: str
    ink: str  # text colour on the fill (black or white, whichever reads better)


#: Colour-blind-safe fills (Okabe-Ito first, then Paul Tol's muted set) and a two-letter mark.
FACTION_STYLE: Mapping[str, FactionStyle] = {
    "atreides": FactionStyle("AT", "#009E73", "#000"),
    "bene_gesserit": FactionStyle("BG", "#CC79A7", "#000"),
    "emperor": FactionStyle("EM", "#E69F00", "#000"),
    "fremen": FactionStyle("FR", "#F0E442", "#000"),
    "harkonnen": FactionStyle("HK", "#000000", "#fff"),
    "guild": FactionStyle("SG", "#0072B2", "#fff"),
    "ixians": FactionStyle("IX", "#56B4E9", "#000"),
    "tleilaxu": FactionStyle("TL", "#D55E00", "#000"),
    "choam": FactionStyle("CH", "#BBBBBB", "#000"),
    "richese": FactionStyle("RI", "#882255", "#fff"),
    "ecaz": FactionStyle("EC", "#332288", "#fff"),
    "moritani": FactionStyle("MO", "#999933", "#000"),
}
_UNKNOWN_STYLE = FactionStyle("??", "#777777", "#fff")


def style_of(faction: str) -> FactionStyle:
    return FACTION_STYLE.get(faction, _UNKNOWN_STYLE)


# --- geometry (fixed by the board data, computed once) -------------------------------------

WIDTH = 520
CX = CY = 260.0
R_SINK = 50.0
R_OUT = 236.0
R_NUMBERS = 248.0
STEP = 360.0 / SECTOR_COUNT
LEGEND_TOP = 528.0
LEGEND_ROW = 20.0
STACK_H = 15.0


def _angle(sector: float) -> float:
    """Screen angle (degrees, clockwise from east, y down) of a sector's middle: the Storm
    Start Sector (0) at the bottom, sectors counted counterclockwise as the storm moves."""
    return 90.0 - sector * STEP


def _point(r: float, degrees: float) -> tuple[float, float]:
    rad = math.radians(degrees)
    return CX + r * math.cos(rad), CY + r * math.sin(rad)


def _n(x: float) -> str:
    """A coordinate with one decimal at most (keeps the document small)."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _wedge(r_in: float, r_out: float, sector: int) -> str:
    """The path of a ring piece of one sector, between two radii."""
    a0 = _angle(sector) + STEP / 2
    a1 = _angle(sector) - STEP / 2
    x0, y0 = _point(r_out, a0)
    x1, y1 = _point(r_out, a1)
    x2, y2 = _point(r_in, a1)
    x3, y3 = _point(r_in, a0)
    # Angles decrease from a0 to a1: the outer arc runs counterclockwise on screen (sweep 0).
    return (
        f"M{_n(x0)} {_n(y0)}A{_n(r_out)} {_n(r_out)} 0 0 0 {_n(x1)} {_n(y1)}"
        f"L{_n(x2)} {_n(y2)}A{_n(r_in)} {_n(r_in)} 0 0 1 {_n(x3)} {_n(y3)}Z"
    )


@dataclass(frozen=True, slots=True)
class Cell:
    """Where one sector piece sits on the drawing."""

    territory: str
    sector: int
    r_in: float
    r_out: float
    path: str

    @property
    def r_mid(self) -> float:
        return (self.r_in + self.r_out) / 2


def _distances() -> dict[str, int]:
    """Each territory's distance from the Polar Sink in territories (breadth-first over the
    board's adjacency): the ring order inside each sector."""
    dist = {POLAR_SINK: 0}
    queue = deque([POLAR_SINK])
    while queue:
        here = queue.popleft()
        for there in sorted(TERRITORIES[here].adjacent):
            if there not in dist and there in TERRITORIES:
                dist[there] = dist[here] + 1
                queue.append(there)
    return dist


@lru_cache(maxsize=1)
def _cells() -> dict[tuple[str, int], Cell]:
    dist = _distances()
    by_sector: dict[int, list[str]] = {s: [] for s in range(SECTOR_COUNT)}
    for t in TERRITORIES.values():
        for s in t.sectors:
            by_sector[s].append(t.id)
    cells: dict[tuple[str, int], Cell] = {}
    for s, ids in by_sector.items():
        ids.sort(key=lambda tid: (dist.get(tid, 99), tid))
        band = (R_OUT - R_SINK) / max(1, len(ids))
        for i, tid in enumerate(ids):
            r_in, r_out = R_SINK + i * band, R_SINK + (i + 1) * band
            cells[(tid, s)] = Cell(tid, s, r_in, r_out, _wedge(r_in, r_out, s))
    return cells


@lru_cache(maxsize=1)
def _label_cells() -> dict[str, Cell]:
    """The piece that carries a territory's name label: its middle sector piece."""
    cells = _cells()
    out: dict[str, Cell] = {}
    for t in TERRITORIES.values():
        if t.sectors:
            out[t.id] = cells[(t.id, t.sectors[len(t.sectors) // 2])]
    return out


#: Short names printed on the strongholds (the full name is in each territory's <title>).
_SHORT = {
    "arrakeen": "Arrakeen",
    "carthag": "Carthag",
    "tueks_sietch": "Tuek's",
    "sietch_tabr": "Tabr",
    "habbanya_sietch": "Habbanya",
    "shield_wall": "Shield Wall",
}


# --- what the position holds --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StackRow:
    """One force stack, in words and numbers (the text alternative of the drawing)."""

    faction: str
    faction_name: str
    territory: str
    territory_name: str
    sector: int | None
    normal: int
    special: int
    advisors: int
    special_name: str
    #: Quick tracking records who stands in a stronghold, not how many (the count is 1).
    quick: bool = False

    @property
    def total(self) -> int:
        return self.normal + self.special + self.advisors

    def words(self, words: Words = ENGLISH) -> str:
        """`7 forces (5 fighters, 2 Fedaykin)`; under quick tracking, only that they are there
        (in the reader's language through `words`)."""
        w = words
        if self.quick:
            return w.gettext("present (quick tracking does not count forces)")
        parts = []
        if self.normal:
            parts.append(w.ngettext("%(count)s fighter", "%(count)s fighters", self.normal) % {"count": self.normal})
        if self.special:
            parts.append(f"{self.special} {self.special_name}")
        if self.advisors:
            parts.append(w.ngettext("%(count)s advisor", "%(count)s advisors", self.advisors) % {"count": self.advisors})
        head = w.ngettext("%(count)s force", "%(count)s forces", self.total) % {"count": self.total}
        return f"{head} ({', '.join(parts)})" if len(parts) > 1 or self.special or self.advisors else head

    def place(self, words: Words = ENGLISH) -> str:
        """The territory, and its sector when the stack stands in one: "Arrakeen, sector 9"."""
        if self.sector is None:
            return self.territory_name
        return words.gettext("%(territory)s, sector %(sector)s") % {"territory": self.territory_name, "sector": self.sector}


def _territory_name(tid: str) -> str:
    t = TERRITORIES.get(tid)
    return t.name if t is not None else tid.replace("_", " ").title()


def stack_rows(position: Any) -> list[StackRow]:
    """Every force stack of the position (one per faction and sector piece holding forces),
    in sector order, the Polar Sink and the Hidden Mobile Stronghold first."""
    rows = []
    for (faction, territory, sector), (n, sp, a) in position.forces.items():
        if n + sp + a <= 0:
            continue
        sheet = FACTION_SHEETS.get(faction)
        rows.append(
            StackRow(
                faction=faction,
                faction_name=faction_name(faction),
                territory=territory,
                territory_name=_territory_name(territory),
                sector=sector,
                normal=n,
                special=sp,
                advisors=a,
                special_name=(sheet.special_name if sheet and sheet.special_name else "special forces"),
                quick=bool(position.quick),
            )
        )
    rows.sort(key=lambda r: (-1 if r.sector is None else r.sector, r.territory_name, r.faction_name))
    return rows


def describe(position: Any, answer: Evaluation | None = None, words: Words = ENGLISH) -> str:
    """One paragraph in words (the reader's, through `words`): turn and phase, the storm, who
    controls which stronghold, how many stacks stand on the board."""
    w = words
    answer = answer if answer is not None else evaluate(position)
    phase = PHASE_NAMES.get(position.phase, position.phase.replace("_", " "))
    phase = w.pgettext("phase", phase)
    said = [
        w.gettext("Turn %(turn)s, %(phase)s phase.") % {"turn": position.turn, "phase": phase}
        if position.turn
        else w.gettext("Before the first turn (%(phase)s).") % {"phase": phase}
    ]
    said.append(
        w.gettext("The storm is in sector %(sector)s.") % {"sector": position.storm}
        if position.storm is not None
        else w.gettext("No storm on the board yet.")
    )
    held = sorted(
        ((_territory_name(s), faction_name(f)) for s, f in answer.control.items() if f)
    )  # the same words however `control` is ordered
    controls = [w.gettext("%(faction)s controls %(territory)s") % {"faction": f, "territory": t} for t, f in held]
    said.append(("; ".join(controls) + ".") if controls else w.gettext("Nobody controls a stronghold."))
    count = len(stack_rows(position))
    said.append(w.ngettext("%(count)s force stack on the board.", "%(count)s force stacks on the board.", count)
                % {"count": count})
    if position.quick:
        said.append(w.gettext("Quick tracking: only the strongholds are recorded."))
    return " ".join(said)


# --- drawing -----------------------------------------------------------------------------


def _attr(value: object) -> str:
    return escape(str(value), quote=True)


def _slots(cell: Cell | None, widths: list[float]) -> list[tuple[float, float]]:
    """Centres for stacks of these widths inside a cell: a small grid along the arc and the
    radius (in the Polar Sink, two columns around its centre)."""
    count = len(widths)
    widest = max(widths) + 2
    if cell is None:  # the Polar Sink
        cols = 1 if count == 1 else 2
        rows = math.ceil(count / cols)
        return [
            (CX + (col - (cols - 1) / 2) * widest, CY + (row - (rows - 1) / 2) * (STACK_H + 1))
            for row, col in (divmod(i, cols) for i in range(count))
        ]
    arc = math.radians(STEP) * cell.r_mid
    cols = max(1, min(count, int(arc // widest)))
    rows = math.ceil(count / cols)
    out = []
    mid = _angle(cell.sector)
    for i in range(count):
        row, col = divmod(i, cols)
        r = cell.r_mid + (row - (rows - 1) / 2) * (STACK_H + 1)
        a = mid + (col - (cols - 1) / 2) * (STEP * 0.8 / cols)
        out.append(_point(r, a))
    return out


def _label(row: StackRow) -> tuple[str, str, float]:
    """The stack's text: mark and total, then specials and advisors; and the pill's width."""
    extra = []
    if row.special:
        extra.append(f"{row.special}\u2605")
    if row.advisors:
        extra.append(f"{row.advisors}a")
    label = f"{style_of(row.faction).mark} {row.total}"
    tail = f" {' '.join(extra)}" if extra else ""
    return label, tail, 7 + 6.3 * len(label) + 5.2 * len(tail)


def _stack(row: StackRow, x: float, y: float, w: Words) -> str:
    st = style_of(row.faction)
    label, tail, width = _label(row)
    kinds, look = "", ""
    if row.advisors and not (row.normal or row.special):  # advisors only: a dashed, paler stack
        kinds, look = " advisors", ' stroke-dasharray="2 1.5" fill-opacity=".55"'
    if row.special:  # specials among them: a thick outline
        kinds, look = kinds + " specials", look + ' stroke-width="2"'
    sector = "" if row.sector is None else str(row.sector)
    title = w.gettext("%(faction)s: %(forces)s in %(place)s") % {
        "faction": row.faction_name, "forces": row.words(w), "place": row.place(w)}
    return (
        f'<g class="stack f-{row.faction}{kinds}" data-territory="{row.territory}" data-sector="{sector}"'
        f' data-faction="{row.faction}" data-count="{row.total}">'
        f"<title>{_attr(title)}</title>"
        f'<rect x="{_n(x - width / 2)}" y="{_n(y - STACK_H / 2)}" width="{_n(width)}" height="{_n(STACK_H)}"'
        f' rx="4" fill="{st.fill}" stroke="#222"{look}/>'
        f'<text x="{_n(x)}" y="{_n(y + 3.8)}" fill="{st.ink}">{label}'
        + (f'<tspan class="kinds" font-size="8.5">{_attr(tail)}</tspan>' if tail else "")
        + "</text></g>"
    )


#: Token fills: spice orange, Terror and Ambassador tokens white, the No-Field token grey.
_TOKEN_FILL = {"spice": "#e07b1a", "terror": "#fff", "ambassador": "#fff", "noField": "#ddd", "aftermath": "#999"}


def _token(cls: str, x: float, y: float, text: str, title: str, extra: str = "") -> str:
    return (
        f'<g class="token {cls}"{extra}><title>{_attr(title)}</title>'
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="7" fill="{_TOKEN_FILL.get(cls, "#fff")}" stroke="#222"/>'
        f'<text x="{_n(x)}" y="{_n(y + 3)}" font-size="8">{_attr(text)}</text></g>'
    )


#: Fills of the territories by kind (presentation attributes, not a style sheet: the pages'
#: Content-Security-Policy admits no inline styles, and the picture must look the same inline
#: and on its own).
_KIND_FILL = {"sand": "#f4e4c1", "rock": "#cdb48b", "stronghold": "#a98467"}


def _map(control: Mapping[str, str | None], w: Words) -> Iterator[str]:
    """Every territory, one group each (its sector pieces inside); the strongholds the engine
    counts carry their controller (the Shield Wall only while it counts, LoLV 4.02.01, WBC)."""
    cells = _cells()
    yield '<g class="map" stroke="#6d5a3c" stroke-width=".6">'
    yield (
        f'<g class="terr polar_sink" data-territory="{POLAR_SINK}"><title>Polar Sink</title>'
        f'<circle cx="{_n(CX)}" cy="{_n(CY)}" r="{_n(R_SINK)}" fill="#efe3cb"/></g>'
    )
    for t in TERRITORIES.values():
        if not t.sectors:
            continue
        classes, hooks, held_words, look = f"terr {t.kind}", "", "", ""
        fill = _KIND_FILL.get(t.kind, "#f4e4c1")
        if t.id in control:
            holder = control[t.id]
            if t.kind != "stronghold":  # the Shield Wall while it counts
                classes, fill = classes + " sw-counts", "#b99a78"
            if holder:
                classes, look = classes + " held", ' stroke="#222" stroke-width="1.6"'
            hooks = f' data-stronghold="{t.id}" data-controlled-by="{holder or ""}"'
            held_words = (
                w.gettext("%(territory)s: controlled by %(faction)s") % {"territory": t.name, "faction": faction_name(holder)}
                if holder
                else w.gettext("%(territory)s: controlled by nobody") % {"territory": t.name}
            )
        yield (f'<g class="{classes}" data-territory="{t.id}"{hooks} fill="{fill}"{look}>'
               f"<title>{_attr(held_words or t.name)}</title>")
        for sector in t.sectors:
            yield f'<path d="{cells[(t.id, sector)].path}"/>'
        yield "</g>"
    yield "</g>"


def _labels() -> Iterator[str]:
    """Stronghold names and sector numbers."""
    labels = _label_cells()
    yield '<g class="labels" aria-hidden="true" font-size="8" fill="#3b2a14">'
    for tid, short in _SHORT.items():
        cell = labels.get(tid)
        if cell is None:
            continue
        x, y = _point(cell.r_in + 7, _angle(cell.sector + (0.5 if tid == SHIELD_WALL else 0)))
        half = 3 * len(short) + 6  # keep the whole name inside the picture
        x = min(max(x, half), WIDTH - half)
        yield f'<text class="sname" x="{_n(x)}" y="{_n(y)}">{short}</text>'
    yield "</g>"
    yield '<g class="sector-numbers" aria-hidden="true" font-size="10" fill="#5a4a30">'
    for s in range(SECTOR_COUNT):
        x, y = _point(R_NUMBERS, _angle(s))
        yield f'<text class="sector-no" x="{_n(x)}" y="{_n(y + 3.5)}">{s}</text>'
    yield "</g>"


def _markers(setup: Any, w: Words) -> Iterator[str]:
    """The player markers on their dots."""
    if setup is None:
        return
    yield '<g class="markers" stroke="#222">'
    for f, sector in sorted(setup.markers.items(), key=lambda item: (item[1], item[0])):
        x, y = _point(R_OUT + 2, _angle(sector) + 6)
        title = w.gettext("%(faction)s player marker, sector %(sector)s") % {"faction": faction_name(f), "sector": sector}
        yield (
            f'<g class="marker" data-marker="{f}"><title>{_attr(title)}</title>'
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="5" fill="{style_of(f).fill}"/></g>'
        )
    yield "</g>"


def _storm(position: Any, w: Words) -> Iterator[str]:
    if position.storm is None:
        return
    s = int(position.storm)
    x, y = _point(R_OUT - 10, _angle(s))
    title = w.gettext("The storm, over sector %(sector)s") % {"sector": s}
    label = w.pgettext("the storm drawn on the board", "storm")
    yield (
        f'<g class="storm" data-storm-sector="{s}"><title>{_attr(title)}</title>'
        f'<path d="{_wedge(R_SINK, R_OUT, s)}" fill="#3d3466" fill-opacity=".42" stroke="#3d3466"'
        f' stroke-width="2" stroke-dasharray="5 3"/>'
        f'<text x="{_n(x)}" y="{_n(y + 3)}" fill="#fff" font-size="10">{_attr(label)}</text></g>'
    )


def _hms_place(position: Any, control: Mapping[str, str | None], w: Words) -> tuple[float, float, str] | None:
    """Where the Hidden Mobile Stronghold is drawn, and where it is in words; None while it
    is not in the game."""
    cell = _cells().get(position.hms) if position.hms is not None else None
    if cell is not None:
        x, y = _point(cell.r_in + 8, _angle(cell.sector) + STEP * 0.3)
        return x, y, w.gettext("Hidden Mobile Stronghold, over %(territory)s sector %(sector)s") % {
            "territory": _territory_name(cell.territory), "sector": cell.sector}
    if HIDDEN_MOBILE_STRONGHOLD in control or any(t == HIDDEN_MOBILE_STRONGHOLD for (_f, t, _s) in position.forces):
        # Beside the board until deployed (LoLV 2.07.04).
        return WIDTH - 24.0, 24.0, w.gettext("Hidden Mobile Stronghold, not on the board yet")
    return None


def _hms(place: tuple[float, float, str] | None, control: Mapping[str, str | None]) -> Iterator[str]:
    if place is None:
        return
    hx, hy, where = place
    hooks = ""
    if HIDDEN_MOBILE_STRONGHOLD in control:
        hooks = (f' data-stronghold="{HIDDEN_MOBILE_STRONGHOLD}"'
                 f' data-controlled-by="{control[HIDDEN_MOBILE_STRONGHOLD] or ""}"')
    hexagon = " ".join(
        f"{_n(hx + 9 * math.cos(math.radians(60 * k)))},{_n(hy + 9 * math.sin(math.radians(60 * k)))}"
        for k in range(6)
    )
    yield (
        f'<g class="hms" data-territory="{HIDDEN_MOBILE_STRONGHOLD}"{hooks}><title>{_attr(where)}</title>'
        f'<polygon points="{hexagon}" fill="#a98467" stroke="#222"/></g>'
    )


def _pieces(position: Any, w: Words) -> Iterator[str]:
    """Spice on the board, Terror tokens, Ecaz Ambassadors, the No-Field token, the Aftermath."""
    cells, labels = _cells(), _label_cells()
    for tid, amount in sorted(position.spice_on_board.items()):
        blown = TERRITORIES.get(tid)
        cell = cells.get((tid, blown.spice_blow[0])) if blown is not None and blown.spice_blow else None
        if blown is not None and cell is not None:
            x, y = _point(cell.r_out - 6, _angle(cell.sector) - STEP * 0.38)
            yield _token("spice", x, y, str(amount), w.gettext("%(amount)s spice in %(territory)s") % {"amount": amount, "territory": blown.name}, f' data-spice="{tid}"')
    for tid in sorted(position.terror):
        cell = labels.get(tid)
        if cell is not None:
            x, y = _point(cell.r_in + 6, _angle(cell.sector) - STEP * 0.38)
            yield _token("terror", x, y, "T", w.gettext("Terror token in %(territory)s") % {"territory": _territory_name(tid)}, f' data-terror="{tid}"')
    for tid, symbol in sorted(position.ambassadors.items()):
        cell = labels.get(tid)
        if cell is not None:
            x, y = _point(cell.r_in + 6, _angle(cell.sector) + STEP * 0.38)
            mark = style_of(symbol).mark if symbol in FACTION_STYLE else symbol[:2].upper()
            yield _token("ambassador", x, y, mark,
                         w.gettext("Ecaz Ambassador (%(faction)s) in %(territory)s") % {
                             "faction": faction_name(symbol), "territory": _territory_name(tid)},
                         f' data-ambassador="{tid}"')
    if position.no_field is not None:
        nt, ns = position.no_field
        cell = cells.get((nt, ns)) if ns is not None else None
        x, y = _point(cell.r_out - 6, _angle(cell.sector) + STEP * 0.38) if cell else (CX + 30, CY - 30)
        where = (
            w.gettext("%(territory)s, sector %(sector)s") % {"territory": _territory_name(nt), "sector": ns}
            if ns is not None
            else _territory_name(nt)
        )
        no_field = w.gettext("Richese No-Field token in %(place)s") % {"place": where}
        yield _token("noField", x, y, "NF", no_field, f' data-no-field="{nt}"')
    if position.aftermath:
        cell = labels.get(position.aftermath)
        if cell is not None:
            x, y = _point(cell.r_mid, _angle(cell.sector))
            yield _token("aftermath", x, y, "A", w.gettext("Atomics Aftermath in %(territory)s") % {"territory": _territory_name(position.aftermath)})


def _stacks(rows: list[StackRow], hms: tuple[float, float, str] | None, w: Words) -> Iterator[str]:
    """The force stacks, laid out in the cell they stand in (the HMS's beside its token)."""
    cells = _cells()
    by_cell: dict[tuple[str, int | None], list[StackRow]] = {}
    for row in rows:
        by_cell.setdefault((row.territory, row.sector), []).append(row)
    yield '<g class="stacks" font-size="10.5">'
    for (tid, sector), here in by_cell.items():
        if tid == HIDDEN_MOBILE_STRONGHOLD:
            bx, by = (hms[0], hms[1]) if hms else (WIDTH - 24.0, 24.0)
            spots = [(bx, by + 17 + i * (STACK_H + 1)) for i in range(len(here))]
        else:
            cell = None if sector is None else cells.get((tid, sector))
            spots = _slots(cell, [_label(row)[2] for row in here])
        for row, (x, y) in zip(here, spots, strict=True):
            yield _stack(row, x, y, w)
    yield "</g>"


def _legend(factions: list[str]) -> Iterator[str]:
    """The colour and mark of each faction at the table."""
    yield '<g class="legend" font-weight="normal" font-size="10">'
    for i, f in enumerate(factions):
        st = style_of(f)
        row_i, col = divmod(i, 3)
        x, y = 14 + col * 170, LEGEND_TOP + row_i * LEGEND_ROW
        yield (
            f'<rect x="{x}" y="{_n(y)}" width="26" height="14" rx="4" fill="{st.fill}" stroke="#222"/>'
            f'<text x="{x + 13}" y="{_n(y + 10.5)}" fill="{st.ink}" font-weight="bold">{st.mark}</text>'
            f'<text x="{x + 32}" y="{_n(y + 11)}" text-anchor="start">{_attr(faction_name(f))}</text>'
        )
    yield "</g>"


def board_svg(
    position: Any,
    *,
    answer: Evaluation | None = None,
    title: str | None = None,
    seq: int | None = None,
    uid: str = "board",
    words: Words = ENGLISH,
) -> str:
    """The position drawn as the Dune board: an SVG document (a string, no XML prolog).

    `answer` is the engine's evaluation of `position` when the caller has it already (it is
    computed otherwise); stronghold control is read from it. `title` becomes the `<title>` ("The Dune board" when None);
    `seq` (the record the position follows) goes in `data-seq`; `uid` prefixes the ids inside
    the document, so several boards can stand inline on one page; `words`: the reader's language
    for every text in it (the caption, the description and each piece's title).
    """
    answer = answer if answer is not None else evaluate(position)
    control = answer.control
    rows = stack_rows(position)
    setup = position.setup
    factions: list[str] = list(setup.factions) if setup is not None else sorted({r.faction for r in rows})
    height = LEGEND_TOP + math.ceil(len(factions) / 3) * LEGEND_ROW + 6
    hms = _hms_place(position, control, words)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="dune-board" viewBox="0 0 {WIDTH} {_n(height)}"'
        ' font-family="sans-serif" font-size="9" font-weight="bold" text-anchor="middle"'
        f' role="img" aria-labelledby="{uid}-title {uid}-desc" data-seq="{"" if seq is None else seq}">'
        f'<title id="{uid}-title">{_attr(title if title is not None else words.gettext("The Dune board"))}</title>'
        f'<desc id="{uid}-desc">{_attr(describe(position, answer, words))}</desc>'
    )
    return "".join(
        chain(
            (head,),
            _map(control, words),
            _labels(),
            _markers(setup, words),
            _storm(position, words),
            ('<g class="pieces">',),
            _hms(hms, control),
            _pieces(position, words),
            ("</g>",),
            _stacks(rows, hms, words),
            _legend(factions),
            ("</svg>",),
        )
    )
