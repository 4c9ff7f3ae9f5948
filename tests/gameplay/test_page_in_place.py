"""The table page in place: htmx fragments, exactly-once form posts, refusals in view."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from gameplay.models import GameEvent
from tests.gameplay.conftest import post_event
from tests.gameplay.recorded_game import recorded_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def judge_web(table_judge: Any) -> Client:
    client = Client()
    client.force_login(table_judge)
    return client


def url(table: Any) -> str:
    return f"/tables/{table.pk}/"


def test_an_htmx_post_answers_with_the_live_part_only(judge_web: Client, table: Any) -> None:
    judge_web.get(url(table))
    answer = judge_web.post(url(table), {"action": "place_storm", "expected_seq": "1", "sector": "5"}, **HTMX)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert html.lstrip().startswith("{% load") is False
    assert "<html" not in html and html.lstrip().startswith('<div id="table-live"')
    assert 'data-seq="2"' in html and "Recorded: storm placed (record #2)." in html
    assert GameEvent.objects.filter(game__table=table).count() == 2


def test_the_page_includes_the_same_live_part(judge_web: Client, table: Any) -> None:
    page = judge_web.get(url(table)).content.decode()
    fragment = judge_web.get(url(table), **HTMX).content.decode()
    strip = re.compile(r'name="(csrfmiddlewaretoken|idempotency_key)" value="[^"]*"')
    page, fragment = strip.sub("", page), strip.sub("", fragment).strip()
    start = page.index('<div id="table-live"')
    assert page[start:start + len(fragment)] == fragment
    assert page.count('id="table-live"') == 1
    assert 'id="outbox" data-queued="0"' in page


def test_every_event_form_names_its_event_type(judge_web: Client, table: Any) -> None:
    page = judge_web.get(url(table)).content.decode()
    html = page[page.index('<div id="table-live"'):page.index('id="net-banner"')]
    forms = re.findall(r"<form method=\"post\"[^>]*>", html)
    assert forms
    for form in forms:
        assert re.search(r'data-event-type="[a-z_]+"', form), form


def test_a_resent_form_records_once(judge_web: Client, table: Any) -> None:
    """A reload that re-posts the form (or a retry) carries the same key: one event."""
    judge_web.get(url(table))
    form = {"action": "place_storm", "expected_seq": "1", "sector": "5", "idempotency_key": "k-1"}
    assert judge_web.post(url(table), form).status_code == 302
    again = judge_web.post(url(table), form, follow=True)
    assert "Already recorded: storm placed (record #2)." in again.content.decode()
    assert GameEvent.objects.filter(game__table=table).count() == 2


def test_the_outbox_header_key_wins_and_a_replay_answers_in_place(judge_web: Client, table: Any) -> None:
    judge_web.get(url(table))
    form = {"action": "place_storm", "expected_seq": "1", "sector": "5", "idempotency_key": "page-key"}
    first = judge_web.post(url(table), form, HTTP_IDEMPOTENCY_KEY="phone-key", **HTMX)
    second = judge_web.post(url(table), form, HTTP_IDEMPOTENCY_KEY="phone-key", **HTMX)
    assert first.status_code == second.status_code == 200
    assert "Already recorded" in second.content.decode()
    other = judge_web.post(url(table), {**form, "sector": "6"}, HTTP_IDEMPOTENCY_KEY="phone-key", **HTMX)
    assert other.status_code == 422
    assert "Idempotency-Key" in other.content.decode() and 'role="alert"' in other.content.decode()
    assert GameEvent.objects.filter(game__table=table).count() == 2


def test_a_refusal_is_pinned_and_keeps_the_alliance_checkboxes(
    judge_web: Client, judge_api: Any, table: Any
) -> None:
    seq = 1
    for event in recorded_game():
        if event["type"] == "alliance_formed":
            break
        seq = post_event(judge_api, table, event, seq).json()["seq"]
    # Four of six factions in one alliance is more than the rules allow (WBC house rules:
    # three at most, at a table of six).
    chosen = ["atreides", "fremen", "emperor", "guild"]
    answer = judge_web.post(url(table), {"action": "form_alliance", "expected_seq": str(seq),
                                         "factions": chosen}, **HTMX)
    assert answer.status_code == 400
    html = answer.content.decode()
    pinned = html[html.index('id="pinned"'):html.index("</div>", html.index('id="refusal"'))]
    assert 'role="alert"' in pinned and "Not recorded." in pinned
    for faction in chosen:
        assert f'name="factions" value="{faction}" checked' in html
    assert 'name="factions" value="harkonnen" checked' not in html


def test_a_successful_post_redirects_without_an_anchor(judge_web: Client, table: Any) -> None:
    judge_web.get(url(table))
    answer = judge_web.post(url(table), {"action": "place_storm", "expected_seq": "1", "sector": "5"})
    assert answer.status_code == 302 and answer["Location"] == url(table)


def test_the_service_worker_may_control_the_table_pages(client: Client) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/javascript")
    assert answer["Service-Worker-Allowed"] == "/tables/"
    assert "/static/vendor/htmx.min.js" in answer.content.decode()


def test_the_page_keeps_its_offline_copy_in_the_service_workers_cache(judge_web: Client, table: Any) -> None:
    """The worker answers an offline reload from its own cache and drops every other cache when
    it takes over: the page's labelled copy is put in that same cache, whatever it is named."""
    worker = judge_web.get("/sw.js").content.decode()
    (cache,) = re.findall(r'^var CACHE = "([^"]+)";$', worker, re.M)
    page = judge_web.get(url(table)).content.decode()
    assert f'data-cache="{cache}"' in page


