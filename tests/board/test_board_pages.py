"""The board where people look: the table page (its own panel), the history's replay, the
filed report (printed with it), the player's game rows, the room screen during the final."""

from __future__ import annotations

import re
from typing import Any

import pytest

from gameplay import services
from scoring import services as scoring
from tests.board.golden import LOLV, WBC, golden_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_position_cache() -> None:
    from gameplay import engine_adapter

    engine_adapter.forget_all()


def stacks_in(html: str) -> int:
    return len(re.findall(r'<g class="stack [^"]*" data-territory=', html))


def test_table_page_has_the_board_panel_folded_with_its_stacks_in_words(client: Any) -> None:
    table = golden_table(LOLV)
    html = client.get(f"/tables/{table.pk}/").content.decode()
    panel = html[html.index('id="board-panel"'):]
    assert '<details class="board-fold" id="board-fold" data-open-wide>' in panel  # folded until opened
    assert 'data-seq="62"' in panel and "<svg" in panel
    assert "Force stacks after record #62" in panel
    assert stacks_in(panel) > 0


def test_table_page_before_the_first_record_says_so(client: Any) -> None:
    from tests.factories import make_players, make_round, make_tournament, seat_table

    tournament = make_tournament(format="wbc")
    table = seat_table(make_round(tournament), make_players(tournament, 6))
    html = client.get(f"/tables/{table.pk}/").content.decode()
    assert "the game has not begun" in html


def test_history_replay_shows_the_record_asked_for(client: Any, head_judge: Any) -> None:
    table = golden_table(LOLV)
    table.round.tournament.head_judges.add(head_judge)
    client.force_login(head_judge)
    html = client.get(f"/tables/{table.pk}/history/", {"at": 5}).content.decode()
    replay = html[html.index('id="board-replay"'):]
    assert 'value="5"' in replay and "#5 of 62" in replay
    assert '<div class="board-body" data-seq="5"' in replay
    assert re.search(r'<li value="5" data-seq="5"><strong>#5 ', replay)  # the record in words, shown
    assert '<li value="6" data-seq="6" hidden>' in replay
    assert "?at=4#board-replay" in replay and "?at=6#board-replay" in replay
    refused = client.get(f"/tables/{table.pk}/history/", {"at": 99})
    assert refused.status_code == 200
    assert "There is no record #99 at this table" in refused.content.decode()


def _file(table: Any, user: Any) -> None:
    scoring.file_report(table, services.prefill_report(table), user=user)


def test_filed_report_and_player_rows_show_the_final_position(client: Any, head_judge: Any) -> None:
    table = golden_table(WBC)
    table.round.tournament.head_judges.add(head_judge)
    _file(table, head_judge)
    html = client.get(f"/tables/{table.pk}/filed-report/").content.decode()
    final = html[html.index("Final position"):]
    assert 'data-seq="2075"' in final and stacks_in(final) == 26
    seat = table.seats.select_related("player").first()
    page = client.get(f"/tournaments/{table.round.tournament.pk}/players/{seat.player.pk}/").content.decode()
    assert f'src="/tables/{table.pk}/board.svg"' in page


def test_room_screen_shows_the_final_board_live(client: Any) -> None:
    table = golden_table(LOLV, kind="final")
    html = client.get(f"/tournaments/{table.round.tournament.pk}/screen/").content.decode()
    assert f'data-panel="/tables/{table.pk}/board/" data-poll="15"' in html
    assert "<svg" in html[html.index("screen-boards"):]


def test_room_screen_of_a_heat_has_no_board(client: Any) -> None:
    table = golden_table(LOLV)
    html = client.get(f"/tournaments/{table.round.tournament.pk}/screen/").content.decode()
    assert "screen-boards" not in html
