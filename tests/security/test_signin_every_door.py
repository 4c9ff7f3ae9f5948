"""Every sign-in door is throttled the same way (config/sign_in_guard.py): the admin's
`/admin/login/` as much as `/accounts/login/`, and attempts for one account are checked one
at a time, so concurrent wrong passwords get no more checks than one after another would."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.utils import timezone

from config.sign_in_guard import FREE_FAILURES

DOORS = ["/accounts/login/", "/admin/login/"]
VENUE = "203.0.113.66"


@pytest.fixture
def clock() -> Iterator[Any]:
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        yield traveller


def _failures(username: str) -> int:
    from axes.models import AccessFailureLog

    return AccessFailureLog.objects.filter(username=username).count()


@pytest.mark.django_db
@pytest.mark.parametrize("door", DOORS)
def test_wrong_passwords_for_a_staff_account_are_spaced_out_at_every_door(
    door: str, make_user: Any, password: str, clock: Any
) -> None:
    make_user("organiser", is_staff=True, is_superuser=True)
    guesser = Client()
    answers = [
        guesser.post(door, {"username": "organiser", "password": f"guess{n}"}, REMOTE_ADDR=VENUE).status_code
        for n in range(25)
    ]
    assert answers[:FREE_FAILURES] == [200] * FREE_FAILURES
    assert set(answers[FREE_FAILURES:]) == {429}
    assert _failures("organiser") == FREE_FAILURES  # the refused ones were never checked
    # Not even the right password goes in at once after the guessing.
    refused = Client().post(door, {"username": "organiser", "password": password}, REMOTE_ADDR=VENUE)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "_auth_user_id" not in Client().session


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("door", DOORS)
def test_concurrent_wrong_passwords_get_no_more_checks_than_allowed(
    door: str, make_user: Any, clock: Any
) -> None:
    make_user("headjudge", is_staff=True)
    start = threading.Barrier(20)
    answers: list[int] = []

    def guess(n: int) -> None:
        try:
            start.wait(timeout=30)
            response = Client().post(door, {"username": "headjudge", "password": f"guess{n}"}, REMOTE_ADDR=VENUE)
            answers.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(answers) == 20
    assert _failures("headjudge") <= FREE_FAILURES
    assert answers.count(429) >= 20 - FREE_FAILURES
