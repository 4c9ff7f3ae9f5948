"""A player's page says one count of games: the standings' (the heats filed and counted), the
same figure its explanation gives; the final and a reopened game are shown as not counted."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scoring import services
from scoring.models import GameReport
from tests.factories import make_round, seat_table
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db


def test_the_player_page_counts_the_games_the_standings_count(
    client: Any, head_judge: Any, wbc_heat: Any
) -> None:
    tournament, players, heat, (one, two) = wbc_heat
    services.file_report(one, report_for(one, {0: "solo_stronghold"}), user=head_judge)
    services.file_report(two, report_for(two, {0: "solo_stronghold"}), user=head_judge)
    heat2 = make_round(tournament, number=2)
    again = seat_table(heat2, players[:6], number=1)
    services.file_report(again, report_for(again, {1: "solo_stronghold"}), user=head_judge)
    services.reopen_report(GameReport.objects.get(table=again), user=head_judge, reason="wrong winner")
    final = seat_table(make_round(tournament, number=3, kind="final"), players[:6], number=1)
    services.file_report(final, report_for(final, {0: "solo_stronghold"}), user=head_judge)

    page = client.get(f"/tournaments/{tournament.pk}/players/{players[0].pk}/").content.decode()
    line = page.split('id="standing-line"')[1].split("</p>")[0]
    assert re.search(r"from 1 game\b", line), line
    assert "2 points from 1 game" in page  # the explanation, from the same standings row
    assert "from 3 games" not in page
    assert "reopened: not counted" in page and "the final: not counted in the standings" in page
