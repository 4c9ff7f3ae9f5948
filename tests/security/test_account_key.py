"""One account key for every guard: a name typed at any password door is normalised once
(NFKC and case-folded, `dune.text_rules.account_key`) before the guard, the failure log and the
authentication see it, so a lookalike of a held-back name is held back too; a new account's
name that mixes scripts or looks like an existing one is refused. Known devices are tied to
the account's password and ease only the per-address limit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from config.sign_in_guard import DEVICE_AGE, FREE_FAILURES, MAX_DELAY

pytestmark = pytest.mark.django_db

VENUE = "203.0.113.66"
VARIANTS = ["ｔｖｄ", "TVD", " Tvd ", "ＴＶＤ"]


@pytest.fixture
def clock() -> Iterator[Any]:
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        yield traveller


def _post(door: str, username: str, password: str, client: Client | None = None, **extra: Any) -> Any:
    return (client or Client()).post(door, {"username": username, "password": password}, REMOTE_ADDR=VENUE, **extra)


@pytest.mark.parametrize(("door", "json"), [("/accounts/login/", False), ("/accounts/login/", True),
                                            ("/admin/login/", False)], ids=["page", "page-script", "admin"])
def test_a_fullwidth_or_cased_variant_is_held_back_like_the_account(
    door: str, json: bool, make_user: Any, password: str, clock: Any
) -> None:
    from axes.models import AccessFailureLog

    make_user("tvd", is_staff=True)
    extra = {"HTTP_ACCEPT": "application/json"} if json else {}
    for n in range(FREE_FAILURES):
        assert _post(door, "tvd", f"guess{n}", **extra).status_code in (200, 400)
    answers = [_post(door, name, f"again{n}", **extra).status_code for n, name in enumerate(VARIANTS)]
    assert answers == [429] * len(VARIANTS)
    assert _post(door, "ｔｖｄ", password, **extra).status_code == 429  # not even the right one at once
    assert set(AccessFailureLog.objects.values_list("username", flat=True)) == {"tvd"}
    clock.shift(MAX_DELAY)
    signed_in = Client()
    assert _post(door, "ＴＶＤ", password, client=signed_in, **extra).status_code in (200, 302)
    assert signed_in.session.get("_auth_user_id") is not None


def test_every_variant_of_a_name_nobody_holds_counts_as_one(clock: Any) -> None:
    from axes.models import AccessFailureLog

    for n, name in enumerate(["ghost", "GHOST", "ｇｈｏｓｔ"] * 2):
        _post("/accounts/login/", name, f"guess{n}")
    assert set(AccessFailureLog.objects.values_list("username", flat=True)) == {"ghost"}
    assert _post("/accounts/login/", "Ghost", "more").status_code == 429


@pytest.mark.parametrize(("name", "refused"), [
    ("tvd", False), ("José", False), ("judge_1", False), ("Ἀλέξανδρος", False),
    ("tvд", True), ("pаypal", True), ("TVD", True), ("ｔｖｄ", True),
])
def test_lookalike_and_mixed_script_names_are_refused_at_creation(make_user: Any, name: str, refused: bool) -> None:
    from foundation.accounts import username_problem

    make_user("tvd-existing")
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(username="tvd-existing").update(username="tvd")
    problem = username_problem(name) if name != "tvd" else username_problem("tvd2")
    assert (problem is not None) is refused, problem


def test_the_admin_refuses_a_lookalike_of_an_existing_account(make_user: Any, admin_client: Any) -> None:
    make_user("tvd")
    answer = admin_client.post("/admin/auth/user/add/", {"username": "ＴＶＤ", "usable_password": "false"})
    assert answer.status_code == 200 and "already exists" in answer.content.decode()
    answer = admin_client.post("/admin/auth/user/add/", {"username": "tvд", "usable_password": "false"})
    assert "mixes letters of several scripts" in answer.content.decode()
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.filter(username__in=["TVD", "tvд"]).exists()


def test_a_known_device_is_forgotten_when_the_password_changes(make_user: Any, password: str, settings: Any) -> None:
    settings.SIGN_IN_ADDRESS_LIMIT = 6
    user = make_user("judge21")
    phone = Client()
    assert _post("/accounts/login/", "judge21", password, client=phone).status_code == 302
    phone.post("/accounts/logout/")
    for n in range(6):
        _post("/accounts/login/", f"someone{n}", "wrong")
    assert _post("/accounts/login/", "judge21", password, client=phone).status_code == 302  # known
    phone.post("/accounts/logout/")
    user.set_password("a new password for the season")
    user.save()
    refused = _post("/accounts/login/", "judge21", "a new password for the season", client=phone)
    assert refused.status_code == 429  # the cookie names the old password: a stranger's browser now


def test_a_known_device_does_not_lift_the_accounts_delay(make_user: Any, password: str, clock: Any) -> None:
    make_user("judge22")
    phone = Client()
    assert _post("/accounts/login/", "judge22", password, client=phone).status_code == 302
    phone.post("/accounts/logout/")
    clock.shift(1)
    answers = [_post("/accounts/login/", "judge22", f"guess{n}", client=phone).status_code for n in range(10)]
    assert answers[:FREE_FAILURES] == [200] * FREE_FAILURES and set(answers[FREE_FAILURES:]) == {429}


def test_a_known_device_is_forgotten_after_its_life(make_user: Any, password: str, clock: Any, settings: Any) -> None:
    settings.SIGN_IN_ADDRESS_LIMIT = 6
    make_user("judge23")
    phone = Client()
    assert _post("/accounts/login/", "judge23", password, client=phone).status_code == 302
    phone.post("/accounts/logout/")
    clock.shift(DEVICE_AGE)
    for n in range(6):
        _post("/accounts/login/", f"someone{n}", "wrong")
    assert _post("/accounts/login/", "judge23", password, client=phone).status_code == 429
