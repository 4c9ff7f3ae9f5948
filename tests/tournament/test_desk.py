"""The registration desk: search, check-in in place, drop with a confirmation, player edits
recorded, and self check-in by personal link only while the head judge has it open."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_players
from tournament import desk, private_links
from tournament.models import CheckIn, Player, PlayerChange

pytestmark = pytest.mark.django_db


@pytest.fixture
def judge(client: Any, head_judge: Any) -> Any:
    client.force_login(head_judge)
    return client


def test_search_answers_only_the_matching_rows_for_htmx(judge: Any, tournament: Any, heat: Any) -> None:
    make_players(tournament, 3)
    Player.objects.create(tournament=tournament, name="Alia Atreides", club="Arrakeen")
    url = f"/tournaments/{tournament.pk}/players/?round={heat.pk}&q=alia"
    rows = judge.get(url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="roster-body").content.decode()
    assert "Alia Atreides" in rows and "Player 001" not in rows and "<html" not in rows
    assert "Player 001" not in judge.get(url).content.decode()  # without JavaScript: the same filter


def test_check_in_in_place_answers_the_row_and_the_new_count(judge: Any, tournament: Any, heat: Any) -> None:
    players = make_players(tournament, 3)
    response = judge.post(
        f"/tournaments/{tournament.pk}/players/",
        {"action": "check_in", "player": players[1].pk, "round": heat.pk},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith(f'<tr class="status-active" id="player-{players[1].pk}">')
    assert "Player 002 is checked in for Heat 1." in html
    assert '<strong id="checked-count" hx-swap-oob="true">1</strong>' in html
    assert CheckIn.objects.filter(round=heat, player=players[1]).exists()


def test_plain_check_in_redirects_back_to_the_same_player(judge: Any, tournament: Any, heat: Any) -> None:
    players = make_players(tournament, 2)
    response = judge.post(
        f"/tournaments/{tournament.pk}/players/",
        {"action": "check_in", "player": players[0].pk, "round": heat.pk, "q": "Player"},
    )
    assert response.status_code == 302
    assert response["Location"].endswith(f"?round={heat.pk}&q=Player#player-{players[0].pk}")


def test_drop_needs_a_confirmation(judge: Any, tournament: Any, heat: Any) -> None:
    player = make_players(tournament, 1)[0]
    url = f"/tournaments/{tournament.pk}/players/"
    page = judge.post(url, {"action": "dropped", "player": player.pk, "round": heat.pk}).content.decode()
    assert f"Yes, drop {player.name}" in page
    player.refresh_from_db()
    assert player.status == "active"
    judge.post(
        url,
        {"action": "dropped", "player": player.pk, "round": heat.pk, "confirmed": "yes"},
        HTTP_HX_REQUEST="true",
    )
    player.refresh_from_db()
    assert player.status == "dropped"


def test_editing_a_player_records_each_change(judge: Any, tournament: Any, head_judge: Any) -> None:
    alia, paul = make_players(tournament, 2)
    url = f"/tournaments/{tournament.pk}/players/{alia.pk}/edit/"
    refused = judge.post(url, {"name": "Player 002", "email": "x@example.org"})
    assert refused.status_code == 400 and "already registered" in refused.content.decode()
    assert 'value="Player 002"' in refused.content.decode()  # what was typed stays
    response = judge.post(
        url,
        {
            "name": "Alia Atreides",
            "email": alia.email,
            "club": "Sietch Tabr",
            "household": "",
            "keep_apart": [paul.pk],
        },
    )
    assert response.status_code == 302
    alia.refresh_from_db()
    assert (alia.name, alia.club) == ("Alia Atreides", "Sietch Tabr")
    assert list(alia.keep_apart.all()) == [paul]
    change = PlayerChange.objects.get(player=alia)
    assert change.user == head_judge
    assert change.changes == {
        "name": ["Player 001", "Alia Atreides"],
        "club": ["", "Sietch Tabr"],
        "keep_apart": [[], ["Player 002"]],
    }
    assert "name “Player 001” → “Alia Atreides”" in judge.get(url).content.decode()


def test_self_check_in_works_only_while_open(client: Any, judge: Any, tournament: Any, heat: Any) -> None:
    player = make_players(tournament, 1)[0]
    link = f"/check-in/{player.pk}/{desk.check_in_token(player)}/"
    client.logout()
    assert client.get(f"/check-in/{player.pk}/wrongtoken/").status_code == 404
    closed = client.post(link)
    assert closed.status_code == 409 and "not open" in closed.content.decode()
    assert not CheckIn.objects.filter(player=player).exists()
    desk.set_self_check_in(heat, open=True)
    done = client.post(link).content.decode()
    assert "you are checked in for Heat 1" in done
    assert CheckIn.objects.filter(round=heat, player=player).exists()


def test_badges_carry_a_qr_code_of_each_private_link(judge: Any, tournament: Any) -> None:
    players = make_players(tournament, 2)
    page = judge.get(f"/tournaments/{tournament.pk}/players/badges/").content.decode()
    assert page.count("<svg") == 2
    assert f"/me/{private_links.link_for(players[0]).token}/" in page
    assert "/accounts/login" not in page


def test_check_in_all_checks_each_player_in_as_one_check_in_does(judge: Any, tournament: Any, heat: Any) -> None:
    """"Check in all" goes through the check-in service: every active player is checked in and
    linked to their person (as one check-in links them), a withdrawn one is not."""
    players = make_players(tournament, 3)
    Player.objects.filter(pk__in=[p.pk for p in players]).update(person=None)
    Player.objects.filter(pk=players[2].pk).update(status=Player.Status.WITHDRAWN)
    CheckIn.objects.create(round=heat, player=players[0])
    judge.post(f"/tournaments/{tournament.pk}/players/",
               {"action": "check_in_all", "round": heat.pk, "confirmed": "yes"})
    checked = set(CheckIn.objects.filter(round=heat).values_list("player_id", flat=True))
    assert checked == {players[0].pk, players[1].pk}
    linked = dict(Player.objects.filter(pk__in=[p.pk for p in players]).values_list("pk", "person_id"))
    assert linked[players[0].pk] is not None and linked[players[1].pk] is not None
    assert linked[players[2].pk] is None
