"""One rule for names (`dune.text_rules.name_problem`), for tournaments, series and players
alike: nothing that reorders, hides or breaks what is written, and no name that shows nothing.
Time zones are places: not `localtime` (each server's own) nor the placeholder `Factory`."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dune.text_rules import name_problem

REFUSED = {
    "right-to-left override": "Alia\u202eecnaV",
    "zero-width space": "Alia\u200bVance",
    "line separator": "Alia\u2028Vance",
    "paragraph separator": "Alia\u2029Vance",
    "tag characters": "Alia\U000e0041\U000e0042",
    "Hangul filler only": "\u3164",
    "Hangul fillers and spaces": "\u3164 \u3164",
    "combining marks only": "\u0301\u0308",
    "begins with a combining mark": "\u0301Alia",
    "braille blank": "\u2800",
    "invisible times": "Alia\u2062Vance",
}
ACCEPTED = ["Alia Vance", "Zoë Ølberg", "Łukasz Żółć", "張偉", "Ngũgĩ", "José", "Søren-Kierkegaard", "👍🏽 Paul",
            "O'Brien", "नमस्ते", "Иван"]


@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
def test_names_that_hide_reorder_or_show_nothing_are_refused(name: str) -> None:
    assert name_problem(name)


@pytest.mark.parametrize("name", ACCEPTED)
def test_names_in_every_script_are_accepted(name: str) -> None:
    assert name_problem(name) is None


@given(st.text(max_size=30))
def test_the_name_rule_answers_any_text(text: str) -> None:
    problem = name_problem(text)
    assert problem is None or isinstance(problem, str)


@pytest.mark.django_db
@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
def test_tournament_series_and_player_names_are_refused_by_one_rule(
    name: str, judge_client: Any, head_judge: Any
) -> None:
    from tournament import people
    from tournament.models import Player, Series, Tournament

    answer = judge_client.post("/api/tournaments/", {"name": name, "format": "wbc"}, format="json")
    assert answer.status_code == 400 and "name" in answer.json(), answer.content
    with pytest.raises(people.PeopleRefused) as refused:
        people.create_series(name=name, format="wbc", owner=head_judge)
    assert refused.value.field == "name"
    tournament = judge_client.post("/api/tournaments/", {"name": "Open", "format": "wbc"}, format="json").json()
    player = judge_client.post(f"/api/tournaments/{tournament['id']}/players/", {"name": name}, format="json")
    assert player.status_code == 400 and "name" in player.json(), player.content
    assert Tournament.objects.count() == 1 and not Series.objects.exists() and not Player.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("zone", ["localtime", "Factory", "posixrules", " localtime "])
def test_a_time_zone_must_be_a_place(zone: str, judge_client: Any) -> None:
    answer = judge_client.post("/api/tournaments/", {"name": "Open", "format": "wbc", "time_zone": zone},
                               format="json")
    assert answer.status_code == 400 and "time_zone" in answer.json()
    assert judge_client.post("/api/tournaments/", {"name": "Open", "format": "wbc", "time_zone": "Europe/Paris"},
                             format="json").status_code == 201
