"""A variant of the WBC 2018 format run from start to end through the API: created with its
changes, seated, clocked, played, filed, scored and exported, each step under the variant's
rules; its document frozen once seated.

The variant: WBC 2002's 4-hour heats, the Shield Wall a stronghold after the third worm (WBC
house rules say the fourth), WBC 2017's fewer qualification points for an adjudicated victory
(0.25 instead of 0.5), and a heat one turn shorter (9 instead of WBC Preliminary Heat
Duration's 10).
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command

from clocks import services as clocks
from dune.formats import get_format
from gameplay.services import append_event, game_for
from tests.factories import make_players, make_tournament
from tests.formats.test_documents import VARIANT
from tournament.models import Tournament
from venue.restore import import_text

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clean_cache(db: Any) -> Any:

    cache.clear()
    yield
    cache.clear()


def _create(client: Any, **body: Any) -> Any:
    return client.post("/api/tournaments/", {"name": "WBC variant open", "format": "wbc", **body}, format="json")


def test_the_presets_are_listed_and_answered(api_client: Any) -> None:
    listed = api_client.get("/api/formats/").json()["formats"]
    assert listed == [
        {"key": "wbc", "name": "WBC Dune", "version": "2018"},
        {"key": "lolv", "name": "Landsraad of Las Vegas", "version": "2.8.4"},
        {"key": "ah1979", "name": "Avalon Hill 1979 (club)", "version": "1979"},
    ]
    wbc = api_client.get("/api/formats/wbc/").json()
    assert wbc["document"]["rounds"]["heat"]["hours"] == 5
    assert wbc["document"]["rules"]["rounds.heat.hours"] == "WBC Preliminary Heat Duration"
    missing = api_client.get("/api/formats/chess/")
    assert missing.status_code == 404 and "wbc" in missing.json()["detail"]


def test_a_bad_change_is_refused_naming_the_field_and_nothing_is_created(judge_client: Any) -> None:
    before = Tournament.objects.count()
    response = _create(judge_client, format_changes={"rounds.heat.hours": -1, "engine.shield_wall_after_worm": "third"})
    assert response.status_code == 400
    body = response.json()
    assert set(body["fields"]) == {"rounds.heat.hours", "engine.shield_wall_after_worm"}
    assert "from 0 to 24" in body["fields"]["rounds.heat.hours"]
    assert body["field"] in body["fields"]
    unknown = _create(judge_client, format_changes={"rounds.heat.hourz": 4})
    assert unknown.status_code == 400 and unknown.json()["fields"] == {"rounds.heat.hourz": "unknown field"}
    assert Tournament.objects.count() == before


def test_a_tournament_made_before_documents_plays_its_preset(head_judge: Any) -> None:
    """The data migration's promise: a tournament without a document plays its preset's, and
    saving it writes that document."""
    tournament = make_tournament(format="lolv", head_judge=head_judge)
    Tournament.objects.filter(pk=tournament.pk).update(format_document={}, format_version="")
    tournament.refresh_from_db()
    assert tournament.rules is get_format("lolv")
    tournament.save()
    tournament.refresh_from_db()
    assert tournament.format_version == "2.8.4" and tournament.rules is get_format("lolv")


@pytest.mark.django_db(transaction=True)
def test_the_variant_tournament_from_creation_to_export(judge_client: Any, head_judge: Any) -> None:
    created = _create(judge_client, format_changes=VARIANT)
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]
    assert created.json()["format_version"] == "2018" and created.json()["format_changes"] == 4
    tournament = Tournament.objects.get(pk=pk)
    assert tournament.format == "wbc" and tournament.format_version == "2018"

    # The document and its differences from the preset, with the rule of each.
    fmt = judge_client.get(f"/api/tournaments/{pk}/format/").json()
    assert fmt["preset"] == "wbc" and fmt["version"] == "2018" and fmt["frozen"] is None
    diffs = {d["field"]: (d["preset"], d["event"], d["rule"]) for d in fmt["differences"]}
    assert diffs == {
        "rounds.heat.turns": (10, 9, "WBC Preliminary Heat Duration"),
        "rounds.heat.hours": (5, 4, "WBC Preliminary Heat Duration"),
        "engine.shield_wall_after_worm": (4, 3, "WBC house rules (Shield Wall)"),
        "points.results.adjudicated": ("0.5", "0.25", "WBC QP; WBC Adjudication"),
    }
    # Still unseated: the head judge may change more (the rule cited for a field too).
    patched = judge_client.patch(
        f"/api/tournaments/{pk}/format/",
        {"format_changes": {"rules.rounds.heat.hours": "WBC 2002 event report (4-hour heats)"}},
        format="json",
    )
    assert patched.status_code == 200, patched.json()
    assert {d["field"] for d in patched.json()["differences"]} >= {"rules.rounds.heat.hours"}
    bad = judge_client.patch(f"/api/tournaments/{pk}/format/", {"format_changes": {"rounds.heat.turns": 16}}, format="json")
    assert bad.status_code == 400 and list(bad.json()["fields"]) == ["rounds.heat.turns"]

    # Seat a heat of six.
    players = make_players(tournament, 6)
    heat = judge_client.post(f"/api/tournaments/{pk}/rounds/", {"kind": "heat"}, format="json").json()
    for p in players:
        judge_client.post(f"/api/rounds/{heat['id']}/checkins/", {"player": p.pk}, format="json")
    seated = judge_client.post(f"/api/rounds/{heat['id']}/seating/", {"seed": 7}, format="json")
    assert seated.status_code in (200, 201), seated.json()
    published = judge_client.post(f"/api/rounds/{heat['id']}/seating/publish/", {}, format="json")
    assert published.status_code in (200, 201), published.json()
    tournament.refresh_from_db()
    table = tournament.rounds.get().tables.get()

    # Once seated, the document is frozen: 409 saying why; nothing changes.
    refused = judge_client.patch(f"/api/tournaments/{pk}/format/", {"format_changes": {"rounds.heat.hours": 3}}, format="json")
    assert refused.status_code == 409
    assert "already seated" in refused.json()["detail"]
    tournament.refresh_from_db()
    assert tournament.rules.clock("heat").base == timedelta(hours=4)

    # Clocked: 4 hours, 9 turns.
    clock = clocks.start(table, user=head_judge)
    assert clock.time_up_at - clock.started_at == timedelta(hours=4)
    shown = judge_client.get(f"/api/tables/{table.pk}/clock/").json()
    assert "9 turns or 4 hours" in json.dumps(shown)

    # Played: the game's setup records the variant; three strongholds with the Shield Wall
    # after the third worm win (under the preset they would not: it waits for the fourth).
    game = game_for(table)
    setup = game_setup_of(judge_client, table)
    assert setup["options"] == ["shield_wall_after_worm=3"] and setup["turns"] == 9
    faction = {s.faction for s in table.seats.all()}
    assert "harkonnen" in faction
    others = sorted(faction - {"harkonnen"})
    events: list[dict[str, Any]] = [
        {"type": "phase_advanced", "phase": "storm"},
        {"type": "storm_placed", "sector": 15},
        {"type": "phase_advanced", "phase": "spice_blow"},
        {"type": "phase_advanced", "phase": "battle"},
        {"type": "quick_record", "occupants": {"carthag": ["harkonnen"], "arrakeen": [others[0]]}, "storm": 15},
        {"type": "phase_advanced", "phase": "mentat_pause"},
        {"type": "quick_record", "occupants": {"carthag": ["harkonnen"], "arrakeen": [others[0]]}, "storm": 15},
        {"type": "turn_advanced", "turn": 2},
        {"type": "storm_moved", "sectors": 1},
        {"type": "phase_advanced", "phase": "spice_blow"},
        {"type": "worm", "territory": None},
        {"type": "worm", "territory": None},
        {"type": "worm", "territory": None},
        {"type": "phase_advanced", "phase": "battle"},
    ]
    holding = {"carthag": ["harkonnen"], "arrakeen": ["harkonnen"], "shield_wall@8": ["harkonnen"]}
    events += [
        {"type": "quick_record", "occupants": holding, "storm": 16},
        {"type": "phase_advanced", "phase": "mentat_pause"},
        {"type": "quick_record", "occupants": holding, "storm": 16},
    ]
    for ev in events:
        game = game_for(table)
        append_event(table, ev, expected_seq=game.seq, user=head_judge)
    evaluation = judge_client.get(f"/api/tables/{table.pk}/game/").json()
    assert evaluation["evaluation"]["victory"]["winners"] == ["harkonnen"], evaluation["evaluation"]["victory"]
    for ev in (
        {"type": "victory_claimed", "kind": "solo_stronghold", "winners": ["harkonnen"]},
        {"type": "game_ended", "reason": "stronghold victory"},
    ):
        append_event(table, ev, expected_seq=game_for(table).seq, user=head_judge)

    # Filed and scored: 2 QP for the solo victory; the variant's 0.25 for an adjudicated one
    # shows in the standings' explanation of the points table.
    seat_of = {s.faction: s.player_id for s in table.seats.all()}
    rows = [
        {"player": p, "result": "solo_stronghold" if f == "harkonnen" else "loss"} for f, p in seat_of.items()
    ]
    filed = judge_client.post(
        f"/api/tables/{table.pk}/report/", {"turns": 2, "ended_by": "victory", "results": rows}, format="json"
    )
    assert filed.status_code == 201, filed.json()
    standings = judge_client.get(f"/api/tournaments/{pk}/standings/").json()
    top = standings["rows"][0] if "rows" in standings else standings["standings"][0]
    assert top["player"] == seat_of["harkonnen"] or top.get("player_id") == seat_of["harkonnen"]
    assert tournament.rules.points.points("adjudicated") == 0.25

    # Exported: the export carries the document.
    export = judge_client.get(f"/api/tournaments/{pk}/export/")
    assert export.status_code == 200
    row = json.loads(export.content)["content"]["rows"]["tournament.tournament"][0]
    assert row["format_document"] == dict(tournament.rules.document)
    assert row["format_document"]["engine"]["shield_wall_after_worm"] == 3
    assert row["format_document"]["points"]["results"]["adjudicated"] == "0.25"
    assert row["format_version"] == "2018"

    # Imported into an installation without it, the tournament plays the same variant.
    rules = tournament.rules
    call_command("flush", interactive=False, verbosity=0)
    cache.clear()
    imported = import_text(export.content).tournament
    assert imported.rules is rules and imported.rules.turn_limit("heat") == 9
    assert imported.format_version == "2018"


def game_setup_of(client: Any, table: Any) -> dict[str, Any]:
    events = client.get(f"/api/tables/{table.pk}/game/events/").json()["events"]
    first = events[0]
    return first.get("event", first)
