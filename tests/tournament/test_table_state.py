"""A table's state (seated, playing, game over, report filed) and its clock's: one derivation,
`tournament.table_state`, that every page, the API and the room screen read."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from clocks import services as clocks
from clocks.presenters import table_states
from dune import clock_limits as limits
from tests.clocks.conftest import seated
from tests.scoring.db.conftest import report_for
from tournament import table_state as ts
from tournament.models import Round

CLOCKS = (None, *limits.STATES)


@pytest.mark.parametrize(
    ("game_started", "clock_started", "filed", "decided", "clock", "paused"),
    list(itertools.product((False, True), (False, True), (False, True), (False, True), CLOCKS, (False, True))),
)
def test_every_combination_has_one_state(
    game_started: bool, clock_started: bool, filed: bool, decided: bool, clock: str | None, paused: bool
) -> None:
    state = ts.state_of(
        game_started=game_started, clock_started=clock_started, filed=filed, decided=decided, clock=clock, paused=paused
    )
    if filed:
        expected = ts.FILED
    elif decided:
        expected = ts.ENDED
    elif game_started or clock_started:
        expected = ts.PLAYING
    else:
        expected = ts.SEATED
    assert state.key == expected
    # A game that is over has nothing left to time: its clock is never shown running.
    if state.over or clock == limits.FINISHED:
        assert state.clock == ts.CLOCK_STOPPED
    elif clock in (None, limits.PENDING):
        assert state.clock == ts.CLOCK_NOT_STARTED
    elif paused:
        assert state.clock == ts.CLOCK_PAUSED
    elif clock == limits.TIME_UP:
        assert state.clock == ts.CLOCK_TIME_UP
    else:
        assert state.clock == ts.CLOCK_RUNNING
    # Words for people, never a key.
    assert "_" not in state.label and "_" not in state.clock_label
    assert state.words == f"{state.label} · {state.clock_label}"


def test_the_words_for_each_state() -> None:
    assert [ts.LABELS[k] for k in ts.STATES] == ["Seated", "Playing", "Game over, report not filed", "Report filed"]
    assert set(ts.CLOCK_LABELS) == set(ts.CLOCK_STATES)


def _file(judge_client: Any, table: Any) -> None:
    answer = judge_client.post(f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json")
    assert answer.status_code in (200, 201), answer.content


def _keys(html: str) -> dict[int, str]:
    """Each table's `data-table-state` on a page whose elements carry `data-table="id"`."""
    return {int(pk): key for pk, key in re.findall(r'data-table="(\d+)"[^>]*?data-table-state="(\w+)"', html)}


@pytest.mark.django_db
def test_the_table_page_the_round_api_the_room_screen_and_the_dashboard_agree(
    client: Any, judge_client: Any, head_judge: Any
) -> None:
    from gameplay import services as game
    from gameplay.models import Game

    heat = seated(format="wbc", size=6, tables=4)
    heat.tournament.head_judges.add(head_judge)
    Round.objects.filter(pk=heat.pk).update(state=Round.State.PUBLISHED)
    filed, playing, waiting, ended = heat.tables.order_by("number")
    for table in (filed, playing, ended):
        clocks.start(table, user=head_judge)
    _file(judge_client, filed)
    # The game record holds a result (a victory), the report is not filed yet, and the
    # clocks' sweep has not finished its clock: the clock still says running in its row.
    record = game.game_for(ended)
    faction = ended.seats.order_by("seat").first().faction
    outcome = {"winners": [faction], "kind": "solo_stronghold", "rule": "WBC House Rules", "ended_by": "victory",
               "sides": [{"factions": [faction], "kind": "solo_stronghold"}]}
    Game.objects.filter(pk=record.pk).update(evaluation={**record.evaluation, "outcome": outcome})
    expected = {filed.pk: ts.FILED, playing.pk: ts.PLAYING, waiting.pk: ts.SEATED, ended.pk: ts.ENDED}
    assert {pk: s.key for pk, s in table_states(list(heat.tables.all())).items()} == expected

    client.force_login(head_judge)
    for table in (filed, playing, waiting, ended):
        page = client.get(f"/tables/{table.pk}/").content.decode()
        shown = re.search(r'class="table-state" data-table-state="(\w+)"[^>]*>([^<]+)<', page)
        assert shown is not None
        assert shown.group(1) == expected[table.pk] and shown.group(2) == ts.LABELS[expected[table.pk]]

    api = client.get(f"/api/rounds/{heat.pk}/tables/").json()
    assert {t["id"]: t["state"] for t in api["tables"]} == expected
    assert {t["id"]: t["state_label"] for t in api["tables"]} == {pk: ts.LABELS[k] for pk, k in expected.items()}
    assert {t["id"]: t["clock_state"] for t in api["tables"]} == {
        filed.pk: ts.CLOCK_STOPPED, playing.pk: ts.CLOCK_RUNNING, waiting.pk: ts.CLOCK_NOT_STARTED,
        ended.pk: ts.CLOCK_STOPPED,
    }
    clock_api = client.get(f"/api/rounds/{heat.pk}/clocks/").json()
    assert {r["table"]: r["table_state"] for r in clock_api["clocks"]} == expected

    screen = client.get(f"/tournaments/{heat.tournament_id}/screen/").content.decode()
    assert _keys(screen) == expected
    assert "Report filed" in screen and "Game over, report not filed" in screen

    dashboard = client.get(f"/rounds/{heat.pk}/clocks/").content.decode()
    assert _keys(dashboard) == expected
    for pk, key in expected.items():
        row = dashboard.split(f'data-table="{pk}"')[1].split("</tr>")[0]
        assert str(ts.LABELS[key]) in row
    # A game that is over never shows its clock counting down.
    for table in (filed, ended):
        row = dashboard.split(f'data-table="{table.pk}"')[1].split("</tr>")[0]
        assert "Running" not in row and 'data-next-at=""' in dashboard.split(f'data-table="{table.pk}"')[1][:400]
