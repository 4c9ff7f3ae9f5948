"""`GET /tables/{id}/board.svg`: the table's position drawn by the cores, after any record
(`?seq=N`), with an ETag by record number; 404 with a message where there is no board."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from dune.board_svg import board_svg
from dune.engine.evaluation import evaluate
from gameplay import services
from tests.board.golden import LOLV, WBC, golden_events, golden_table, positions
from tests.factories import make_players, make_round, make_tournament, seat_table

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(autouse=True)
def _fresh_position_cache() -> None:
    from gameplay import engine_adapter

    engine_adapter.forget_all()


@pytest.fixture
def table_judge(make_user: Any) -> Any:
    return make_user("judge1")


@pytest.fixture
def table(table_judge: Any) -> Any:
    tournament = make_tournament(format="wbc")
    tournament.table_judges.add(table_judge)
    return seat_table(make_round(tournament), make_players(tournament, 6), judge=table_judge)


def drawn(table: Any, seq: int, position: Any) -> str:
    """The document the endpoint should answer for record `seq`."""
    return board_svg(position, answer=evaluate(position), title=f"Table {table.number}: the board after record #{seq}",
                     seq=seq, uid=f"board-t{table.pk}")


def test_latest_position_as_svg_with_an_etag_and_a_304_on_repeat(client: Any) -> None:
    table = golden_table(WBC)
    answer = client.get(f"/tables/{table.pk}/board.svg")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("image/svg+xml")
    last = positions(WBC)[-1]
    assert answer.content.decode() == drawn(table, len(golden_events(WBC)), last)
    etag = answer["ETag"]
    assert str(len(golden_events(WBC))) in etag
    again = client.get(f"/tables/{table.pk}/board.svg", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    assert len(answer.content) <= 30 * 1024


def test_seq_draws_the_position_after_that_record(client: Any) -> None:
    """Every record of the LoLV golden game in order, then a jump back across the WBC game's
    stored snapshots, each the position the engine had after that record."""
    table = golden_table(LOLV)
    for seq, position in enumerate(positions(LOLV), start=1):
        answer = client.get(f"/tables/{table.pk}/board.svg", {"seq": seq})
        assert answer.status_code == 200, (seq, answer.content[:200])
        assert answer.content.decode() == drawn(table, seq, position), seq
        assert answer["ETag"] != ""
    wbc = golden_table(WBC)
    every = positions(WBC)
    for seq in (1777, 1234, 60, 2, 1):
        answer = client.get(f"/tables/{wbc.pk}/board.svg", {"seq": seq})
        assert answer.content.decode() == drawn(wbc, seq, every[seq - 1]), seq


def test_seq_across_a_void(client: Any, table: Any, table_judge: Any) -> None:
    """A record that a later void cancels still drew what the table had after it; the void's
    own picture is the position without it."""
    events = [
        {"type": "phase_advanced", "phase": "storm"},
        {"type": "storm_placed", "sector": 4},
        {"type": "void", "seq": 3, "reason": "wrong sector"},
        {"type": "storm_placed", "sector": 7},
    ]
    services.game_for(table)
    for seq, event in enumerate(events, start=1):
        services.append_event(table, event, expected_seq=seq, user=table_judge)
    storms = {}
    for seq in (2, 3, 4, 5):
        root = ET.fromstring(client.get(f"/tables/{table.pk}/board.svg", {"seq": seq}).content)
        storms[seq] = [el.get("data-storm-sector") for el in root.iter() if el.get("data-storm-sector")]
    assert storms == {2: [], 3: ["4"], 4: [], 5: ["7"]}


@pytest.mark.parametrize("seq", ["0", "63", "-3", "abc", "1.5"])
def test_unknown_seq_is_404_with_a_message(client: Any, seq: str) -> None:
    table = golden_table(LOLV)
    answer = client.get(f"/tables/{table.pk}/board.svg", {"seq": seq})
    assert answer.status_code == 404
    text = answer.content.decode()
    assert f"no record #{seq}" in text and "#1 to #62" in text


def test_table_not_begun_is_404_with_a_message(client: Any) -> None:
    tournament = make_tournament(format="wbc")
    table = seat_table(make_round(tournament), make_players(tournament, 5))
    answer = client.get(f"/tables/{table.pk}/board.svg")
    assert answer.status_code == 404
    assert "has not begun" in answer.content.decode()
    assert not hasattr(table, "game") or table.game_started_at is None  # looking started nothing
    planned = seat_table(make_round(tournament, number=2, state="planned"), make_players(tournament, 5, prefix="P2"))
    answer = client.get(f"/tables/{planned.pk}/board.svg", {"seq": "1"})
    assert answer.status_code == 404
    assert "not published" in answer.content.decode()
    assert client.get(f"/tables/{table.pk}/board/").status_code == 404


def test_board_panel_fragment_has_the_drawing_and_the_stacks_in_words(client: Any) -> None:
    table = golden_table(LOLV)
    answer = client.get(f"/tables/{table.pk}/board/", {"seq": 20})
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'data-seq="20"' in html and "<svg" in html and "Force stacks after record #20" in html
    assert client.get(f"/tables/{table.pk}/board/", {"seq": 20}, HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304
    # The panel's ETag is not the picture's: the picture is drawn, not answered 304.
    assert client.get(f"/tables/{table.pk}/board.svg", {"seq": 20}, HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 200
