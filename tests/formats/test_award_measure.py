"""The best-faction award measure is the document's choice (`awards.measure`): performance
points per turn (WBC Best Faction Awards) or strongholds held at the end per turn played; the
awards page, the API, the event report and the export all score by it."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from django.core.cache import cache

from dune.engine.ids import ResultKind
from dune.formats import format_from_document, get_format, preset_document
from dune.formats.document import FormatDocumentError, apply_changes, load_document
from dune.points import MEASURES, ReportRow, TableResult, best_faction_awards, strongholds_per_turn
from tests.factories import make_players, make_round, make_tournament, seat_table

WIN, LOSS = ResultKind.SOLO_STRONGHOLD, ResultKind.LOSS


def _heat(table: int, turns: int, rows: list[tuple[str, str, int, str]]) -> TableResult:
    return TableResult(
        rows=tuple(
            ReportRow(player=p, result=WIN if r == "win" else LOSS, faction=f, strongholds=s, pp=Fraction(0))
            for p, f, s, r in rows
        ),
        turns=turns,
        table=table,
    )


def test_strongholds_per_turn_divides_the_strongholds_held_by_the_turns_played() -> None:
    assert strongholds_per_turn(3, turns=6) == Fraction(1, 2)
    assert strongholds_per_turn(0, turns=10) == 0
    with pytest.raises(ValueError):
        strongholds_per_turn(3, turns=0)


def test_the_best_game_by_strongholds_per_turn_wins_the_faction_award() -> None:
    """Three strongholds in 4 turns (0.75) beat three in 6 (0.5); performance points, all zero
    here, would tie every player instead."""
    long_game = _heat(1, 6, [("ann", "atreides", 3, "win"), ("bob", "fremen", 1, "loss")])
    short_game = _heat(2, 4, [("cy", "atreides", 3, "win"), ("dee", "fremen", 0, "loss")])
    awards = {a.faction: a for a in best_faction_awards([long_game, short_game], measure="strongholds_per_turn")}
    assert awards["atreides"].player == "cy" and awards["atreides"].score == Fraction(3, 4)
    assert awards["atreides"].figure == 3 and awards["atreides"].unit == "strongholds"
    assert awards["fremen"].player == "bob" and awards["fremen"].score == Fraction(1, 6)
    by_pp = [a for a in best_faction_awards([long_game, short_game]) if a.faction == "atreides"]
    assert {a.player for a in by_pp} == {"ann", "cy"} and all(a.tied for a in by_pp)


def test_the_document_chooses_the_measure_by_key_and_refuses_pp_where_no_game_earns_any() -> None:
    assert set(MEASURES) == {"performance_points", "strongholds_per_turn"}
    wbc = format_from_document(apply_changes(preset_document("wbc"), {"awards.measure": "strongholds_per_turn"}))
    assert wbc.award_measure.key == "strongholds_per_turn" and wbc.award_measure.unit == "strongholds"
    with pytest.raises(FormatDocumentError) as bad:
        load_document(apply_changes(preset_document("wbc"), {"awards.measure": "victories"}))
    assert list(bad.value.problems) == ["awards.measure"]
    # LoLV games earn no performance points (only the WBC counts them): awards by PP are refused.
    with pytest.raises(FormatDocumentError) as no_pp:
        load_document(apply_changes(preset_document("lolv"), {"awards.best_faction": True}))
    assert "strongholds_per_turn" in no_pp.value.problems["awards.measure"]
    lolv = format_from_document(
        apply_changes(preset_document("lolv"), {"awards.best_faction": True, "awards.measure": "strongholds_per_turn"})
    )
    assert lolv.awards and lolv.award_measure.key == "strongholds_per_turn"


@pytest.mark.django_db
def test_a_tournament_scoring_strongholds_per_turn_shows_it_on_every_page(judge_client: Any, head_judge: Any) -> None:
    cache.clear()
    tournament = make_tournament(format="lolv", head_judge=head_judge)
    changes = {"awards.best_faction": True, "awards.measure": "strongholds_per_turn", "rules.awards.measure": "club awards (strongholds per turn)"}
    patched = judge_client.patch(f"/api/tournaments/{tournament.pk}/format/", {"format_changes": changes}, format="json")
    assert patched.status_code == 200, patched.json()
    players = make_players(tournament, 5)
    table = seat_table(make_round(tournament), players, factions=["atreides", "emperor", "fremen", "harkonnen", "guild"])
    holds = {"atreides": 3, "emperor": 1, "fremen": 0, "harkonnen": 1, "guild": 0}
    rows = [
        {"player": s.player_id, "result": "solo_stronghold" if s.faction == "atreides" else "loss", "strongholds": holds[s.faction]}
        for s in table.seats.all()
    ]
    filed = judge_client.post(f"/api/tables/{table.pk}/report/", {"turns": 4, "ended_by": "victory", "results": rows}, format="json")
    assert filed.status_code == 201, filed.json()

    body = judge_client.get(f"/api/tournaments/{tournament.pk}/awards/").json()
    assert body["measure"] == "strongholds_per_turn"
    atreides = next(a for a in body["awards"] if a["faction"] == "atreides")
    assert atreides["score_exact"] == "3/4" and atreides["strongholds"] == 3 and atreides["unit"] == "strongholds"

    page = judge_client.get(f"/tournaments/{tournament.pk}/awards/").content.decode()
    assert "strongholds held at the end ÷ turns played" in page and "3 strongholds, 4 turns" in page
    assert "club awards (strongholds per turn)" in page and " PP," not in page

    report = judge_client.get(f"/api/tournaments/{tournament.pk}/event-report/").json()
    assert "strongholds held at the end" in report["awards_how"]
    csv = judge_client.get(f"/tournaments/{tournament.pk}/event-report.csv").content.decode()
    assert "0.75 (3 strongholds, 4 turns, 5 players" in csv

    export = judge_client.get(f"/api/tournaments/{tournament.pk}/export/")
    content = json.loads(export.content)["content"]
    assert content["rows"]["tournament.tournament"][0]["format_document"]["awards"]["measure"] == "strongholds_per_turn"
    awards = content["figures"]["awards"]
    assert {a["measure"] for a in awards} == {"strongholds_per_turn"}
    cache.clear()


def test_the_final_placings_are_the_documents_not_the_awards() -> None:
    """WBC Final Round Format: the WBC's final places every finalist; a LoLV event giving
    best-faction awards gets no WBC placings, and a WBC event without awards keeps them."""
    assert get_format("wbc").final_placings and not get_format("lolv").final_placings
    lolv_awards = format_from_document(
        apply_changes(preset_document("lolv"), {"awards.best_faction": True, "awards.measure": "strongholds_per_turn"})
    )
    assert lolv_awards.awards and not lolv_awards.final_placings
    wbc_no_awards = format_from_document(apply_changes(preset_document("wbc"), {"awards.best_faction": False}))
    assert wbc_no_awards.final_placings and not wbc_no_awards.awards
    # A schema 1 document (before the field) places the final where it gave awards, as then.
    for key in ("wbc", "lolv", "ah1979"):
        old = preset_document(key)
        old["schema"] = 1
        del old["points"]["final_placings"], old["rules"]["points.final_placings"]
        assert load_document(old) == dict(get_format(key).document)
