"""The event report's charts: SVG drawn on the server by pygal, each with words and its data.

pygal writes SVG directly from Python (no browser, no image library) and scales through its
viewBox, so one drawing serves a phone, a laptop and the printed page. Every chart comes with
a text alternative (a sentence saying what the chart shows) and the table of its data, which
the page puts beside it. Pure: no Django; the caller passes the display names.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import pygal  # type: ignore[import-untyped]
from pygal.style import Style  # type: ignore[import-untyped]

from dune.event_report.figures import EventReport, RoundFigures
from dune.seating_words import round_name as name_of_round

#: Drawing size in SVG units; the page scales it to the column width (a phone shows it at
#: about 0.85), so the fonts below stay readable at 390 px.
WIDTH = 420
HEIGHT = 300
#: The site's palette (static/css/site.css): accent, spice, ok, warn.
STYLE = Style(
    background="transparent",
    plot_background="transparent",
    foreground="#1a1410",
    foreground_strong="#1a1410",
    foreground_subtle="#8c7b5e",
    opacity="1",
    opacity_hover="0.85",
    colors=("#0b4f8a", "#9a3d00", "#1d6b2a", "#8a5a00"),
    value_colors=("#ffffff", "#ffffff", "#ffffff", "#ffffff"),
    font_family='system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    label_font_size=15,
    major_label_font_size=15,
    legend_font_size=15,
    value_font_size=14,
    tooltip_font_size=14,
)
_CONFIG = {
    "style": STYLE,
    "width": WIDTH,
    "height": HEIGHT,
    # No script: pygal's tooltips would load from elsewhere, and the table says it all.
    "js": [],
    "disable_xml_declaration": True,
    "explicit_size": False,
    "legend_at_bottom": True,
    "legend_box_size": 14,
    "print_values": True,
    "margin": 8,
    "spacing": 8,
    "show_y_guides": True,
    "truncate_label": 22,
    "truncate_legend": 30,
    "no_data_text": "No game filed yet",
    "print_zeroes": False,
}


_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.S)
_STYLE = re.compile(r"<style\b[^>]*>(.*?)</style>", re.S)
_CHART_ID = re.compile(r'id="(chart-[0-9a-f-]+)"')


def _whole_numbers(chart: pygal.Graph, highest: int) -> None:
    """Count axes in whole numbers, at most about six steps."""
    if highest <= 0:  # nothing drawn: pygal shows its no-data text
        return
    step = max(1, -(-highest // 6))
    chart.y_labels = list(range(0, highest + step, step))


@dataclass(frozen=True, slots=True)
class Drawing:
    """A chart's SVG and the stylesheet it needs, scoped to its own id.

    The site's Content-Security-Policy allows styles from its own files only, so the
    `<style>` pygal writes into the SVG is taken out and served as a stylesheet of the page
    (`css`), under a stable id (`pygal-<key>`) instead of pygal's random one.
    """

    svg: str
    css: str


@dataclass(frozen=True, slots=True)
class Chart:
    """One chart: its drawing, a sentence for people who cannot see it, and its data table."""

    key: str
    title: str
    drawing: Drawing
    alt: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    @property
    def svg(self) -> str:
        return self.drawing.svg

    @property
    def css(self) -> str:
        return self.drawing.css


def percent(part: int, whole: int) -> str:
    """'33%' (rounded half up), or '—' of nothing."""
    if not whole:
        return "—"
    return f"{int(Fraction(100 * part, whole) + Fraction(1, 2))}%"


def _render(chart: pygal.Graph, key: str) -> Drawing:
    svg: str = chart.render(is_unicode=True)
    found = _CHART_ID.search(svg)
    if found is not None:
        svg = svg.replace(found.group(1), f"pygal-{key}")
    # The stylesheet was XML text inside the SVG: unescape it (`.graph &gt; .background`).
    css = html.unescape("\n".join(_STYLE.findall(svg)))
    # pygal always embeds its tooltip configuration as a script; the page runs none of it.
    svg = _STYLE.sub("", _SCRIPT.sub("", svg))
    # The (unused) tooltip group is hidden by a style attribute: the same as a plain attribute.
    svg = svg.replace('style="opacity: 0"', 'opacity="0"')
    # pygal titles every drawing "Pygal"; the caption beside it names it instead.
    svg = svg.replace("<title>Pygal</title>", "", 1)
    # The caption and the sentence beside the chart name it for assistive technology.
    svg = svg.replace(
        "<svg ",
        f'<svg role="img" aria-labelledby="chart-{key}-title chart-{key}-alt" focusable="false" ',
        1,
    )
    return Drawing(svg, css)


def faction_wins(report: EventReport, names: Mapping[str, str]) -> Chart:
    """Heat games played and won per faction (the final is a table apart on the page)."""
    factions = report.factions_heats
    chart = pygal.HorizontalBar(**{**_CONFIG, "height": max(HEIGHT, 60 + 40 * len(factions))})
    top_down = factions[::-1]  # pygal draws the first label at the bottom
    chart.x_labels = [names.get(f.faction, f.faction) for f in top_down]
    chart.add("games", [f.games for f in top_down])
    chart.add("wins", [f.wins for f in top_down])
    _whole_numbers(chart, max((f.games for f in factions), default=0))
    ranked = sorted(factions, key=lambda f: (-f.wins, f.faction))
    if ranked:
        alt = (
            "Heat wins by faction: "
            + "; ".join(f"{names.get(f.faction, f.faction)} won {f.wins} of {f.games} games" for f in ranked)
            + "."
        )
    else:
        alt = "No heat game filed yet."
    return Chart(
        "faction-wins",
        "Faction wins in the heats",
        _render(chart, "faction-wins"),
        alt,
        ("Faction", "Games", "Wins", "Win rate"),
        tuple(
            (names.get(f.faction, f.faction), str(f.games), str(f.wins), percent(f.wins, f.games))
            for f in factions
        ),
    )


def game_lengths(report: EventReport) -> Chart:
    """How many games lasted each number of turns, one series per table size."""
    sizes = [s for s in report.by_size if s.games]
    turns = sorted({t for s in sizes for t, _ in s.turns_histogram})
    span = list(range(turns[0], turns[-1] + 1)) if turns else []
    chart = pygal.Bar(**_CONFIG)
    chart.x_labels = [str(t) for t in span]
    chart.x_title = "turns played"
    for s in sizes:
        counts = dict(s.turns_histogram)
        chart.add(f"{s.size} players", [counts.get(t, 0) for t in span])
    _whole_numbers(chart, max((n for s in sizes for _, n in s.turns_histogram), default=0))
    parts = []
    for s in sizes:
        counts = dict(s.turns_histogram)
        most = max(counts.items(), key=lambda kv: (kv[1], -kv[0]))[0]
        parts.append(
            f"{s.games} game{'s' if s.games != 1 else ''} at {s.size}-player tables lasted "
            f"{min(counts)} to {max(counts)} turns, most often {most}"
        )
    alt = ("; ".join(parts) + ".") if parts else "No game filed yet."
    return Chart(
        "game-length",
        "Game length by table size",
        _render(chart, "game-length"),
        alt,
        ("Turns", *(f"{s.size} players" for s in sizes)),
        tuple((str(t), *(str(dict(s.turns_histogram).get(t, 0)) for s in sizes)) for t in span),
    )


def result_kinds(report: EventReport) -> Chart:
    """Games per result kind of their winners (kinds no game ended with are left out)."""
    shown = [(kind, n) for kind, n in report.results if n]
    chart = pygal.HorizontalBar(
        **{**_CONFIG, "show_legend": False, "height": max(HEIGHT, 60 + 36 * len(shown))}
    )
    chart.x_labels = [report.result_labels[kind] for kind, _ in shown[::-1]]
    chart.add("games", [n for _, n in shown[::-1]])
    _whole_numbers(chart, max((n for _, n in shown), default=0))
    if shown:
        alt = (
            f"How the {report.games} games ended: "
            + "; ".join(
                f"{report.result_labels[kind]} {n}" for kind, n in sorted(shown, key=lambda kn: -kn[1])
            )
            + "."
        )
    else:
        alt = "No game filed yet."
    return Chart(
        "result-kinds",
        "Games by result",
        _render(chart, "result-kinds"),
        alt,
        ("Result", "Games"),
        tuple((report.result_labels[kind], str(n)) for kind, n in shown),
    )


def round_name(r: RoundFigures) -> str:
    return name_of_round(final=r.is_final, number=r.number)


def adjudications(report: EventReport) -> Chart:
    """Per round with filed games: adjudicated at the time limit against decided at the table."""
    played: Sequence[RoundFigures] = [r for r in report.rounds if r.games]
    chart = pygal.StackedBar(**_CONFIG)
    chart.x_labels = [round_name(r) for r in played]
    chart.add("adjudicated", [r.adjudicated for r in played])
    chart.add("decided at the table", [r.games - r.adjudicated for r in played])
    _whole_numbers(chart, max((r.games for r in played), default=0))
    if played:
        alt = (
            "Adjudicated games per round: "
            + "; ".join(
                f"{round_name(r)} {r.adjudicated} of {r.games} ({percent(r.adjudicated, r.games)})"
                for r in played
            )
            + "."
        )
    else:
        alt = "No game filed yet."
    return Chart(
        "adjudications",
        "Adjudications per round",
        _render(chart, "adjudications"),
        alt,
        ("Round", "Games", "Adjudicated", "Rate"),
        tuple(
            (round_name(r), str(r.games), str(r.adjudicated), percent(r.adjudicated, r.games)) for r in played
        ),
    )


def charts(report: EventReport, *, faction_names: Mapping[str, str]) -> tuple[Chart, ...]:
    """The report's four charts, in the order the page shows them."""
    return (
        faction_wins(report, faction_names),
        game_lengths(report),
        result_kinds(report),
        adjudications(report),
    )
