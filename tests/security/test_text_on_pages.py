"""Pages refuse text that cannot be stored (a control character, here U+0007 pasted into
"Ali|a") next to the field it was typed in, show the text back without that character, say
which character at which position was taken out, and write nothing.

Every page form with a text field is listed here; the API's JSON refusals are unchanged
(test_bad_input.py and the JSON cases below).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.apps import apps
from django.http import HttpResponse
from django.test import Client, RequestFactory

from clocks import services as clocks
from gameplay import services as gameplay
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for
from tournament.models import Player, Round
from web.page_text import TextRefused, shows_text_refusals, take_out

pytestmark = pytest.mark.django_db

TYPED = "Ali\x07a"  # U+0007 (bell) at position 4
KEPT = "Alia"
MESSAGE = "The control character U+0007 at position 4 cannot be stored and was taken out"
#: Whose rows a refused form must leave exactly as they were.
APPS = ("tournament", "gameplay", "scoring", "clocks", "ratings", "axes", "auth")


def database_state() -> dict[str, list[str]]:
    return {
        model._meta.label: sorted(repr(sorted(row.items())) for row in model.objects.values())
        for model in apps.get_models(include_auto_created=True)
        if model._meta.app_label in APPS
    }


@pytest.fixture
def world(head_judge: Any) -> dict[str, Any]:
    """A WBC event: heat 1 published with a game on table 1 and a filed report on table 2, a
    planned final, and the head judge signed in."""
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 12)
    heat = make_round(tournament, number=1)
    table = seat_table(heat, players[:6], number=1)
    filed = seat_table(heat, players[6:], number=2)
    gameplay.game_for(table)
    final = make_round(tournament, number=2, kind=Round.Kind.FINAL, state=Round.State.PLANNED)
    client = Client()
    client.force_login(head_judge)
    answer = client.post(
        f"/api/tables/{filed.pk}/report/", json.dumps(report_for(filed, {0: "solo_stronghold"})),
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.content
    return {
        "client": client, "t": tournament.pk, "r": heat.pk, "final": final.pk, "table": table.pk,
        "filed": filed.pk, "p": players[0].pk, "seat_player": players[0].pk,
    }


def kept_in_field(html: str, name: str, value: str = KEPT) -> bool:
    """Whether an input named `name` (or its textarea) shows `value`."""
    tags = re.findall(rf'<input[^>]*name="{name}"[^>]*>', html)
    if any(f'value="{value}"' in tag for tag in tags):
        return True
    return bool(re.search(rf'<textarea[^>]*name="{name}"[^>]*>[^<]*{value}', html))


def next_to(html: str, error_id: str) -> str:
    """The text of the element with id `error_id`."""
    found = re.search(rf'id="{error_id}"[^>]*>(.*?)</', html, re.S)
    assert found, f"no element #{error_id}"
    return found.group(1)


#: (page opened first, form posted to, fields, the text field, id of the message beside it)
FORMS = [
    ("/tournaments/new/", "/tournaments/new/", {"format": "wbc"}, "name", "name-error"),
    ("/tournaments/{t}/", "/tournaments/{t}/", {"action": "add_judge"}, "username", "username-error"),
    ("/tournaments/{t}/players/", "/tournaments/{t}/players/", {"action": "add", "name": "Gurney"}, "club", "club-error"),
    ("/tournaments/{t}/players/", "/tournaments/{t}/players/", {"action": "add"}, "name", "name-error"),
    ("/tournaments/{t}/players/", "/tournaments/{t}/players/", {"action": "add", "name": "Gurney"}, "household",
     "household-error"),
    ("/tournaments/{t}/players/import/", "/tournaments/{t}/players/import/", {"action": "preview"}, "csv", "csv-error"),
    ("/tournaments/{t}/players/{p}/edit/", "/tournaments/{t}/players/{p}/edit/", {"email": "a@example.org"}, "name",
     "name-error"),
    # The final's page has no typed fields: finalists are chosen by name from lists.
    ("/rounds/{r}/seat/", "/rounds/{r}/seat/draw/", {}, "reason", "reason-error"),
    ("/rounds/{r}/seat/", "/rounds/{r}/seat/swap/", {"first": "{p}", "second": "{p}"}, "reason", "swap-error"),
    ("/rounds/{r}/seat/", "/rounds/{r}/seat/latecomer/", {"player": "{p}"}, "reason", "latecomer-error"),
    ("/tables/{table}/", "/tables/{table}/", {"action": "end_game", "expected_seq": "1"}, "why", "err-end_game-why"),
    ("/tables/{table}/", "/tables/{table}/", {"action": "drop_out", "expected_seq": "1", "faction": "fremen"}, "why",
     "err-drop_out-why"),
    ("/tables/{filed}/filed-report/", "/tables/{filed}/filed-report/", {}, "reason", "reason-error"),
    ("/tables/{table}/clock/", "/tables/{table}/clock/extend/", {"minutes": "5"}, "reason", "reason-error"),
    ("/rounds/{r}/clocks/", "/rounds/{r}/clocks/pause/", {}, "reason", "round-error"),
    ("/rounds/{r}/clocks/", "/tables/{table}/clock/extend/", {"minutes": "5", "next": "round"}, "reason",
     "reason-error-{table}"),
    ("/players/{p}/person/", "/players/{p}/person/", {"action": "link", "person": "1"}, "reason", "reason-error"),
    ("/players/{p}/person/", "/players/{p}/person/", {"action": "unlink"}, "reason", "unlink-reason-error"),
]


@pytest.mark.parametrize(("page", "url", "fields", "field", "error_id"), FORMS, ids=[f"{f[1]}:{f[3]}" for f in FORMS])
def test_a_control_character_is_refused_next_to_the_field_and_nothing_is_written(
    world: dict[str, Any], page: str, url: str, fields: dict[str, str], field: str, error_id: str
) -> None:
    client = world["client"]
    opened = client.get(page.format(**world))
    assert opened.status_code == 200, opened.content
    before = database_state()
    body = {key: value.format(**world) for key, value in fields.items()}
    if field == "csv":
        body[field] = f"name,email,club\n{TYPED},ali@example.org,Ginaz\n"
    else:
        body[field] = TYPED
    answer = client.post(url.format(**world), body)
    html = answer.content.decode()
    assert answer.status_code in (200, 400), html[:500]
    where = "line 2, position 4" if field == "csv" else "position 4"
    assert MESSAGE.replace("position 4", where) in next_to(html, error_id.format(**world))
    assert "\x07" not in html
    if field == "csv":
        assert f"{KEPT},ali@example.org,Ginaz" in html
    elif field != "reason" or "round" not in error_id:
        assert kept_in_field(html, field), f"{field} lost what was typed"
    assert database_state() == before


@pytest.mark.parametrize(("action", "fields"), [("waive", {"all_players_agree": "on"}), ("pause", {})])
def test_the_final_clock_keeps_the_reason_in_the_form_it_was_typed_in(
    head_judge: Any, client: Client, action: str, fields: dict[str, str]
) -> None:
    """WBC Final Round Duration: the time limit may be waived (with a reason); a pause has one."""
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    final = make_round(tournament, kind=Round.Kind.FINAL)
    table = seat_table(final, make_players(tournament, 5))
    clocks.start(table, user=head_judge)
    client.force_login(head_judge)
    assert f"{action}-reason" in client.get(f"/tables/{table.pk}/clock/").content.decode()
    before = database_state()
    answer = client.post(f"/tables/{table.pk}/clock/{action}/", {**fields, "reason": TYPED})
    html = answer.content.decode()
    assert MESSAGE in next_to(html, f"{action}-reason-error")
    assert re.search(rf'<input id="{action}-reason"[^>]*value="{KEPT}"', html)
    assert not re.search(rf'<input id="reason"[^>]*value="{KEPT}"', html)  # not in the extend form
    assert 'id="reason-error"' not in html  # nor under the extend form's reason
    assert database_state() == before


def test_the_round_pause_keeps_its_reason(world: dict[str, Any]) -> None:
    html = world["client"].post(f"/rounds/{world['r']}/clocks/pause/", {"reason": TYPED}).content.decode()
    assert re.search(rf'<input id="round-pause-reason"[^>]*value="{KEPT}"', html)


def test_a_report_number_is_refused_next_to_its_field(world: dict[str, Any]) -> None:
    client, table = world["client"], world["table"]
    client.get(f"/tables/{table}/report/")
    before = database_state()
    field = f"p{world['p']}_tokens"
    answer = client.post(f"/tables/{table}/report/", {"turns": "3", field: "1\x070", "confirm": "yes"})
    html = answer.content.decode()
    assert answer.status_code == 400
    assert "The control character U+0007 at position 2" in next_to(html, f"err-{field}")
    assert kept_in_field(html, field, "10")
    assert database_state() == before


def test_the_table_page_answers_an_htmx_post_with_its_fragment(world: dict[str, Any]) -> None:
    client, table = world["client"], world["table"]
    client.get(f"/tables/{table}/")
    before = database_state()
    answer = client.post(
        f"/tables/{table}/", {"action": "end_game", "expected_seq": "1", "why": TYPED, "idempotency_key": "k" * 32},
        headers={"HX-Request": "true", "HX-Target": "table-live", "Idempotency-Key": "a" * 32},
    )
    html = answer.content.decode()
    assert answer.status_code == 400
    assert html.lstrip().startswith('<div id="table-live"')
    assert MESSAGE in next_to(html, "err-end_game-why")
    assert kept_in_field(html, "why")
    assert database_state() == before


@pytest.mark.parametrize(
    ("url", "field", "error_id"),
    [
        ("/people/", "q", "q-error"),
        ("/rounds/{r}/", "q", "q-error"),
        ("/tournaments/{t}/standings/", "find", "find-error"),
        ("/tournaments/{t}/players/", "q", "q-error"),
    ],
)
def test_a_search_for_a_control_character_says_so_by_the_search_box(
    world: dict[str, Any], url: str, field: str, error_id: str
) -> None:
    answer = world["client"].get(url.format(**world), {field: TYPED})
    html = answer.content.decode()
    assert answer.status_code == 200
    assert MESSAGE in next_to(html, error_id)
    assert re.search(rf'<input[^>]*name="{field}"[^>]*value="{KEPT}"', html)


def test_a_search_box_shows_only_its_own_refusal(world: dict[str, Any]) -> None:
    """A control character in another query parameter is not the search box's to explain."""
    answer = world["client"].get(f"/rounds/{world['r']}/", {"q": "Player", "view": TYPED})
    assert answer.status_code == 400
    assert b"view: contains the control character U+0007 at position 4" in answer.content


