"""Pausing and resuming a round says which tables changed and why others were left alone;
a paused clock reads as paused; the dashboard shows the round's pause and its reason."""

from __future__ import annotations

from typing import Any

import pytest

from clocks import services

pytestmark = pytest.mark.django_db


def test_pause_and_resume_name_the_tables_and_why_one_was_left_alone(
    client: Any, wbc_round: Any, head_judge: Any
) -> None:
    wbc_round.tournament.head_judges.add(head_judge)
    client.force_login(head_judge)
    services.start_round(wbc_round, user=head_judge)
    services.pause(wbc_round.tables.get(number=2), user=head_judge, reason="toilet break")
    url = f"/rounds/{wbc_round.pk}/clocks/"
    paused = client.post(url + "pause/", {"reason": "lunch"}, follow=True).content.decode()
    assert "Clocks paused at tables 1, 3 (lunch)." in paused
    assert "Left alone: table 2: it was already paused." in paused
    assert "Round paused</strong> since" in paused and ": lunch" in paused
    assert "Paused: clock stopped" in paused and "Paused — " not in paused
    resumed = client.post(url + "resume/", follow=True).content.decode()
    assert "Clocks resumed at tables 1, 3." in resumed
    assert (
        "table 2: it was paused on its own, not by the round: resume it with its own Resume button" in resumed
    )
    assert "Round paused" not in resumed and "1 table paused on its own." in resumed


def test_dashboard_live_region_answers_304_until_a_clock_changes(
    client: Any, wbc_round: Any, head_judge: Any
) -> None:
    wbc_round.tournament.head_judges.add(head_judge)
    client.force_login(head_judge)
    url = f"/rounds/{wbc_round.pk}/clocks/"
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "clocks-live"}
    first = client.get(url, **headers)
    assert first.status_code == 200
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **headers).status_code == 304
    services.start_round(wbc_round, user=head_judge)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **headers).status_code == 200
