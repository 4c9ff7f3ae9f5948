"""The round clocks dashboard, the table clock page and the template tags."""

from __future__ import annotations

from typing import Any

import pytest
from django.template import Context, Template

from clocks import services
from clocks.models import TableClock
from tests.clocks.conftest import started_clock_due_in

pytestmark = pytest.mark.django_db


def test_dashboard_reads_without_javascript(client: Any, wbc_round: Any, head_judge: Any) -> None:
    services.start_round(wbc_round, user=head_judge)
    html = client.get(f"/rounds/{wbc_round.pk}/clocks/").content.decode()
    assert html.count("data-clock ") == 3
    assert "4:30:00" in html  # time left to the last 30 minutes, rendered by the server
    assert "state-running" in html and "js/clock.js" in html
    assert "Pause the round" not in html  # forms are for head judges


def test_dashboard_colours_each_state(
    client: Any, wbc_round: Any, head_judge: Any, record_calls: Any
) -> None:
    from clocks import transitions

    tables = list(wbc_round.tables.order_by("number"))
    started_clock_due_in(tables[0], seconds=-1, stage="last_30")
    started_clock_due_in(tables[1], seconds=-1, stage="time_up")
    transitions.advance()
    client.force_login(head_judge)
    html = client.get(f"/rounds/{wbc_round.pk}/clocks/").content.decode()
    assert 'id="table-1" class="state-last_30' in html
    assert 'id="table-2" class="state-time_up' in html
    assert 'id="table-3" class="state-pending' in html
    assert "Pause the round" in html


def test_dashboard_query_count_does_not_grow_with_tables(client: Any, head_judge: Any) -> None:
    """No query per table: 2 tables and 12 tables cost the same number of queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.clocks.conftest import seated

    counts = []
    for size in (2, 12):
        round_ = seated(format="wbc", size=5, tables=size)
        services.start_round(round_, user=head_judge)
        services.pause(round_.tables.get(number=1), user=head_judge)
        client.force_login(head_judge)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/rounds/{round_.pk}/clocks/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_extend_form_error_is_shown_next_to_the_field(client: Any, wbc_table: Any, head_judge: Any) -> None:
    services.start(wbc_table, user=head_judge)
    client.force_login(head_judge)
    response = client.post(
        f"/tables/{wbc_table.pk}/clock/extend/", {"minutes": "-3", "reason": "x", "next": "round"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert f'id="minutes-error-{wbc_table.pk}"' in html and "at least 1 minute" in html
    response = client.post(f"/tables/{wbc_table.pk}/clock/extend/", {"minutes": "5", "reason": ""})
    assert response.status_code == 400 and 'id="reason-error"' in response.content.decode()


def test_forms_pause_extend_and_resume(client: Any, wbc_table: Any, head_judge: Any) -> None:
    services.start(wbc_table, user=head_judge)
    client.force_login(head_judge)
    base = f"/tables/{wbc_table.pk}/clock/"
    assert client.post(base + "pause/", {"reason": "break", "next": "round"}).status_code == 302
    assert TableClock.objects.get(table=wbc_table).paused_at is not None
    assert client.post(base + "extend/", {"minutes": "10", "reason": "late food"}).status_code == 302
    assert client.post(base + "resume/").status_code == 302
    clock = TableClock.objects.get(table=wbc_table)
    assert clock.paused_at is None and clock.extensions.get().minutes == 10
    page = client.get(base).content.decode()
    assert "late food" in page and "Extended" in page


def test_forms_refuse_other_users(client: Any, wbc_table: Any, make_user: Any) -> None:
    client.force_login(make_user("visitor"))
    assert client.post(f"/tables/{wbc_table.pk}/clock/start/").status_code == 403
    assert client.post(f"/rounds/{wbc_table.round_id}/clocks/start/").status_code == 403


def test_table_clock_tag_renders_a_countdown(wbc_table: Any, head_judge: Any) -> None:
    template = Template("{% load clocks %}{% table_clock table %}")
    assert "Not started" in template.render(Context({"table": wbc_table}))
    services.start(wbc_table, user=head_judge)
    html = template.render(Context({"table": wbc_table}))
    assert "data-clock " in html and 'data-state="running"' in html and "4:30:00" in html
    assert f'data-api="/api/tables/{wbc_table.pk}/clock/"' in html


def test_round_clocks_tag_lists_every_table(wbc_round: Any) -> None:
    html = Template("{% load clocks %}{% round_clocks round %}").render(Context({"round": wbc_round}))
    assert html.count("<li ") == 3 and f"/rounds/{wbc_round.pk}/clocks/" in html


def test_table_judge_sees_call_the_clock_with_chips_left(
    client: Any, make_user: Any, head_judge: Any
) -> None:
    """WBC Time Guidelines: the table's judge calls the clock from the table clock page."""
    from tests.clocks.conftest import seated

    judge = make_user("judge3")
    table = seated(format="wbc", judge=judge).tables.get()
    services.start(table, user=head_judge)
    client.force_login(judge)
    html = client.get(f"/tables/{table.pk}/clock/").content.decode()
    assert "Call the clock" in html and "3 diplomacy chips left" in html
    assert "Extend" not in html  # head-judge forms are not offered to a table judge
    response = client.post(f"/tables/{table.pk}/clock/call/", {"action": "nexus", "faction": "fremen"})
    assert response.status_code == 302
    page = client.get(f"/tables/{table.pk}/clock/").content.decode()
    assert "Done in time" in page and "Clock called" in page
    response = client.post(f"/tables/{table.pk}/clock/call/", {"action": "nexus", "faction": "ixians"})
    assert response.status_code == 400 and "ixians" in response.content.decode()


def test_a_lolv_table_offers_no_call_timers_and_refuses_one(client: Any, make_user: Any, head_judge: Any) -> None:
    """The call-the-clock timers and diplomacy chips are WBC time guidelines; the LoLV times the
    whole game instead (4.01.08): its clock page offers neither and a crafted call is refused."""
    from tests.clocks.conftest import seated

    judge = make_user("judge4")
    table = seated(format="lolv", judge=judge).tables.get()
    services.start(table, user=head_judge)
    client.force_login(judge)
    html = client.get(f"/tables/{table.pk}/clock/").content.decode()
    assert "Call the clock" not in html and "diplomacy chip" not in html
    faction = services.table_factions(table)[0]
    response = client.post(f"/tables/{table.pk}/clock/call/", {"action": "diplomacy", "faction": faction})
    assert response.status_code == 400 and "4.01.08" in response.content.decode()
    assert not table.call_timers.exists()
