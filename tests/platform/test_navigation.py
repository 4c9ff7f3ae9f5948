"""The event report is one tap away from every page of a tournament: its round, clocks, table
and player pages carry the tournament's navigation."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.factories import make_players, make_round, make_tournament, seat_table


@pytest.mark.django_db
def test_round_player_table_and_clock_pages_link_the_event_report(client: Any, head_judge: Any) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 6)
    heat = make_round(tournament)
    table = seat_table(heat, players)
    client.force_login(head_judge)
    report = reverse("insights-event-report", args=[tournament.pk])
    pages = {
        "round": reverse("tournament-round", args=[heat.pk]),
        "round clocks": reverse("clocks-round", args=[heat.pk]),
        "table clock": reverse("clocks-table", args=[table.pk]),
        "table": reverse("gameplay-table", args=[table.pk]),
        "player": reverse("scoring-player", args=[tournament.pk, players[0].pk]),
    }
    for name, url in pages.items():
        answer = client.get(url)
        assert answer.status_code == 200, (name, answer.status_code)
        nav = answer.content.decode().split('<nav aria-label="Main">', 1)[1].split("</nav>", 1)[0]
        assert f'href="{report}"' in nav, f"the {name} page's navigation has no event report"


@pytest.mark.django_db
def test_where_do_i_sit_headings_go_down_one_level_at_a_time(client: Any) -> None:
    import re

    tournament = make_tournament(format="wbc")
    players = make_players(tournament, 6)
    heat = make_round(tournament)
    seat_table(heat, players)
    html = client.get(reverse("tournament-round", args=[heat.pk]), {"q": players[0].name}).content.decode()
    levels = [int(level) for level in re.findall(r"<h([1-6])\b", html)]
    assert levels[0] == 1 and 3 in levels
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:], strict=False)), levels
