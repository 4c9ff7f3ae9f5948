"""What a tournament tells its players by email: the seating when a round is published, the
final's qualification when it is seated, the event report when the final closes."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from dune.engine.ids import CLASSIC_FACTIONS
from foundation.commands import Refused
from mail import outbox
from mail.models import Message
from tests.factories import make_players, make_tournament, seat_table
from tournament import services
from tournament.models import CheckIn, PrivateLink, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(head_judge: Any) -> Any:
    tournament = make_tournament(head_judge=head_judge)
    tournament.time_zone = "America/New_York"
    tournament.save()
    return tournament


def _seated_heat(tournament: Any, players: list[Any]) -> Any:
    heat = Round.objects.create(
        tournament=tournament, number=2, kind="heat", starts_at=datetime(2026, 7, 4, 14, 0, tzinfo=UTC)
    )
    seat_table(heat, players[:5], number=1)
    seat_table(heat, players[5:10], number=4)
    return heat


def test_publishing_a_heat_tells_each_seated_player_where_and_when(event: Any, head_judge: Any) -> None:
    players = make_players(event, 10)
    heat = _seated_heat(event, players)
    services.publish_round(heat, user=head_judge)
    messages = {m.recipient: m for m in Message.objects.filter(kind="seating")}
    assert set(messages) == {p.email for p in players}
    third = messages[players[7].email]
    assert third.subject == "Test WBC open: Heat 2: table 4, seat 3, starts 10:00 EDT"
    assert third.text.startswith("Heat 2: table 4, seat 3, starts 10:00 EDT\n")
    assert "Your faction: " in third.text and "<p>Heat 2: table 4, seat 3, starts 10:00 EDT</p>" in third.html
    token = PrivateLink.objects.get(player=players[7]).token
    assert f"/me/{token}/" in third.text and f'href="http://127.0.0.1:8000/me/{token}/"' in third.html
    assert outbox.stop_url(players[7].email) in third.text
    assert {m.state for m in messages.values()} == {Message.State.KEPT}
    assert {m.tournament_id for m in messages.values()} == {event.pk}


def test_players_without_an_email_or_who_stopped_get_nothing(event: Any, head_judge: Any) -> None:
    players = make_players(event, 10)
    players[0].email = ""
    players[0].save()
    outbox.stop(outbox.stop_token(players[1].email.upper()))
    services.publish_round(_seated_heat(event, players), user=head_judge)
    assert set(Message.objects.values_list("recipient", flat=True)) == {p.email for p in players[2:]}


def test_a_refused_publication_sends_nothing(event: Any, head_judge: Any) -> None:
    players = make_players(event, 10)
    heat = _seated_heat(event, players)
    heat.seats.filter(player=players[0]).update(faction="")
    with pytest.raises(Refused):
        services.publish_round(heat, user=head_judge)
    assert not Message.objects.exists()


def test_an_unscheduled_round_says_no_time(event: Any, head_judge: Any) -> None:
    players = make_players(event, 5)
    heat = Round.objects.create(tournament=event, number=1, kind="heat")
    seat_table(heat, players, number=2)
    services.publish_round(heat, user=head_judge)
    assert Message.objects.get(recipient=players[4].email).subject == "Test WBC open: Heat 1: table 2, seat 5"


def test_the_final_seated_tells_its_players_once_and_its_close_sends_the_event_report(
    event: Any, head_judge: Any
) -> None:
    players = make_players(event, 8)
    heat = Round.objects.create(tournament=event, number=1, kind="heat", state="finished")
    seat_table(heat, players[:6], number=1)
    final = Round.objects.create(tournament=event, number=2, kind="final")
    CheckIn.objects.bulk_create(CheckIn(round=final, player=p) for p in players)
    finalists = [p.pk for p in players[:6]]
    services.seat_final_round(final, user=head_judge, finalists=finalists, seed=1)
    qualified = Message.objects.filter(kind="final_qualified")
    assert sorted(qualified.values_list("recipient", flat=True)) == sorted(p.email for p in players[:6])
    assert "You qualified for the final of Test WBC open." in qualified.first().text
    services.seat_final_round(final, user=head_judge, finalists=finalists, seed=2, reason="a finalist swapped seats")
    assert Message.objects.filter(kind="final_qualified").count() == 6

    for seat, faction in zip(final.seats.order_by("seat"), CLASSIC_FACTIONS, strict=False):
        seat.faction = faction
        seat.save()
    services.publish_round(final, user=head_judge)
    assert Message.objects.filter(kind="seating").count() == 6
    assert Message.objects.filter(kind="seating").first().text.startswith("Final: table 1, seat ")

    final.tables.update(report_filed_at=datetime(2026, 7, 5, tzinfo=UTC))
    services.finish_round(final, user=head_judge)
    reports = Message.objects.filter(kind="event_report")
    assert sorted(reports.values_list("recipient", flat=True)) == sorted(p.email for p in players[:6])
    assert f"/tournaments/{event.pk}/event-report/" in reports.first().text


def test_closing_a_heat_sends_no_event_report(event: Any, head_judge: Any) -> None:
    players = make_players(event, 5)
    heat = Round.objects.create(tournament=event, number=1, kind="heat")
    seat_table(heat, players)
    services.publish_round(heat, user=head_judge)
    heat.tables.update(report_filed_at=datetime(2026, 7, 5, tzinfo=UTC))
    services.finish_round(heat, user=head_judge)
    assert not Message.objects.filter(kind="event_report").exists()


@pytest.mark.django_db(transaction=True)
def test_a_published_seating_reaches_the_players_through_the_worker(
    celery_worker: Any, smtp_server: Any, head_judge: Any
) -> None:
    tournament = make_tournament(head_judge=head_judge)
    tournament.time_zone = "Europe/Madrid"
    tournament.save()
    players = make_players(tournament, 5)
    heat = Round.objects.create(tournament=tournament, number=3, kind="heat",
                                starts_at=datetime(2026, 11, 29, 9, 30, tzinfo=UTC))
    seat_table(heat, players, number=7)
    services.publish_round(heat, user=head_judge)
    received = smtp_server.wait_for(5)
    fifth = next(m for m in received if m["To"] == players[4].email)
    assert fifth["Subject"] == "Test WBC open: Heat 3: table 7, seat 5, starts 10:30 CET"
    assert "Heat 3: table 7, seat 5, starts 10:30 CET" in fifth.get_body(preferencelist=("html",)).get_content()
