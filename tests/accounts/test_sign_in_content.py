"""Password hashes stay home: an export (`content.sign_in`) and a spare's changes feed carry a
password hash only for the accounts that agreed to judge that tournament and nothing else
(`tournament.judges.sign_in_accounts`); appointing an existing account is an invitation it
accepts on its account page."""

from __future__ import annotations

import json
import urllib.parse
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def _tournament(user: Any, name: str) -> Any:
    from tournament import services

    return services.create_tournament(name=name, format="wbc", user=user)


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _export(client: Client, tournament: Any) -> dict[str, Any]:
    """The content as a file sealed for this installation's spares holds it (its `sign_in`
    included); the download through the API carries no hash at all."""
    from venue import export

    answer = client.get(f"/api/tournaments/{tournament.pk}/export/")
    assert answer.status_code == 200, answer.content[:300]
    for user in tournament.head_judges.all() | tournament.table_judges.all():
        assert user.password not in answer.content.decode()
    return export.export_content(tournament)


def _feed_hashes(client: Client, tournament: Any) -> dict[str, str]:
    """The hashes of the changes a paired spare pulls (an unpaired puller gets none)."""
    from venue import changes

    query = urllib.parse.urlencode({"cursor": json.dumps({})})
    answer = client.get(f"/api/tournaments/{tournament.pk}/changes/?{query}")
    assert answer.status_code == 200, answer.content[:300]
    assert not [a for a in answer.json()["shared"]["auth.user"] if "password" in a]
    pulled = changes.changes(tournament, changes.Cursor.parse({}), spare=True)
    return {a["username"]: a["password"] for a in pulled["shared"]["auth.user"] if "password" in a}


def test_the_head_judge_of_another_tournament_is_invited_and_its_hash_never_leaves(make_user: Any) -> None:
    x_head = make_user("xhead", is_staff=True)
    y_head = make_user("yhead", is_staff=True)
    _tournament(x_head, "X Open")
    y = _tournament(y_head, "Y Open")
    desk = _signed_in(y_head)
    invited = desk.post(f"/api/tournaments/{y.pk}/invitations/", {"username": "xhead"},
                        content_type="application/json")
    assert invited.status_code == 202 and invited.json()["pending"] is True
    assert not y.table_judges.filter(pk=x_head.pk).exists()  # not appointed before it answers
    assert x_head.password not in json.dumps(_export(desk, y))
    assert "xhead" not in _feed_hashes(desk, y)

    # Even once it accepts, an account that heads another tournament keeps its hash at home.
    pending = _signed_in(x_head).get("/api/account/invitations/").json()["invitations"]
    assert [(i["tournament_name"], i["invited_by"]) for i in pending] == [("Y Open", "yhead")]
    accepted = _signed_in(x_head).post(f"/api/account/invitations/{pending[0]['invitation']}/accept/")
    assert accepted.status_code == 200 and y.table_judges.filter(pk=x_head.pk).exists()
    content = _export(desk, y)
    assert "xhead" not in content["sign_in"] and x_head.password not in json.dumps(content)
    hashes = _feed_hashes(desk, y)
    assert "xhead" not in hashes and hashes == {"yhead": y_head.password}


def test_a_players_account_hash_is_never_in_the_changes_feed(make_user: Any) -> None:
    from tests.factories import make_players

    head = make_user("yhead", is_staff=True)
    y = _tournament(head, "Y Open")
    (player,) = make_players(y, 1)
    player.user = make_user("playeraccount")
    player.save(update_fields=["user"])
    desk = _signed_in(head)
    assert "playeraccount" not in _feed_hashes(desk, y)
    assert player.user.password not in json.dumps(_export(desk, y))


def test_an_account_that_accepts_is_carried_and_not_before(make_user: Any) -> None:
    head = make_user("yhead", is_staff=True)
    judge = make_user("tj")
    y = _tournament(head, "Y Open")
    desk = _signed_in(head)
    assert desk.post(f"/api/tournaments/{y.pk}/invitations/", {"username": "tj"},
                     content_type="application/json").status_code == 202
    assert set(_export(desk, y)["sign_in"]) == {"yhead"}
    listed = desk.get(f"/api/tournaments/{y.pk}/invitations/").json()
    assert listed["table_judges"] == [] and [i["username"] for i in listed["invitations"]] == ["tj"]
    invitation = listed["invitations"][0]["invitation"]
    # Only the invited account answers its invitation.
    assert desk.post(f"/api/account/invitations/{invitation}/accept/").status_code == 404
    assert _signed_in(judge).post(f"/api/account/invitations/{invitation}/accept/").status_code == 200
    assert set(_export(desk, y)["sign_in"]) == {"yhead", "tj"}
    assert _feed_hashes(desk, y)["tj"] == judge.password
    # Taken off the tournament, it is asked again before its hash travels again.
    from tournament import services

    services.remove_table_judge(y, "tj")
    assert set(_export(desk, y)["sign_in"]) == {"yhead"}


def test_the_dashboard_invites_and_the_account_page_accepts(make_user: Any) -> None:
    head = make_user("yhead", is_staff=True)
    judge = make_user("tj")
    y = _tournament(head, "Y Open")
    desk = _signed_in(head)
    answer = desk.post(f"/tournaments/{y.pk}/", {"action": "add_judge", "username": "tj"}, follow=True)
    page = answer.content.decode()
    assert "tj is invited to judge the tables of Y Open" in page and 'data-invitation="tj"' in page
    assert not y.table_judges.exists()
    mine = _signed_in(judge)
    account = mine.get("/accounts/me/").content.decode()
    assert "yhead invites you to judge the tables of Y Open." in account
    from tournament.judge_models import JudgeInvitation

    invitation = JudgeInvitation.objects.get(user=judge)
    done = mine.post("/accounts/me/", {"action": "accept", "invitation": invitation.pk}, follow=True)
    assert "You are a table judge of Y Open." in done.content.decode()
    assert list(y.table_judges.values_list("username", flat=True)) == ["tj"]
    dashboard = desk.get(f"/tournaments/{y.pk}/").content.decode()
    assert 'data-invitation="tj"' not in dashboard and "data-table-judges" in dashboard
