"""The head judge's format page: the document's fields grouped in words with the preset's value
and rule beside each; changes saved before seating, refused after with why; a bad value shown
next to its field keeping what was typed; download and upload; the tournament page lists every
difference from the preset with its rule."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from dune.formats.document import FIELDS, dump_toml, load_document, parse_text
from tests.factories import make_players, make_round, make_tournament, seat_table
from tournament.models import Tournament
from web.tournament.format_views import shown_value, value_at

pytestmark = pytest.mark.django_db

VARIANT_FORM = {
    "rounds.heat.hours": "4",
    "engine.shield_wall_after_worm": "3",
    "points.results.adjudicated": "0.25",
    "rounds.heat.turns": "9",
}


@pytest.fixture
def signed_in(client: Any, head_judge: Any) -> Any:
    client.force_login(head_judge)
    return client


def _form(tournament: Tournament, **changed: str) -> dict[str, str]:
    """Every field as the page shows it, with `changed` typed over it."""
    doc = tournament.rules.document
    values = {f.path: shown_value(value_at(doc, f.path)) for f in FIELDS}
    values.update(changed)
    return {"action": "change", **values}


def test_the_page_shows_every_field_with_the_preset_value_and_rule(signed_in: Any, head_judge: Any) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    html = signed_in.get(f"/tournaments/{tournament.pk}/format/").content.decode()
    for group in ("Tables", "Factions", "Heats", "The final", "Game rules", "Time at the table", "Points", "Final", "Awards"):
        assert f"<legend>{group}</legend>" in html
    assert 'data-field="engine.shield_wall_after_worm"' in html
    assert "WBC house rules (Shield Wall)" in html and "Preset: <span data-preset>4</span>" in html
    assert "Atreides, Bene Gesserit" in html  # factions by name


def test_changes_are_saved_and_listed_with_their_rules(signed_in: Any, head_judge: Any) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    response = signed_in.post(f"/tournaments/{tournament.pk}/format/", _form(tournament, **VARIANT_FORM))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rules.turn_limit("heat") == 9
    assert tournament.rules.ruleset.shield_wall.worms_needed == 3
    detail = signed_in.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "changed in 4 fields" in detail
    assert "Heat time limit (hours)</strong>: 4 instead of 5" in detail  # which round's, in words
    assert "Shield Wall a stronghold after worm</strong>: 3 instead of 4" in detail
    assert "(WBC house rules (Shield Wall))" in detail


def test_a_bad_value_is_shown_next_to_its_field_keeping_what_was_typed(signed_in: Any, head_judge: Any) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    response = signed_in.post(
        f"/tournaments/{tournament.pk}/format/", _form(tournament, **{"rounds.heat.hours": "lots", "rounds.final.turns": "16"})
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="f-rounds-heat-hours-error" role="alert">a number is expected' in html
    assert 'name="rounds.heat.hours" value="lots"' in html
    assert 'id="f-rounds-final-turns-error"' in html
    tournament.refresh_from_db()
    assert tournament.rules.clock("heat").base.total_seconds() == 5 * 3600


def test_after_seating_a_change_is_refused_saying_why(signed_in: Any, head_judge: Any) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    seat_table(make_round(tournament), make_players(tournament, 6))
    response = signed_in.post(f"/tournaments/{tournament.pk}/format/", _form(tournament, **VARIANT_FORM))
    assert response.status_code == 409
    html = response.content.decode()
    assert "round 1 (heat) is already seated" in html
    assert "Save the changes" not in html
    tournament.refresh_from_db()
    assert tournament.rules.turn_limit("heat") == 10


def test_download_and_upload_carry_the_document(signed_in: Any, head_judge: Any) -> None:
    source = make_tournament(format="wbc", head_judge=head_judge)
    signed_in.post(f"/tournaments/{source.pk}/format/", _form(source, **VARIANT_FORM))
    toml = signed_in.get(f"/tournaments/{source.pk}/format.toml")
    assert toml["Content-Disposition"].endswith('.toml"')
    source.refresh_from_db()
    assert load_document(parse_text(toml.content.decode())) == dict(source.rules.document)
    as_json = signed_in.get(f"/tournaments/{source.pk}/format.json").json()
    assert as_json["rounds"]["heat"]["hours"] == 4
    assert signed_in.get(f"/tournaments/{source.pk}/format.xml").status_code == 404

    next_year = make_tournament(format="lolv", head_judge=head_judge)
    upload = SimpleUploadedFile("wbc.toml", toml.content, content_type="application/toml")
    response = signed_in.post(f"/tournaments/{next_year.pk}/format/", {"action": "upload", "document": upload})
    assert response.status_code == 302
    next_year.refresh_from_db()
    assert next_year.format == "wbc" and next_year.rules is source.rules

    broken = SimpleUploadedFile("x.toml", dump_toml({"schema": 1}).encode(), content_type="application/toml")
    refused = signed_in.post(f"/tournaments/{next_year.pk}/format/", {"action": "upload", "document": broken})
    assert refused.status_code == 400 and "missing" in refused.content.decode()


def test_only_a_head_judge_changes_it(client: Any, head_judge: Any, make_user: Any) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    client.force_login(make_user("visitor"))
    assert client.get(f"/tournaments/{tournament.pk}/format/").status_code == 200
    assert client.post(f"/tournaments/{tournament.pk}/format/", _form(tournament, **VARIANT_FORM)).status_code == 403


def test_the_page_changes_table_sizes_the_window_the_switches_and_the_award_measure(signed_in: Any, head_judge: Any) -> None:
    """What the page types becomes the document every part obeys: tables of 4 to 6, no new turn
    in the last 20 minutes, the Fremen supported like every faction, one spice blow a turn and
    best-faction awards by strongholds per turn."""
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    changed = {
        "tables.sizes": "4, 5, 6",
        "rounds.heat.no_new_turn_minutes": "20",
        "engine.fremen_full_strength": "no",
        "engine.double_spice_blow": "no",
        "awards.measure": "strongholds_per_turn",
    }
    response = signed_in.post(f"/tournaments/{tournament.pk}/format/", _form(tournament, **changed))
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament.refresh_from_db()
    rules = tournament.rules
    assert rules.table_sizes == (4, 5, 6) and rules.clock("heat").stage_label("last_30") == "Last 20 minutes"
    assert rules.setup_options == ("double_spice_blow=no", "fremen_full_strength=no")
    assert rules.award_measure.key == "strongholds_per_turn"
    detail = signed_in.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "changed in 5 fields" in detail
