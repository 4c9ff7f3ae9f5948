"""Head-judge and public pages: access, check-in, CSV preview, seat/publish, search, print sheets, final."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.factories import make_players
from tournament.models import CheckIn, Player, Round, Seat, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def judge(client: Any, head_judge: Any) -> Any:
    client.force_login(head_judge)
    return client


def test_head_judge_pages_need_a_head_judge(client: Any, tournament: Any, heat: Any, make_user: Any) -> None:
    urls = [
        f"/tournaments/{tournament.pk}/players/",
        f"/tournaments/{tournament.pk}/players/import/",
        f"/rounds/{heat.pk}/seat/",
        f"/rounds/{heat.pk}/print/seating/",
        f"/rounds/{heat.pk}/print/reports/",
    ]
    for url in urls:
        assert client.get(url).status_code == 302  # to the sign-in page
    client.force_login(make_user("judge1"))
    for url in urls:
        assert client.get(url).status_code == 403
    assert client.get(f"/tournaments/{tournament.pk}/").status_code == 200


def test_create_tournament_page(judge: Any) -> None:
    refused = judge.post("/tournaments/new/", {"name": "", "format": "wbc"})
    assert refused.status_code == 200 and "a tournament needs a name" in refused.content.decode()
    created = judge.post("/tournaments/new/", {"name": "Origins 2026", "format": "lolv"})
    tournament = Tournament.objects.get()
    assert created.status_code == 302 and created["Location"] == f"/tournaments/{tournament.pk}/"


def test_dashboard_adds_rounds_and_table_judges(judge: Any, tournament: Any, make_user: Any) -> None:
    make_user("judge1")
    url = f"/tournaments/{tournament.pk}/"
    judge.post(url, {"action": "add_round", "kind": "heat", "starts_at": "2026-07-22T13:00"})
    judge.post(url, {"action": "add_judge", "username": "judge1"})
    refused = judge.post(url, {"action": "add_judge", "username": "nobody"})
    assert "no user named &#x27;nobody&#x27;" in refused.content.decode()
    assert tournament.rounds.get().starts_at is not None
    assert not tournament.table_judges.exists()  # invited: a table judge once it accepts
    page = judge.get(url).content.decode()
    assert "Heat 1" in page and 'data-invitation="judge1"' in page


def test_players_page_registers_checks_in_withdraws(judge: Any, tournament: Any, heat: Any) -> None:
    url = f"/tournaments/{tournament.pk}/players/"
    judge.post(
        url,
        {"action": "add", "name": "Alia", "email": "alia@example.org", "round": heat.pk, "check_in": "on"},
    )
    alia = Player.objects.get(name="Alia")
    assert CheckIn.objects.filter(round=heat, player=alia).exists()
    bad = judge.post(url, {"action": "add", "name": "Bijaz", "email": "nope", "round": heat.pk})
    assert bad.status_code == 200 and "bad email &#x27;nope&#x27;" in bad.content.decode()
    assert 'aria-invalid="true"' in bad.content.decode()
    judge.post(url, {"action": "check_out", "player": alia.pk, "round": heat.pk})
    assert not CheckIn.objects.filter(round=heat).exists()
    asked = judge.post(url, {"action": "dropped", "player": alia.pk, "round": heat.pk})
    assert "Drop Alia?" in asked.content.decode() and Player.objects.get(pk=alia.pk).status == "active"
    judge.post(url, {"action": "dropped", "player": alia.pk, "round": heat.pk, "confirmed": "yes"})
    assert Player.objects.get(pk=alia.pk).status == "dropped"
    refused = judge.post(url, {"action": "check_in", "player": alia.pk, "round": heat.pk})
    assert "cannot check in" in refused.content.decode()


def test_import_page_previews_refusals_before_saving(judge: Any, tournament: Any) -> None:
    url = f"/tournaments/{tournament.pk}/players/import/"
    text = "name,email,club\nAlia,alia@example.org,\n,x@example.org,\nBijaz,bad,\n"
    preview = judge.post(url, {"action": "preview", "csv": text}).content.decode()
    assert "Refused: empty name" in preview and "Refused: bad email" in preview
    assert Player.objects.count() == 0
    refused = judge.post(url, {"action": "import", "csv": text}).content.decode()
    assert "2 of 3 rows are refused" in refused and Player.objects.count() == 0
    done = judge.post(url, {"action": "import", "csv": text, "skip_refused": "on"})
    assert done.status_code == 302 and list(Player.objects.values_list("name", flat=True)) == ["Alia"]


def test_seat_page_shows_options_for_an_unsplittable_count(judge: Any, heat: Any, checked_in: Any) -> None:
    checked_in(8)
    page = judge.post(f"/rounds/{heat.pk}/seat/draw/", {"seed": "3"}).content.decode()
    assert "8 players cannot all sit at tables of 5 or 6" in page
    assert "seat 8: make 2 tables of four, or keep 2 players waiting" in page
    assert 'value="fours:2"' in page and 'value="wait:2"' in page
    assert not heat.tables.exists()
    judge.post(f"/rounds/{heat.pk}/seat/draw/", {"seed": "3", "small_tables": "fours:2"})
    assert sorted(t.seats.count() for t in heat.tables.all()) == [4, 4]
    # A reseat keeps the choice without asking again.
    shown = judge.get(f"/rounds/{heat.pk}/seat/").content.decode()
    assert "Reseats keep the size chosen before: make 2 tables of four." in shown
    assert "a table of four players was needed" in shown and "four_player_tables" not in shown
    assert judge.post(f"/rounds/{heat.pk}/seat/draw/", {"seed": "4"}).status_code == 302
    assert sorted(t.seats.count() for t in heat.tables.all()) == [4, 4]


def test_seat_publish_and_reason_on_the_page(judge: Any, heat: Any, checked_in: Any) -> None:
    checked_in(12)
    url = f"/rounds/{heat.pk}/seat/"
    assert judge.post(url + "draw/", {"seed": "5"}).status_code == 302
    assert judge.post(url + "publish/").status_code == 302
    before = list(Seat.objects.filter(round=heat).values_list("player_id", "table_id", "seat"))
    refused = judge.post(url + "draw/", {"seed": "6"}).content.decode()
    assert "give a reason to replace it" in refused
    assert 'id="reason-error"' in refused and 'value="6"' in refused
    assert list(Seat.objects.filter(round=heat).values_list("player_id", "table_id", "seat")) == before
    assert judge.post(url + "draw/", {"seed": "6", "reason": "table 2 collapsed"}).status_code == 302
    assert "table 2 collapsed" in judge.get(url).content.decode()


def test_public_round_page_where_do_i_sit(
    client: Any, judge: Any, heat: Any, checked_in: Any, head_judge: Any
) -> None:
    from tournament import services

    players = checked_in(11)
    services.seat_round(heat, user=head_judge, seed=2)
    client.logout()
    hidden = client.get(f"/rounds/{heat.pk}/").content.decode()
    assert "not published yet" in hidden and players[0].name not in hidden
    services.publish_round(heat, user=head_judge)
    target = Seat.objects.select_related("table").get(player=players[3])
    page = client.get(f"/rounds/{heat.pk}/", {"q": players[3].name.lower()}).content.decode()
    assert re.search(
        rf"{players[3].name}</strong>: table <a href=\"#table-{target.table.number}\">"
        rf"{target.table.number}</a>, seat {target.seat}",
        page,
    )
    missing = client.get(f"/rounds/{heat.pk}/", {"q": "Nobody Here"}).content.decode()
    assert "No player of this tournament is named “Nobody Here”" in missing


def test_print_sheets_one_table_per_page(
    judge: Any, heat: Any, checked_in: Any, head_judge: Any, django_assert_max_num_queries: Any
) -> None:
    from tournament import services

    players = checked_in(17)
    services.seat_round(heat, user=head_judge, seed=2)
    with django_assert_max_num_queries(8):
        reports = judge.get(f"/rounds/{heat.pk}/print/reports/").content.decode()
    assert reports.count('class="page report-sheet"') == 3
    with django_assert_max_num_queries(8):
        seating = judge.get(f"/rounds/{heat.pk}/print/seating/").content.decode()
    assert seating.count('class="page"') == 2
    alphabetical = seating.split("players A–Z")[1]
    positions = [alphabetical.index(p.name) for p in sorted(players, key=lambda p: p.name)]
    assert positions == sorted(positions)
    assert "@media print" in open("static/css/tournament.css").read()


def test_print_sheets_read_in_the_tournaments_language_with_their_table_links(
    judge: Any, heat: Any, checked_in: Any, head_judge: Any
) -> None:
    from tournament import services

    checked_in(5)
    services.seat_round(heat, user=head_judge, seed=2)
    heat.tournament.language = "es"
    heat.tournament.save(update_fields=["language"])
    reports = judge.get(f"/rounds/{heat.pk}/print/reports/").content.decode()
    seating = judge.get(f"/rounds/{heat.pk}/print/seating/").content.decode()
    for sheet in (reports, seating):
        assert "<strong>Juez de la mesa 1</strong>" in sheet
        assert "<title>Mesa 1: http" in sheet
        assert " judge</strong>" not in sheet and "<title>Table 1" not in sheet


def test_public_round_page_query_count(
    client: Any, heat: Any, checked_in: Any, head_judge: Any, django_assert_max_num_queries: Any
) -> None:
    from tournament import services

    checked_in(60)
    services.seat_round(heat, user=head_judge, seed=2)
    services.publish_round(heat, user=head_judge)
    # the tournament's time zone, round, tables, seats with players, the clocks (2), the games' results
    with django_assert_max_num_queries(10):
        assert client.get(f"/rounds/{heat.pk}/", {"q": "Player 01"}).status_code == 200


def test_public_round_page_query_count_with_every_clock_running(
    client: Any, heat: Any, checked_in: Any, head_judge: Any, django_assert_max_num_queries: Any
) -> None:
    """Each clock's limit is its format's: read through the clock's table, round and tournament,
    loaded with the clocks, never once per table."""
    from clocks import services as clocks
    from tournament import services

    checked_in(60)
    services.seat_round(heat, user=head_judge, seed=2)
    services.publish_round(heat, user=head_judge)
    for table in heat.tables.all():
        clocks.start(table, user=head_judge)
    with django_assert_max_num_queries(10):
        assert client.get(f"/rounds/{heat.pk}/").status_code == 200


def test_final_page_walks_through_the_picks(judge: Any, tournament: Any) -> None:
    players = make_players(tournament, 7)
    final = Round.objects.create(tournament=tournament, number=4, kind="final")
    url = f"/rounds/{final.pk}/final/"
    ids = ",".join(str(p.pk) for p in players[:6])
    judge.post(
        url,
        {"action": "seat", "finalists": ids, "alternates": str(players[6].pk), "absent": str(players[5].pk)},
    )
    page = judge.get(url).content.decode()
    assert f"{players[0].name} picks a faction" in page
    judge.post(url, {"action": "pick", "player": players[0].pk, "faction": "guild"})
    page = judge.get(url).content.decode()
    assert f"{players[1].name} picks a faction" in page and 'value="guild"' not in page
    refused = judge.post(
        url, {"action": "pick", "player": players[2].pk, "faction": "fremen"}
    ).content.decode()
    assert "turn to pick" in refused
    assert Seat.objects.get(player=players[6]).round_id == final.pk


def test_wbc_trade_on_the_seat_page_needs_the_consent_box(
    judge: Any, heat: Any, checked_in: Any, head_judge: Any
) -> None:
    """WBC house rules: a trade is recorded only when both players consent."""
    from tournament import services

    checked_in(6)
    plan = services.seat_round(heat, user=head_judge, seed=1)
    a, b = plan.tables[0].seats[:2]
    url = f"/rounds/{heat.pk}/seat/trade/"
    refused = judge.post(url, {"player": a.player, "other": b.player}).content.decode()
    assert "consent" in refused
    assert f'<option value="{b.player}" selected>' in refused  # the selections are kept
    assert Seat.objects.get(player_id=a.player).faction == a.faction
    judge.post(url, {"player": a.player, "other": b.player, "consent": "on"})
    assert Seat.objects.get(player_id=a.player).faction == b.faction
