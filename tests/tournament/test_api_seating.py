"""API: seating a round, publishing, replacing with a reason, swaps, and the tables answer."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from dune.engine.ids import FACTIONS
from tournament.models import Player, Round, Seat, SeatingAudit, Table

pytestmark = pytest.mark.django_db


def _seat(client: Any, round_: Any, **body: Any) -> Any:
    return client.post(f"/api/rounds/{round_.pk}/seating/", body, format="json")


def _layout(body: dict[str, Any]) -> list[list[tuple[int, int, str | None]]]:
    return [[(s["player"], s["seat"], s["faction"]) for s in t["seats"]] for t in body["tables"]]


def test_4_01_01_seats_checked_in_players_in_the_issue_shape(
    judge_client: Any, heat: Any, checked_in: Any
) -> None:
    """45 checked-in players: five tables of six and three of five, every seat with player, faction, seat."""
    players = checked_in(45)
    response = _seat(judge_client, heat, seed=7)
    assert response.status_code == 200
    body = response.json()
    assert body["seed"] == 7 and isinstance(body["issues"], list)
    assert sorted(len(t["seats"]) for t in body["tables"]) == [5, 5, 5, 6, 6, 6, 6, 6]
    assert sorted(s["player"] for t in body["tables"] for s in t["seats"]) == sorted(p.pk for p in players)
    for table in body["tables"]:
        assert {"id", "number", "seats"} <= set(table)
        assert [s["seat"] for s in table["seats"]] == list(range(1, len(table["seats"]) + 1))
        factions = [s["faction"] for s in table["seats"]]
        assert len(set(factions)) == len(factions) and set(factions) <= set(FACTIONS)
    assert Seat.objects.filter(round=heat).count() == 45
    assert SeatingAudit.objects.get(round=heat).action == "seat"


def test_same_seed_same_seating_through_the_api(judge_client: Any, heat: Any, checked_in: Any) -> None:
    """The seed recorded with the seating reproduces it; table ids stay when a seating is redrawn."""
    checked_in(17)
    first = _seat(judge_client, heat, seed=99).json()
    again = _seat(judge_client, heat, seed=99).json()
    assert _layout(first) == _layout(again)
    assert [t["id"] for t in first["tables"]] == [t["id"] for t in again["tables"]]
    other = _seat(judge_client, heat, seed=100).json()
    assert _layout(other) != _layout(first)
    assert SeatingAudit.objects.filter(round=heat, action="reseat").count() == 2


def test_lolv_seating_deals_two_cards(judge_client: Any, tournament: Any, heat: Any, checked_in: Any) -> None:
    """LoLV 0.08: each seat is dealt a classic and an expansion card; the faction waits for the player's choice."""
    tournament.format = "lolv"
    tournament.save()
    checked_in(6)
    body = _seat(judge_client, heat, seed=3).json()
    for seat in body["tables"][0]["seats"]:
        assert seat["faction"] is None and len(seat["dealt"]) == 2


def test_seating_with_nobody_checked_in_refused(judge_client: Any, heat: Any) -> None:
    response = _seat(judge_client, heat)
    assert response.status_code == 400
    assert "players" in response.json() and "nobody to seat" in response.json()["detail"]
    assert not Table.objects.exists()


def test_4_01_01_unsplittable_count_answers_409_with_options(
    judge_client: Any, heat: Any, checked_in: Any
) -> None:
    """13 players do not split into 5s and 6s: 409 with the options; a chosen key is accepted back."""
    checked_in(13)
    response = _seat(judge_client, heat, seed=1)
    assert response.status_code == 409
    body = response.json()
    assert body["count"] == 13 and [o["key"] for o in body["options"]] == ["fours:2", "wait:1"]
    assert not Table.objects.exists()
    chosen = _seat(judge_client, heat, seed=1, small_tables="wait:1")
    assert chosen.status_code == 200
    assert len(chosen.json()["waiting"]) == 1 and "players_waiting" in chosen.json()["flags"]
    assert Round.objects.get(pk=heat.pk).small_tables == "wait:1"
    unknown = _seat(judge_client, heat, seed=1, small_tables="threes:4")
    assert unknown.status_code == 400 and "small_tables" in unknown.json()


