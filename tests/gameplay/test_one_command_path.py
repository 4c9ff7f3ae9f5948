"""One command, two doors: the table page's form and `POST /api/tables/{id}/game/events/` record
an event through the same service, refuse it the same way and share its idempotency keys."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
from django.test import Client

from dune.refusals import Refusal
from foundation.models import IdempotencyRecord
from gameplay import commands
from gameplay.models import GameEvent

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def judge_web(table_judge: Any) -> Client:
    client = Client()
    client.force_login(table_judge)
    return client


def page_url(table: Any) -> str:
    return f"/tables/{table.pk}/"


def api_url(table: Any) -> str:
    return f"/api/tables/{table.pk}/game/events/"


def logged(table: Any) -> list[tuple[int, str]]:
    return list(GameEvent.objects.filter(game__table=table).order_by("seq").values_list("seq", "type"))


def page_refusal(answer: Any) -> tuple[str | None, str]:
    """(rule, field) of the refusal the page shows: the rule it cites and the field its
    "go to it" link points at (blank when the refusal is about the whole form)."""
    text = html_lib.unescape(answer.content.decode())
    rule = re.search(r'<span class="rule">rule ([^<]+)</span>', text)
    link = re.search(r'href="#err-([a-z_]+)-([a-z_]+)"', text)
    field = link.group(2) if link else ""
    return (rule.group(1) if rule else None), ("" if field == "form" else field)


#: The same refused event, as the page's form and as the API's event.
BAD = [
    pytest.param(  # Ixians do not play at a classic six-faction WBC table (rule AH III.E)
        {"action": "set_spice", "faction": "ixians", "amount": "3"},
        {"type": "spice_set", "faction": "ixians", "amount": 3},
        id="faction-not-in-game",
    ),
    pytest.param(  # the storm moves only in the storm phase
        {"action": "move_storm", "sectors": "3"},
        {"type": "storm_moved", "sectors": 3},
        id="wrong-phase",
    ),
]


@pytest.mark.parametrize("form, event", BAD)
def test_the_same_bad_event_is_refused_with_the_same_rule_and_field_through_both_doors(
    judge_web: Client, judge_api: Any, table: Any, form: dict[str, str], event: dict[str, Any]
) -> None:
    judge_api.get(f"/api/tables/{table.pk}/game/")
    by_api = judge_api.post(api_url(table), {"event": event, "expected_seq": 1}, format="json")
    by_page = judge_web.post(page_url(table), {**form, "expected_seq": "1"}, **HTMX)
    assert by_api.status_code == by_page.status_code == 400
    api_body = by_api.json()
    assert api_body["rule"]
    assert page_refusal(by_page) == (api_body["rule"], api_body.get("field") or "")
    assert "Not recorded." in by_page.content.decode()
    assert [t for _, t in logged(table)] in ([], ["game_setup"])  # nothing recorded by either door


def test_a_refused_form_keeps_what_was_typed(judge_web: Client, table: Any) -> None:
    answer = judge_web.post(page_url(table), {"action": "set_spice", "faction": "ixians", "amount": "17",
                                              "expected_seq": "1"}, **HTMX)
    assert answer.status_code == 400
    assert 'value="17"' in answer.content.decode()


def test_the_service_raises_one_refusal_shape(table: Any, table_judge: Any) -> None:
    """The service itself: a refusal with its rule (the engine) or its field (the command)."""
    with pytest.raises(Refusal) as engine:
        commands.record_event(table, {"type": "storm_moved", "sectors": 3}, actor=table_judge, key=None,
                              expected_seq=1)
    assert engine.value.rule and engine.value.status == 400
    with pytest.raises(commands.Refused) as shape:
        commands.record_event(table, {"type": "storm_placed", "sector": 5}, actor=table_judge, key=None,
                              expected_seq="one")
    assert shape.value.field == "expected_seq" and shape.value.status == 400


def test_a_retry_through_either_door_gets_the_stored_answer(judge_web: Client, judge_api: Any, table: Any) -> None:
    """A phone whose API answer was lost sends the same action as a form (or the other way
    round) under the same key: the first answer comes back and nothing is recorded twice."""
    judge_api.get(f"/api/tables/{table.pk}/game/")
    first = judge_api.post(api_url(table), {"event": {"type": "storm_placed", "sector": 5}, "expected_seq": 1},
                           format="json", HTTP_IDEMPOTENCY_KEY="one-key")
    assert first.status_code == 201
    form = {"action": "place_storm", "sector": "5", "expected_seq": "1"}
    by_page = judge_web.post(page_url(table), form, HTTP_IDEMPOTENCY_KEY="one-key", **HTMX)
    assert by_page.status_code == 200
    assert "Already recorded: storm placed (record #2)." in by_page.content.decode()
    again = judge_api.post(api_url(table), {"event": {"type": "storm_placed", "sector": 5}, "expected_seq": 1},
                           format="json", HTTP_IDEMPOTENCY_KEY="one-key")
    assert again.status_code == 201 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert logged(table) == [(1, "game_setup"), (2, "storm_placed")]
    assert IdempotencyRecord.objects.filter(key="one-key").count() == 1

    # And the other way round: the page first, then the API.
    by_page = judge_web.post(page_url(table), {"action": "set_spice", "faction": "atreides", "amount": "5",
                                               "expected_seq": "2"}, HTTP_IDEMPOTENCY_KEY="two-key", **HTMX)
    assert by_page.status_code == 200 and "Recorded: spice set (record #3)." in by_page.content.decode()
    again = judge_api.post(api_url(table), {"event": {"type": "spice_set", "faction": "atreides", "amount": 5},
                                            "expected_seq": 2}, format="json", HTTP_IDEMPOTENCY_KEY="two-key")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json()["seq"] == 3 and again.json()["event"]["type"] == "spice_set"
    assert logged(table) == [(1, "game_setup"), (2, "storm_placed"), (3, "spice_set")]


def test_another_command_under_the_same_key_is_422_through_either_door(
    judge_web: Client, judge_api: Any, table: Any
) -> None:
    judge_api.get(f"/api/tables/{table.pk}/game/")
    assert judge_api.post(api_url(table), {"event": {"type": "storm_placed", "sector": 5}, "expected_seq": 1},
                          format="json", HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    by_api = judge_api.post(api_url(table), {"event": {"type": "storm_placed", "sector": 6}, "expected_seq": 1},
                            format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert by_api.status_code == 422 and by_api.json()["field"] == "Idempotency-Key"
    by_page = judge_web.post(page_url(table), {"action": "place_storm", "sector": "6", "expected_seq": "1"},
                             HTTP_IDEMPOTENCY_KEY="k", **HTMX)
    assert by_page.status_code == 422
    assert "Idempotency-Key" in by_page.content.decode() and 'role="alert"' in by_page.content.decode()
    assert logged(table) == [(1, "game_setup"), (2, "storm_placed")]


def test_a_report_key_is_one_for_both_doors(judge_web: Client, judge_api: Any, table: Any) -> None:
    """Filing a report is one command too, under one key scope: the page's report (drafted
    from the position, so not the API's body) sent under the key the API used is refused as
    another command under that key (422 naming it), and nothing is filed twice."""
    from scoring.models import GameReport, ReportRevision
    from tests.scoring.db.conftest import report_for

    data = report_for(table, {0: "solo_stronghold"})
    first = judge_api.post(f"/api/tables/{table.pk}/report/", data, format="json", HTTP_IDEMPOTENCY_KEY="report-key")
    assert first.status_code == 201, first.content
    again = judge_api.post(f"/api/tables/{table.pk}/report/", data, format="json", HTTP_IDEMPOTENCY_KEY="report-key")
    assert again.status_code == 201 and again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    form: dict[str, Any] = {"turns": str(data["turns"]), "ended_by": data["ended_by"], "confirm": "yes",
                            "idempotency_key": "report-key"}
    for row in data["results"]:
        form[f"p{row['player']}_result"] = row["result"]
    by_page = judge_web.post(f"/tables/{table.pk}/report/", form)
    assert by_page.status_code == 422 and "Idempotency-Key" in by_page.content.decode()
    assert GameReport.objects.get(table=table).version == 1
    assert ReportRevision.objects.filter(report__table=table).count() == 1
