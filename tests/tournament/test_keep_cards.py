"""LoLV 0.08 kept cards: two buttons per player, recorded in place by the head judge or the
table's judge; refusals name the player and the cards."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament, seat_table
from tournament.models import Seat

pytestmark = pytest.mark.django_db

DEALT = [
    ["fremen", "tleilaxu"],
    ["atreides", "ixians"],
    ["emperor", "choam"],
    ["guild", "ecaz"],
    ["harkonnen", "moritani"],
    ["bene_gesserit", "richese"],
]


@pytest.fixture
def lolv_table(head_judge: Any) -> Any:
    tournament = make_tournament(format="lolv", head_judge=head_judge)
    heat = make_round(tournament, state="planned")
    table = seat_table(heat, make_players(tournament, 6), factions=[""] * 6)
    for seat, dealt in zip(table.seats.order_by("seat"), DEALT, strict=True):
        seat.dealt = dealt
        seat.save()
    return table


def test_0_08_seat_page_offers_each_player_their_two_dealt_cards(
    client: Any, head_judge: Any, lolv_table: Any
) -> None:
    client.force_login(head_judge)
    page = client.get(f"/rounds/{lolv_table.round_id}/seat/").content.decode()
    assert page.count('class="card-button') == 12
    assert ">Tleilaxu<" in page and ">CHOAM<" in page
    assert "Not ready to publish: table 1 (Player 001, Player 002" in page


def test_0_08_htmx_tap_records_the_kept_card_and_answers_the_table(
    client: Any, head_judge: Any, lolv_table: Any
) -> None:
    client.force_login(head_judge)
    first = lolv_table.seats.get(seat=1)
    response = client.post(
        f"/tables/{lolv_table.pk}/keep/",
        {"player": first.player_id, "faction": "tleilaxu"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.startswith('<section class="card keep-table')
    assert "Player 001 keeps Tleilaxu." in html
    assert 'aria-pressed="true">Tleilaxu' in html
    assert Seat.objects.get(player_id=first.player_id).faction == "tleilaxu"


def test_0_08_a_card_not_dealt_is_refused_with_names(client: Any, head_judge: Any, lolv_table: Any) -> None:
    """The kept card is one of the two dealt: the refusal names the player and both cards."""
    client.force_login(head_judge)
    first = lolv_table.seats.get(seat=1)
    response = client.post(
        f"/tables/{lolv_table.pk}/keep/",
        {"player": first.player_id, "faction": "atreides"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "LoLV 0.08: Player 001 (table 1) was dealt Fremen and Tleilaxu; Atreides is not one of them" in html
    assert f"player {first.player_id}" not in html
    assert Seat.objects.get(player_id=first.player_id).faction == ""


def test_0_08_the_tables_own_judge_records_other_judges_may_not(
    client: Any, make_user: Any, lolv_table: Any
) -> None:
    tournament = lolv_table.round.tournament
    mine, other = make_user("mine"), make_user("other")
    tournament.table_judges.add(mine, other)
    lolv_table.judge = mine
    lolv_table.save()
    seat = lolv_table.seats.get(seat=2)
    client.force_login(other)
    assert (
        client.post(
            f"/tables/{lolv_table.pk}/keep/", {"player": seat.player_id, "faction": "ixians"}
        ).status_code
        == 403
    )
    client.force_login(mine)
    assert client.get(f"/tables/{lolv_table.pk}/keep/").status_code == 200
    response = client.post(
        f"/tables/{lolv_table.pk}/keep/", {"player": seat.player_id, "faction": "ixians", "next": "table"}
    )
    assert response.status_code == 302 and response["Location"] == f"/tables/{lolv_table.pk}/keep/"
    assert Seat.objects.get(player_id=seat.player_id).faction == "ixians"


def test_publishing_on_the_page_is_refused_next_to_the_button_with_names(
    client: Any, head_judge: Any, lolv_table: Any
) -> None:
    client.force_login(head_judge)
    response = client.post(f"/rounds/{lolv_table.round_id}/seat/publish/")
    assert response.status_code == 409
    html = response.content.decode()
    publish = html[html.index('id="publish"') : html.index('id="factions"')]
    assert "6 players have no faction yet (table 1: Player 001, Player 002" in publish
    lolv_table.round.refresh_from_db()
    assert lolv_table.round.state == "planned"


def test_0_08_a_table_s_page_refuses_a_player_of_another_table(
    client: Any, make_user: Any, head_judge: Any
) -> None:
    """A table judge records the kept cards of the players at their own table only."""
    tournament = make_tournament(format="lolv", head_judge=head_judge)
    heat = make_round(tournament, state="planned")
    players = make_players(tournament, 12)
    judge = make_user("tj-own")
    tournament.table_judges.add(judge)
    own = seat_table(heat, players[:6], number=1, factions=[""] * 6, judge=judge)
    other = seat_table(heat, players[6:], number=2, factions=[""] * 6)
    for table in (own, other):
        for seat, dealt in zip(table.seats.order_by("seat"), DEALT, strict=True):
            seat.dealt = dealt
            seat.save()
    stranger = other.seats.get(seat=1)
    client.force_login(judge)
    response = client.post(
        f"/tables/{own.pk}/keep/", {"player": stranger.player_id, "faction": "fremen"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert "Player 007 does not sit at table 1" in response.content.decode()
    assert Seat.objects.get(player_id=stranger.player_id).faction == ""
    mine = own.seats.get(seat=1)
    accepted = client.post(
        f"/tables/{own.pk}/keep/", {"player": mine.player_id, "faction": "fremen"}, HTTP_HX_REQUEST="true"
    )
    assert accepted.status_code == 200
    assert Seat.objects.get(player_id=mine.player_id).faction == "fremen"


def test_0_08_not_ready_to_publish_clears_with_the_last_kept_card(
    client: Any, head_judge: Any, lolv_table: Any
) -> None:
    """Every tap answers the publish block too (out of band): it names who is still missing
    and, once the last kept card is recorded, says nothing is missing any more."""
    client.force_login(head_judge)
    seats = list(lolv_table.seats.order_by("seat"))
    for seat, dealt in zip(seats, DEALT, strict=True):
        html = client.post(
            f"/tables/{lolv_table.pk}/keep/",
            {"player": seat.player_id, "faction": dealt[0]},
            HTTP_HX_REQUEST="true",
        ).content.decode()
        assert '<div id="publish" hx-swap-oob="true">' in html
        if seat != seats[-1]:
            assert "Not ready to publish" in html and seats[-1].player.name in html.split('id="publish"')[1]
    assert "Not ready to publish" not in html and "Publish the seating" in html