def test_the_desk_search_as_you_type_puts_the_message_by_the_box(world: dict[str, Any]) -> None:
    answer = world["client"].get(
        f"/tournaments/{world['t']}/players/", {"q": TYPED}, headers={"HX-Request": "true", "HX-Target": "roster-body"}
    )
    html = answer.content.decode()
    assert answer.status_code == 200
    assert re.search(r'<p[^>]*id="q-error"[^>]*hx-swap-oob="true"', html)
    assert MESSAGE in next_to(html, "q-error")
    assert html.count("<tr") == 12  # the whole roster, not a search for the refused text
    cleared = world["client"].get(
        f"/tournaments/{world['t']}/players/", {"q": "Player 001"}, headers={"HX-Request": "true", "HX-Target": "roster-body"}
    ).content.decode()
    assert re.search(r'<p[^>]*id="q-error"[^>]*hidden', cleared)


def test_a_desk_row_action_answers_its_row_with_the_refusal(world: dict[str, Any]) -> None:
    before = database_state()
    answer = world["client"].post(
        f"/tournaments/{world['t']}/players/",
        {"action": "check_in", "player": world["p"], "round": world["r"], "q": TYPED},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 400
    assert MESSAGE in answer.content.decode()
    assert database_state() == before


def test_sign_in_refuses_a_control_character_next_to_the_username_without_trying(
    client: Client, head_judge: Any, password: str
) -> None:
    before = database_state()
    answer = client.post("/accounts/login/", {"username": "he\x07ad", "password": password})
    html = answer.content.decode()
    assert answer.status_code == 200
    assert re.search(r'name="username"[^>]*value="head"', html)
    assert "The control character U+0007 at position 3" in html
    assert "_auth_user_id" not in client.session
    assert database_state() == before  # not even a failed attempt is counted


def test_two_fields_each_lose_their_characters_and_the_message_names_the_other(world: dict[str, Any]) -> None:
    html = world["client"].post(
        f"/tournaments/{world['t']}/players/", {"action": "add", "name": TYPED, "club": "Gi\x00naz"}
    ).content.decode()
    assert "Also taken out of: club." in next_to(html, "name-error")
    assert kept_in_field(html, "club", "Ginaz")
    assert not Player.objects.filter(name=KEPT).exists()


# ----------------------------------------------------------------------------- unchanged answers


@pytest.mark.parametrize("url", ["/api/tournaments/", "/api/people/"])
def test_the_api_still_answers_json_naming_the_field(judge_client: Any, url: str) -> None:
    answer = judge_client.get(url, {"search": TYPED})
    assert answer.status_code == 400
    assert answer.json()["field"] == "search"
    assert answer.json()["detail"] == "search: contains the control character U+0007 at position 4"


def test_a_page_that_does_not_show_the_refusal_answers_400(world: dict[str, Any]) -> None:
    answer = world["client"].post("/admin/tournament/tournament/add/", {"name": TYPED, "format": "wbc"})
    assert answer.status_code == 400
    assert b"name: contains the control character U+0007 at position 4" in answer.content


def test_a_field_name_holding_a_control_character_is_refused_outright(world: dict[str, Any]) -> None:
    answer = world["client"].post("/tournaments/new/", {"na\x07me": "Alia", "format": "wbc"})
    assert answer.status_code == 400
    assert b"field name" in answer.content


def test_a_marked_view_that_forgets_the_refusal_writes_nothing_and_answers_400() -> None:
    """The mark's promise: a view that ignores the refusal has its writes rolled back."""

    @shows_text_refusals
    def careless(request: Any) -> HttpResponse:
        Player.objects.create(tournament=make_tournament(), name=request.POST["name"])
        return HttpResponse("saved")

    request = RequestFactory().post("/somewhere/", {"name": TYPED})
    assert take_out(request, form_body=True)
    answer = careless(request)
    assert answer.status_code == 400
    assert not Player.objects.exists()


def test_the_refusal_lists_at_most_three_characters() -> None:
    refusal = TextRefused({"reason": "a\x01b\x02c\x03d\x04e"})
    assert refusal.message == (
        "4 characters that cannot be stored were taken out (the control character U+0001 at position 2, "
        "the control character U+0002 at position 4, the control character U+0003 at position 6 and 1 more): "
        "check the text and send it again."
    )
    assert refusal.form_errors("general") == {"reason": [refusal.message]}
