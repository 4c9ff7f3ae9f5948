"""The event report's charts: SVG drawn on the server by pygal, each with words and its data.

pygal writes SVG directly from Python (no browser, no image library) and scales through its
viewBox, so one drawing serves a phone, a laptop and the printed page. Every chart comes with
a text alternative (a sentence saying what the chart shows) and the table of its data, which
the page puts beside it. Pure: no Django; the caller passes the display names and the reader's
`Words` (dune.words): every caption, legend, column and sentence is written through it.
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
from dune.words import ENGLISH, Words

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
    "print_zeroes": False,
}


def _config(words: Words, **changes: object) -> dict[str, object]:
    """pygal's settings with the reader's words for a chart with nothing to draw."""
    return {**_CONFIG, "no_data_text": words.gettext("No game filed yet"), **changes}


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


def _listed(words: Words, parts: Sequence[str]) -> str:
    """Parts of a sentence joined as the reader's language separates list items."""
    return words.pgettext("between the items of a chart's sentence", "; ").join(parts)


def faction_wins(report: EventReport, names: Mapping[str, str], words: Words = ENGLISH) -> Chart:
    """Heat games played and won per faction (the final is a table apart on the page)."""
    w = words
    factions = report.factions_heats
    chart = pygal.HorizontalBar(**_config(w, height=max(HEIGHT, 60 + 40 * len(factions))))
    top_down = factions[::-1]  # pygal draws the first label at the bottom
    chart.x_labels = [names.get(f.faction, f.faction) for f in top_down]
    chart.add(w.pgettext("chart legend", "games"), [f.games for f in top_down])
    chart.add(w.pgettext("chart legend", "wins"), [f.wins for f in top_down])
    _whole_numbers(chart, max((f.games for f in factions), default=0))
    ranked = sorted(factions, key=lambda f: (-f.wins, f.faction))
    if ranked:
        won = [
            w.ngettext("%(faction)s won %(wins)s of %(games)s game", "%(faction)s won %(wins)s of %(games)s games",
                       f.games) % {"faction": names.get(f.faction, f.faction), "wins": f.wins, "games": f.games}
            for f in ranked
        ]
        alt = w.gettext("Heat wins by faction: %(list)s.") % {"list": _listed(w, won)}
    else:
        alt = w.gettext("No heat game filed yet.")
    return Chart(
        "faction-wins",
        w.gettext("Faction wins in the heats"),
        _render(chart, "faction-wins"),
        alt,
        (w.gettext("Faction"), w.gettext("Games"), w.gettext("Wins"), w.gettext("Win rate")),
        tuple(
            (names.get(f.faction, f.faction), str(f.games), str(f.wins), percent(f.wins, f.games))
            for f in factions
        ),
    )


def game_lengths(report: EventReport, words: Words = ENGLISH) -> Chart:
    """How many games lasted each number of turns, one series per table size."""
    w = words
    sizes = [s for s in report.by_size if s.games]
    turns = sorted({t for s in sizes for t, _ in s.turns_histogram})
    span = list(range(turns[0], turns[-1] + 1)) if turns else []
    chart = pygal.Bar(**_config(w))
    chart.x_labels = [str(t) for t in span]
    chart.x_title = w.gettext("turns played")
    players = {s.size: w.gettext("%(size)s players") % {"size": s.size} for s in sizes}
    for s in sizes:
        counts = dict(s.turns_histogram)
        chart.add(players[s.size], [counts.get(t, 0) for t in span])
    _whole_numbers(chart, max((n for s in sizes for _, n in s.turns_histogram), default=0))
    parts = []
    for s in sizes:
        counts = dict(s.turns_histogram)
        most = max(counts.items(), key=lambda kv: (kv[1], -kv[0]))[0]
        parts.append(
            w.ngettext(
                "%(games)s game at %(size)s-player tables lasted %(fewest)s to %(most)s turns, most often %(often)s",
                "%(games)s games at %(size)s-player tables lasted %(fewest)s to %(most)s turns, most often %(often)s",
                s.games,
            )
            % {"games": s.games, "size": s.size, "fewest": min(counts), "most": max(counts), "often": most}
        )
    alt = w.gettext("%(list)s.") % {"list": _listed(w, parts)} if parts else w.gettext("No game filed yet.")
    return Chart(
        "game-length",
        w.gettext("Game length by table size"),
        _render(chart, "game-length"),
        alt,
        (w.gettext("Turns"), *(players[s.size] for s in sizes)),
        tuple((str(t), *(str(dict(s.turns_histogram).get(t, 0)) for s in sizes)) for t in span),
    )


