"""A player reads their seat and the standings in Spanish on a phone (390×844): the marked
words are in Spanish, `<html lang="es">`, nothing scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import services
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for
from tournament import private_links


def _fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth") <= 390 + 1)


@pytest.mark.django_db(transaction=True)
def test_a_player_reads_their_seat_and_the_standings_in_spanish(
    phone_page: Any, live_server: Any, head_judge: Any, screenshot: Any
) -> None:
    from django.core.cache import cache

    cache.clear()
    tournament = make_tournament(format="wbc", head_judge=head_judge, name="Abierto de Madrid")
    players = make_players(tournament, 6)
    heat = make_round(tournament)
    table = seat_table(heat, players, number=3)
    token = private_links.link_for(players[0]).token
    page = phone_page
    page.context.add_cookies([{"name": "django_language", "value": "es", "url": live_server.url}])

    page.goto(f"{live_server.url}/me/{token}/")
    assert page.locator("html").get_attribute("lang") == "es"
    assert "mesa 3, asiento 1" in page.locator("#me-seat").inner_text()
    assert _fits(page)
    screenshot(page, "spanish-phone-seat")

    page.goto(f"{live_server.url}/rounds/{heat.pk}/")
    assert page.locator("html").get_attribute("lang") == "es"
    page.get_by_label("¿Dónde me siento?").fill(players[0].name)
    page.get_by_role("button", name="Buscar mi mesa").click()
    page.wait_for_load_state()
    assert "mesa 3, asiento 1" in page.locator(".found-card").first.inner_text()
    assert _fits(page)

    services.file_report(table, report_for(table, {0: "solo_stronghold"}), user=head_judge)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/standings/")
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.get_by_role("heading", level=1).inner_text().startswith("Clasificación")
    assert page.get_by_role("columnheader", name="Puntos").count() == 1
    assert "1 acta de partida entregada." in page.locator(".lede").inner_text()
    assert page.get_by_label("Buscarme").count() == 1
    assert _fits(page)
    screenshot(page, "spanish-phone-standings")
