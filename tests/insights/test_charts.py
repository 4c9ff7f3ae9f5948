"""The event report's charts: SVG with a text alternative and the data table beside it (pure)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from dune.event_report.charts import charts, percent
from dune.event_report.figures import EventRecords, event_report
from tests.insights.test_figures import wbc_event

NAMES = {
    "atreides": "Atreides",
    "bene_gesserit": "Bene Gesserit",
    "emperor": "Emperor",
    "fremen": "Fremen",
    "guild": "Guild",
    "harkonnen": "Harkonnen",
}


def test_every_chart_is_an_svg_image_named_by_its_caption_and_sentence() -> None:
    drawn = charts(event_report(wbc_event()), faction_names=NAMES)
    assert [c.key for c in drawn] == ["faction-wins", "game-length", "result-kinds", "adjudications"]
    for chart in drawn:
        root = ET.fromstring(chart.svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert root.get("role") == "img"
        assert root.get("aria-labelledby") == f"chart-{chart.key}-title chart-{chart.key}-alt"
        assert root.get("viewBox") and root.get("width") is None  # scales with the page
        assert "<script" not in chart.svg and "http" not in chart.svg.split("-->")[-1]
        # No inline style (the site's CSP refuses it): the chart's stylesheet travels apart,
        # scoped to the chart's own stable id.
        assert "<style" not in chart.svg and " style=" not in chart.svg
        assert root.get("id") == f"pygal-{chart.key}"
        assert f"#pygal-{chart.key} .color-0" in chart.css and "chart-" not in chart.css
        assert f"#pygal-{chart.key} .graph > .background{{fill:transparent}}" in chart.css
        assert "&gt;" not in chart.css and "Pygal" not in chart.svg
        assert chart.alt.endswith(".") and chart.rows


def test_chart_tables_carry_the_figures() -> None:
    report = event_report(wbc_event())
    wins, lengths, kinds, adjudications = charts(report, faction_names=NAMES)
    assert ("Fremen", "7", "2", "29%") in wins.rows
    assert "Fremen won 2 of 7 games" in wins.alt
    assert lengths.columns == ("Turns", "5 players", "6 players")
    assert lengths.rows[0] == ("3", "1", "0") and lengths.rows[-1] == ("10", "0", "1")
    assert "at 5-player tables lasted 3 to 4 turns" in lengths.alt
    assert ("solo stronghold victory", "3") in kinds.rows and ("adjudicated victory", "2") in kinds.rows
    assert adjudications.rows == (
        ("Heat 1", "3", "0", "0%"),
        ("Heat 2", "4", "2", "50%"),
        ("Final", "1", "0", "0%"),
    )
    assert "Heat 2 2 of 4 (50%)" in adjudications.alt


def test_charts_of_a_tournament_without_games_say_so() -> None:
    empty = event_report(EventRecords(tournament=1, format="lolv", rounds=(), reports=()))
    for chart in charts(empty, faction_names=NAMES):
        assert chart.alt == (
            "No heat game filed yet." if chart.key == "faction-wins" else "No game filed yet."
        )
        ET.fromstring(chart.svg)


def test_percent_rounds_half_up() -> None:
    assert (percent(1, 3), percent(1, 8), percent(0, 0)) == ("33%", "13%", "—")
