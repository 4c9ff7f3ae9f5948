"""Export and import of a whole tournament: the same standings, event report and positions
after an import into an empty installation; a damaged or unknown file is refused whole."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command


def _figures(tournament: Any) -> dict[str, Any]:
    """Everything the import must reproduce: standings, awards, event report, every position."""
    from gameplay import engine_adapter as rules
    from gameplay.models import Game
    from insights import services as insights
    from scoring import services as scoring
    from venue.export import jsonable

    cache.clear()
    games = Game.objects.filter(table__round__tournament=tournament).order_by("pk")
    return {
        "standings": jsonable(scoring.compute_scoring(tournament)),
        "awards": jsonable(scoring.compute_awards(tournament)),
        "event_report": jsonable(insights.compute(tournament)),
        "positions": {g.table.number * 100 + g.table.round.number: g.position for g in games},
        # The log itself still folds to the stored position.
        "replayed": {
            g.pk: rules.dump(rules.replay_bodies(e.body for e in g.events.order_by("seq"))) == g.position
            for g in games
        },
        "events": sorted(
            (e.game.table.round.number, e.game.table.number, e.seq, e.type, json.dumps(e.body, sort_keys=True))
            for e in __import__("gameplay.models", fromlist=["GameEvent"]).GameEvent.objects.filter(
                game__in=games
            )
        ),
    }


def _row_counts() -> dict[str, int]:
    from venue import graph

    counts = {o.label: o.model.objects.count() for o in graph.owned_models()}
    counts["people"] = __import__("tournament.models", fromlist=["Person"]).Person.objects.count()
    return counts


def _empty_the_installation() -> None:
    call_command("flush", interactive=False, verbosity=0)
    cache.clear()


def test_an_exported_tournament_imports_into_an_empty_database_with_the_same_figures(
    full_event: Any, tmp_path: Path
) -> None:
    from foundation.models import IdempotencyRecord
    from scoring.models import GameReport, ReportRevision
    from tournament.models import Tournament

    assert GameReport.objects.filter(state="reopened").exists()
    assert ReportRevision.objects.filter(action="reopened").count() == 2
    before = _figures(full_event)
    assert before["positions"] and all(before["replayed"].values())
    counts = _row_counts()
    output = tmp_path / "event.json"
    call_command("export_tournament", full_event.pk, output=str(output), stdout=open("/dev/null", "w"))  # noqa: SIM115
    document = json.loads(output.read_text())
    assert document["format_version"] == 1 and document["checksum"].startswith("sha256:")

    _empty_the_installation()
    assert not Tournament.objects.exists()
    call_command("import_tournament", str(output), stdout=open("/dev/null", "w"))  # noqa: SIM115

    imported = Tournament.objects.get()
    assert imported.pk == full_event.pk  # an empty installation keeps every id
    assert _figures(imported) == before
    assert _row_counts() == counts
    assert IdempotencyRecord.objects.count() == counts["foundation.idempotencyrecord"]
    assert ReportRevision.objects.filter(action="reopened").count() == 2


def test_an_import_beside_the_original_gets_new_ids_and_the_same_standings(
    full_event: Any, tmp_path: Path
) -> None:
    from tournament.models import Person, Tournament
    from venue import export, restore

    # The same tournament again is refused (a rated game never counts twice) ...
    with pytest.raises(restore.DocumentRefused, match="already here"):
        restore.import_text(export.export_text(full_event))
    # ... so a tournament of another origin whose ids are all taken here stands in for it.
    content = export.export_content(full_event)
    content["origin"] = {"installation": "another-installation", "tournament": full_event.pk}
    text = json.dumps(export.seal(content))
    people = Person.objects.count()
    before = _figures(full_event)
    imported = restore.import_text(text).tournament
    assert imported.pk != full_event.pk and Tournament.objects.count() == 2
    # People are matched by email: the copy's players are the same people.
    assert Person.objects.count() == people
    assert {p.person_id for p in imported.players.all()} == {p.person_id for p in full_event.players.all()}
    after = _figures(imported)
    old_to_new = dict(zip(full_event.players.order_by("pk").values_list("pk", flat=True),
                          imported.players.order_by("pk").values_list("pk", flat=True), strict=True))
    standings = [(old_to_new[r["player"]], r["rank"], r["points"]) for r in before["standings"]["standings"]]
    assert [(r["player"], r["rank"], r["points"]) for r in after["standings"]["standings"]] == standings
    assert list(after["positions"].values()) == list(before["positions"].values())


def test_the_api_answers_the_same_document_to_head_judges_only(
    full_event: Any, client: Any, make_user: Any
) -> None:
    from dune import export_document as document

    outsider = make_user("outsider")
    url = f"/api/tournaments/{full_event.pk}/export/"
    assert client.get(url).status_code in {401, 403}
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    client.force_login(full_event.head_judges.first())
    answer = client.get(url)
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    content = document.open_sealed(answer.json())
    assert content["tournament"] == full_event.pk
    assert len(content["rows"]["gameplay.gameevent"]) > 0


@pytest.mark.parametrize("damage", ["character", "version"])
def test_a_changed_character_or_an_unknown_version_is_refused_with_nothing_written(
    full_event: Any, tmp_path: Path, damage: str
) -> None:
    from venue import export

    document = export.export_document(full_event)
    text = json.dumps(document)
    if damage == "character":
        name = document["content"]["rows"]["tournament.player"][0]["name"]
        text = text.replace(json.dumps(name), json.dumps(name[:-1] + ("x" if name[-1] != "x" else "y")), 1)
        said = "checksum"
    else:
        text = text.replace('"format_version": 1', '"format_version": 99', 1)
        said = "format_version 99"
    path = tmp_path / "damaged.json"
    path.write_text(text)
    _empty_the_installation()
    with pytest.raises(CommandError, match=said):
        call_command("import_tournament", str(path))
    assert all(count == 0 for count in _row_counts().values())


def test_the_export_carries_people_series_clocks_and_corrections(full_event: Any) -> None:
    from venue import export

    content = export.export_content(full_event)
    rows, shared = content["rows"], content["shared"]
    for label in ("gameplay.gameevent", "clocks.clockhistory", "clocks.clockextension", "clocks.clockpause",
                  "scoring.reportrevision", "tournament.seatingaudit", "tournament.personlink",
                  "tournament.checkin"):
        assert rows[label], label
    assert shared["tournament.series"] and len(shared["tournament.person"]) == 47
    assert "password" not in json.dumps(shared["auth.user"])


def test_every_model_of_the_platform_is_carried_matched_or_rebuilt(db: Any) -> None:
    """A model added under a tournament, a round or a table is exported without a change to the
    export; one that fits nowhere fails here instead of being silently left behind."""
    from django.apps import apps

    from venue import graph

    carried = {o.label for o in graph.owned_models()} | set(graph.SHARED_MATCH) | graph.DERIVED
    project = {graph.label(m) for m in apps.get_models() if m._meta.app_label in graph.PROJECT_APPS}
    assert project - carried == set()


def test_every_field_of_every_carried_row_is_exported(full_event: Any) -> None:
    """Rows are written from the models' own fields: a field added to a model (a tournament's
    time zone, a series' owner) is in the document without a change to the export."""
    from django.apps import apps

    from venue import export, graph

    content = export.export_content(full_event)
    for name, rows in [*content["rows"].items(), *((n, content["shared"][n]) for n in graph.SHARED_MATCH)]:
        if not rows:
            continue
        fields = {f.attname for f in apps.get_model(name)._meta.concrete_fields}
        assert set(rows[0]) == fields, name


