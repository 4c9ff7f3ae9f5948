"""A person belongs to the head judges of the tournaments they play in, and to themself: a head
judge of another tournament can neither link their own player to the person (and then undo
their listing by initials), nor learn the person's full name or other tournaments by typing
their email at the desk."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import make_tournament
from tests.ratings.helpers import register
from tournament.models import Person, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada(make_user: Any) -> dict[str, Any]:
    """Ada plays in the Vienna open (run by Vera) and asked to be listed by initials; Mal runs
    another tournament and has nothing to do with her."""
    vera, mal = make_user("vera"), make_user("mal")
    vienna = make_tournament(name="Vienna Open", head_judge=vera)
    elsewhere = make_tournament(name="Mal's Cup", head_judge=mal)
    (player,) = register(vienna, [("Ada Lovelace", "ada@example.org")])
    Person.objects.filter(pk=player.person_id).update(listed_by_initials=True)
    (mallory,) = register(elsewhere, [("Mallory Knox", "")])
    return {
        "vera": vera,
        "mal": mal,
        "player": player,
        "person": player.person_id,
        "mallory": mallory,
        "elsewhere": elsewhere,
        "vienna": vienna,
    }


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_head_judge_of_another_tournament_cannot_link_their_player_to_the_person(
    ada: dict[str, Any],
) -> None:
    response = _api(ada["mal"]).post(
        f"/api/players/{ada['mallory'].pk}/person/",
        {"person": ada["person"], "reason": "same badge"},
        format="json",
    )
    assert response.status_code == 403, response.content
    assert response.json()["field"] == "person"
    assert "Lovelace" not in response.content.decode() and "Vienna" not in response.content.decode()
    assert Player.objects.get(pk=ada["mallory"].pk).person_id != ada["person"]


def test_a_head_judge_of_the_person_s_tournament_links_another_of_their_players(
    ada: dict[str, Any],
) -> None:
    winter = make_tournament(name="Vienna Winter", head_judge=ada["vera"])
    (again,) = register(winter, [("A. Lovelace", "")])
    response = _api(ada["vera"]).post(
        f"/api/players/{again.pk}/person/",
        {"person": ada["person"], "reason": "the same badge"},
        format="json",
    )
    assert response.status_code == 200, response.content


def test_typing_the_person_s_email_reveals_nothing_and_cannot_undo_the_initials(
    client: Any, ada: dict[str, Any]
) -> None:
    (typed,) = register(ada["elsewhere"], [("Whoever", "ada@example.org")])
    assert typed.person_id == ada["person"]  # a returning player keeps their history
    client.force_login(ada["mal"])
    page = client.get(f"/players/{typed.pk}/person/").content.decode()
    assert "Lovelace" not in page and "Vienna" not in page
    assert "A. L." in page
    refused = client.post(f"/players/{typed.pk}/person/", {"action": "initials"})
    assert "only the person, or a head judge of every tournament they play in" in refused.content.decode()
    assert Person.objects.get(pk=ada["person"]).listed_by_initials


def test_the_person_themself_may_show_their_full_name_again(
    client: Any, ada: dict[str, Any], make_user: Any
) -> None:
    register(ada["elsewhere"], [("Ada", "ada@example.org")])
    own = make_user("ada-herself")
    Player.objects.filter(pk=ada["player"].pk).update(user=own)
    client.force_login(ada["vera"])  # Vera no longer runs every tournament Ada plays in
    client.post(f"/players/{ada['player'].pk}/person/", {"action": "initials"})
    assert Person.objects.get(pk=ada["person"]).listed_by_initials
    from tournament import people

    people.list_by_initials(Player.objects.get(pk=ada["player"].pk), False, user=own)
    assert not Person.objects.get(pk=ada["person"]).listed_by_initials
