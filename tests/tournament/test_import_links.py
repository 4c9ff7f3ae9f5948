"""A CSV import says which rows its emails link to people already known, and the head judge
decides for a row registered under another name."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_tournament
from tournament import services
from tournament.models import PersonLink, Player

pytestmark = pytest.mark.django_db

CSV = "name,email,club\nAda Lovelace,ada@example.org,Analytical\nAugusta King,AUGUSTA@example.org,\nNew Comer,new@example.org,\n"


@pytest.fixture
def known(head_judge: Any) -> dict[str, Player]:
    earlier = make_tournament(name="Last year", head_judge=head_judge)
    ada = services.add_player(earlier, name="Ada Lovelace", email="ada@example.org")
    ada_king = services.add_player(earlier, name="Ada King", email="augusta@example.org")
    return {"ada": ada, "king": ada_king}


def test_the_preview_names_the_person_each_email_links_to(
    client: Any, head_judge: Any, known: dict[str, Player]
) -> None:
    tournament = make_tournament(head_judge=head_judge)
    client.force_login(head_judge)
    page = client.post(
        f"/tournaments/{tournament.pk}/players/import/", {"action": "preview", "csv": CSV}
    ).content.decode()
    ada, king = known["ada"].person_id, known["king"].person_id
    assert "Will be linked to Ada Lovelace, registered before with the same email" in page
    assert "Will be linked to Ada King, registered before with the same email, registered under another name" in page
    assert f'data-person="{ada}"' in page and f'data-person="{king}"' in page
    assert "person " + str(ada) not in page
    assert "New person" in page
    assert "2 rows will be linked by email" in page and "1 under another name" in page
    assert not Player.objects.filter(tournament=tournament).exists()


def test_the_api_preview_says_so_too(judge_client: Any, head_judge: Any, known: dict[str, Player]) -> None:
    tournament = make_tournament(head_judge=head_judge)
    body = judge_client.post(
        f"/api/tournaments/{tournament.pk}/players/import/", {"csv": CSV, "preview": True}, format="json"
    ).json()
    rows = {r["name"]: r for r in body["rows"]}
    assert rows["Augusta King"]["person"] == known["king"].person_id and rows["Augusta King"]["other_name"]
    assert rows["Ada Lovelace"]["person"] == known["ada"].person_id and not rows["Ada Lovelace"]["other_name"]
    assert rows["New Comer"]["person"] is None and rows["New Comer"]["link"] == "new person"


def test_a_row_the_head_judge_marks_as_a_different_person_is_not_merged(
    client: Any, head_judge: Any, known: dict[str, Player]
) -> None:
    tournament = make_tournament(head_judge=head_judge)
    client.force_login(head_judge)
    client.post(
        f"/tournaments/{tournament.pk}/players/import/", {"action": "import", "csv": CSV, "separate": ["3"]}
    )
    augusta = Player.objects.get(tournament=tournament, name="Augusta King")
    ada = Player.objects.get(tournament=tournament, name="Ada Lovelace")
    assert ada.person_id == known["ada"].person_id
    assert augusta.person_id != known["king"].person_id
    change = PersonLink.objects.filter(player=augusta).last()
    assert change.action == "unlink" and "line 3" in change.reason and change.user == head_judge
