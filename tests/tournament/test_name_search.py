"""Every search of names sets accents and case aside ("muller" finds Müller, "nunez" Núñez),
with one function (`dune.text_rules.name_matches`), and says truly why it found nobody."""

from __future__ import annotations

from typing import Any

import pytest

from dune.text_rules import name_matches, search_key
from tests.factories import make_round, seat_table
from tests.scoring.db.conftest import report_for
from tournament import desk, people, services

pytestmark = pytest.mark.django_db


def test_the_search_key_sets_accents_and_case_aside() -> None:
    assert search_key("Müller") == "muller"
    assert search_key("  Núñez  García ") == "nunez garcia"
    assert search_key("STRAßE") == "strasse"
    assert name_matches("muller", "Jörg Müller")
    assert name_matches("nunez garc", "Ana Núñez García")
    assert not name_matches("nunez", "Ana Nuno")
    assert name_matches("", "anything")


@pytest.fixture
def named(tournament: Any) -> dict[str, Any]:
    names = ["Jörg Müller", "Ana Núñez", "Zoë Brontë", "Chloé Dubois", "Åsa Ångström", "Bob Smith"]
    players = [services.add_player(tournament, name=n, email=f"p{i}@example.org") for i, n in enumerate(names)]
    services.add_player(tournament, name="Élodie Unseated")
    return {p.name: p for p in players}


def test_the_desk_and_the_people_searches(tournament: Any, named: dict[str, Any]) -> None:
    assert [p.name for p in desk.search_players(tournament, "muller")] == ["Jörg Müller"]
    assert [p.name for p in desk.search_players(tournament, "NUNEZ")] == ["Ana Núñez"]
    assert "Ana Núñez" in [p.name for p in people.search_people("nunez")]
    assert "Åsa Ångström" in [p.name for p in people.search_people("angstrom")]


def test_standings_find_me_ignores_accents_and_says_why_it_found_nobody(
    client: Any, judge_client: Any, tournament: Any, named: dict[str, Any]
) -> None:
    heat = make_round(tournament)
    table = seat_table(heat, list(named.values()))
    answer = judge_client.post(f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json")
    assert answer.status_code in (200, 201), answer.content
    page = client.get(f"/tournaments/{tournament.pk}/standings/", {"find": "muller"}).content.decode()
    assert "Jörg Müller</a>: rank" in page
    page = client.get(f"/tournaments/{tournament.pk}/standings/", {"find": "elodie"}).content.decode()
    assert "Élodie Unseated has no filed game yet" in page
    page = client.get(f"/tournaments/{tournament.pk}/standings/", {"find": "nobody"}).content.decode()
    assert "No player of this tournament is named “nobody”" in page
    # The round page: found without accents; a registered player not seated is said to be so.
    round_page = client.get(f"/rounds/{heat.pk}/", {"q": "nunez"}).content.decode()
    assert "Ana Núñez" in round_page and "No player" not in round_page
    round_page = client.get(f"/rounds/{heat.pk}/", {"q": "elodie"}).content.decode()
    assert "Élodie Unseated is not seated in this round" in round_page
    round_page = client.get(f"/rounds/{heat.pk}/", {"q": "nobody"}).content.decode()
    assert "No player of this tournament is named “nobody”" in round_page
