"""The room screen cycles through every player's standing, a panel per 20, the cut in view."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db


def test_the_room_screen_has_a_standings_panel_per_twenty_players(
    client: Any, judge_client: Any, head_judge: Any
) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 47)
    heat = make_round(tournament)
    groups = [players[i : i + 6] for i in range(0, 42, 6)] + [players[42:]]
    for number, group in enumerate(groups, start=1):
        table = seat_table(heat, group, number=number)
        answer = judge_client.post(
            f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json"
        )
        assert answer.status_code in (200, 201), answer.content
    html = client.get(f"/tournaments/{tournament.pk}/screen/").content.decode()
    assert html.count('data-panel="standings"') == 3
    assert "Standings 1–20 of 47" in html and "Standings 41–47 of 47" in html
    for player in players:
        assert f"<td><span class=\"screen-name\">{player.name}</span>" in html
    first, *others = html.split('data-panel="standings"')[1:]
    assert 'class="screen-cut"' in first
    for page in others:
        assert "the cut is after" in page.split("</section>")[0]


def test_the_room_screens_clocks_say_what_they_count_down_to(client: Any, head_judge: Any) -> None:
    """The label the clocks' script renews stands apart from what the clock counts down to, so
    a renewed label keeps the words beside it."""
    from clocks import services as clocks

    tournament = make_tournament(format="wbc", head_judge=head_judge)
    table = seat_table(make_round(tournament), make_players(tournament, 6))
    clocks.start(table, user=head_judge)
    html = client.get(f"/tournaments/{tournament.pk}/screen/").content.decode()
    assert '<span data-clock-label>Running</span><span class="clock-next"> · counting down to Last 30 minutes</span>' in html


def test_after_the_final_the_room_screen_says_no_game_has_not_begun(client: Any, head_judge: Any) -> None:
    """A final filed on paper (no move-by-move record) has no board: the screen names the
    champion and says nothing of a game that has not begun."""
    from scoring import services as scoring

    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 6)
    heat = make_round(tournament)
    scoring.file_report(seat_table(heat, players), report_for(heat.tables.get(), {0: "solo_stronghold"}), user=head_judge)
    final = make_round(tournament, number=2, kind="final")
    table = seat_table(final, players)
    scoring.file_report(table, report_for(table, {1: "solo_stronghold"}), user=head_judge)
    html = client.get(f"/tournaments/{tournament.pk}/screen/").content.decode()
    assert "has not begun" not in html
    assert f'<p class="screen-champion-name">{players[1].name}</p>' in html