def test_player_twice_unknown_or_withdrawn_refused(
    judge_client: Any, tournament: Any, heat: Any, checked_in: Any
) -> None:
    """A player listed twice (two tables), from another tournament, or withdrawn: 400 naming `players`."""
    players = checked_in(10)
    ids = [p.pk for p in players]
    twice = _seat(judge_client, heat, players=ids + [ids[0]])
    assert twice.status_code == 400 and "players" in twice.json() and "twice" in twice.json()["detail"]
    unknown = _seat(judge_client, heat, players=ids[:9] + [999_999])
    assert unknown.status_code == 400 and "999999" in unknown.json()["detail"]
    Player.objects.filter(pk=ids[0]).update(status="withdrawn")
    gone = _seat(judge_client, heat, players=ids)
    assert gone.status_code == 400 and "withdrew or dropped" in gone.json()["detail"]
    assert not Table.objects.exists() and not SeatingAudit.objects.exists()


def test_published_seating_replaced_only_with_a_reason(judge_client: Any, heat: Any, checked_in: Any) -> None:
    """Once published, a new seating needs an audit reason; without one nothing changes."""
    checked_in(12)
    before = _layout(_seat(judge_client, heat, seed=5).json())
    published = judge_client.post(f"/api/rounds/{heat.pk}/seating/publish/")
    assert published.status_code == 200 and published.json()["state"] == "published"
    refused = _seat(judge_client, heat, seed=6)
    assert refused.status_code == 400 and "reason" in refused.json()
    assert _layout(judge_client.get(f"/api/rounds/{heat.pk}/tables/").json()) == before
    replaced = _seat(judge_client, heat, seed=6, reason="two players swapped name badges")
    assert replaced.status_code == 200 and _layout(replaced.json()) != before
    audit = SeatingAudit.objects.filter(round=heat).order_by("at", "id").last()
    assert audit is not None and audit.reason == "two players swapped name badges" and audit.seed == 6
    again = judge_client.post(f"/api/rounds/{heat.pk}/seating/publish/")
    assert again.status_code == 409


def test_publish_without_seating_refused(judge_client: Any, heat: Any) -> None:
    response = judge_client.post(f"/api/rounds/{heat.pk}/seating/publish/")
    assert response.status_code == 400 and "no seating" in response.json()["detail"]
    assert Round.objects.get(pk=heat.pk).state == "planned"


def test_tables_hidden_from_players_until_published(judge_client: Any, heat: Any, checked_in: Any) -> None:
    checked_in(6)
    _seat(judge_client, heat, seed=2)
    public = APIClient()
    assert public.get(f"/api/rounds/{heat.pk}/tables/").json()["tables"] == []
    judge_client.post(f"/api/rounds/{heat.pk}/seating/publish/")
    tables = public.get(f"/api/rounds/{heat.pk}/tables/").json()["tables"]
    assert len(tables) == 1 and tables[0]["id"] == Table.objects.get().pk
    assert [s["sector"] for s in tables[0]["seats"]] == [4, 7, 10, 13, 16, 1]


def test_swap_two_players_between_tables(judge_client: Any, heat: Any, checked_in: Any) -> None:
    checked_in(12)
    body = _seat(judge_client, heat, seed=5).json()
    first, second = body["tables"][0]["seats"][0], body["tables"][1]["seats"][2]
    swapped = judge_client.post(
        f"/api/rounds/{heat.pk}/seating/swap/",
        {"first": first["player"], "second": second["player"]},
        format="json",
    )
    assert swapped.status_code == 200
    tables = swapped.json()["tables"]
    assert tables[0]["seats"][0]["player"] == second["player"]
    assert tables[1]["seats"][2]["player"] == first["player"]
    same = judge_client.post(
        f"/api/rounds/{heat.pk}/seating/swap/",
        {"first": first["player"], "second": first["player"]},
        format="json",
    )
    assert same.status_code == 400


