"""Browser: a head judge imports players, seats heat 1, publishes; a player finds their table on a phone."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tournament.models import Player, Round, Seat, Tournament

CSV = (
    "name,email,club\n"
    + "".join(f"Fremen {i:02d},fremen{i}@example.org,Sietch Tabr\n" for i in range(1, 12))
    + "Chani Kynes,chani@example.org,Sietch Tabr\n,nobody@example.org,\n"
)


@pytest.mark.django_db(transaction=True)
def test_head_judge_imports_seats_publishes_player_finds_table(
    page: Any,
    phone_page: Any,
    live_server: Any,
    head_judge: Any,
    password: str,
    sign_in: Any,
    screenshot: Any,
) -> None:
    tournament = Tournament.objects.create(name="WBC Dune 2026", format="wbc")
    tournament.head_judges.add(head_judge)
    heat = Round.objects.create(tournament=tournament, number=1, kind="heat")
    sign_in(page, "head", password)

    # Import: the preview shows the refused row before anything is saved.
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/players/import/")
    page.get_by_label("…or paste the CSV").fill(CSV)
    page.get_by_role("button", name="Preview").click()
    assert page.get_by_text("Refused: empty name").is_visible()
    assert Player.objects.count() == 0
    screenshot(page, "import-preview-laptop")
    page.get_by_label("Skip the 1 refused row").check()
    page.get_by_role("button", name="Register 12 players").click()
    assert page.get_by_text("Registered 12 players.").is_visible()

    # Check everybody in for heat 1, then seat and publish.
    page.get_by_role("button", name="Check in every active player").click()
    page.get_by_role("button", name="Yes, check in all 12").click()  # it asks first
    assert page.get_by_text("12 checked in").is_visible()
    page.goto(f"{live_server.url}/rounds/{heat.pk}/seat/")
    page.get_by_role("button", name="Seat 12 players").click()
    assert page.get_by_role("heading", name="Table 1").is_visible()
    assert page.get_by_role("heading", name="Table 2").is_visible()
    screenshot(page, "seat-round-preview-laptop")
    page.get_by_role("button", name="Publish the seating").click()
    assert page.get_by_text("Published the seating of Heat 1.").is_visible()
    assert Round.objects.get(pk=heat.pk).state == "published"

    # The game report sheets print one table per page.
    page.goto(f"{live_server.url}/rounds/{heat.pk}/print/reports/")
    page.emulate_media(media="print")
    assert not page.get_by_role("button", name="Print").is_visible()
    pdf = page.pdf(format="A4", landscape=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 2
    screenshot(page, "report-sheets-print")

    # A player on a phone finds their table.
    seat = Seat.objects.select_related("table", "player").get(player__name="Chani Kynes")
    phone_page.goto(f"{live_server.url}/rounds/{heat.pk}/")
    phone_page.get_by_label("Where do I sit?").fill("chani")
    phone_page.get_by_role("button", name="Find my table").click()
    found = phone_page.get_by_role("status").inner_text()
    assert f"Chani Kynes: table {seat.table.number}, seat {seat.seat}" in found
    screenshot(phone_page, "where-do-i-sit-phone")
