"""No-shows per round: a player who does not come to a round is marked a no-show for it (not a
dropout: nothing about a disqualification is said) and taken off their published table with a
reason; the table's size rule is checked and the options said in words; a latecomer is seated
at the short table first. `POST /api/rounds/{id}/no-shows/` and
`DELETE /api/rounds/{id}/no-shows/{player}/`; the state is `no_show` in the `states` lists."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from tests.factories import make_players
from tournament.models import CheckIn, NoShow, Player, Seat, Table

pytestmark = pytest.mark.django_db


def _published(judge_client: Any, heat: Any, checked_in: Any, count: int = 10) -> list[Any]:
    players = checked_in(count)
    assert judge_client.post(f"/api/rounds/{heat.pk}/seating/", {"seed": 3}, format="json").status_code == 200
    assert judge_client.post(f"/api/rounds/{heat.pk}/seating/publish/").status_code == 200
    return players


def _states(client: Any, tournament: Any) -> dict[int, str]:
    body = client.get(f"/api/tournaments/{tournament.pk}/finalists/").json()
    return {s["player"]: s["state"] for s in body["states"]}


def test_wbc_a_no_show_is_taken_off_a_published_table_and_is_not_a_dropout(
    judge_client: Any, tournament: Any, heat: Any, checked_in: Any
) -> None:
    players = _published(judge_client, heat, checked_in)  # two tables of five
    seat = Seat.objects.get(round=heat, table__number=2, seat=2)
    gone = seat.player
    response = judge_client.post(
        f"/api/rounds/{heat.pk}/no-shows/", {"player": gone.pk, "reason": "not at the table at 9:15"}, format="json"
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["player"] == gone.pk and body["table_number"] == 2
    # The table size rule (WBC 2018: tables of five or six) is checked and the options said.
    assert "Table 2 now has 4 players" in body["warning"] and "latecomer" in body["warning"]
    table = Table.objects.get(round=heat, number=2)
    assert [s.seat for s in table.seats.order_by("seat")] == [1, 2, 3, 4]
    assert seat.faction in table.undrawn
    assert not CheckIn.objects.filter(round=heat, player=gone).exists()
    gone.refresh_from_db()
    assert gone.status == Player.Status.ACTIVE and not gone.disqualified
    states = _states(judge_client, tournament)
    assert states[gone.pk] == "no_show" and states[players[0].pk] == "seated"
    page = judge_client.get(f"/tournaments/{tournament.pk}/players/{gone.pk}/").content.decode()
    assert "Disqualified" not in page and "dropped" not in page.lower()


def test_wbc_a_latecomer_is_seated_at_the_short_table_first(
    judge_client: Any, tournament: Any, heat: Any, checked_in: Any
) -> None:
    _published(judge_client, heat, checked_in)  # two tables of five
    gone = Seat.objects.get(round=heat, table__number=2, seat=3).player
    judge_client.post(f"/api/rounds/{heat.pk}/no-shows/", {"player": gone.pk, "reason": "absent"}, format="json")
    [late] = make_players(tournament, 1, prefix="Late")
    answer = judge_client.post(f"/api/rounds/{heat.pk}/seating/latecomer/", {"player": late.pk}, format="json")
    assert answer.status_code == 200, answer.json()
    seated = Seat.objects.get(round=heat, player=late)
    assert seated.table.number == 2 and seated.seat == 5 and seated.table.seats.count() == 5


def test_undoing_a_no_show(judge_client: Any, tournament: Any, heat: Any, checked_in: Any) -> None:
    _published(judge_client, heat, checked_in)
    gone = Seat.objects.get(round=heat, table__number=1, seat=1).player
    judge_client.post(f"/api/rounds/{heat.pk}/no-shows/", {"player": gone.pk, "reason": "absent"}, format="json")
    response = judge_client.delete(f"/api/rounds/{heat.pk}/no-shows/{gone.pk}/")
    assert response.status_code == 200 and response.json()["no_shows"] == []
    assert not NoShow.objects.exists()
    assert _states(judge_client, tournament)[gone.pk] == "registered"  # not seated: a latecomer now
    assert judge_client.delete(f"/api/rounds/{heat.pk}/no-shows/{gone.pk}/").status_code == 404


def test_no_show_refusals_name_the_field(
    judge_client: Any, api_client: Any, tournament: Any, heat: Any, checked_in: Any, make_user: Any
) -> None:
    _published(judge_client, heat, checked_in)
    first = Seat.objects.get(round=heat, table__number=1, seat=1)
    url = f"/api/rounds/{heat.pk}/no-shows/"
    missing = judge_client.post(url, {"player": first.player_id}, format="json")
    assert missing.status_code == 400 and missing.json()["field"] == "reason"
    nobody = judge_client.post(url, {"player": 999999, "reason": "x"}, format="json")
    assert nobody.status_code == 400 and nobody.json()["field"] == "player"
    Table.objects.filter(pk=first.table_id).update(game_started_at=timezone.now())
    begun = judge_client.post(url, {"player": first.player_id, "reason": "x"}, format="json")
    assert begun.status_code == 409 and "game record" in begun.json()["detail"]
    other = Seat.objects.get(round=heat, table__number=2, seat=1).player
    assert judge_client.post(url, {"player": other.pk, "reason": "x"}, format="json").status_code == 200
    again = judge_client.post(url, {"player": other.pk, "reason": "x"}, format="json", HTTP_IDEMPOTENCY_KEY="k2")
    assert again.status_code == 409 and other.name in again.json()["detail"]
    api_client.force_authenticate(make_user("someone"))
    assert api_client.post(url, {"player": first.player_id, "reason": "x"}, format="json").status_code == 403


def test_the_desk_marks_and_undoes_a_no_show(client: Any, head_judge: Any, tournament: Any, heat: Any, checked_in: Any, judge_client: Any) -> None:
    _published(judge_client, heat, checked_in)
    gone = Seat.objects.get(round=heat, table__number=1, seat=1).player
    client.force_login(head_judge)
    desk = f"/tournaments/{tournament.pk}/players/?round={heat.pk}"
    assert f'aria-label="Mark {gone.name} a no-show' in client.get(desk).content.decode()
    empty = client.post(desk, {"action": "no_show", "player": gone.pk, "round": heat.pk, "reason": ""}, HTTP_HX_REQUEST="true")
    assert empty.status_code == 400 and "reason" in empty.content.decode()
    done = client.post(desk, {"action": "no_show", "player": gone.pk, "round": heat.pk, "reason": "absent"}, HTTP_HX_REQUEST="true")
    html = done.content.decode()
    assert done.status_code == 200 and "No-show" in html and "Table 1 now has 4 players" in html
    undone = client.post(desk, {"action": "clear_no_show", "player": gone.pk, "round": heat.pk}, HTTP_HX_REQUEST="true")
    assert undone.status_code == 200 and not NoShow.objects.exists()


def test_the_seat_page_takes_a_no_show_off_the_table(
    client: Any, head_judge: Any, tournament: Any, heat: Any, checked_in: Any, judge_client: Any
) -> None:
    _published(judge_client, heat, checked_in)
    gone = Seat.objects.get(round=heat, table__number=2, seat=1).player
    client.force_login(head_judge)
    url = f"/rounds/{heat.pk}/seat/no-show/"
    refused = client.post(url, {"player": gone.pk, "reason": ""})
    assert refused.status_code == 400 and "give a reason for the no-show" in refused.content.decode()
    done = client.post(url, {"player": gone.pk, "reason": "not here"}, follow=True).content.decode()
    assert f"{gone.name} is a no-show for Heat 1 and was taken off table 2." in done
    assert "Table 2 now has 4 players" in done and "Marked a no-show" in done
