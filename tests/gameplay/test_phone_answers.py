"""The table judge's phone on venue Wi-Fi: small answers and words.

An in-place answer leaves out the parts the page already shows unchanged; a poll of an unchanged
game is answered 304 with no body; the log, the tiles and the forms say things in words and
offer only what the engine accepts now."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.gameplay.conftest import post_event
from tests.gameplay.recorded_game import recorded_game
from web.gameplay.page_board import stronghold_tiles
from web.templatetags.table_tags import PARTS_HEADER, describe, label

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PART = re.compile(r'data-part="([^"]+)" data-version="([^"]+)"( data-same)?')


@pytest.fixture
def judge_web(table_judge: Any) -> Client:
    client = Client()
    client.force_login(table_judge)
    return client


def url(table: Any) -> str:
    return f"/tables/{table.pk}/"


def record_until(judge_api: Any, table: Any, kind: str, occurrence: int = 1) -> int:
    """Record the recorded game up to its `occurrence`-th event of `kind`; the sequence number."""
    seq, seen = 1, 0
    for event in recorded_game():
        seq = post_event(judge_api, table, event, seq).json()["seq"]
        if event["type"] == kind:
            seen += 1
            if seen == occurrence:
                break
    return seq


def test_a_tap_answer_leaves_out_the_parts_the_page_shows_unchanged(
    judge_web: Client, judge_api: Any, table: Any
) -> None:
    seq = record_until(judge_api, table, "turn_advanced", 6)  # turn 7, storm phase
    page = judge_web.get(url(table)).content.decode()
    shown = {name: version for name, version, _ in PART.findall(page)}
    assert {"factions", "full", "ending"} <= set(shown)
    header = ",".join(f"{n}:{v}" for n, v in shown.items())
    answer = judge_web.post(url(table), {"action": "move_storm", "sectors": "2", "expected_seq": str(seq)},
                            **HTMX, **{f"HTTP_{PARTS_HEADER.upper().replace('-', '_')}": header})
    assert answer.status_code == 200
    html = answer.content.decode()
    left_out = {name for name, _, same in PART.findall(html) if same}
    assert {"factions", "full", "ending"} <= left_out  # the storm changed none of them
    assert 'id="full-h"' not in html and 'id="factions-h"' not in html
    assert f'data-seq="{seq + 1}"' in html and 'id="next"' in html
    # Without the header (no script, a first visit) every part comes whole.
    whole = judge_web.get(url(table), **HTMX).content.decode()
    assert "data-same" not in whole and 'id="full-h"' in whole


def test_an_unchanged_game_is_answered_304_without_a_body(judge_web: Client, judge_api: Any, table: Any) -> None:
    seq = record_until(judge_api, table, "turn_advanced")
    page = judge_web.get(url(table)).content.decode()
    etag = re.search(r'data-etag="([^"]+)"', page).group(1).replace("&quot;", '"')
    api = f"/api/tables/{table.pk}/game/"
    first = judge_web.get(api)
    assert first.status_code == 200 and first["ETag"] == etag  # the page carries what the API answers
    again = judge_web.get(api, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    post_event(judge_api, table, {"type": "storm_moved", "sectors": 2}, seq)
    moved = judge_web.get(api, HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved.json()["seq"] == seq + 1 and moved["ETag"] != etag


def test_the_log_says_records_and_results_in_words() -> None:
    assert describe({"type": "void", "seq": 23, "reason": "typo"}) == "record #23"  # the reason is shown once, apart
    assert describe({"type": "alliance_formed", "factions": ["atreides", "fremen"], "how": "nexus"}) == (
        "factions Atreides, Fremen · by nexus"
    )
    assert describe({"type": "victory_claimed", "kind": "allied_stronghold"}) == "Allied stronghold victory"
    assert label("bg_prediction") == "Bene Gesserit prediction victory"
    assert label("turn_limit") == "Turn limit"
    assert "_" not in describe({"type": "forces_moved", "from_territory": "cielago_north", "from_sector": 2,
                                "to_territory": "shield_wall", "to_sector": 8, "normal": 3})


def test_a_record_without_a_sentence_of_its_own_lists_its_fields_in_the_readers_language() -> None:
    """Every field any record kind has (the engine's own list) has its name in words, and in
    German, French and Spanish none reads as the English name."""
    from django.utils import translation

    from dune.engine.events import describe_events
    from web.templatetags.table_tags import _FIELD_WORDS, _NOT_DESCRIBED

    # A record's number reads "record #N" (its own sentence, translated too).
    fields = {f["name"] for kind in describe_events().values() for f in kind["fields"]} - {*_NOT_DESCRIBED, "seq"}
    assert fields - set(_FIELD_WORDS) == set()
    moved = {"type": "forces_moved", "from_territory": "cielago_north", "from_sector": 2, "to_territory": "arrakeen",
             "to_sector": 9, "normal": 3, "special": 1, "ruleset": "wbc2018", "quick": True}
    english = describe(moved)
    assert english.startswith("from Cielago North · from sector 2 · to Arrakeen · to sector 9 · forces 3")
    with translation.override("de"):
        german = describe(moved)
        assert german.startswith("von Cielago North · aus Sektor 2 · nach Arrakeen · in Sektor 9 · Truppen 3")
        assert "ja" in german and "Regeln" in german and describe({"type": "void", "seq": 4}) == "Eintrag #4"
    for language in ("es", "fr", "de"):
        with translation.override(language):
            shown = describe(moved)
        first_words = {part.split(" ")[0] for part in shown.split(" · ")}
        assert not first_words & {"from", "to", "forces", "special", "quick", "rules"}, shown
        assert not shown.endswith(" yes"), shown


def test_stronghold_tiles_say_empty_contested_or_who_controls() -> None:
    """WBC IV.1 / LoLV Glossary: Control: a stronghold is controlled by the one faction there."""
    snapshot = {"forces": [
        {"faction": "atreides", "territory": "arrakeen", "sector": 9, "normal": 3},
        {"faction": "bene_gesserit", "territory": "carthag", "sector": 10, "normal": 1},
        {"faction": "harkonnen", "territory": "carthag", "sector": 10, "normal": 4},
    ]}
    tiles = {t["place"]: t for t in stronghold_tiles(snapshot, {"arrakeen": "atreides", "carthag": None,
                                                                "tuek_s_sietch": None})}
    assert tiles["arrakeen"]["words"] == "Atreides" and tiles["arrakeen"]["state"] == "held"
    assert tiles["carthag"]["words"] == "contested (Bene Gesserit, Harkonnen)"
    assert tiles["tuek_s_sietch"]["words"] == "empty"


def test_1_10_the_break_form_lists_only_alliance_members(judge_web: Client, judge_api: Any, table: Any) -> None:
    """AH XII / LoLV 1.10: only a member of an alliance breaks from it, in a nexus."""
    record_until(judge_api, table, "worm", 3)  # the Atreides and Fremen allied at the nexus before
    html = judge_web.get(url(table)).content.decode()
    form = html[html.index('id="break-faction"'):html.index("</select>", html.index('id="break-faction"'))]
    assert re.findall(r'<option value="([a-z_]+)"', form) == ["atreides", "fremen"]


def test_wbc_the_undrawn_faction_is_one_of_the_six_classic_ones(client: Client, head_judge: Any) -> None:
    """WBC: the six classic factions are drawn; at a table of five the undrawn one may be taken."""
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    table = seat_table(make_round(tournament), make_players(tournament, 5))
    client.force_login(head_judge)
    html = client.get(f"/rounds/{table.round_id}/seat/").content.decode()
    start = html.index('id="id_undrawn_faction"')
    offered = re.findall(r'<option value="([a-z_]+)"', html[start:html.index("</select>", start)])
    assert offered == list(tournament.rules.factions) and len(offered) == 6
