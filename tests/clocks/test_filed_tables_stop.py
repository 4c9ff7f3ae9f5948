"""A filed report ends the table's game: its clock stops (for the event report it is a game
with a clock record), closing the round stops every clock of its tables, a player's "Now" never
points at a table whose report is filed, and the table page after filing leads with the filing."""

from __future__ import annotations

from typing import Any

import pytest

from clocks import services as clocks
from clocks.models import TableClock
from dune import clock_limits as limits
from tests.clocks.conftest import seated
from tests.scoring.db.conftest import report_for
from tournament import services
from tournament.models import Round

pytestmark = pytest.mark.django_db


def _file(judge_client: Any, table: Any) -> None:
    answer = judge_client.post(f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json")
    assert answer.status_code in (200, 201), answer.content


@pytest.fixture
def heat(head_judge: Any) -> Any:
    round_ = seated(format="wbc", size=6, tables=2)
    round_.tournament.head_judges.add(head_judge)
    Round.objects.filter(pk=round_.pk).update(state=Round.State.PUBLISHED)
    for table in round_.tables.all():
        clocks.start(table, user=head_judge)
    return round_


def test_filing_a_report_stops_the_tables_clock(judge_client: Any, heat: Any) -> None:
    first, second = heat.tables.order_by("number")
    _file(judge_client, first)
    assert TableClock.objects.get(table=first).state == limits.FINISHED
    assert TableClock.objects.get(table=first).finished_at is not None
    assert TableClock.objects.get(table=second).state != limits.FINISHED


def test_closing_the_round_stops_every_clock_of_its_tables(judge_client: Any, head_judge: Any, heat: Any) -> None:
    tables = list(heat.tables.order_by("number"))
    for table in tables:
        _file(judge_client, table)
    # A clock a head judge restarted after the filing (or one the filing missed) stops with the round.
    TableClock.objects.filter(table=tables[1]).update(state=limits.RUNNING, finished_at=None)
    services.finish_round(heat, user=head_judge)
    assert set(TableClock.objects.filter(table__round=heat).values_list("state", flat=True)) == {limits.FINISHED}


def test_pages_do_not_say_running_for_a_filed_table(client: Any, judge_client: Any, heat: Any) -> None:
    first = heat.tables.order_by("number").first()
    _file(judge_client, first)
    player = first.seats.first().player
    page = client.get(f"/tournaments/{heat.tournament_id}/players/{player.pk}/").content.decode()
    assert "Now:" not in page and "Running" not in page
    round_page = client.get(f"/rounds/{heat.pk}/").content.decode()
    row = round_page[round_page.index(f'id="table-{first.number}"') :] if f'id="table-{first.number}"' in round_page else ""
    assert "Running" not in row[:2000]


def test_the_table_page_after_filing_leads_with_the_filing(judge_client: Any, client: Any, head_judge: Any, heat: Any) -> None:
    first = heat.tables.order_by("number").first()
    _file(judge_client, first)
    client.force_login(head_judge)
    page = client.get(f"/tables/{first.pk}/").content.decode()
    assert "Setup: where does the storm start?" not in page
    assert "The game is over: its report is filed" in page


def test_the_room_screen_names_the_champion_after_the_final(client: Any, judge_client: Any, head_judge: Any) -> None:
    from tests.factories import make_players, make_round, make_tournament, seat_table

    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 6)
    heat = make_round(tournament)
    _file(judge_client, seat_table(heat, players))
    final = make_round(tournament, number=2, kind="final")
    table = seat_table(final, players)
    _file(judge_client, table)
    page = client.get(f"/tournaments/{tournament.pk}/screen/").content.decode()
    champion = page.split('data-panel="champion"')[1].split("</section>")[0]
    assert players[0].name in champion
    assert "Report filed" in page and "Not started" not in page
