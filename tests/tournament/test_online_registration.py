"""Online registration: the head judge's settings, a registrant's registration and email
confirmation, capacity and the waiting list, and each refusal changing nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from tournament import registration
from tournament.models import Player, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counters() -> None:
    cache.clear()


@pytest.fixture
def open_event(judge_client: Any, tournament: Any) -> Any:
    now = timezone.now()
    answer = judge_client.patch(f"/api/tournaments/{tournament.pk}/", {
        "registration_opens": (now - timedelta(hours=1)).isoformat(),
        "registration_closes": (now + timedelta(days=3)).isoformat(),
        "capacity": 2,
    }, format="json")
    assert answer.status_code == 200, answer.json()
    tournament.refresh_from_db()
    return tournament


def _register(tournament: Any, name: str, email: str, club: str = "") -> str:
    """Register through the service and answer the confirmation link's token (the mail's)."""
    _made, token = registration.register(tournament, name=name, email=email, club=club)
    return token


def _snapshot(tournament: Any) -> tuple[Any, ...]:
    return (
        tuple(Registration.objects.filter(tournament=tournament).values_list("name", "state", "confirmed_at", "player")),
        tuple(Player.objects.filter(tournament=tournament).values_list("name", "status")),
    )


def test_registration_settings_are_fields_of_the_tournament_patch(open_event: Any, judge_client: Any) -> None:
    body = judge_client.get(f"/api/tournaments/{open_event.pk}/").json()
    assert body["capacity"] == 2 and body["waiting_list"] is True
    assert body["registration_opens"] < body["registration_closes"]
    refused = judge_client.patch(f"/api/tournaments/{open_event.pk}/", {
        "registration_closes": (open_event.registration_opens - timedelta(hours=1)).isoformat()}, format="json")
    assert refused.status_code == 400 and refused.json()["field"] == "registration_closes"
    assert "closes after it opens" in refused.json()["detail"]
    assert judge_client.patch(f"/api/tournaments/{open_event.pk}/", {"capacity": 0}, format="json").status_code == 400
    open_event.refresh_from_db()
    assert open_event.capacity == 2


def test_only_a_head_judge_changes_registration_or_reads_the_list(open_event: Any, make_user: Any) -> None:
    client = APIClient()
    client.force_authenticate(make_user("someone"))
    assert client.patch(f"/api/tournaments/{open_event.pk}/", {"capacity": 50}, format="json").status_code == 403
    assert client.get(f"/api/tournaments/{open_event.pk}/registrations/").status_code == 403
    assert APIClient().get(f"/api/tournaments/{open_event.pk}/registrations/").status_code == 403
    open_event.refresh_from_db()
    assert open_event.capacity == 2


def test_an_anonymous_registration_is_unconfirmed_until_its_link_is_opened(open_event: Any, judge_client: Any) -> None:
    answer = APIClient().post(f"/api/tournaments/{open_event.pk}/registrations/", {
        "name": "Ana Ruiz", "email": "Ana@Example.org", "club": "Madrid", "note": "vegetarian"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["state"] == "unconfirmed"
    assert not Player.objects.filter(tournament=open_event).exists()
    listed = judge_client.get(f"/api/tournaments/{open_event.pk}/registrations/").json()["registrations"]
    assert [(r["name"], r["email"], r["club"], r["note"], r["state"]) for r in listed] == [
        ("Ana Ruiz", "Ana@Example.org", "Madrid", "vegetarian", "unconfirmed")]


def test_confirming_makes_a_player_the_desk_and_seating_see(open_event: Any, judge_client: Any) -> None:
    token = _register(open_event, "Ana Ruiz", "ana@example.org")
    answer = APIClient().post(f"/api/registrations/{token}/confirm/")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["state"] == "registered" and answer.json()["path"].startswith("/me/")
    player = Player.objects.get(tournament=open_event, name="Ana Ruiz")
    assert player.status == Player.Status.ACTIVE and player.person is not None
    desk = judge_client.get(f"/api/tournaments/{open_event.pk}/players/").json()["players"]
    assert [p["name"] for p in desk] == ["Ana Ruiz"]
    me = APIClient().get(f"/api/{answer.json()['path'].lstrip('/')}").json()
    assert me["player"]["name"] == "Ana Ruiz"


def test_a_reused_or_expired_link_is_refused_in_words_and_changes_nothing(open_event: Any) -> None:
    token = _register(open_event, "Ana Ruiz", "ana@example.org")
    assert APIClient().post(f"/api/registrations/{token}/confirm/").status_code == 200
    before = _snapshot(open_event)
    again = APIClient().post(f"/api/registrations/{token}/confirm/")
    assert again.status_code == 409 and "used already" in again.json()["detail"]
    assert _snapshot(open_event) == before

    late = _register(open_event, "Bo Lin", "bo@example.org")
    Registration.objects.filter(email_key="bo@example.org").update(expires_at=timezone.now() - timedelta(minutes=1))
    before = _snapshot(open_event)
    expired = APIClient().post(f"/api/registrations/{late}/confirm/")
    assert expired.status_code == 410 and "expired" in expired.json()["detail"]
    assert _snapshot(open_event) == before
    unknown = APIClient().post("/api/registrations/not-a-token/confirm/")
    assert unknown.status_code == 404 and "does not open" in unknown.json()["detail"]


def test_an_email_registered_in_another_case_is_refused(open_event: Any, tournament: Any) -> None:
    from tournament import services

    services.add_player(open_event, name="Desk Person", email="desk@example.org")
    before = _snapshot(open_event)
    answer = APIClient().post(f"/api/tournaments/{open_event.pk}/registrations/",
                              {"name": "Someone", "email": "DESK@Example.ORG"}, format="json")
    assert answer.status_code == 409 and answer.json()["field"] == "email"
    assert "one person registers once" in answer.json()["detail"]
    _register(open_event, "Ana Ruiz", "ana@example.org")
    before = _snapshot(open_event)
    twice = APIClient().post(f"/api/tournaments/{open_event.pk}/registrations/",
                             {"name": "Ana R", "email": "ANA@example.org"}, format="json")
    assert twice.status_code == 409 and twice.json()["field"] == "email"
    assert _snapshot(open_event) == before


def test_a_closed_or_unopened_registration_is_refused(open_event: Any, judge_client: Any) -> None:
    judge_client.patch(f"/api/tournaments/{open_event.pk}/", {
        "registration_closes": (timezone.now() - timedelta(minutes=1)).isoformat(),
        "registration_opens": (timezone.now() - timedelta(hours=2)).isoformat()}, format="json")
    answer = APIClient().post(f"/api/tournaments/{open_event.pk}/registrations/",
                              {"name": "Ana Ruiz", "email": "ana@example.org"}, format="json")
    assert answer.status_code == 409 and answer.json()["field"] == "registration"
    assert "closed on" in answer.json()["detail"]
    judge_client.patch(f"/api/tournaments/{open_event.pk}/", {"registration_opens": None}, format="json")
    answer = APIClient().post(f"/api/tournaments/{open_event.pk}/registrations/",
                              {"name": "Ana Ruiz", "email": "ana@example.org"}, format="json")
    assert answer.status_code == 409 and "not open" in answer.json()["detail"]
    assert not Registration.objects.exists()


def test_past_capacity_confirmed_registrants_wait_and_move_up_in_order(
    open_event: Any, judge_client: Any, head_judge: Any
) -> None:
    tokens = [_register(open_event, n, f"{n.split()[0].lower()}@example.org")
              for n in ("Ana Ruiz", "Bo Lin", "Cy Park", "Di Moss")]
    states = [APIClient().post(f"/api/registrations/{t}/confirm/").json()["state"] for t in tokens]
    assert states == ["registered", "registered", "waiting", "waiting"]
    bo = Player.objects.get(name="Bo Lin")
    from tournament import commands

    commands.withdraw(open_event, {"player": bo.pk}, actor=head_judge, key=None)  # at the desk
    by_name = {r["name"]: r["state"] for r in
               judge_client.get(f"/api/tournaments/{open_event.pk}/registrations/").json()["registrations"]}
    assert by_name["Bo Lin"] == "withdrawn" and by_name["Cy Park"] == "registered" and by_name["Di Moss"] == "waiting"


def test_a_waiting_player_leaving_by_the_private_link_frees_no_place_but_leaves_the_list(open_event: Any) -> None:
    from tournament import private_links

    tokens = [_register(open_event, n, f"{n.split()[0].lower()}@example.org")
              for n in ("Ana Ruiz", "Bo Lin", "Cy Park")]
    for t in tokens:
        APIClient().post(f"/api/registrations/{t}/confirm/")
    ana, cy = Player.objects.get(name="Ana Ruiz"), Player.objects.get(name="Cy Park")
    left = APIClient().post(f"/me/{private_links.link_for(ana).token}/", {"action": "withdraw", "confirm": "on"})
    assert left.status_code == 302
    cy.refresh_from_db()
    assert cy.status == Player.Status.ACTIVE  # moved up into Ana's place


def test_a_full_event_without_a_waiting_list_refuses(open_event: Any, judge_client: Any) -> None:
    judge_client.patch(f"/api/tournaments/{open_event.pk}/", {"capacity": 1, "waiting_list": False}, format="json")
    APIClient().post(f"/api/registrations/{_register(open_event, 'Ana Ruiz', 'ana@example.org')}/confirm/")
    before = _snapshot(open_event)
    answer = APIClient().post(f"/api/tournaments/{open_event.pk}/registrations/",
                              {"name": "Bo Lin", "email": "bo@example.org"}, format="json")
    assert answer.status_code == 409 and answer.json()["field"] == "capacity" and "full" in answer.json()["detail"]
    assert _snapshot(open_event) == before


def test_a_probable_duplicate_is_flagged_for_the_head_judge(open_event: Any, judge_client: Any) -> None:
    from tournament import services

    services.add_player(open_event, name="José Núñez", email="jose@example.org", club="Sevilla")
    answer = APIClient().post(f"/api/tournaments/{open_event.pk}/registrations/",
                              {"name": "Jose Nunez", "email": "jn@example.org"}, format="json")
    assert answer.status_code == 201
    listed = judge_client.get(f"/api/tournaments/{open_event.pk}/registrations/").json()["registrations"]
    flagged = next(r for r in listed if r["email"] == "jn@example.org")
    assert "José Núñez" in flagged["probable_duplicate"]
    assert next(r for r in listed if r["name"] == "José Núñez")["source"] == "desk"


@override_settings(REGISTRATION_RATE=3)
def test_too_many_registrations_from_one_address_answer_429_in_words(open_event: Any) -> None:
    client = APIClient()
    codes = [client.post(f"/api/tournaments/{open_event.pk}/registrations/",
                         {"name": f"P {i}", "email": f"p{i}@example.org"}, format="json").status_code
             for i in range(4)]
    assert codes == [201, 201, 201, 429]
    last = client.post(f"/api/tournaments/{open_event.pk}/registrations/",
                       {"name": "P 9", "email": "p9@example.org"}, format="json")
    assert "Too many requests" in last.json()["detail"]
    assert Registration.objects.count() == 3


def test_the_page_keeps_what_was_typed_next_to_the_refused_field(open_event: Any, client: Any) -> None:
    page = client.post(f"/tournaments/{open_event.pk}/register/", {"name": "Ana Ruiz", "email": "not-an-email",
                                                                  "club": "Madrid", "note": ""})
    text = page.content.decode()
    assert page.status_code == 400 and 'id="email-error"' in text and "bad email" in text
    assert 'value="Ana Ruiz"' in text and 'value="Madrid"' in text
    assert not Registration.objects.exists()
    done = client.post(f"/tournaments/{open_event.pk}/register/", {"name": "Ana Ruiz", "email": "ana@example.org"})
    assert done.status_code == 200 and "ana@example.org" in done.content.decode()


def test_the_edit_page_sets_registration_in_the_tournament_zone(tournament: Any, client: Any, head_judge: Any) -> None:
    tournament.time_zone = "America/New_York"
    tournament.save(update_fields=["time_zone"])
    client.force_login(head_judge)
    answer = client.post(f"/tournaments/{tournament.pk}/edit/", {
        "action": "registration", "registration_opens": "2030-05-01T09:00", "registration_closes": "2030-05-20T18:00",
        "capacity": "60", "waiting_list": "on"})
    assert answer.status_code == 302
    tournament.refresh_from_db()
    assert tournament.capacity == 60 and tournament.waiting_list
    assert tournament.registration_opens.isoformat() == "2030-05-01T13:00:00+00:00"
    refused = client.post(f"/tournaments/{tournament.pk}/edit/", {
        "action": "registration", "registration_opens": "2030-05-01T09:00", "registration_closes": "2030-04-20T18:00",
        "capacity": "sixty"})
    text = refused.content.decode()
    assert refused.status_code == 200 and 'id="capacity-error"' in text and 'value="sixty"' in text
    tournament.refresh_from_db()
    assert tournament.capacity == 60 and tournament.registration_closes.isoformat().startswith("2030-05-20")


def test_each_step_queues_its_message_with_the_private_link(open_event: Any, judge_client: Any, head_judge: Any) -> None:
    from mail.models import Message
    from tournament import commands, private_links

    tokens = [_register(open_event, n, f"{n.split()[0].lower()}@example.org")
              for n in ("Ana Ruiz", "Bo Lin", "Cy Park")]
    confirm = Message.objects.get(recipient="cy@example.org")
    assert confirm.kind == "registration_confirm" and f"/register/confirm/{tokens[2]}/" in confirm.text
    assert f"/register/confirm/{tokens[2]}/" in confirm.html and "(" in confirm.text  # the link's end, in the zone
    for t in tokens:
        APIClient().post(f"/api/registrations/{t}/confirm/")
    ana, cy = Player.objects.get(name="Ana Ruiz"), Player.objects.get(name="Cy Park")
    accepted = Message.objects.get(recipient="ana@example.org", kind="registration_accepted")
    assert f"/me/{private_links.link_for(ana).token}/" in accepted.text
    waiting = Message.objects.get(recipient="cy@example.org", kind="registration_waiting")
    assert "number 1 on its waiting list" in waiting.text and f"/me/{private_links.link_for(cy).token}/" in waiting.html
    before = Message.objects.count()
    commands.withdraw(open_event, {"player": ana.pk}, actor=head_judge, key=None)
    moved = Message.objects.get(recipient="cy@example.org", kind="registration_moved_up")
    assert f"/me/{private_links.link_for(cy).token}/" in moved.text and Message.objects.count() == before + 1


@pytest.mark.django_db(transaction=True)
def test_the_confirmation_reaches_a_real_smtp_server(celery_worker: Any, smtp_server: Any, head_judge: Any) -> None:
    from tests.factories import make_tournament

    tournament = make_tournament(head_judge=head_judge)
    registration.set_registration(tournament, opens=timezone.now() - timedelta(hours=1),
                                  closes=timezone.now() + timedelta(days=1))
    token = _register(tournament, "Ana Ruiz", "ana@example.org")
    [received] = smtp_server.wait_for(1)
    assert received["To"] == "ana@example.org" and "Confirm your email" in received["Subject"]
    assert f"/register/confirm/{token}/" in received.get_body(preferencelist=("plain",)).get_content()
    assert f"/register/confirm/{token}/" in received.get_body(preferencelist=("html",)).get_content()


def test_faction_preferences_show_and_save_only_where_the_format_asks(tournament: Any) -> None:
    from tests.factories import make_players
    from tournament import private_links, services

    player = make_players(tournament, 1)[0]
    token = private_links.link_for(player).token
    assert APIClient().get(f"/api/me/{token}/").json()["faction_preferences"] is None
    assert 'id="me-preferences"' not in APIClient().get(f"/me/{token}/").content.decode()
    refused = APIClient().post(f"/api/me/{token}/preferences/", {"factions": ["fremen"]}, format="json")
    assert refused.status_code == 409 and "asks no faction preferences" in refused.json()["detail"]

    services.change_format(tournament, {"players.faction_preferences": True})
    bad = APIClient().post(f"/api/me/{token}/preferences/", {"factions": ["fremen", "ixians"]}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "factions" and "ixians" in bad.json()["detail"]
    player.refresh_from_db()
    assert player.faction_preferences == []
    saved = APIClient().post(f"/me/{token}/", {"action": "preferences", "factions": ["fremen", "", "atreides"]})
    assert saved.status_code == 302
    player.refresh_from_db()
    assert player.faction_preferences == ["fremen", "atreides"]
    shown = APIClient().get(f"/api/me/{token}/").json()["faction_preferences"]
    assert shown["chosen"] == ["fremen", "atreides"] and {"id": "fremen", "name": "Fremen"} in shown["choices"]
    page = APIClient().get(f"/me/{token}/").content.decode()
    assert 'id="me-preferences"' in page and '<option value="fremen" selected>' in page


def test_the_desk_lists_online_registrations_beside_its_own(open_event: Any, client: Any, head_judge: Any) -> None:
    from tournament import services

    services.add_player(open_event, name="José Núñez", email="jose@example.org")
    _register(open_event, "Jose Nunez", "jn@example.org")
    for name in ("Ana Ruiz", "Bo Lin"):
        APIClient().post(f"/api/registrations/{_register(open_event, name, name[:2].lower() + '@example.org')}/confirm/")
    client.force_login(head_judge)
    page = client.get(f"/tournaments/{open_event.pk}/players/").content.decode()
    panel = page[page.index('id="online-registrations"'):page.index('id="status-help"')]
    assert "Jose Nunez" in panel and "email not confirmed yet" in panel and "probably the same person as José Núñez" in panel
    roster = page[page.index('id="roster-body"'):]
    assert "Ana Ruiz" in roster and "Bo Lin" in roster and "Waiting list" in roster and "Give a place" in roster


def test_text_no_page_stores_is_refused_by_field(open_event: Any, client: Any) -> None:
    api = APIClient().post(f"/api/tournaments/{open_event.pk}/registrations/",
                           {"name": "Ana Ruiz", "email": "ana@example.org", "note": "late\x00"}, format="json")
    assert api.status_code == 400 and "note" in str(api.json())
    page = client.post(f"/tournaments/{open_event.pk}/register/",
                       {"name": "Ana Ruiz", "email": "ana@example.org", "club": "Mad\x00rid"})
    assert page.status_code == 400 and "position" in page.content.decode()
    assert not Registration.objects.exists()
