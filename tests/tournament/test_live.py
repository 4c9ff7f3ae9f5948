"""Live regions: an unchanged fragment costs a 304, a change answers the new HTML; the room
screen shows the seating, clocks and standings."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone

from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for
from tournament.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clean_cache(db: Any) -> Iterator[None]:
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def poll(client: Any, url: str, target: str, etag: str = "") -> Any:
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": target}
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(url, **headers)


@pytest.mark.parametrize(
    ("path", "target"),
    [
        ("/tournaments/{t}/standings/", "standings-live"),
        ("/tournaments/{t}/screen/", "screen-live"),
        ("/rounds/{r}/", "round-live"),
    ],
)
def test_unchanged_fragment_is_a_304_and_a_filed_report_changes_it(
    client: Any, judge_client: Any, head_judge: Any, path: str, target: str
) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 6)
    heat = make_round(tournament)
    table = seat_table(heat, players)
    url = path.format(t=tournament.pk, r=heat.pk)
    first = poll(client, url, target)
    assert first.status_code == 200 and first["ETag"]
    assert f'data-etag="{first["ETag"].replace(chr(34), "&quot;")}"' in first.content.decode()
    again = poll(client, url, target, first["ETag"])
    assert again.status_code == 304 and again.content == b""
    response = judge_client.post(
        f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json"
    )
    assert response.status_code == 201
    changed = poll(client, url, target, first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def test_room_screen_shows_who_sits_where_clocks_and_standings(
    client: Any, judge_client: Any, head_judge: Any
) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 6)
    heat = make_round(tournament)
    table = seat_table(heat, players, number=4)
    judge_client.post(
        f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json"
    )
    html = client.get(f"/tournaments/{tournament.pk}/screen/").content.decode()
    assert "Heat 1: who sits where" in html and "Table 4" in html and players[0].name in html
    assert 'data-panel="clocks"' in html and 'data-panel="standings"' in html
    assert (
        "2 points" in html and "provisional" not in html.split('data-panel="standings"')[1].split("</h2>")[0]
    )


def test_dashboard_marks_the_running_round_and_a_fully_reported_round_as_finished(
    client: Any, judge_client: Any, head_judge: Any
) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 12)
    heat1, heat2 = make_round(tournament, number=1), make_round(tournament, number=2)
    table1 = seat_table(heat1, players[:6])
    seat_table(heat2, players[6:])
    judge_client.post(
        f"/api/tables/{table1.pk}/report/", report_for(table1, {0: "solo_stronghold"}), format="json"
    )
    html = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-round-state="finished"' in html
    # Published but no clock started and no game begun: not running yet (it may start tomorrow).
    assert 'data-round-state="published"' in html and 'data-round-state="running"' not in html
    Table.objects.filter(round=heat2).update(clock_started_at=timezone.now())
    html = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Running</span> <span class=\"round-state-detail\">0 of 1 report filed" in html and html.count('data-round-state="running"') == 1


def test_report_sheet_prints_the_assigned_judge(client: Any, head_judge: Any, make_user: Any) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    carol = make_user("carol", first_name="Carol", last_name="Reyes")
    seat_table(make_round(tournament), make_players(tournament, 6), judge=carol)
    client.force_login(head_judge)
    sheet = client.get(f"/rounds/{tournament.rounds.get().pk}/print/reports/").content.decode()
    assert "Judge: <strong>Carol Reyes</strong>" in sheet


@pytest.mark.parametrize(
    ("path", "target", "queries"),
    [("/rounds/{r}/", "round-live", 1), ("/tournaments/{t}/standings/", "standings-live", 1)],
)
def test_an_unchanged_poll_reads_its_version_and_renders_nothing(
    client: Any, head_judge: Any, path: str, target: str, queries: int, django_assert_num_queries: Any
) -> None:
    """The most frequent request of an event day: the version in one query, then 304 without a
    template."""
    from django.test.signals import template_rendered

    tournament = make_tournament(format="wbc", head_judge=head_judge)
    heat = make_round(tournament)
    seat_table(heat, make_players(tournament, 6))
    url = path.format(t=tournament.pk, r=heat.pk)
    etag = poll(client, url, target)["ETag"]
    rendered: list[Any] = []

    def record(sender: Any, template: Any, **kwargs: Any) -> None:
        rendered.append(template)

    template_rendered.connect(record, weak=False)
    try:
        with django_assert_num_queries(queries):
            answer = poll(client, url, target, etag)
    finally:
        template_rendered.disconnect(record)
    assert answer.status_code == 304 and not rendered


def test_a_first_visit_includes_the_live_part_a_poll_rendered(client: Any, head_judge: Any) -> None:
    """The round page's first visit shows the same live part (one render per version)."""
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    heat = make_round(tournament)
    seat_table(heat, make_players(tournament, 6))
    polled = poll(client, f"/rounds/{heat.pk}/", "round-live").content.decode()
    page = client.get(f"/rounds/{heat.pk}/").content.decode()
    assert polled.strip() in page