def result_kinds(report: EventReport, words: Words = ENGLISH) -> Chart:
    """Games per result kind of their winners (kinds no game ended with are left out). A kind's
    label is the points system's, in the reader's language where the catalogue has it."""
    w = words
    shown = [(kind, n) for kind, n in report.results if n]
    label = {kind: w.gettext(report.result_labels[kind]) for kind, _ in shown}
    chart = pygal.HorizontalBar(**_config(w, show_legend=False, height=max(HEIGHT, 60 + 36 * len(shown))))
    chart.x_labels = [label[kind] for kind, _ in shown[::-1]]
    chart.add(w.pgettext("chart legend", "games"), [n for _, n in shown[::-1]])
    _whole_numbers(chart, max((n for _, n in shown), default=0))
    if shown:
        counted = [f"{label[kind]} {n}" for kind, n in sorted(shown, key=lambda kn: -kn[1])]
        alt = w.ngettext("How the %(games)s game ended: %(list)s.", "How the %(games)s games ended: %(list)s.",
                         report.games) % {"games": report.games, "list": _listed(w, counted)}
    else:
        alt = w.gettext("No game filed yet.")
    return Chart(
        "result-kinds",
        w.gettext("Games by result"),
        _render(chart, "result-kinds"),
        alt,
        (w.gettext("Result"), w.gettext("Games")),
        tuple((label[kind], str(n)) for kind, n in shown),
    )


def round_name(r: RoundFigures, words: Words = ENGLISH) -> str:
    """"Final" or "Heat 2", as every page names the round."""
    if r.is_final:
        return words.gettext("Final")
    return words.gettext("Heat %(number)s") % {"number": r.number}


def adjudications(report: EventReport, words: Words = ENGLISH) -> Chart:
    """Per round with filed games: adjudicated at the time limit against decided at the table."""
    w = words
    played: Sequence[RoundFigures] = [r for r in report.rounds if r.games]
    chart = pygal.StackedBar(**_config(w))
    chart.x_labels = [round_name(r, w) for r in played]
    chart.add(w.pgettext("chart legend", "adjudicated"), [r.adjudicated for r in played])
    chart.add(w.pgettext("chart legend", "decided at the table"), [r.games - r.adjudicated for r in played])
    _whole_numbers(chart, max((r.games for r in played), default=0))
    if played:
        counted = [
            w.gettext("%(round)s %(adjudicated)s of %(games)s (%(rate)s)")
            % {"round": round_name(r, w), "adjudicated": r.adjudicated, "games": r.games,
               "rate": percent(r.adjudicated, r.games)}
            for r in played
        ]
        alt = w.gettext("Adjudicated games per round: %(list)s.") % {"list": _listed(w, counted)}
    else:
        alt = w.gettext("No game filed yet.")
    return Chart(
        "adjudications",
        w.gettext("Adjudications per round"),
        _render(chart, "adjudications"),
        alt,
        (w.gettext("Round"), w.gettext("Games"), w.gettext("Adjudicated"), w.gettext("Rate")),
        tuple(
            (round_name(r, w), str(r.games), str(r.adjudicated), percent(r.adjudicated, r.games)) for r in played
        ),
    )


def charts(report: EventReport, *, faction_names: Mapping[str, str], words: Words = ENGLISH) -> tuple[Chart, ...]:
    """The report's four charts, in the order the page shows them, in `words`' language."""
    return (
        faction_wins(report, faction_names, words),
        game_lengths(report, words),
        result_kinds(report, words),
        adjudications(report, words),
    )
