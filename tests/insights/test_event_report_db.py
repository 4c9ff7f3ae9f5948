"""The event report over the database: the API's keys and figures, the page, the CSV, the
cache that follows filings and reopenings, and a bounded number of queries."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dune.formats import get_format
from insights import services
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.insights.conftest import report, timed

pytestmark = pytest.mark.django_db

PROMISED = {
    "tournament",
    "provisional",
    "players",
    "games",
    "turns_mean",
    "by_size",
    "results",
    "adjudicated",
    "factions",
    "final",
}


def url(tournament: Any) -> str:
    return f"/api/tournaments/{tournament.pk}/event-report/"


def test_the_api_answers_the_promised_keys_with_the_figures(api_client: Any, event: dict[str, Any]) -> None:
    tournament = event["tournament"]
    body = api_client.get(url(tournament)).json()

    assert PROMISED <= set(body)
    assert body["tournament"] == tournament.pk and body["provisional"] is True
    assert (body["players"], body["games"]) == (11, 2)
    assert body["turns_mean"] == "7.00"
    assert body["by_size"]["6"] == {
        "games": 1,
        "turns_mean": "6.00",
        "hours_mean": "3.00",
        "turns_median": "6.00",
        "hours_median": "3.00",
        "timed_games": 1,
        "turns_distribution": {"6": 1},
    }
    # The game at five has no clock record: no hours, rather than a guess.
    assert body["by_size"]["5"]["games"] == 1 and body["by_size"]["5"]["hours_mean"] is None
    assert body["results"]["solo_stronghold"] == 1 and body["results"]["adjudicated"] == 1
    assert body["results"]["bg_prediction"] == 0
    assert body["adjudicated"] == {"games": 1, "rate": "0.50"}
    assert body["factions"]["harkonnen"] == {"games": 2, "wins": 1, "rate": "0.50"}
    assert body["factions"]["fremen"] == {"games": 2, "wins": 1, "rate": "0.50"}
    assert body["factions"]["guild"] == {"games": 1, "wins": 0, "rate": "0.00"}
    assert body["final"] is None
    assert body["untimed_games"] == 1 and body["hours_mean"] == "3.00"
    assert body["awards_rule"] == get_format("wbc").awards_rule
    names = {p.pk: p.name for p in event["players"]}
    assert body["awards"] and all(a["name"] == names[a["player"]] for a in body["awards"])
    harkonnen = next(a for a in body["awards"] if a["faction"] == "harkonnen")
    assert (harkonnen["player"], harkonnen["turns"], harkonnen["players"]) == (event["players"][4].pk, 6, 6)
    # While the final is unseated, the finalists are scoring's qualifiers, with their tuples.
    assert [f["player"] for f in body["finalists"]][:2] == [event["players"][4].pk, event["players"][9].pk]
    assert body["finalists"][0]["tiebreak"][0] == 2


def test_an_unknown_tournament_is_a_404(api_client: Any, db: Any) -> None:
    assert api_client.get("/api/tournaments/999999/event-report/").status_code == 404
    assert api_client.get("/tournaments/999999/event-report/").status_code == 404


def test_the_final_once_seated_and_filed_and_the_report_once_every_round_is_closed(
    api_client: Any, event: dict[str, Any]
) -> None:
    from scoring import services as scoring
    from tournament.models import Round

    players = event["players"]
    final = seat_table(event["final"], players[:6], number=1)
    Round.objects.filter(pk=event["final"].pk).update(state=Round.State.PUBLISHED)
    body = api_client.get(url(event["tournament"])).json()
    assert body["final"]["filed"] is False and [s["seat"] for s in body["final"]["seats"]] == [
        1,
        2,
        3,
        4,
        5,
        6,
    ]
    assert body["final"]["seats"][0]["name"] == players[0].name

    scoring.file_report(final, report(final, {4: "solo_stronghold"}, turns=11), user=event["judge"])
    timed(final, hours=7.5)
    scoring.file_report(event["later"], report(event["later"], {1: "solo_stronghold"}), user=event["judge"])
    Round.objects.filter(tournament=event["tournament"]).update(state=Round.State.FINISHED)
    body = api_client.get(url(event["tournament"])).json()
    assert body["provisional"] is False
    assert body["final"]["results"] == ["solo_stronghold"] and body["final"]["winners"] == [players[3].pk]
    assert (body["final"]["turns"], body["final"]["hours"], body["final"]["ended_by"]) == (
        11,
        "7.50",
        "victory",
    )
    assert body["factions_final"]["fremen"] == {"games": 1, "wins": 1, "rate": "1.00"}
    assert body["games"] == 4 and body["final_games"] == 1


def test_filing_and_reopening_a_report_refresh_the_cached_report(
    api_client: Any, event: dict[str, Any]
) -> None:
    from scoring import services as scoring
    from scoring.models import GameReport

    tournament = event["tournament"]
    assert api_client.get(url(tournament)).json()["games"] == 2
    with CaptureQueriesContext(connection) as cached:
        services.report_for(tournament)
    assert len(cached) == 1  # the fingerprint only

    scoring.file_report(
        event["later"], report(event["later"], {2: "bg_prediction"}, turns=3), user=event["judge"]
    )
    body = api_client.get(url(tournament)).json()
    assert body["games"] == 3 and body["results"]["bg_prediction"] == 1

    filed = GameReport.objects.get(table=event["later"])
    scoring.reopen_report(filed, user=event["judge"], reason="wrong winner")
    body = api_client.get(url(tournament)).json()
    assert body["games"] == 2 and body["results"]["bg_prediction"] == 0


def test_loading_takes_the_same_few_queries_whatever_the_size(head_judge: Any, clean_cache: None) -> None:
    from scoring import services as scoring

    def build(tables: int) -> Any:
        tournament = make_tournament(format="wbc", head_judge=head_judge, name=f"Open of {tables}")
        players = make_players(tournament, 6 * tables, prefix=f"T{tables}")
        heat = make_round(tournament)
        for n in range(tables):
            table = seat_table(heat, players[6 * n : 6 * n + 6], number=n + 1)
            scoring.file_report(table, report(table, {1 + n % 6: "solo_stronghold"}), user=head_judge)
            timed(table, hours=2 + n % 3, pause_minutes=10)
        return tournament

    counts = []
    for tournament in (build(1), build(6)):
        # Scoring's own cached answers, shared with the standings and awards pages.
        scoring.finalists_for(tournament)
        scoring.awards_for(tournament)
        with CaptureQueriesContext(connection) as queries:
            services.compute(tournament)
        counts.append(len(queries))
    # Five of its own, and for each of scoring's two cached answers the fingerprint it is keyed by.
    assert counts[0] == counts[1] == 7, counts


def test_the_page_shows_figures_charts_and_downloads(client: Any, event: dict[str, Any]) -> None:
    tournament = event["tournament"]
    html = client.get(f"/tournaments/{tournament.pk}/event-report/").content.decode()
    assert "Provisional." in html
    assert 'data-figure="players">11<' in html and 'data-figure="games">2<' in html
    for key in ("faction-wins", "game-length", "result-kinds", "adjudications"):
        assert f'aria-labelledby="chart-{key}-title chart-{key}-alt"' in html
        assert f'id="chart-{key}-alt"' in html
    assert "no clock record" in html
    assert "Best-faction awards" in html
    # The finalists' tiebreaks are labelled values, never a dotted tuple.
    finalists = html.split('id="h-finalists"')[1].split("</section>")[0]
    assert "<dt>best game QP</dt>" in finalists and "QP.strongholds" not in finalists
    assert f'href="/api/tournaments/{tournament.pk}/event-report/"' in html
    css = client.get(f"/tournaments/{tournament.pk}/event-report/charts.css")
    assert css["Content-Type"].startswith("text/css") and b"#pygal-faction-wins" in css.content
    assert f'href="/tournaments/{tournament.pk}/event-report/charts.css"' in html
    detail = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/event-report/"' in detail


def test_a_lolv_report_has_no_awards_section(client: Any, head_judge: Any, clean_cache: None) -> None:
    tournament = make_tournament(format="lolv", head_judge=head_judge)
    html = client.get(f"/tournaments/{tournament.pk}/event-report/").content.decode()
    assert "Best-faction awards" not in html and "No game filed yet." in html


def test_the_csv_lists_the_figures_by_name(client: Any, event: dict[str, Any]) -> None:
    response = client.get(f"/tournaments/{event['tournament'].pk}/event-report.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["section", "item", "value"]
    assert ["headline", "players", "11"] in rows
    assert ["5-player tables", "hours mean", ""] in rows
    assert ["adjudicated", "rate", "0.50"] in rows
    assert ["factions in the heats", "Harkonnen wins", "1"] in rows
    assert any(r[0] == "best-faction awards" and r[1] == "Harkonnen" for r in rows)
    finalists = [r[2] for r in rows if r[0] == "finalists"]
    # Tiebreaks in words, each value after its label; never a dotted tuple.
    assert finalists and all(not re.search(r"\d\.\d+\.\d", line) for line in finalists), finalists


def test_a_clock_finished_and_a_round_closed_refresh_the_cached_report(
    api_client: Any, event: dict[str, Any]
) -> None:
    from clocks import services as clocks
    from tournament.services import finish_round

    tournament, five = event["tournament"], event["five"]
    assert api_client.get(url(tournament)).json()["by_size"]["5"]["timed_games"] == 0
    clocks.clock_for(five)
    clocks.start(five, user=event["judge"])
    clocks.finish(five, user=event["judge"], reason="game over")
    body = api_client.get(url(tournament)).json()
    assert body["by_size"]["5"]["timed_games"] == 1 and body["by_size"]["5"]["hours_mean"] is not None

    finish_round(event["heat1"], user=event["judge"])
    body = api_client.get(url(tournament)).json()
    assert body["rounds"]["by_round"][0]["closed"] is True
