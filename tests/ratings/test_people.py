"""People across tournaments: one person per email (case-insensitive) whichever way a player
registers, a head judge's link and unlink recorded with who, when and why, and the person's
public page and API (never the email)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament
from tests.ratings.helpers import register
from tournament import people, services
from tournament.models import Person, PersonLink, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_events(head_judge: Any) -> tuple[Any, Any]:
    """2025 registers one by one; 2026 imports a CSV whose emails differ only in case."""
    first = make_tournament(name="WBC 2025", head_judge=head_judge)
    second = make_tournament(name="WBC 2026", head_judge=head_judge)
    register(
        first, [("Ada Lovelace", "ada@example.org"), ("Bram Stoker", "bram@example.org"), ("Cy Twombly", "")]
    )
    csv = "name,email,club\nAda L.,ADA@Example.ORG,\nBram Stoker,bram@EXAMPLE.org,\nCy Twombly,,\nDee Dee,dee@example.org,\n"
    services.import_players(second, csv)
    return first, second


def test_overlapping_emails_make_one_person_per_address(two_events: Any) -> None:
    first, second = two_events
    ada_2025 = Player.objects.get(tournament=first, name="Ada Lovelace")
    ada_2026 = Player.objects.get(tournament=second, name="Ada L.")
    assert ada_2025.person_id == ada_2026.person_id
    bram = Player.objects.filter(name="Bram Stoker")
    assert bram.count() == 2 and len({p.person_id for p in bram}) == 1
    # Without an email nobody is guessed: each Cy is a person of their own until a judge links them.
    cys = Player.objects.filter(name="Cy Twombly")
    assert len({p.person_id for p in cys}) == 2
    assert Person.objects.count() == 5  # ada, bram, dee, and two Cys
    assert Person.objects.filter(email__iexact="ada@example.org").count() == 1
    assert not Player.objects.filter(person__isnull=True).exists()


def test_check_in_links_a_player_registered_without_a_person(head_judge: Any) -> None:
    """A player who arrives by check-in (or predates people) is linked by email at check-in."""
    earlier = make_tournament(name="2025", head_judge=head_judge)
    (known,) = register(earlier, [("Ada", "p1@example.org")])
    later = make_tournament(name="2026", head_judge=head_judge)
    (player,) = make_players(later, 1)  # bulk-created, email p1@example.org, no person yet
    assert player.person_id is None
    services.check_in(make_round(later), player)
    player.refresh_from_db()
    assert player.person_id == known.person_id


def test_link_and_unlink_are_recorded(two_events: Any, head_judge: Any) -> None:
    first, second = two_events
    cy_2025 = Player.objects.get(tournament=first, name="Cy Twombly")
    cy_2026 = Player.objects.get(tournament=second, name="Cy Twombly")
    emptied = cy_2026.person_id

    people.link_player(cy_2026, cy_2025.person_id, user=head_judge, reason="same badge number")
    cy_2026.refresh_from_db()
    assert cy_2026.person_id == cy_2025.person_id
    assert not Person.objects.filter(pk=emptied).exists()  # nobody else was that person
    link = PersonLink.objects.get(player=cy_2026, action="link")
    assert (link.user, link.reason, link.from_person, link.to_person) == (
        head_judge,
        "same badge number",
        emptied,
        cy_2025.person_id,
    )
    assert link.details["deleted_person"]["id"] == emptied and link.at is not None

    people.unlink_player(cy_2026, user=head_judge, reason="a namesake after all")
    cy_2026.refresh_from_db()
    assert cy_2026.person_id not in (None, cy_2025.person_id)
    unlink = PersonLink.objects.get(player=cy_2026, action="unlink")
    assert (unlink.user, unlink.reason, unlink.from_person, unlink.to_person) == (
        head_judge,
        "a namesake after all",
        cy_2025.person_id,
        cy_2026.person_id,
    )


def test_link_refusals_name_the_field_and_change_nothing(two_events: Any, judge_client: Any) -> None:
    first, second = two_events
    ada_2026 = Player.objects.get(tournament=second, name="Ada L.")
    bram_2026 = Player.objects.get(tournament=second, name="Bram Stoker")
    before = (ada_2026.person_id, PersonLink.objects.count())
    url = f"/api/players/{ada_2026.pk}/person/"
    missing = judge_client.post(url, {"person": 999999, "reason": "typo"}, format="json")
    assert missing.status_code == 404 and missing.json()["field"] == "person"
    assert "999999" in missing.json()["detail"]
    no_reason = judge_client.post(url, {"person": bram_2026.person_id, "reason": " "}, format="json")
    assert no_reason.status_code == 400 and no_reason.json()["field"] == "reason"
    twin = judge_client.post(url, {"person": bram_2026.person_id, "reason": "x"}, format="json")
    assert twin.status_code == 409 and "Bram Stoker" in twin.json()["detail"]
    not_a_number = judge_client.post(url, {"person": "ada", "reason": "x"}, format="json")
    assert not_a_number.status_code == 400 and "person" in not_a_number.json()
    ada_2026.refresh_from_db()
    assert (ada_2026.person_id, PersonLink.objects.count()) == before


def test_link_api_needs_a_head_judge(two_events: Any, api_client: Any, make_user: Any) -> None:
    cy = Player.objects.filter(name="Cy Twombly").first()
    api_client.force_authenticate(make_user("stranger"))
    response = api_client.post(
        f"/api/players/{cy.pk}/person/", {"person": None, "reason": "x"}, format="json"
    )
    assert response.status_code == 403


def test_link_api_records_the_change(two_events: Any, judge_client: Any, head_judge: Any) -> None:
    first, second = two_events
    cy_2025 = Player.objects.get(tournament=first, name="Cy Twombly")
    cy_2026 = Player.objects.get(tournament=second, name="Cy Twombly")
    response = judge_client.post(
        f"/api/players/{cy_2026.pk}/person/",
        {"person": cy_2025.person_id, "reason": "same person"},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["person"] == cy_2025.person_id
    assert body["changes"][-1]["action"] == "link" and body["changes"][-1]["by"] == head_judge.username


def test_player_api_gains_person(two_events: Any, api_client: Any) -> None:
    ada = Player.objects.get(name="Ada Lovelace")
    body = api_client.get(f"/api/players/{ada.pk}/").json()
    assert body == {
        "id": ada.pk,
        "name": "Ada Lovelace",
        "tournament": ada.tournament_id,
        "club": "",
        "status": "active",
        "person": ada.person_id,
        "current": None,
    }
    assert api_client.get("/api/players/999999/").status_code == 404


def test_person_api_and_page_list_both_tournaments_without_the_email(
    two_events: Any, api_client: Any, client: Any
) -> None:
    first, second = two_events
    ada = Player.objects.get(tournament=first, name="Ada Lovelace")
    body = api_client.get(f"/api/people/{ada.person_id}/").json()
    assert body["id"] == ada.person_id and body["name"] == "Ada Lovelace"
    assert [t["tournament"] for t in body["tournaments"]] == [first.pk, second.pk]
    assert all(
        isinstance(t["games"], int) and isinstance(t["points"], int | float) for t in body["tournaments"]
    )
    rating = body["rating"]
    assert set(rating) == {"mu", "sigma", "ordinal", "games"} and rating["games"] == 0
    assert all(isinstance(v, int | float) for v in rating.values())
    page = client.get(f"/people/{ada.person_id}/").content.decode()
    assert "WBC 2025" in page and "WBC 2026" in page
    assert "ada@example.org" not in str(body).lower() and "ada@example.org" not in page.lower()


def test_initials_when_the_person_asks(two_events: Any, api_client: Any, client: Any) -> None:
    ada = Person.objects.get(email__iexact="ada@example.org")
    ada.listed_by_initials = True
    ada.save()
    assert api_client.get(f"/api/people/{ada.pk}/").json()["name"] == "A. L."
    assert "Lovelace" not in client.get(f"/people/{ada.pk}/").content.decode()
    assert api_client.get("/api/people/", {"search": "Lovelace"}).json()["results"] == []
    found = api_client.get("/api/people/", {"search": "A. L."}).json()["results"]
    assert [p["id"] for p in found] == [ada.pk]


def test_search_people(two_events: Any, api_client: Any) -> None:
    found = api_client.get("/api/people/", {"search": "bram"}).json()["results"]
    assert [p["name"] for p in found] == ["Bram Stoker"]
    assert len(found[0]["tournaments"]) == 2
    too_long = api_client.get("/api/people/", {"search": "x" * 101})
    assert too_long.status_code == 400 and too_long.json()["field"] == "search"
    control = api_client.get("/api/people/", {"search": "a\x00b"})
    assert control.status_code == 400 and control.json()["field"] == "search"


def test_people_search_page_shows_the_refusal_next_to_the_field(client: Any) -> None:
    response = client.get("/people/", {"q": "x" * 101})
    assert response.status_code == 200
    assert 'id="q-error"' in response.content.decode()


def test_tournament_joins_a_series_of_its_format(judge_client: Any) -> None:
    series = judge_client.post("/api/series/", {"name": "WBC Dune", "format": "wbc"}, format="json").json()
    created = judge_client.post(
        "/api/tournaments/", {"name": "WBC 2027", "format": "wbc", "series": series["id"]}, format="json"
    )
    assert created.status_code == 201 and created.json()["series"] == series["id"]
    unknown = judge_client.post(
        "/api/tournaments/", {"name": "X", "format": "wbc", "series": 999999}, format="json"
    )
    assert unknown.status_code == 400 and unknown.json()["field"] == "series"
    other_format = judge_client.post(
        "/api/tournaments/", {"name": "X", "format": "lolv", "series": series["id"]}, format="json"
    )
    assert other_format.status_code == 400 and "series" in other_format.json()
    not_an_id = judge_client.post(
        "/api/tournaments/", {"name": "X", "format": "wbc", "series": "wbc"}, format="json"
    )
    assert not_an_id.status_code == 400 and "series" in not_an_id.json()
    assert judge_client.get("/api/series/999999/").status_code == 404


def test_head_judge_links_on_the_page_with_errors_next_to_the_field(
    two_events: Any, client: Any, head_judge: Any
) -> None:
    first, second = two_events
    cy_2025 = Player.objects.get(tournament=first, name="Cy Twombly")
    cy_2026 = Player.objects.get(tournament=second, name="Cy Twombly")
    client.force_login(head_judge)
    url = f"/players/{cy_2026.pk}/person/"
    refused = client.post(url, {"action": "link", "person": "424242", "reason": "badge"})
    assert refused.status_code == 200
    html = refused.content.decode()
    assert 'id="person-error"' in html and "424242" in html and 'value="badge"' in html
    done = client.post(
        url, {"action": "link", "person": str(cy_2025.person_id), "reason": "badge"}, follow=True
    )
    assert "badge" in done.content.decode()
    cy_2026.refresh_from_db()
    assert cy_2026.person_id == cy_2025.person_id


def test_head_judge_lists_a_person_by_initials_on_the_page(
    two_events: Any, client: Any, head_judge: Any
) -> None:
    ada = Player.objects.get(name="Ada Lovelace")
    client.force_login(head_judge)
    client.post(f"/players/{ada.pk}/person/", {"action": "initials", "listed": "on"})
    assert Person.objects.get(pk=ada.person_id).listed_by_initials
    client.logout()
    page = client.get(f"/people/{ada.person_id}/").content.decode()
    assert "A. L." in page and "Lovelace" not in page


def test_new_tournament_form_joins_a_series_and_keeps_the_input_on_a_refusal(
    client: Any, head_judge: Any
) -> None:
    lolv = people.create_series(name="LoLV season", format="lolv")
    client.force_login(head_judge)
    refused = client.post(
        "/tournaments/new/", {"name": "Vegas 2027", "format": "wbc", "series": str(lolv.pk)}
    )
    html = refused.content.decode()
    assert refused.status_code == 200 and 'id="series-error"' in html and "LoLV season" in html
    assert 'value="Vegas 2027"' in html
    created = client.post(
        "/tournaments/new/", {"name": "Vegas 2027", "format": "lolv", "series": str(lolv.pk)}
    )
    assert created.status_code == 302
    assert list(lolv.tournaments.values_list("name", flat=True)) == ["Vegas 2027"]


def test_editing_an_email_at_the_desk_joins_the_person_of_the_new_address(two_events: Any, head_judge: Any) -> None:
    """The same address is the same person, also when the address is corrected after registering."""
    from tournament import desk

    first, second = two_events
    dee = Player.objects.get(tournament=second, name="Dee Dee")
    cy_2025 = Player.objects.get(tournament=first, name="Cy Twombly")
    desk.update_player(cy_2025, name=cy_2025.name, email="DEE@example.org", user=head_judge)
    cy_2025.refresh_from_db()
    assert cy_2025.person_id == dee.person_id
    link = PersonLink.objects.filter(player=cy_2025).order_by("-pk").first()
    assert link is not None and link.to_person == dee.person_id and "email" in link.reason


def test_an_email_edit_that_would_make_one_person_two_players_is_refused(two_events: Any, head_judge: Any) -> None:
    from tournament import desk

    _, second = two_events
    dee = Player.objects.get(tournament=second, name="Dee Dee")
    bram = Player.objects.get(tournament=second, name="Bram Stoker")
    with pytest.raises(services.Refused) as refused:
        desk.update_player(dee, name=dee.name, email="bram@example.org", user=head_judge)
    assert refused.value.field == "email" and "Bram Stoker" in refused.value.message
    dee.refresh_from_db()
    assert dee.email == "dee@example.org" and dee.person_id != bram.person_id


def test_head_judge_links_by_the_persons_name_and_reads_names_not_numbers(
    two_events: Any, client: Any, head_judge: Any
) -> None:
    """The people page lists names, so the link form takes a name; the page, its message and
    its changes name people, never by a number."""
    first, second = two_events
    cy_2025 = Player.objects.get(tournament=first, name="Cy Twombly")
    cy_2026 = Player.objects.get(tournament=second, name="Cy Twombly")
    client.force_login(head_judge)
    url = f"/players/{cy_2026.pk}/person/"
    page = client.get(url).content.decode()
    assert "Person number" not in page and "Person's name" in page
    nobody = client.post(url, {"action": "link", "person": "Nobody Here", "reason": "badge"})
    assert "nobody on the people page is named" in nobody.content.decode()
    done = client.post(url, {"action": "link", "person": "cy twombly", "reason": "badge"}, follow=True)
    html = done.content.decode()
    cy_2026.refresh_from_db()
    assert cy_2026.person_id == cy_2025.person_id
    assert "is now linked to Cy Twombly" in html
    assert f"person {cy_2025.person_id}" not in html and f"no. {cy_2025.person_id}" not in html
