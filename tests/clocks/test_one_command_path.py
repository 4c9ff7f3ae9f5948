"""One command, two doors: the clock pages' forms and the clocks API change a clock through
`clocks.commands`, read their fields the same way, refuse the same way and share their
idempotency keys (a retried "extend" adds its minutes once)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from clocks import commands, services
from clocks.models import ClockExtension, ClockHistory, TableClock
from foundation.commands import yes
from foundation.models import IdempotencyRecord
from tests.clocks.conftest import seated
from web.clocks import api

pytestmark = pytest.mark.django_db


@pytest.fixture
def head_web(head_judge: Any) -> Client:
    client = Client()
    client.force_login(head_judge)
    return client


def page(table: Any, action: str) -> str:
    return f"/tables/{table.pk}/clock/{action}/"


def endpoint(table: Any, action: str) -> str:
    return f"/api/tables/{table.pk}/clock/{action}/"


def extension(table: Any) -> timedelta:
    return TableClock.objects.get(table=table).extension


def test_a_retried_extend_adds_its_minutes_once_through_the_api(judge_client: Any, wbc_table: Any) -> None:
    judge_client.post(endpoint(wbc_table, "start"))
    key = str(uuid.uuid4())
    first = judge_client.post(
        endpoint(wbc_table, "extend"), {"minutes": 15, "reason": "dispute"}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    again = judge_client.post(
        endpoint(wbc_table, "extend"), {"minutes": 15, "reason": "dispute"}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert extension(wbc_table) == timedelta(minutes=15)
    assert ClockExtension.objects.filter(clock__table=wbc_table).count() == 1
    assert ClockHistory.objects.filter(clock__table=wbc_table, kind="extended").count() == 1


def test_a_retried_extend_adds_its_minutes_once_through_the_page(head_web: Client, wbc_table: Any) -> None:
    services.start(wbc_table, user=None)
    form = {"minutes": "10", "reason": "ruling", "idempotency_key": "tap-1"}
    assert head_web.post(page(wbc_table, "extend"), form).status_code == 302
    assert head_web.post(page(wbc_table, "extend"), form).status_code == 302
    assert extension(wbc_table) == timedelta(minutes=10)
    # A new key is a new action.
    head_web.post(page(wbc_table, "extend"), {**form, "idempotency_key": "tap-2"})
    assert extension(wbc_table) == timedelta(minutes=20)


def test_the_page_and_the_api_share_one_key(head_web: Client, judge_client: Any, wbc_table: Any) -> None:
    """The same extension sent by the page's form, then by a script with the form's key:
    one effect, and the script gets the page's answer back."""
    services.start(wbc_table, user=None)
    head_web.post(page(wbc_table, "extend"), {"minutes": "5", "reason": "late", "idempotency_key": "shared"})
    again = judge_client.post(
        endpoint(wbc_table, "extend"), {"minutes": 5, "reason": "late"}, format="json", HTTP_IDEMPOTENCY_KEY="shared"
    )
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert extension(wbc_table) == timedelta(minutes=5)
    assert IdempotencyRecord.objects.get(key="shared").scope == f"table:{wbc_table.pk}:clock"


