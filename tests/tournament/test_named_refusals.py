"""The seating API's refusals name players (and factions) by display name, never by id, keep
the refused field, and change nothing: swaps, latecomers, WBC trades, LoLV kept cards (0.08)
and the final's picks (WBC 2018 format, final round faction assignment)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.factories import make_players
from tournament.models import CheckIn, Round, Seat, SeatingAudit

pytestmark = pytest.mark.django_db


def _state(round_: Any) -> tuple[list[tuple[Any, ...]], int, int]:
    """What a refused change must leave as it was: the seats, the audit log, the check-ins."""
    seats = list(
        Seat.objects.filter(round=round_).order_by("pk").values_list("player_id", "table_id", "seat", "faction")
    )
    return seats, SeatingAudit.objects.filter(round=round_).count(), CheckIn.objects.filter(round=round_).count()


def _refused(response: Any, *, names: tuple[str, ...], ids: tuple[int, ...], status: int = 400) -> dict[str, Any]:
    assert response.status_code == status, response.json()
    body = response.json()
    for name in names:
        assert name in body["detail"], body["detail"]
    for pk in ids:
        assert f"player {pk}" not in body["detail"] and f"#{pk}" not in body["detail"], body["detail"]
    return body


@pytest.fixture
def seated(judge_client: Any, heat: Any, checked_in: Any) -> Any:
    """A WBC heat of eleven players named like people (a five and a six), seated with seed 3."""
    players = checked_in(11, prefix="Chani")
    response = judge_client.post(f"/api/rounds/{heat.pk}/seating/", {"seed": 3}, format="json")
    assert response.status_code == 200
    return {p.pk: p.name for p in players}, response.json()["tables"]


def test_swap_at_one_table_and_with_a_player_not_in_the_round_are_refused_by_name(
    judge_client: Any, tournament: Any, heat: Any, seated: Any
) -> None:
    names, tables = seated
    first, mate = (s["player"] for s in tables[0]["seats"][:2])
    (outsider,) = make_players(tournament, 1, prefix="Stilgar")
    before = _state(heat)
    url = f"/api/rounds/{heat.pk}/seating/swap/"
    same = judge_client.post(url, {"first": first, "second": mate}, format="json")
    body = _refused(same, names=(names[first], names[mate]), ids=(first, mate))
    assert body["detail"] == (
        f"one table per player per round: {names[first]} and {names[mate]} already share table 1"
    )
    absent = judge_client.post(url, {"first": first, "second": outsider.pk}, format="json")
    body = _refused(absent, names=("Stilgar 001",), ids=(outsider.pk,))
    assert "Stilgar 001 is not part of this round" in body["detail"]
    assert _state(heat) == before


def test_latecomer_already_seated_and_after_the_grace_period_refused_by_name(
    judge_client: Any, tournament: Any, heat: Any, seated: Any
) -> None:
    """WBC 2018 format: 15-minute grace period; a player seated already is not seated twice."""
    names, tables = seated
    first = tables[0]["seats"][0]["player"]
    (late,) = make_players(tournament, 1, prefix="Feyd")
    heat.starts_at = timezone.now() - timedelta(minutes=20)
    heat.save()
    before = _state(heat)
    url = f"/api/rounds/{heat.pk}/seating/latecomer/"
    twice = judge_client.post(url, {"player": first}, format="json")
    _refused(twice, names=(f"{names[first]} already has a place in this round",), ids=(first,))
    too_late = judge_client.post(url, {"player": late.pk}, format="json")
    body = _refused(too_late, names=("Feyd 001 arrived 20 minutes after the start",), ids=(late.pk,))
    assert body["rule"] == "WBC 2018 format (15-minute grace period)"
    assert _state(heat) == before


def test_wbc_trade_without_consent_names_who_has_not_consented(
    judge_client: Any, heat: Any, seated: Any
) -> None:
    """WBC house rules: drawn factions are traded only by mutual consent."""
    names, tables = seated
    a, b = (s["player"] for s in tables[0]["seats"][:2])
    before = _state(heat)
    response = judge_client.post(
        f"/api/rounds/{heat.pk}/seating/factions/",
        {"action": "trade", "player": a, "other": b, "consenting": [a]},
        format="json",
    )
    body = _refused(response, names=(f"{names[b]} has not consented",), ids=(b,))
    assert body["field"] == "consenting"
    assert _state(heat) == before


def test_0_08_a_card_not_dealt_and_a_player_without_a_seat_are_refused_by_name(
    judge_client: Any, tournament: Any, heat: Any, checked_in: Any
) -> None:
    """LoLV 0.08: the kept card is one of the two dealt; the refusal names the player and the cards."""
    tournament.format = "lolv"
    tournament.save()
    players = checked_in(5, prefix="Irulan")
    judge_client.post(f"/api/rounds/{heat.pk}/seating/", {"seed": 3}, format="json")
    seat = Seat.objects.filter(round=heat).select_related("player", "table").order_by("pk").first()
    Seat.objects.filter(round=heat).update(dealt=[], faction="")
    seat.dealt = ["bene_gesserit", "choam"]
    seat.save()
    (unseated,) = make_players(tournament, 1, prefix="Jamis")
    before = _state(heat)
    url = f"/api/rounds/{heat.pk}/seating/factions/"
    wrong = judge_client.post(url, {"action": "keep", "player": seat.player_id, "faction": "atreides"}, format="json")
    body = _refused(wrong, names=(seat.player.name,), ids=(seat.player_id,))
    assert body["detail"] == (
        f"LoLV 0.08: {seat.player.name} (table {seat.table.number}) was dealt Bene Gesserit and CHOAM; "
        "Atreides is not one of them"
    )
    assert body["field"] == "faction" and body["rule"] == "LoLV 0.08"
    blank = judge_client.post(url, {"action": "keep", "player": seat.player_id, "faction": ""}, format="json")
    body = _refused(blank, names=(f"{seat.player.name} (table {seat.table.number}) was dealt",), ids=())
    assert body["detail"].endswith("no card is not one of them") and body["field"] == "faction"
    nowhere = judge_client.post(url, {"action": "keep", "player": unseated.pk, "faction": "fremen"}, format="json")
    body = _refused(nowhere, names=("Jamis 001 has no seat in this round",), ids=(unseated.pk,))
    assert body["field"] == "player"
    assert _state(heat) == before
    assert {p.pk for p in players} == set(Seat.objects.filter(round=heat).values_list("player_id", flat=True))


def test_final_pick_out_of_turn_and_of_a_taken_faction_refused_by_name(
    judge_client: Any, tournament: Any
) -> None:
    """WBC 2018 format, final round faction assignment: qualifying order, no faction twice."""
    finalists = make_players(tournament, 6, prefix="Gurney")
    final = Round.objects.create(tournament=tournament, number=4, kind="final")
    ids = [p.pk for p in finalists]
    assert judge_client.post(
        f"/api/rounds/{final.pk}/seating/", {"players": ids, "seed": 1}, format="json"
    ).status_code == 200
    url = f"/api/rounds/{final.pk}/final/picks/"
    assert judge_client.post(url, {"player": ids[0], "faction": "fremen"}, format="json").status_code == 200
    before = _state(final)
    early = judge_client.post(url, {"player": ids[2], "faction": "atreides"}, format="json")
    body = _refused(early, names=("it is Gurney 002's turn to pick, not Gurney 003's",), ids=(ids[1], ids[2]))
    taken = judge_client.post(url, {"player": ids[1], "faction": "fremen"}, format="json")
    body = _refused(taken, names=("Fremen cannot be picked: Gurney 001 already picked it",), ids=(ids[0],))
    assert body["field"] == "faction"
    assert _state(final) == before
