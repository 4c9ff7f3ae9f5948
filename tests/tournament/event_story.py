"""What every page and API says about an event's players, tables and rounds, held against the
model (`event_model.EventModel`). `check_story` reads them all; the per-player pages and APIs
for the players named (the simulator names a few each step, in turn)."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from typing import Any

from tests.tournament.event_driver import EventDriver
from tests.tournament.event_model import FINAL_SEATS, EventModel, ModelRound


def _qp(value: Any) -> Fraction:
    return Fraction(str(value))


def check_story(driver: EventDriver, players: list[int]) -> None:
    model = driver.model
    _players_list(driver, model)
    _where_players_sit(driver, model, players)
    _rounds(driver, model)
    _timer(driver, model)
    _standings(driver, model)
    _finalists(driver, model)
    _event_report(driver, model)
    _pages(driver, model, players[:2])


def _players_list(driver: EventDriver, model: EventModel) -> None:
    answer = driver.public.get(f"/api/tournaments/{driver.tournament}/players/")
    assert answer.status_code == 200
    listed = answer.json()
    listed = listed.get("players", listed) if isinstance(listed, dict) else listed
    assert {p["id"]: p["status"] for p in listed} == {pk: p.status for pk, p in model.players.items()}


def _where_players_sit(driver: EventDriver, model: EventModel, players: list[int]) -> None:
    for pk in players:
        body = driver.public.get(f"/api/players/{pk}/").json()
        where = model.current_seat(pk)
        if where is None:
            assert body["current"] is None, (model.players[pk].name, body)
        else:
            round_, table = where
            assert body["current"] is not None, (model.players[pk].name, "seated at", table.number)
            assert (body["current"]["round"], body["current"]["table"], body["current"]["faction"]) == (
                round_.pk, table.number, table.factions[pk]
            )


def expected_round_state(round_: ModelRound) -> str:
    """planned, seated, published, running (a clock started or a game over), finished (closed,
    or every table's report filed)."""
    if round_.state == "closed" or round_.filed:
        return "finished"
    if round_.state in ("planned", "seated"):
        return round_.state
    if round_.clocks_started or any(t.results is not None for t in round_.tables.values()):
        return "running"
    return "published"


def _rounds(driver: EventDriver, model: EventModel) -> None:
    for round_ in model.rounds:
        body = driver.public.get(f"/api/rounds/{round_.pk}/").json()
        assert body["state"] == expected_round_state(round_), (round_.kind, round_.number, body["state"])
        if round_.state == "planned":
            continue
        tables = driver.judge.get(f"/api/rounds/{round_.pk}/tables/").json()["tables"]
        assert {t["id"]: sorted(s["player"] for s in t["seats"]) for t in tables} == {
            t.pk: sorted(t.players) for t in round_.tables.values()
        }
        for table in tables:
            filed = round_.tables[table["id"]].results is not None
            assert (table["state"] == "filed") == filed, (round_.number, table["number"], table["state"])


def _timer(driver: EventDriver, model: EventModel) -> None:
    """The projector's countdown is the room's: tables whose clock runs on a different end (an
    extension) are named apart, the others share the room's end."""
    round_ = model.open_round
    if round_ is None or not round_.clocks_started:
        return
    body = driver.public.get(f"/api/rounds/{round_.pk}/timer/").json()
    playing = [t for t in round_.tables.values() if t.results is None]
    if not playing:
        assert body["state"] == "over", body
        return
    assert body["ends_at"] is not None and body["counts_down_to"], body
    extensions = Counter(t.extended for t in playing)
    (room, most), *rest = extensions.most_common()
    if rest and rest[0][1] == most:
        return  # no end most tables share: which is the room's is the platform's choice
    apart = sorted(t.number for t in playing if t.extended != room)
    assert sorted(row["table_number"] for row in body["tables_ending_otherwise"]) == apart, body


def _standings(driver: EventDriver, model: EventModel) -> None:
    body = driver.public.get(f"/api/tournaments/{driver.tournament}/standings/").json()
    assert body["provisional"] == model.provisional
    rows = {row["player"]: row for row in body["standings"]}
    assert set(rows) == set(model.ranked())
    for pk, row in rows.items():
        name = model.players[pk].name
        assert _qp(row["points"]) == model.qualifying_score(pk), (name, row)
        assert row["games"] == len(model.heat_games(pk)), (name, row)
        assert _qp(row["tiebreak"][0]) == model.best_game(pk), (name, row)
    keys = [model.order_key(row["player"]) for row in body["standings"]]
    assert keys == sorted(keys, reverse=True), "the standings are out of the format's order"


def _finalists(driver: EventDriver, model: EventModel) -> None:
    body = driver.public.get(f"/api/tournaments/{driver.tournament}/finalists/").json()
    finalists, alternates = body["finalists"], body["alternates"]
    states = {s["player"]: s for s in body["states"]}
    assert not set(finalists) & set(alternates), "a player is both a finalist and an alternate"
    final = model.final
    if final is not None and final.tables:
        (table,) = final.tables.values()
        assert sorted(finalists) == sorted(table.players), "the finalists are not the players at the final table"
        for pk in final.absent:
            assert states[pk]["state"] == "absent", (model.players[pk].name, states[pk])
    elif model.provisional:
        assert finalists == [], "finalists named while a heat is still to be played or reported"
    else:
        eligible = model.eligible_for_final()
        assert len(finalists) == min(FINAL_SEATS, len(eligible)), (finalists, eligible)
        assert set(finalists) <= set(eligible), "a player who left the event is named a finalist"
        if finalists:
            lowest_in = min(model.order_key(p) for p in finalists)
            assert all(model.order_key(p) <= lowest_in for p in eligible if p not in finalists)
    for pk in finalists:
        assert states[pk]["in_final"], (model.players[pk].name, states[pk])
    for pk in alternates:
        assert states[pk]["state"] == "alternate" and not states[pk]["in_final"], (model.players[pk].name, states[pk])
        assert model.players[pk].status == "active", "a player who left the event is named an alternate"
    current = model.open_round
    for pk in current.no_shows if current is not None and current.kind == "heat" else ():
        if model.players[pk].status == "active":
            assert states[pk]["state"] == "no_show", (model.players[pk].name, states[pk])
    for pk, player in model.players.items():
        if player.status == "dropped" and pk not in finalists:
            assert states[pk]["state"] == "dropped", (player.name, states[pk])


def _event_report(driver: EventDriver, model: EventModel) -> None:
    body = driver.public.get(f"/api/tournaments/{driver.tournament}/event-report/").json()
    assert body["games"] == model.filed_games()
    assert {k: v for k, v in body["results"].items() if v} == model.results_count()
    champion = model.champion()
    if champion is None:
        assert body["champion"] is None or model.final is not None and model.final.filed, body["champion"]
    else:
        assert body["champion"]["player"] == champion, body["champion"]
        assert body["placings"][0]["player"] == champion


def _pages(driver: EventDriver, model: EventModel, players: list[int]) -> None:
    """Every "N points from M games" a player's page writes matches the model; the standings
    page names every ranked player."""
    for pk in players:
        page = driver.public.get(f"/tournaments/{driver.tournament}/players/{pk}/")
        assert page.status_code == 200
        text = re.sub(r"\s+", " ", page.content.decode())
        games = len(model.heat_games(pk))
        for said in re.findall(r"points? from (\d+) games?", text):
            assert int(said) == games, (model.players[pk].name, said, games)
    page = driver.public.get(f"/tournaments/{driver.tournament}/standings/")
    assert page.status_code == 200
    text = page.content.decode()
    for pk in model.ranked():
        assert model.players[pk].name in text, model.players[pk].name
