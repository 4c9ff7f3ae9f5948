"""Editing after creation: a tournament's name, time zone and series, a round's kind and start,
deleting a round not yet seated, removing a table judge; each refused, saying why, where it
would change what was played (a seated round, a filed report, a table in play)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from tests.factories import make_players, make_round, seat_table
from tournament import people
from tournament.models import CheckIn, Round, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def judge(client: Any, head_judge: Any) -> Any:
    client.force_login(head_judge)
    return client


def _file(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(report_filed_at=timezone.now())


# ----------------------------------------------------------------------------- the tournament


def test_the_dashboard_links_the_edit_pages(judge: Any, tournament: Any, heat: Any) -> None:
    page = judge.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/edit/"' in page
    assert f'href="/rounds/{heat.pk}/edit/"' in page


def test_rename_and_move_the_time_zone_keeping_the_unplayed_rounds_wall_clock(judge: Any, tournament: Any) -> None:
    tournament.time_zone = "Europe/London"
    tournament.save()
    start = datetime(2026, 7, 22, 13, 0, tzinfo=ZoneInfo("Europe/London"))
    played = make_round(tournament, number=1)
    played.starts_at = start
    played.save()
    _file(seat_table(played, make_players(tournament, 5)))
    later = Round.objects.create(tournament=tournament, number=2, kind="heat", starts_at=start)
    answer = judge.post(
        f"/tournaments/{tournament.pk}/edit/", {"action": "edit", "name": "WBC 2026", "time_zone": "America/New_York"}
    )
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{tournament.pk}/"
    tournament.refresh_from_db()
    assert (tournament.name, tournament.time_zone) == ("WBC 2026", "America/New_York")
    played.refresh_from_db()
    later.refresh_from_db()
    assert played.starts_at == start  # under way: the moment it started
    assert later.starts_at is not None
    local = timezone.localtime(later.starts_at, ZoneInfo("America/New_York"))
    assert (local.hour, local.minute) == (13, 0)  # not under way: the schedule's wall-clock time
    shown = judge.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Times are now in America/New York (was Europe/London)" in shown


def test_edit_refusals_name_the_field_and_change_nothing(judge: Any, tournament: Any) -> None:
    url = f"/tournaments/{tournament.pk}/edit/"
    nameless = judge.post(url, {"action": "edit", "name": "  ", "time_zone": "Europe/Paris"})
    assert nameless.status_code == 200 and "a tournament needs a name" in nameless.content.decode()
    nowhere = judge.post(url, {"action": "edit", "name": "X", "time_zone": "Mars/Olympus"})
    assert "unknown time zone" in nowhere.content.decode()
    tournament.refresh_from_db()
    assert tournament.name != "X"
    assert judge.get(url).status_code == 200  # the refusal's address shows the form


def test_the_language_of_the_sheets_and_room_screen_is_chosen_on_the_edit_page(judge: Any, tournament: Any) -> None:
    url = f"/tournaments/{tournament.pk}/edit/"
    form = judge.get(url).content.decode()
    assert '<select id="id_language" name="language"' in form
    assert '<option value="en" lang="en" selected>English</option>' in form
    assert '<option value="de" lang="de">Deutsch</option>' in form
    fields = {"action": "edit", "name": tournament.name, "time_zone": tournament.time_zone}
    answer = judge.post(url, {**fields, "language": "de"})
    assert answer.status_code == 302
    tournament.refresh_from_db()
    assert tournament.language == "de"
    assert '<option value="de" lang="de" selected>Deutsch</option>' in judge.get(url).content.decode()
    refused = judge.post(url, {**fields, "language": "tlh"})
    assert 'id="language-error"' in refused.content.decode() and "expected one of en, es, fr, de" in refused.content.decode()
    tournament.refresh_from_db()
    assert tournament.language == "de"


def test_the_edit_pages_need_a_head_judge(client: Any, tournament: Any, heat: Any, make_user: Any) -> None:
    client.force_login(make_user("someone"))
    assert client.get(f"/tournaments/{tournament.pk}/edit/").status_code == 403
    assert client.post(f"/rounds/{heat.pk}/edit/", {"action": "delete", "confirmed": "yes"}).status_code == 403
    assert Round.objects.filter(pk=heat.pk).exists()


def test_add_an_existing_tournament_to_a_series_its_owner_manages(
    judge: Any, tournament: Any, head_judge: Any, make_user: Any
) -> None:
    mine = people.create_series(name="WBC Dune", format="wbc", owner=head_judge)
    theirs = people.create_series(name="Their Dune", format="wbc", owner=make_user("other", is_staff=True))
    url = f"/tournaments/{tournament.pk}/edit/"
    page = judge.get(url).content.decode()
    assert "WBC Dune" in page
    answer = judge.post(url, {"action": "series", "series": str(mine.pk)})
    assert answer.status_code == 302
    tournament.refresh_from_db()
    assert tournament.series_id == mine.pk
    # A head judge who is not the series' owner may not add to it.
    head = make_user("plainhead", is_staff=True)
    tournament.head_judges.add(head)
    judge.force_login(head)
    refused = judge.post(url, {"action": "series", "series": str(theirs.pk)})
    assert "belongs to another organiser" in refused.content.decode()
    tournament.refresh_from_db()
    assert tournament.series_id == mine.pk


def test_a_tournament_whose_results_count_in_a_series_stays_there(
    tournament: Any, head_judge: Any, heat: Any
) -> None:
    from tournament import services

    first = people.create_series(name="WBC Dune", format="wbc", owner=head_judge)
    second = people.create_series(name="Other Dune", format="wbc", owner=head_judge)
    services.join_series(tournament, first.pk, user=head_judge)
    _file(seat_table(heat, make_players(tournament, 5)))
    with pytest.raises(services.Refused) as refused:
        services.join_series(tournament, second.pk, user=head_judge)
    assert refused.value.status == 409 and "with 1 filed game report;" in refused.value.message
    lolv = people.create_series(name="LoLV", format="lolv", owner=head_judge)
    with pytest.raises(services.Refused, match="series of lolv tournaments"):
        services.join_series(tournament, lolv.pk, user=head_judge)


# ----------------------------------------------------------------------------- rounds


def test_change_a_rounds_time_and_kind_before_seating(judge: Any, tournament: Any, heat: Any) -> None:
    url = f"/rounds/{heat.pk}/edit/"
    assert judge.get(url).status_code == 200
    answer = judge.post(url, {"action": "edit", "kind": "final", "starts_at": "2026-07-23T18:30"})
    assert answer.status_code == 302
    heat.refresh_from_db()
    assert heat.kind == "final"
    assert heat.starts_at is not None and timezone.localtime(heat.starts_at, ZoneInfo(tournament.time_zone)).hour == 18
    assert "Heat 1 is now Final" in judge.get(f"/tournaments/{tournament.pk}/").content.decode()


def test_a_seated_rounds_kind_is_refused_saying_why(judge: Any, tournament: Any, heat: Any) -> None:
    table = seat_table(heat, make_players(tournament, 5))
    url = f"/rounds/{heat.pk}/edit/"
    seated = judge.post(url, {"action": "edit", "kind": "final", "starts_at": ""})
    assert seated.status_code == 200 and "already seated" in seated.content.decode()
    _file(table)
    filed = judge.post(url, {"action": "edit", "kind": "final", "starts_at": ""})
    assert "1 filed game report" in filed.content.decode()
    heat.refresh_from_db()
    assert heat.kind == "heat"
    # The start time changes no result: it may still change.
    moved = judge.post(url, {"action": "edit", "kind": "heat", "starts_at": "2026-07-22T09:00"})
    assert moved.status_code == 302


def test_a_second_final_and_an_unreadable_start_are_refused(judge: Any, tournament: Any, heat: Any) -> None:
    Round.objects.create(tournament=tournament, number=2, kind="final")
    url = f"/rounds/{heat.pk}/edit/"
    assert "already has a final" in judge.post(url, {"action": "edit", "kind": "final"}).content.decode()
    unreadable = judge.post(url, {"action": "edit", "kind": "heat", "starts_at": "2026-02-30T10:00"})
    assert "cannot read the start time" in unreadable.content.decode()


def test_delete_an_unseated_round_after_confirming(judge: Any, tournament: Any, heat: Any) -> None:
    later = Round.objects.create(tournament=tournament, number=2, kind="heat")
    final = Round.objects.create(tournament=tournament, number=3, kind="final")
    CheckIn.objects.create(round=later, player=make_players(tournament, 1)[0])
    url = f"/rounds/{later.pk}/edit/"
    asked = judge.post(url, {"action": "delete"})
    assert asked.status_code == 200 and "Delete Heat 2?" in asked.content.decode()
    assert Round.objects.filter(pk=later.pk).exists()
    done = judge.post(url, {"action": "delete", "confirmed": "yes"})
    assert done.status_code == 302
    assert not Round.objects.filter(pk=later.pk).exists()
    final.refresh_from_db()
    assert final.number == 2


def test_a_seated_round_is_not_deleted(judge: Any, tournament: Any, heat: Any) -> None:
    seat_table(heat, make_players(tournament, 5))
    refused = judge.post(f"/rounds/{heat.pk}/edit/", {"action": "delete", "confirmed": "yes"})
    assert refused.status_code == 200 and "already seated" in refused.content.decode()
    assert Round.objects.filter(pk=heat.pk).exists()
    # Nor one whose deletion would rename a seated round after it.
    earlier_plan = Round.objects.create(tournament=tournament, number=2, kind="heat")
    later = make_round(tournament, number=3)
    seat_table(later, make_players(tournament, 5, prefix="Late"))
    renames = judge.post(f"/rounds/{earlier_plan.pk}/edit/", {"action": "delete", "confirmed": "yes"})
    assert "Heat 3 after it is already seated" in renames.content.decode()


# ----------------------------------------------------------------------------- judges


def test_remove_a_table_judge_opens_their_tables(
    judge: Any, tournament: Any, heat: Any, make_user: Any
) -> None:
    gone = make_user("leaving")
    tournament.table_judges.add(gone)
    waiting = seat_table(heat, make_players(tournament, 5), number=1, judge=gone)
    filed = seat_table(heat, make_players(tournament, 5, prefix="Filed"), number=2, judge=gone)
    _file(filed)
    url = f"/tournaments/{tournament.pk}/"
    asked = judge.post(url, {"action": "remove_judge", "username": "leaving"})
    assert "Remove leaving as a table judge?" in asked.content.decode()
    assert tournament.table_judges.filter(pk=gone.pk).exists()
    done = judge.post(url, {"action": "remove_judge", "username": "leaving", "confirmed": "yes"})
    assert done.status_code == 302
    assert not tournament.table_judges.filter(pk=gone.pk).exists()
    waiting.refresh_from_db()
    filed.refresh_from_db()
    assert waiting.judge_id is None  # open to every table judge
    assert filed.judge_id == gone.pk  # they judged it: the filed table keeps their name


def test_a_judge_at_a_table_in_play_stays_until_it_has_another(
    judge: Any, tournament: Any, heat: Any, make_user: Any
) -> None:
    busy = make_user("busy")
    tournament.table_judges.add(busy)
    table = seat_table(heat, make_players(tournament, 5), judge=busy)
    Table.objects.filter(pk=table.pk).update(game_started_at=timezone.now())
    refused = judge.post(
        f"/tournaments/{tournament.pk}/", {"action": "remove_judge", "username": "busy", "confirmed": "yes"}
    )
    assert refused.status_code == 200
    assert "Heat 1 table 1, in play" in refused.content.decode()
    assert tournament.table_judges.filter(pk=busy.pk).exists()


# ----------------------------------------------------------------------------- the API


def test_api_edits_a_tournament_and_its_rounds(
    judge_client: Any, tournament: Any, heat: Any, head_judge: Any, make_user: Any
) -> None:
    series = people.create_series(name="WBC Dune", format="wbc", owner=head_judge)
    answer = judge_client.patch(
        f"/api/tournaments/{tournament.pk}/",
        {"name": "WBC 2026", "time_zone": "America/New_York", "series": series.pk},
        format="json",
    )
    assert answer.status_code == 200
    body = answer.json()
    assert (body["name"], body["time_zone"], body["series"]) == ("WBC 2026", "America/New_York", series.pk)
    bad = judge_client.patch(f"/api/tournaments/{tournament.pk}/", {"time_zone": "Nowhere"}, format="json")
    assert bad.status_code == 400 and "time_zone" in bad.json()
    from rest_framework.test import APIClient

    someone = APIClient()
    someone.force_authenticate(make_user("someone"))
    assert someone.patch(f"/api/tournaments/{tournament.pk}/", {"name": "Mine"}, format="json").status_code == 403

    moved = judge_client.patch(
        f"/api/rounds/{heat.pk}/", {"kind": "final", "starts_at": "2026-07-23T18:30:00-04:00"}, format="json"
    )
    assert moved.status_code == 200 and moved.json()["name"] == "Final"
    seat_table(heat, make_players(tournament, 5))
    refused = judge_client.patch(f"/api/rounds/{heat.pk}/", {"kind": "heat"}, format="json")
    assert refused.status_code == 409 and refused.json()["field"] == "kind" and "seated" in refused.json()["detail"]
    assert judge_client.delete(f"/api/rounds/{heat.pk}/").status_code == 409
    spare = Round.objects.create(tournament=tournament, number=2, kind="heat")
    assert judge_client.delete(f"/api/rounds/{spare.pk}/").status_code == 204
    assert not Round.objects.filter(pk=spare.pk).exists()


# ----------------------------------------------------------------------------- post/redirect/get


def test_an_actions_address_visited_sends_to_its_page(judge: Any, tournament: Any, heat: Any) -> None:
    table = seat_table(heat, make_players(tournament, 5))
    for action, page in (
        (f"/rounds/{heat.pk}/seat/draw/", f"/rounds/{heat.pk}/seat/"),
        (f"/rounds/{heat.pk}/seat/publish/", f"/rounds/{heat.pk}/seat/"),
        (f"/tables/{table.pk}/clock/extend/", f"/tables/{table.pk}/clock/"),
        (f"/rounds/{heat.pk}/clocks/pause/", f"/rounds/{heat.pk}/clocks/"),
    ):
        visit = judge.get(action)
        assert (visit.status_code, visit["Location"]) == (302, page), action


def test_a_refusal_names_the_page_it_stands_for(judge: Any, tournament: Any, heat: Any) -> None:
    """A refusal is shown in place, and the page says which GET address it stands for: the
    browser's history takes it, so a reload shows the page rather than posting again."""
    refused = judge.post(f"/rounds/{heat.pk}/seat/draw/", {"seed": "x"})
    assert refused.status_code == 400 and "the seed is a whole number" in refused.content.decode()
    assert f'data-page-address="/rounds/{heat.pk}/seat/"' in refused.content.decode()
    asked = judge.post(f"/tournaments/{tournament.pk}/", {"action": "finish_round", "round": heat.pk})
    assert f'data-page-address="/tournaments/{tournament.pk}/"' in asked.content.decode()
    assert "data-page-address" not in judge.get(f"/tournaments/{tournament.pk}/").content.decode()
