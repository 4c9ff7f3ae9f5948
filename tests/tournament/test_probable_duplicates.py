"""Probable duplicate players: the same name once accents and case are set aside, and the same
club ("Jose Nunez" and "José Núñez" of one club), are flagged at the CSV import and at the desk;
the same name of another club is not (two people may share a name)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from dune.text_rules import probable_duplicates
from tournament.models import Player

pytestmark = pytest.mark.django_db


def test_probable_duplicates_group_names_without_accents_and_case_of_one_club() -> None:
    people = [(1, "José Núñez", "Arrakis"), (2, "jose nunez", "ARRAKIS "), (3, "Jose Nunez", "Caladan"), (4, "Alia", "")]
    assert probable_duplicates(people) == [(1, 2)]


def test_the_import_preview_flags_a_probable_duplicate(client: Any, judge_client: Any, head_judge: Any, tournament: Any) -> None:
    Player.objects.create(tournament=tournament, name="José Núñez", club="Arrakis")
    text = "name,email,club\nJose Nunez,jn@example.org,Arrakis\nJosé Nuñez,,Caladan\nIrulan Corrino,,Kaitain\nirulan CORRINO ,,kaitain\n"
    client.force_login(head_judge)
    page = client.post(f"/tournaments/{tournament.pk}/players/import/", {"action": "preview", "csv": text}).content.decode()
    assert "probably the same person as José Núñez (Arrakis)" in page
    api = judge_client.post(
        f"/api/tournaments/{tournament.pk}/players/import/", {"csv": text, "preview": True}, format="json"
    ).json()
    rows = {r["line"]: r for r in api["rows"]}
    assert rows[2]["probable_duplicates"] == ["José Núñez"]
    assert rows[3]["probable_duplicates"] == []  # the same name, another club
    assert rows[5]["probable_duplicates"] == ["Irulan Corrino"] or not rows[5]["ok"]


def test_the_desk_flags_probable_duplicates(client: Any, head_judge: Any, tournament: Any) -> None:
    first = Player.objects.create(tournament=tournament, name="José Núñez", club="Arrakis")
    client.force_login(head_judge)
    added = client.post(
        f"/tournaments/{tournament.pk}/players/", {"action": "add", "name": "Jose Nunez", "club": "Arrakis"}, follow=True
    ).content.decode()
    assert "Probably the same person as José Núñez (Arrakis)" in added
    second = Player.objects.get(name="Jose Nunez")
    desk = client.get(f"/tournaments/{tournament.pk}/players/").content.decode()
    panel = re.sub(r"<[^>]+>", "", desk.split('id="probable-duplicates"')[1].split("</section>")[0])
    assert "Probable duplicates" in panel and "José Núñez and Jose Nunez (Arrakis)" in panel
    for player in (first, second):
        row = desk.split(f'id="player-{player.pk}"')[1].split("</tr>")[0]
        assert "data-probable-duplicate" in row
    Player.objects.create(tournament=tournament, name="José Nuñez", club="Caladan")  # another club: not flagged
    desk = client.get(f"/tournaments/{tournament.pk}/players/").content.decode()
    assert desk.count("data-probable-duplicate") == 2
