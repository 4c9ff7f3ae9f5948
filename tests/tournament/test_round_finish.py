"""Closing a round: only a published round whose every table has a filed game report (LoLV 4.01.07)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament, seat_table
from tournament import services
from tournament.models import Round, SeatingAudit

pytestmark = pytest.mark.django_db


def _file_solo_win(table: Any, user: Any) -> None:
    from scoring.services import file_report

    seats = list(table.seats.order_by("seat"))
    rows = [
        {"player": seat.player_id, "result": "solo_stronghold" if seat.seat == 1 else "loss", "strongholds": 3 if seat.seat == 1 else 0}
        for seat in seats
    ]
    file_report(table, {"turns": 6, "ended_by": "victory", "results": rows}, user=user)


@pytest.fixture
def heat(head_judge: Any) -> Any:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 12)
    round_ = make_round(tournament)
    seat_table(round_, players[:6], number=1)
    seat_table(round_, players[6:], number=2)
    return round_


def test_4_01_07_a_round_closes_only_when_every_report_is_filed(heat: Any, head_judge: Any) -> None:
    _file_solo_win(heat.tables.get(number=1), head_judge)
    with pytest.raises(services.Refused, match=r"table\(s\) 2 .* no filed game report") as refused:
        services.finish_round(heat, user=head_judge)
    assert refused.value.rule == "4.01.07"
    heat.refresh_from_db()
    assert heat.state == Round.State.PUBLISHED
    assert not SeatingAudit.objects.filter(round=heat, action=SeatingAudit.Action.FINISH).exists()

    _file_solo_win(heat.tables.get(number=2), head_judge)
    services.finish_round(heat, user=head_judge)
    heat.refresh_from_db()
    assert heat.state == Round.State.FINISHED
    assert SeatingAudit.objects.filter(round=heat, action=SeatingAudit.Action.FINISH, user=head_judge).count() == 1


def test_a_planned_or_finished_round_cannot_be_closed(head_judge: Any) -> None:
    tournament = make_tournament(format="lolv", head_judge=head_judge)
    planned = make_round(tournament, state=Round.State.PLANNED)
    with pytest.raises(services.Refused, match="only a published round can be closed"):
        services.finish_round(planned, user=head_judge)
    finished = make_round(tournament, number=2, state=Round.State.FINISHED)
    with pytest.raises(services.Refused, match="finished"):
        services.finish_round(finished, user=head_judge)


def test_the_dashboard_closes_a_round_or_says_why_not(client: Any, heat: Any, head_judge: Any) -> None:
    client.force_login(head_judge)
    url = f"/tournaments/{heat.tournament_id}/"
    response = client.post(url, {"action": "finish_round", "round": heat.pk, "confirmed": "yes"})
    assert response.status_code == 200
    assert b"no filed game report yet" in response.content
    for table in heat.tables.all():
        _file_solo_win(table, head_judge)
    response = client.post(url, {"action": "finish_round", "round": heat.pk, "confirmed": "yes"})
    assert response.status_code == 302
    heat.refresh_from_db()
    assert heat.state == Round.State.FINISHED


def test_only_a_head_judge_closes_a_round(client: Any, heat: Any, make_user: Any) -> None:
    client.force_login(make_user("passerby"))
    response = client.post(
        f"/tournaments/{heat.tournament_id}/", {"action": "finish_round", "round": heat.pk, "confirmed": "yes"}
    )
    assert response.status_code in (302, 403)
    heat.refresh_from_db()
    assert heat.state == Round.State.PUBLISHED