def test_another_body_under_the_same_key_is_a_422_and_changes_nothing(judge_client: Any, wbc_table: Any) -> None:
    judge_client.post(endpoint(wbc_table, "start"))
    judge_client.post(
        endpoint(wbc_table, "extend"), {"minutes": 5, "reason": "late"}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    other = judge_client.post(
        endpoint(wbc_table, "extend"), {"minutes": 50, "reason": "late"}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert other.status_code == 422 and other.json()["field"] == "Idempotency-Key"
    assert extension(wbc_table) == timedelta(minutes=5)


def test_the_page_shows_a_reused_key_next_to_the_form(head_web: Client, wbc_table: Any) -> None:
    services.start(wbc_table, user=None)
    head_web.post(page(wbc_table, "extend"), {"minutes": "5", "reason": "late", "idempotency_key": "k"})
    answer = head_web.post(page(wbc_table, "extend"), {"minutes": "7", "reason": "late", "idempotency_key": "k"})
    assert answer.status_code == 400 and "already used for a different request" in answer.content.decode()
    assert extension(wbc_table) == timedelta(minutes=5)


def test_a_retried_round_pause_answers_the_first_answer(judge_client: Any, wbc_round: Any, head_judge: Any) -> None:
    services.start_round(wbc_round, user=head_judge)
    url = f"/api/rounds/{wbc_round.pk}/clocks/pause/"
    first = judge_client.post(url, {"reason": "lunch"}, format="json", HTTP_IDEMPOTENCY_KEY="lunch")
    again = judge_client.post(url, {"reason": "lunch"}, format="json", HTTP_IDEMPOTENCY_KEY="lunch")
    assert first.status_code == again.status_code == 200
    assert again.json()["tables_changed"] == [1, 2, 3]  # not a 409 "already paused"
    assert ClockHistory.objects.filter(clock__table__round=wbc_round, kind="paused").count() == 3


@pytest.mark.parametrize(
    ("form", "json_value", "agree"),
    [
        ("on", True, True),
        ("true", "true", True),
        ("yes", "YES", True),
        ("1", "1", True),
        ("", False, False),
        ("off", "no", False),
        (None, None, False),
    ],
)
def test_all_players_agree_reads_the_same_through_both_doors(form: Any, json_value: Any, agree: bool) -> None:
    from django.http import QueryDict

    page_data = QueryDict(mutable=True)
    page_data["reason"] = "all agreed"
    if form is not None:
        page_data["all_players_agree"] = form
    api_data = {"reason": "all agreed", "all_players_agree": json_value}
    by_page = commands.TABLE_ACTIONS["waive"].parse(page_data)
    by_api = commands.TABLE_ACTIONS["waive"].parse(api_data)
    assert by_page == by_api == commands.Waiver(reason="all agreed", all_players_agree=agree)
    assert yes(json_value) is agree


def test_a_waiver_with_a_checked_box_through_the_api_as_on_the_page(judge_client: Any, head_web: Client) -> None:
    by_page = seated(format="wbc", kind="final").tables.get()
    by_api = seated(format="wbc", kind="final").tables.get()
    head_web.post(page(by_page, "waive"), {"reason": "all agreed", "all_players_agree": "on"})
    judge_client.post(endpoint(by_api, "waive"), {"reason": "all agreed", "all_players_agree": "on"}, format="json")
    assert TableClock.objects.get(table=by_page).waived and TableClock.objects.get(table=by_api).waived


def test_both_doors_call_the_same_command(monkeypatch: pytest.MonkeyPatch, head_web: Client, judge_client: Any,
                                           wbc_table: Any) -> None:
    """Every table action of the page and of the API goes through `change_table_clock`."""
    seen: list[tuple[str, str]] = []
    real = commands.change_table_clock

    def spy(table: Any, action: str, data: Any, **kwargs: Any) -> Any:
        seen.append((action, type(data).__name__))
        return real(table, action, data, **kwargs)

    monkeypatch.setattr(commands, "change_table_clock", spy)
    head_web.post(page(wbc_table, "start"))
    judge_client.post(endpoint(wbc_table, "pause"), {"reason": "break"}, format="json")
    head_web.post(page(wbc_table, "resume"))
    judge_client.post(f"/api/tables/{wbc_table.pk}/clock/call/", {"action": "bid", "faction": "guild"}, format="json")
    assert [action for action, _ in seen] == ["start", "pause", "resume", "call"]


def test_one_list_of_actions_for_both_doors() -> None:
    """The API's action path takes the table actions but call and stop (they have paths of
    their own); the page takes them all; both lists come from the commands."""
    assert set(api.TABLE_ACTIONS) | {"call", "stop"} == set(commands.TABLE_ACTIONS)
    assert list(commands.ROUND_ACTIONS) == ["start", "pause", "resume"]


def test_who_may_is_one_answer(client: Any, make_user: Any, wbc_table: Any, api_client: Any) -> None:
    """A table judge may call and finish, not extend: the page and the API refuse alike."""
    judge = make_user("tj")
    wbc_table.judge = judge
    wbc_table.save()
    client.force_login(judge)
    api_client.force_authenticate(judge)
    services.start(wbc_table, user=None)
    assert client.post(page(wbc_table, "extend"), {"minutes": "5", "reason": "x"}).status_code == 403
    refused = api_client.post(endpoint(wbc_table, "extend"), {"minutes": 5, "reason": "x"}, format="json")
    assert refused.status_code == 403 and "head judge" in refused.json()["detail"]
    assert extension(wbc_table) == timedelta(0)
    called = api_client.post(f"/api/tables/{wbc_table.pk}/clock/call/", {"action": "bid", "faction": "guild"},
                             format="json")
    assert called.status_code == 201
