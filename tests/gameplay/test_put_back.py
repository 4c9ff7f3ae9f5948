"""Putting back what the engine removed by itself, from the table page: the judge corrects an
automatic loss (WBC VI.8, the storm over the sand) with a reason, through the same exactly-once
form path as every other action; a refusal is shown next to its field with what was typed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client

from gameplay.models import Game, GameEvent
from tests.gameplay.conftest import post_event
from tests.gameplay.full_game import storm_took_forces
from web.gameplay.page_forms import removed_by_engine

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
#: The storm's removal the page lists: three Harkonnen forces in The Great Flat, sector 14.
PUT_BACK = {"action": "correct_loss", "faction": "harkonnen", "piece": "the_great_flat@14", "normal": "3",
            "reason": "Harkonnen had a Weather Control in play"}


@pytest.fixture
def stormed(table_judge: Any) -> Any:
    return storm_took_forces(table_judge)


def url(table: Any) -> str:
    return f"/tables/{table.pk}/"


def web(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def seq_of(table: Any) -> int:
    return Game.objects.get(table=table).seq


def put_back_form(html: str) -> str:
    start = html.index('data-action="correct_loss"')
    return html[start:html.index("</form>", start)]


def harkonnen_at_the_great_flat(table: Any) -> int:
    position = Game.objects.get(table=table).position
    return sum(row["normal"] for row in position["forces"]
               if (row["faction"], row["territory"], row["sector"]) == ("harkonnen", "the_great_flat", 14))


def test_wbc_vi_8_the_removed_row_offers_a_put_back_form_prefilled_from_the_removal(
    stormed: Any, table_judge: Any
) -> None:
    html = web(table_judge).get(url(stormed)).content.decode()
    form = put_back_form(html)
    assert 'data-event-type="loss_corrected"' in form
    assert 'name="faction" value="harkonnen"' in form and 'name="piece" value="the_great_flat@14"' in form
    assert re.search(r'name="normal" type="number"[^>]*value="3"', form)
    assert 'name="special"' not in form and 'name="advisors"' not in form  # the storm took only normal forces
    assert 'name="reason"' in form and f'name="expected_seq" value="{seq_of(stormed)}"' in form
    assert "Harkonnen in The Great Flat (sector 14)" in form


def test_wbc_vi_8_putting_back_records_one_event_and_a_retry_records_none(stormed: Any, table_judge: Any) -> None:
    judge = web(table_judge)
    seq = seq_of(stormed)
    form = {**PUT_BACK, "expected_seq": str(seq), "idempotency_key": "put-back-1"}
    answer = judge.post(url(stormed), form)
    assert answer.status_code == 302
    added = list(GameEvent.objects.filter(game__table=stormed, seq__gt=seq))
    assert [e.type for e in added] == ["loss_corrected"]
    assert added[0].body == {"type": "loss_corrected", "v": 1, "faction": "harkonnen", "territory": "the_great_flat",
                             "sector": 14, "reason": PUT_BACK["reason"], "normal": 3, "special": 0, "advisors": 0}
    assert added[0].reason == PUT_BACK["reason"]  # the correction's reason is in the log
    assert harkonnen_at_the_great_flat(stormed) == 3
    page = judge.get(answer["Location"]).content.decode()
    assert "Recorded: loss corrected" in page and 'id="removed"' not in page

    again = judge.post(url(stormed), form, follow=True)
    assert "Already recorded: loss corrected" in again.content.decode()
    assert GameEvent.objects.filter(game__table=stormed, seq__gt=seq).count() == 1


def test_an_outbox_retry_under_its_header_key_records_once_and_answers_in_place(
    stormed: Any, table_judge: Any
) -> None:
    judge = web(table_judge)
    seq = seq_of(stormed)
    form = {**PUT_BACK, "expected_seq": str(seq)}
    first = judge.post(url(stormed), form, HTTP_IDEMPOTENCY_KEY="outbox-7", **HTMX)
    second = judge.post(url(stormed), form, HTTP_IDEMPOTENCY_KEY="outbox-7", **HTMX)
    assert first.status_code == second.status_code == 200
    assert "Already recorded: loss corrected" in second.content.decode()
    assert 'id="removed"' not in second.content.decode()
    assert GameEvent.objects.filter(game__table=stormed, seq__gt=seq).count() == 1


@pytest.mark.parametrize(
    "typed, field, message",
    [
        ({"reason": ""}, "reason", "a correction needs a reason"),
        ({"normal": "4"}, "normal", "the rules removed only 3 Harkonnen forces from The Great Flat (sector 14)"),
        ({"normal": "-1"}, "normal", "must be at least 0"),
        ({"normal": "three"}, "normal", "must be a whole number"),
    ],
)
def test_a_refused_put_back_shows_the_message_at_its_field_keeps_the_input_and_records_nothing(
    stormed: Any, table_judge: Any, typed: dict[str, str], field: str, message: str
) -> None:
    seq = seq_of(stormed)
    answer = web(table_judge).post(url(stormed), {**PUT_BACK, **typed, "expected_seq": str(seq)})
    assert answer.status_code == 400
    html = answer.content.decode()
    form = put_back_form(html)
    error = re.search(rf'<p class="field-error" role="alert" id="err-correct_loss-{field}">(.*?)</p>', form)
    assert error and message in error.group(1), form
    assert re.search(r'<details class="put-back" open>', html)  # the refused form stays open
    kept = {**PUT_BACK, **typed}
    assert f'value="{kept["reason"]}"' in form and f'value="{kept["normal"]}"' in form
    assert GameEvent.objects.filter(game__table=stormed, seq__gt=seq).count() == 0


def test_more_than_the_tanks_hold_is_refused_by_the_engine(table_judge: Any) -> None:
    """Without a listed removal at that place, the tanks are the limit."""
    table = storm_took_forces(table_judge)
    seq = seq_of(table)
    form = {**PUT_BACK, "piece": "funeral_plain@14", "normal": "5", "expected_seq": str(seq)}
    html = web(table_judge).post(url(table), form).content.decode()
    assert "Harkonnen has only 3 forces in the tanks" in html
    assert GameEvent.objects.filter(game__table=table, seq__gt=seq).count() == 0


def test_the_api_names_the_field_a_refused_correction_is_about(stormed: Any, judge_api: Any) -> None:
    event = {"type": "loss_corrected", "faction": "harkonnen", "territory": "the_great_flat", "sector": 14,
             "normal": 3, "reason": " "}
    answer = post_event(judge_api, stormed, event, seq_of(stormed))
    assert answer.status_code == 400
    assert answer.json()["field"] == "reason" and "needs a reason" in answer.json()["message"]


def test_players_and_visitors_see_no_put_back_and_cannot_post_it(stormed: Any, make_user: Any) -> None:
    player = make_user("player1")
    seat = stormed.seats.get(faction="harkonnen")
    seat.player.user = player
    seat.player.save()
    seq = seq_of(stormed)
    for client in (web(player), web(None)):
        assert 'data-action="correct_loss"' not in client.get(url(stormed)).content.decode()
        assert client.post(url(stormed), {**PUT_BACK, "expected_seq": str(seq)}).status_code == 403
    assert GameEvent.objects.filter(game__table=stormed, seq__gt=seq).count() == 0


def test_a_head_judge_sees_and_uses_the_put_back_form(stormed: Any, head_judge: Any) -> None:
    head = web(head_judge)
    assert 'data-action="correct_loss"' in head.get(url(stormed)).content.decode()
    answer = head.post(url(stormed), {**PUT_BACK, "expected_seq": str(seq_of(stormed))})
    assert answer.status_code == 302
    assert harkonnen_at_the_great_flat(stormed) == 3


def test_quick_tracking_refuses_a_loss_correction(table: Any, table_judge: Any) -> None:
    """Quick tracking knows no tanks and removes nothing by itself: no form, and a crafted post
    is refused by the engine."""
    judge = web(table_judge)
    assert 'data-action="correct_loss"' not in judge.get(url(table)).content.decode()
    answer = judge.post(url(table), {**PUT_BACK, "expected_seq": "1"})
    assert answer.status_code == 400 and "needs full tracking" in answer.content.decode()
    assert not GameEvent.objects.filter(game__table=table, type="loss_corrected").exists()


def test_a_removed_row_without_a_faction_is_spice_put_back_by_its_own_form() -> None:
    """Spice destroyed on the board has no faction: the row is shown, with no forces' form;
    its own form sets the territory's spice back (`board_spice_set`)."""
    snapshot = {"losses": [
        {"territory": "the_great_flat", "sector": 14, "spice": 6, "rule": "WBC VI.8"},
        {"faction": "harkonnen", "territory": "the_great_flat", "sector": 14, "normal": 3, "special": 0,
         "advisors": 0, "rule": "WBC VI.8"},
    ]}
    rows = removed_by_engine(snapshot)
    assert [(r["faction"], r["put_back"]) for r in rows] == [("", False), ("Harkonnen", True)]
    html = render_to_string("gameplay/_removed.html", {"removed": rows, "can": {"correct_loss"}, "seq": 8})
    assert "6 spice in The Great Flat (sector 14)" in html
    assert html.count('data-action="correct_loss"') == 1 and 'value="harkonnen"' in html
    assert 'data-action="set_board_spice"' not in html  # not offered, not shown
    html = render_to_string("gameplay/_removed.html",
                            {"removed": rows, "can": {"correct_loss", "set_board_spice"}, "seq": 8})
    assert html.count('data-action="set_board_spice"') == 1 and 'name="territory" value="the_great_flat"' in html


def test_2_11_09_an_ambassador_the_storm_took_back_is_shown_with_its_rule() -> None:
    """Never silently: the storm's Ambassador row says whose token went back to the supply,
    from where, by which rule; there is nothing to put back."""
    snapshot = {"losses": [
        {"faction": "ecaz", "territory": "carthag", "sector": 10, "normal": 0, "special": 0, "advisors": 0,
         "spice": 0, "ambassador": "fremen", "rule": "2.11.09"},
    ]}
    rows = removed_by_engine(snapshot)
    assert [(r["faction"], r["ambassador"], r["put_back"]) for r in rows] == [("Ecaz", "Fremen", False)]
    html = render_to_string("gameplay/_removed.html", {"removed": rows, "can": {"correct_loss"}, "seq": 8})
    assert "Ecaz: the Fremen Ambassador in Carthag (sector 10), back to the supply" in html
    assert "rule 2.11.09" in html and 'data-action="correct_loss"' not in html
