"""A closed heat's seat page offers no change its seating would refuse (reseat, swap, no-show,
latecomer, faction trades): it says the round is closed instead."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import services as scoring
from tests.factories import make_players, make_round, seat_table
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db


def test_a_closed_heats_seat_page_offers_no_reseat_nor_swap(client: Any, head_judge: Any, tournament: Any) -> None:
    players = make_players(tournament, 12)
    heat = make_round(tournament)
    tables = [seat_table(heat, players[:6], number=1), seat_table(heat, players[6:], number=2)]
    client.force_login(head_judge)
    open_page = client.get(f"/rounds/{heat.pk}/seat/").content.decode()
    assert "Reseat with a new draw" in open_page and ">Swap</button>" in open_page
    for table in tables:
        scoring.file_report(table, report_for(table, {0: "solo_stronghold"}), user=head_judge)
    html = client.get(f"/rounds/{heat.pk}/seat/").content.decode()
    for control in ("Reseat with a new draw", ">Swap</button>", "Seat latecomer", "Take off the table",
                    f'action="/rounds/{heat.pk}/seat/draw/"'):
        assert control not in html, control
    assert "Heat 1 is closed: its seating is part of the record and no longer changes." in html
    assert players[0].name in html  # the tables are still shown
