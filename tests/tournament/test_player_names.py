"""Player names are stored NFC-normalised with runs of spaces as one; names holding a tab, a
line break, a zero-width character or a bidirectional control are refused naming the field;
the desk and the CSV preview warn when a new name equals a registered one once normalised
and case-folded."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

from tests.factories import make_tournament
from tournament.models import Player

pytestmark = pytest.mark.django_db

REFUSED = {
    "zero-width space": "Anna\u200bSmith",
    "zero-width joiner": "Anna\u200dSmith",
    "right-to-left override": "Anna \u202eSmith",
    "isolate": "Anna \u2066Smith\u2069",
    "tab": "Anna\tSmith",
    "line break": "Anna\nSmith",
}


@pytest.fixture
def tournament(head_judge: Any) -> Any:
    return make_tournament(format="wbc", head_judge=head_judge)


def test_a_name_is_stored_nfc_with_its_spaces_collapsed(judge_client: Any, tournament: Any) -> None:
    typed = "  Jose\u0301   Ruiz "  # "José" typed as e + combining accent, with extra spaces
    response = judge_client.post(f"/api/tournaments/{tournament.pk}/players/", {"name": typed}, format="json")
    assert response.status_code == 201, response.content
    stored = Player.objects.get(tournament=tournament).name
    assert stored == "José Ruiz" and unicodedata.is_normalized("NFC", stored)
    # The same name typed the other way is the same name: already registered.
    again = judge_client.post(
        f"/api/tournaments/{tournament.pk}/players/", {"name": "josé ruiz"}, format="json"
    )
    assert again.status_code == 400 and "already registered" in again.content.decode()


@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
def test_hidden_or_layout_characters_in_a_name_are_refused_naming_the_field(
    judge_client: Any, tournament: Any, name: str
) -> None:
    response = judge_client.post(f"/api/tournaments/{tournament.pk}/players/", {"name": name}, format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert "name" in body and "position" in str(body)
    assert not Player.objects.exists()


def test_the_desk_shows_the_refusal_next_to_the_name_and_keeps_what_was_typed(
    client: Any, head_judge: Any, tournament: Any
) -> None:
    client.force_login(head_judge)
    page = client.post(
        f"/tournaments/{tournament.pk}/players/",
        {"action": "add", "name": "Anna\u200bSmith", "club": "Vienna"},
    ).content.decode()
    assert 'id="name-error"' in page and "zero-width space at position 5" in page
    assert 'value="Vienna"' in page
    assert not Player.objects.exists()


def test_the_desk_warns_when_a_name_equals_a_registered_one_once_normalised(
    client: Any, head_judge: Any, tournament: Any
) -> None:
    Player.objects.create(tournament=tournament, name="Finn Ostrom")
    client.force_login(head_judge)
    response = client.post(
        f"/tournaments/{tournament.pk}/players/",
        {"action": "add", "name": "\uff26\uff49\uff4e\uff4e OSTROM"},
        follow=True,
    )
    page = response.content.decode()
    assert Player.objects.filter(
        name="\uff26\uff49\uff4e\uff4e OSTROM"
    ).exists()  # registered: it may be someone else
    assert "the same name as Finn Ostrom" in page


def test_the_csv_preview_warns_about_a_name_equal_to_a_registered_one_and_refuses_hidden_characters(
    client: Any, head_judge: Any, tournament: Any
) -> None:
    Player.objects.create(tournament=tournament, name="Finn Ostrom")
    client.force_login(head_judge)
    text = "name,email,club\n\uff26\uff49\uff4e\uff4e   ostrom,,\nAnna\u200bSmith,,\nIrulan,,\n"
    page = client.post(
        f"/tournaments/{tournament.pk}/players/import/", {"action": "preview", "csv": text}
    ).content.decode()
    assert "Check: the same name as the registered player Finn Ostrom" in page
    assert "Refused: the name contains a zero-width space at position 5" in page
    assert not Player.objects.exclude(name="Finn Ostrom").exists()