def test_seating_writes_need_head_judge(api_client: Any, heat: Any, checked_in: Any, make_user: Any) -> None:
    checked_in(6)
    assert api_client.post(f"/api/rounds/{heat.pk}/seating/", {}, format="json").status_code in (401, 403)
    api_client.force_authenticate(make_user("judge1"))
    assert api_client.post(f"/api/rounds/{heat.pk}/seating/", {}, format="json").status_code == 403
    assert api_client.post(f"/api/rounds/{heat.pk}/seating/publish/").status_code == 403
    assert not Table.objects.exists()


def test_bad_seed_refused(judge_client: Any, heat: Any, checked_in: Any) -> None:
    checked_in(6)
    for seed in ("abc", -1):
        response = _seat(judge_client, heat, seed=seed)
        assert response.status_code == 400 and "seed" in response.json()


@pytest.mark.parametrize("count", [30, 120])
def test_seating_query_count_does_not_grow_with_players(
    judge_client: Any, heat: Any, checked_in: Any, django_assert_max_num_queries: Any, count: int
) -> None:
    """Seating and reading the tables take a fixed number of queries, whatever the count."""
    checked_in(count)
    with django_assert_max_num_queries(20):
        assert _seat(judge_client, heat, seed=1).status_code == 200
    # ... and the tables' states: their clocks and their games' results (one query each).
    with django_assert_max_num_queries(6):
        assert judge_client.get(f"/api/rounds/{heat.pk}/tables/").status_code == 200


def test_0_08_lolv_kept_card_and_wbc_trade_through_the_api(
    judge_client: Any, tournament: Any, heat: Any, checked_in: Any
) -> None:
    """LoLV 0.08: the kept card must be one of the two dealt; WBC trades need both players' consent."""
    tournament.format = "lolv"
    tournament.save()
    checked_in(5)
    seat = _seat(judge_client, heat, seed=3).json()["tables"][0]["seats"][0]
    url = f"/api/rounds/{heat.pk}/seating/factions/"
    wrong = next(f for f in FACTIONS if f not in seat["dealt"])
    refused = judge_client.post(
        url, {"action": "keep", "player": seat["player"], "faction": wrong}, format="json"
    )
    assert refused.status_code == 400 and "LoLV 0.08" in refused.json()["detail"]
    kept = judge_client.post(
        url, {"action": "keep", "player": seat["player"], "faction": seat["dealt"][1]}, format="json"
    )
    assert kept.status_code == 200
    assert kept.json()["tables"][0]["seats"][0]["faction"] == seat["dealt"][1]
    trade = judge_client.post(
        url,
        {
            "action": "trade",
            "player": seat["player"],
            "other": seat["player"] + 1,
            "consenting": [seat["player"], seat["player"] + 1],
        },
        format="json",
    )
    assert trade.status_code == 400 and "no trades" in trade.json()["detail"]


def test_latecomer_through_the_api(judge_client: Any, tournament: Any, heat: Any, checked_in: Any) -> None:
    from tests.factories import make_players

    checked_in(5)
    _seat(judge_client, heat, seed=3)
    (late,) = make_players(tournament, 1, prefix="Late")
    response = judge_client.post(
        f"/api/rounds/{heat.pk}/seating/latecomer/", {"player": late.pk}, format="json"
    )
    assert response.status_code == 200
    seats = response.json()["tables"][0]["seats"]
    assert seats[-1]["player"] == late.pk and seats[-1]["seat"] == 6 and seats[-1]["sector"] == 1
    again = judge_client.post(f"/api/rounds/{heat.pk}/seating/latecomer/", {"player": late.pk}, format="json")
    assert again.status_code == 400 and "already has a place" in again.json()["detail"]