@pytest.mark.parametrize("change", ["unknown field", "missing player", "unknown record"])
def test_a_sealed_file_this_installation_cannot_fit_is_refused_whole(full_event: Any, change: str) -> None:
    from dune import export_document as document
    from venue import export, restore

    content = export.export_content(full_event)
    rows = content["rows"]
    if change == "unknown field":
        rows["tournament.tournament"][0]["owner_colour"] = "blue"
        said = "owner_colour"
    elif change == "missing player":
        rows["tournament.player"] = rows["tournament.player"][1:]
        said = "not in the file"
    else:
        rows["tournament.banner"] = [{"id": 1}]
        said = "tournament.banner"
    sealed = json.dumps(document.seal(content))
    _empty_the_installation()
    with pytest.raises(restore.DocumentRefused, match=said):
        restore.import_text(sealed)
    assert all(count == 0 for count in _row_counts().values())


def test_an_online_registration_imported_beside_its_original_gets_a_confirmation_of_its_own(
    full_event: Any,
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tournament import registration
    from tournament.models import Registration
    from venue import export, restore

    now = timezone.now()
    registration.set_registration(full_event, opens=now - timedelta(hours=1), closes=now + timedelta(days=1))
    confirmed, confirmed_token = registration.register(full_event, name="Irulan Corrino", email="irulan@example.org")
    registration.confirm(confirmed_token)
    _waiting, waiting_token = registration.register(full_event, name="Chani Kynes", email="chani@example.org")
    content = export.export_content(full_event)
    content["origin"] = {"installation": "another-installation", "tournament": full_event.pk}

    imported = restore.import_text(json.dumps(export.seal(content))).tournament

    copies = Registration.objects.filter(tournament=imported).order_by("created_at", "id")
    assert [r.name for r in copies] == ["Irulan Corrino", "Chani Kynes"]
    originals = Registration.objects.filter(tournament=full_event)
    assert not {r.digest for r in copies} & {r.digest for r in originals}
    # The mailed links still open the original's registrations, never the copy's.
    assert registration.registration_for(waiting_token).tournament == full_event
    assert registration.registration_for(confirmed_token).tournament == full_event
    copied = copies.get(name="Irulan Corrino")
    assert copied.player is not None and copied.player.tournament == imported
    assert copied.player != Registration.objects.get(pk=confirmed.pk).player
