"""The worm forms start from the last Spice Blow card turned over (AH VII.A.2, LoLV 1.02.05): the
worm's territory, and in the spice blow phase a Fremen worm ride from the Fremen there
(AH VII.A.2.b, WBC VII.6, LoLV 2.04.08)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from gameplay.models import GameEvent
from tests.gameplay.full_game import BEFORE_THE_STORM, STORM, final_table, record
from web.gameplay.page_forms import worm_defaults


def _row(type_: str, voided: bool = False, **event: Any) -> dict[str, Any]:
    return {"type": type_, "voided": voided, "event": {"type": type_, **event}}


def test_the_worm_starts_from_the_last_spice_blow_card_not_a_voided_one() -> None:
    rows = [  # newest first
        _row("spice_blow", voided=True, territory="south_mesa"),
        _row("spice_blow", territory="the_minor_erg"),
        _row("phase_advanced", phase="spice_blow"),
        _row("spice_blow", territory="funeral_plain"),
    ]
    snapshot = {"phase": "spice_blow", "forces": [
        {"faction": "fremen", "territory": "the_minor_erg", "sector": 6, "normal": 3},
        {"faction": "harkonnen", "territory": "the_minor_erg", "sector": 7, "normal": 2},
    ]}
    assert worm_defaults(snapshot, rows) == {
        "worm_territory": "the_minor_erg", "move_faction": "fremen", "move_from": "the_minor_erg@6"}
    # Without Fremen there, or outside the spice blow phase, only the worm's territory.
    assert worm_defaults({"phase": "spice_blow", "forces": snapshot["forces"][1:]}, rows) == {
        "worm_territory": "the_minor_erg"}
    assert worm_defaults({**snapshot, "phase": "shipment_movement"}, rows) == {"worm_territory": "the_minor_erg"}
    assert worm_defaults(snapshot, [_row("phase_advanced", phase="spice_blow")]) == {}


@pytest.mark.django_db
def test_the_one_tap_worm_is_recorded_where_the_last_spice_blow_card_was_turned_over(table_judge: Any) -> None:
    table = final_table(table_judge)
    seq = record(table, table_judge, BEFORE_THE_STORM + [STORM, {"type": "phase_advanced", "phase": "spice_blow"},
                                                         {"type": "spice_blow", "territory": "the_minor_erg"}])
    web = Client()
    web.force_login(table_judge)
    html = web.get(f"/tables/{table.pk}/").content.decode()
    (button,) = re.findall(r'<form[^>]*data-action="next-worm".*?</form>', html, re.S)
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', button))
    assert fields["territory"] == "the_minor_erg"
    answer = web.post(f"/tables/{table.pk}/", fields)
    assert answer.status_code == 302, answer.content.decode()[:800]
    worm = GameEvent.objects.get(game__table=table, type="worm")
    assert worm.seq == seq + 1 and worm.body["territory"] == "the_minor_erg"
