"""A player's private link (`/me/{token}/`, `GET /api/me/{token}/`): their seat, standing and
results without a password; confirming or disputing their table's filed result; the head judge
renews or revokes the link. Bad tokens and bad words are refused in words and change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from config.schema import schema
from scoring import services
from scoring.commands import CONFIRM_FIELDS
from scoring.confirmations import MAX_REASON
from scoring.models import GameReport, ResultConfirmation
from tests.scoring.db.conftest import report_for
from tournament import desk, private_links
from tournament.models import CheckIn, Player

pytestmark = pytest.mark.django_db


def _link(player: Any) -> str:
    return private_links.link_for(player).token


def test_the_token_has_at_least_128_bits_and_differs_per_player(wbc_heat: Any) -> None:
    _tournament, players, _heat, _tables = wbc_heat
    tokens = {_link(p) for p in players}
    assert len(tokens) == len(players)
    assert all(len(t) >= 22 for t in tokens)  # 22 url-safe characters carry 132 bits
    assert _link(players[0]) == _link(players[0])


def test_the_private_link_shows_my_table_and_seat_on_page_and_api(client: Any, wbc_heat: Any) -> None:
    _tournament, players, heat, (one, _two) = wbc_heat
    player = one.seats.order_by("seat").first().player
    token = _link(player)
    page = client.get(f"/me/{token}/").content.decode()
    assert player.name in page and f"table {one.number}, seat 1" in page
    body = client.get(f"/api/me/{token}/").json()
    assert body["current"]["table"] == one.number and body["current"]["seat"] == 1
    assert body["clock"]["table"] == one.pk
    assert body["state"]["key"] == "seated" and body["results"] == []


def test_a_bad_or_revoked_token_answers_404_in_words(client: Any, head_judge: Any, wbc_heat: Any) -> None:
    tournament, players, _heat, _tables = wbc_heat
    token = _link(players[0])
    assert client.get("/me/not-a-token/").status_code == 404
    judge = Client()
    judge.force_login(head_judge)
    assert judge.delete(f"/api/players/{players[0].pk}/private-link/").status_code == 200
    page = client.get(f"/me/{token}/")
    assert page.status_code == 404 and "does not open any event" in page.content.decode()
    api = client.get(f"/api/me/{token}/")
    assert api.status_code == 404 and "registration desk" in api.json()["detail"]
    assert client.post(f"/me/{token}/", {"action": "withdraw", "confirm": "on"}).status_code == 404
    assert Player.objects.get(pk=players[0].pk).status == Player.Status.ACTIVE
    renewed = judge.post(f"/api/players/{players[0].pk}/private-link/").json()
    assert renewed["token"] != token and client.get(f"/api/me/{renewed['token']}/").status_code == 200


def test_only_the_head_judge_renews_or_revokes_a_link(client: Any, wbc_heat: Any) -> None:
    _tournament, players, _heat, _tables = wbc_heat
    token = _link(players[0])
    assert client.delete(f"/api/players/{players[0].pk}/private-link/").status_code in (401, 403)
    assert private_links.player_for(token) == players[0]


def test_players_confirm_and_dispute_a_filed_result_which_stands(client: Any, head_judge: Any, wbc_heat: Any) -> None:
    _tournament, _players, _heat, (one, two) = wbc_heat
    services.file_report(one, report_for(one, {0: "solo_stronghold"}), user=head_judge)
    seated = [s.player for s in one.seats.order_by("seat")]
    first, second = _link(seated[0]), _link(seated[1])
    before = GameReport.objects.get(table=one).data
    agreed = client.post(f"/api/me/{first}/confirmations/", {"table": one.pk, "agree": True}, content_type="application/json")
    assert agreed.status_code == 200 and agreed.json()["agree"] is True
    bare = client.post(f"/api/me/{second}/confirmations/", {"table": one.pk, "agree": False}, content_type="application/json")
    assert bare.status_code == 400 and bare.json()["field"] == "reason"
    other = client.post(f"/api/me/{second}/confirmations/", {"table": two.pk, "agree": True}, content_type="application/json")
    assert other.status_code == 400 and other.json()["field"] == "table"
    assert ResultConfirmation.objects.count() == 1
    disputed = client.post(
        f"/api/me/{second}/confirmations/", {"table": one.pk, "agree": False, "reason": "I had 4 strongholds"},
        content_type="application/json",
    )
    assert disputed.status_code == 200
    assert GameReport.objects.get(table=one).data == before  # a dispute changes nothing filed
    judge = Client()
    judge.force_login(head_judge)
    page = judge.get(f"/rounds/{one.round_id}/confirmations/").content.decode()
    assert "I had 4 strongholds" in page and seated[1].name in page
    mine = client.get(f"/api/me/{first}/").json()["results"][0]
    assert mine["confirmation"] == {"agree": True, "reason": ""}


def test_reopening_a_report_clears_its_confirmations(client: Any, head_judge: Any, wbc_heat: Any) -> None:
    _tournament, _players, _heat, (one, _two) = wbc_heat
    report = services.file_report(one, report_for(one, {0: "solo_stronghold"}), user=head_judge)
    player = one.seats.order_by("seat").first().player
    client.post(f"/api/me/{_link(player)}/confirmations/", {"table": one.pk, "agree": True}, content_type="application/json")
    services.reopen_report(report, user=head_judge, reason="wrong spice count")
    assert not ResultConfirmation.objects.filter(report__table=one).exists()


def test_check_in_and_withdraw_from_the_private_page(client: Any, wbc_heat: Any) -> None:
    tournament, players, _heat, _tables = wbc_heat
    from tests.factories import make_round

    upcoming = make_round(tournament, number=2, state="planned")
    desk.set_self_check_in(upcoming, open=True)
    player = players[0]
    token = _link(player)
    assert client.post(f"/me/{token}/", {"action": "check_in"}).status_code == 302
    assert CheckIn.objects.filter(round=upcoming, player=player).exists()
    unsure = client.post(f"/me/{token}/", {"action": "withdraw"})
    assert unsure.status_code == 400 and "confirm" in unsure.content.decode()
    assert Player.objects.get(pk=player.pk).status == Player.Status.ACTIVE
    assert client.post(f"/me/{token}/", {"action": "withdraw", "confirm": "on"}).status_code == 302
    assert Player.objects.get(pk=player.pk).status == Player.Status.DROPPED
    assert not CheckIn.objects.filter(round=upcoming, player=player).exists()


def test_too_many_requests_from_one_address_are_refused(client: Any, wbc_heat: Any) -> None:
    from django.core.cache import cache

    from web.tournament import me_views

    cache.clear()
    _tournament, players, _heat, _tables = wbc_heat
    for _ in range(me_views.RATE):
        assert client.get("/api/me/guess/").status_code == 404
    refused = client.get(f"/api/me/{_link(players[0])}/")
    assert refused.status_code == 429 and "wait a minute" in refused.json()["detail"]
    cache.clear()


def test_the_head_judge_revokes_and_renews_from_the_player_page(client: Any, head_judge: Any, wbc_heat: Any) -> None:
    tournament, players, _heat, _tables = wbc_heat
    token = _link(players[0])
    client.force_login(head_judge)
    url = f"/tournaments/{tournament.pk}/players/{players[0].pk}/"
    assert f"/me/{token}/" in client.get(f"{url}edit/").content.decode()
    client.post(f"{url}private-link/", {"action": "revoke"})
    page = client.get(f"{url}edit/").content.decode()
    assert "Revoked" in page and private_links.player_for(token) is None
    client.post(f"{url}private-link/", {"action": "renew"})
    assert f"/me/{_link(players[0])}/" in client.get(f"{url}edit/").content.decode()
    assert _link(players[0]) != token


@pytest.mark.parametrize(("sent", "field"), [
    ({"agree": False, "reason": "R" * 2001}, "reason"),
    ({"agree": True, "reason": 4}, "reason"),
    ({"agree": True, "table": "one"}, "table"),
    ({"agree": True, "mood": "happy"}, "mood"),
])
def test_a_players_word_is_its_declaration_and_bad_input_is_refused_by_name_through_both_doors(
    client: Any, head_judge: Any, wbc_heat: Any, sent: dict[str, Any], field: str
) -> None:
    """`scoring.commands.CONFIRM_FIELDS` is the API's body (its schema) and the page's form:
    a reason over its limit, a field of the wrong type, a field the write does not read are
    refused naming the field, and nothing is recorded."""
    document = schema()
    found = document["paths"]["/api/me/{token}/confirmations/"]["post"]["requestBody"]["content"]["application/json"]
    body = document["components"]["schemas"][found["schema"]["$ref"].rsplit("/", 1)[-1]]
    assert set(body["properties"]) == set(CONFIRM_FIELDS) and body["properties"]["reason"]["maxLength"] == MAX_REASON
    _tournament, _players, _heat, (one, _two) = wbc_heat
    services.file_report(one, report_for(one, {0: "solo_stronghold"}), user=head_judge)
    token = _link(one.seats.order_by("seat").first().player)
    api = client.post(f"/api/me/{token}/confirmations/", {"table": one.pk, **sent}, content_type="application/json")
    assert api.status_code == 400 and api.json()["field"] == field, api.json()
    assert ResultConfirmation.objects.count() == 0


@pytest.mark.parametrize(("sent", "shown"), [
    ({"agree": "false", "reason": "R" * 2001}, "at most 2000 characters"),
    ({"agree": "true", "mood": "happy"}, "mood"),
])
def test_the_private_page_refuses_a_bad_word_next_to_the_tables_form(
    client: Any, head_judge: Any, wbc_heat: Any, sent: dict[str, Any], shown: str
) -> None:
    _tournament, _players, _heat, (one, _two) = wbc_heat
    services.file_report(one, report_for(one, {0: "solo_stronghold"}), user=head_judge)
    token = _link(one.seats.order_by("seat").first().player)
    page = client.post(f"/me/{token}/", {"action": "confirm", "table": one.pk, **sent})
    assert page.status_code == 400 and shown in page.content.decode()
    assert 'class="error" role="alert"' in page.content.decode()
    assert ResultConfirmation.objects.count() == 0