def _filled_report(table: Any, judge_api: Any) -> dict[str, Any]:
    from gameplay import services

    seq = 1
    for event in recorded_game():
        seq = post_event(judge_api, table, event, seq).json()["seq"]
    draft = services.prefill_report(table)
    form: dict[str, Any] = {"turns": str(draft["turns"]), "ended_by": draft["ended_by"]}
    for row in draft["results"]:
        form[f"p{row['player']}_result"] = row["result"]
    return form


def test_filing_a_report_asks_for_an_explicit_confirmation(judge_web: Client, judge_api: Any, table: Any) -> None:
    from scoring.models import GameReport

    form = _filled_report(table, judge_api)
    answer = judge_web.post(f"/tables/{table.pk}/report/", form)
    assert answer.status_code == 400
    html = answer.content.decode()
    assert 'id="err-confirm"' in html and "tick the confirmation" in html
    assert not GameReport.objects.filter(table=table).exists()


def test_a_resent_report_form_files_once(judge_web: Client, judge_api: Any, table: Any) -> None:
    from scoring.models import GameReport, ReportRevision

    form = {**_filled_report(table, judge_api), "confirm": "yes", "idempotency_key": "report-1"}
    assert judge_web.post(f"/tables/{table.pk}/report/", form).status_code == 302
    again = judge_web.post(f"/tables/{table.pk}/report/", form, follow=True)
    assert re.search(r"Already filed at \d\d:\d\d by judge1\.", again.content.decode())
    assert GameReport.objects.get(table=table).version == 1
    assert ReportRevision.objects.filter(report__table=table).count() == 1


def test_after_the_game_ends_the_report_comes_first_and_the_clock_says_so(
    judge_web: Client, judge_api: Any, table: Any
) -> None:
    seq = 1
    for event in recorded_game():
        seq = post_event(judge_api, table, event, seq).json()["seq"]
    html = judge_web.get(url(table)).content.decode()
    live = html[html.index('<div id="table-live"'):]
    assert 'id="next"' in live and live.index('id="next"') < live.index('class="game-head"')
    assert "File the game report" in live
    assert "The game is over" in live and 'class="clock-slot"' not in live


def test_pages_are_compressed_and_api_answers_are_not(judge_web: Client, table: Any) -> None:
    page = judge_web.get(url(table), HTTP_ACCEPT_ENCODING="gzip")
    assert page["Content-Encoding"] == "gzip"
    api = judge_web.get(f"/api/tables/{table.pk}/game/", HTTP_ACCEPT_ENCODING="gzip")
    assert api.status_code == 200 and not api.has_header("Content-Encoding")
