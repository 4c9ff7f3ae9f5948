"""*Start all clocks* long before the round's scheduled start asks first: the page and the API
say when the round is scheduled and how early that is, and start nothing until confirmed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from clocks.models import TableClock
from clocks.services import db_now
from dune.clock_limits import EARLY_START_WARNING, early_by
from tests.clocks.conftest import seated

pytestmark = pytest.mark.django_db


def test_early_by_says_how_early_a_start_is() -> None:
    now = db_now()
    assert early_by(None, now) is None
    assert early_by(now + EARLY_START_WARNING, now) is None  # a little early is a normal start
    assert early_by(now + timedelta(hours=12), now) == timedelta(hours=12)


def test_start_all_twelve_hours_early_asks_first(client: Any, judge_client: Any, head_judge: Any) -> None:
    round_ = seated(tables=2)
    round_.starts_at = db_now() + timedelta(hours=12)
    round_.save()
    client.force_login(head_judge)
    page = client.get(f"/rounds/{round_.pk}/clocks/").content.decode()
    assert "scheduled to start in 12 hours" in page
    refused = client.post(f"/rounds/{round_.pk}/clocks/start/", {})
    html = refused.content.decode()
    assert refused.status_code == 409 and "Start all clocks now anyway" in html
    assert "Heat 1 is scheduled to start at" in html and "12 hours" in html
    assert not TableClock.objects.filter(table__round=round_, started_at__isnull=False).exists()
    api = judge_client.post(f"/api/rounds/{round_.pk}/clocks/start/", {}, format="json")
    assert api.status_code == 409 and api.json()["field"] == "early"
    done = client.post(f"/rounds/{round_.pk}/clocks/start/", {"early": "yes"})
    assert done.status_code == 302
    assert TableClock.objects.filter(table__round=round_, started_at__isnull=False).count() == 2
