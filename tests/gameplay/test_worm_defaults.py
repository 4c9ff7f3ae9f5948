"""The worm forms start from the territory on top of the worm's own Spice discard pile (AH
VII.A.2, LoLV 1.02.05; with the double spice blow, pile A then pile B: LoLV 1.13.02.01-02, WBC
Rule Set AH XXI): the worm's territory, and in the spice blow phase a Fremen worm ride from the
Fremen there (AH VII.A.2.b, WBC VII.6, LoLV 2.04.08)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from gameplay import services
from gameplay.models import GameEvent
from tests.gameplay.full_game import final_table, record
from web.gameplay.page_forms import worm_defaults, worm_territory


def test_the_worm_starts_from_its_territory_and_a_fremen_ride_from_the_fremen_there() -> None:
    snapshot = {"phase": "spice_blow", "forces": [
        {"faction": "fremen", "territory": "the_minor_erg", "sector": 6, "normal": 3},
        {"faction": "harkonnen", "territory": "the_minor_erg", "sector": 7, "normal": 2},
    ]}
    assert worm_defaults(snapshot, "the_minor_erg") == {
        "worm_territory": "the_minor_erg", "move_faction": "fremen", "move_from": "the_minor_erg@6"}
    # Without Fremen there, or outside the spice blow phase, only the worm's territory.
    assert worm_defaults({"phase": "spice_blow", "forces": snapshot["forces"][1:]}, "the_minor_erg") == {
        "worm_territory": "the_minor_erg"}
    assert worm_defaults({**snapshot, "phase": "shipment_movement"}, "the_minor_erg") == {
        "worm_territory": "the_minor_erg"}
    assert worm_defaults(snapshot, None) == {}


#: Turn 1 of a WBC final (two Spice Blows a turn): the Funeral Plain on pile A, the Old Gap on
#: pile B voided, South Mesa on pile B; then turn 2 up to its spice blow phase.
TWO_PILES = [
    {"type": "phase_advanced", "phase": "storm"},
    {"type": "storm_placed", "sector": 10},
    {"type": "phase_advanced", "phase": "spice_blow"},
    {"type": "spice_blow", "territory": "funeral_plain"},
    {"type": "spice_blow", "territory": "old_gap"},
]
TURN_2 = [
    {"type": "spice_blow", "territory": "south_mesa"},
    {"type": "phase_advanced", "phase": "mentat_pause"},
    {"type": "turn_advanced"},
    {"type": "storm_moved", "sectors": 4},
    {"type": "phase_advanced", "phase": "spice_blow"},
]


def _one_tap(web: Client, table: Any) -> dict[str, str]:
    html = web.get(f"/tables/{table.pk}/").content.decode()
    (button,) = re.findall(r'<form[^>]*data-action="next-worm".*?</form>', html, re.S)
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', button))


@pytest.mark.django_db
def test_the_one_tap_worm_is_recorded_on_top_of_its_own_discard_pile(table_judge: Any) -> None:
    table = final_table(table_judge)
    web = Client()
    web.force_login(table_judge)
    # The first card of the game on empty pile A: where the worm appears is unknown.
    record(table, table_judge, TWO_PILES[:3])
    assert "territory" not in _one_tap(web, table)
    seq = record(table, table_judge, TWO_PILES[3:])
    record(table, table_judge, [{"type": "void", "seq": seq, "reason": "the card was South Mesa"}] + TURN_2)
    game = services.read_game(table)
    # Turn 2's first card goes on pile A: a worm there appears in the Funeral Plain.
    assert worm_territory(game) == "funeral_plain"
    assert _one_tap(web, table)["territory"] == "funeral_plain"
    # After pile A's territory card, pile B: South Mesa on top since turn 1, not the Minor Erg
    # just turned, nor the voided Old Gap.
    seq = record(table, table_judge, [{"type": "spice_blow", "territory": "the_minor_erg"}])
    fields = _one_tap(web, table)
    assert fields["territory"] == "south_mesa"
    answer = web.post(f"/tables/{table.pk}/", fields)
    assert answer.status_code == 302, answer.content.decode()[:800]
    worm = GameEvent.objects.get(game__table=table, type="worm")
    assert worm.seq == seq + 1 and worm.body["territory"] == "south_mesa"
