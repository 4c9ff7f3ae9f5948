"""One state per player, read by every page: after the final is seated with a dropped finalist
and an absent one replaced by alternates, nobody dropped or absent is called "in the final" and
an alternate who plays is not also "alternate 1" (standings, Find me, player pages, the room
screen, the standings CSV and the API all say the same)."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from scoring import player_states as ps
from scoring.qualifying import qualifying_order
from tests.scoring.db.conftest import report_for
from tournament import services
from tournament.models import Player, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def final_seated(judge_client: Any, head_judge: Any, wbc_heat: Any) -> dict[str, Any]:
    """Heat 1 filed at both tables; finalist 1 drops, finalist 2 is absent: two alternates play."""
    tournament, players, heat, tables = wbc_heat
    for table in tables:
        answer = judge_client.post(
            f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json"
        )
        assert answer.status_code in (200, 201), answer.content
    Round.objects.filter(pk=heat.pk).update(state=Round.State.FINISHED)
    order = qualifying_order(tournament)
    finalists, alternates = order.suggested("finalist"), order.suggested("alternate")
    dropped, absent = finalists[0], finalists[1]
    Player.objects.filter(pk=dropped).update(status=Player.Status.DROPPED)
    order = qualifying_order(tournament)  # the dropped finalist leaves; the first alternate moves up
    finalists, alternates = order.suggested("finalist"), order.suggested("alternate")
    assert dropped not in finalists and absent in finalists
    final = Round.objects.create(tournament=tournament, number=2, kind=Round.Kind.FINAL)
    services.seat_final_round(
        final, user=head_judge, finalists=finalists, alternates=alternates, absent=[absent]
    )
    Round.objects.filter(pk=final.pk).update(state=Round.State.PUBLISHED)
    playing_alternate = Round.objects.get(pk=final.pk).alternates_seated[0]
    names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
    return {
        "tournament": tournament,
        "dropped": dropped,
        "absent": absent,
        "moved_up": finalists[-1],
        "playing_alternate": playing_alternate,
        "waiting": [a for a in alternates if a != playing_alternate],
        "names": names,
    }


def test_the_state_is_decided_once_from_the_final_seating(final_seated: dict[str, Any]) -> None:
    states = ps.player_states(final_seated["tournament"])
    assert states[final_seated["dropped"]].key == ps.DROPPED
    assert states[final_seated["absent"]].key == ps.ABSENT
    playing = states[final_seated["playing_alternate"]]
    assert playing.key == ps.FINALIST and playing.came_in_as_alternate and playing.alternate is None
    assert playing.words == "in the final (came in as an alternate)"
    assert states[final_seated["waiting"][0]].words == "alternate 1"
    assert not states[final_seated["dropped"]].in_final and not states[final_seated["absent"]].in_final
    assert sum(s.in_final for s in states.values()) == 6


def _around(page: str, name: str) -> str:
    """The text of the line (list item or table row) naming `name`."""
    at = page.index(name)
    start = max(page.rfind("<li", 0, at), page.rfind("<tr", 0, at))
    end = min(i for i in (page.find("</li>", at), page.find("</tr>", at)) if i != -1)
    return page[start:end]


def test_standings_and_find_me_say_who_plays_the_final(client: Any, final_seated: dict[str, Any]) -> None:
    t, names = final_seated["tournament"], final_seated["names"]
    page = client.get(f"/tournaments/{t.pk}/standings/").content.decode()
    assert "finalist" not in _around(page, names[final_seated["dropped"]])
    assert "finalist" not in _around(page, names[final_seated["absent"]])
    assert "absent from the final" in _around(page, names[final_seated["absent"]])
    assert "alternate 1" not in _around(page, names[final_seated["playing_alternate"]])
    for who, words in (
        ("dropped", "dropped out"),
        ("absent", "absent from the final"),
        ("playing_alternate", "in the final (came in as an alternate)"),
    ):
        found = client.get(f"/tournaments/{t.pk}/standings/", {"find": names[final_seated[who]]}).content.decode()
        line = found.split('class="found"')[1].split("</ul>")[0]
        assert words in line, (who, line)
        assert "in the final</strong>" not in line or who == "playing_alternate"


def test_player_pages_say_the_same(client: Any, final_seated: dict[str, Any]) -> None:
    t = final_seated["tournament"]

    def page(who: str) -> str:
        return client.get(f"/tournaments/{t.pk}/players/{final_seated[who]}/").content.decode()

    assert "in the final" not in page("dropped") and "qualified for the final" not in page("dropped")
    assert "absent from the final" in page("absent") and "qualified for the final" not in page("absent")
    alternate = page("playing_alternate")
    assert "Final" in alternate and "alternate 1" not in alternate
    assert "in the final (came in as an alternate)" in alternate


def test_the_room_screen_marks_the_players_of_the_final(client: Any, final_seated: dict[str, Any]) -> None:
    t, names = final_seated["tournament"], final_seated["names"]
    page = client.get(f"/tournaments/{t.pk}/screen/").content.decode()
    page = page[page.index('data-panel="standings"') :]
    for who in ("dropped", "absent"):
        assert 'class="top' not in _around(page, names[final_seated[who]]), who
    assert 'class="top"' in _around(page, names[final_seated["playing_alternate"]])
    assert "absent from the final" in _around(page, names[final_seated["absent"]])


def test_the_csv_and_the_api_say_the_same(client: Any, final_seated: dict[str, Any]) -> None:
    t = final_seated["tournament"]
    rows = list(csv.DictReader(io.StringIO(client.get(f"/tournaments/{t.pk}/standings.csv").content.decode())))
    by_id = {int(r["player_id"]): r for r in rows}
    assert by_id[final_seated["dropped"]]["qualification"] == "dropped out"
    assert by_id[final_seated["absent"]]["qualification"] == "absent from the final"
    assert by_id[final_seated["playing_alternate"]]["qualification"] == "in the final (came in as an alternate)"
    body = client.get(f"/api/tournaments/{t.pk}/finalists/").json()
    states = {s["player"]: s for s in body["states"]}
    assert states[final_seated["dropped"]]["state"] == "dropped"
    assert states[final_seated["absent"]]["state"] == "absent"
    assert states[final_seated["playing_alternate"]]["state"] == "finalist"
    assert states[final_seated["playing_alternate"]]["alternate"] is None


def test_the_finalists_api_lists_the_final_as_seated(client: Any, final_seated: dict[str, Any]) -> None:
    """Once the final is seated, `finalists` is who sits at the final table (a dropped or absent
    qualifier is not), and `alternates` the ones still waiting, in order."""
    t = final_seated["tournament"]
    body = client.get(f"/api/tournaments/{t.pk}/finalists/").json()
    seated = set(Round.objects.get(tournament=t, kind=Round.Kind.FINAL).seats.values_list("player_id", flat=True))
    assert set(body["finalists"]) == seated and len(body["finalists"]) == 6
    assert final_seated["dropped"] not in body["finalists"] and final_seated["absent"] not in body["finalists"]
    assert final_seated["playing_alternate"] in body["finalists"]
    assert body["alternates"] == final_seated["waiting"][: len(body["alternates"])]
    assert final_seated["playing_alternate"] not in body["alternates"]
    states = {s["player"]: s for s in body["states"]}
    assert [states[p]["alternate"] for p in body["alternates"]] == list(range(1, len(body["alternates"]) + 1))


def test_before_the_final_is_published_its_draft_seating_says_nothing(
    client: Any, final_seated: dict[str, Any]
) -> None:
    """While the final's seating is not published (the round page says so), nobody is "absent
    from the final" or "in the final (came in as an alternate)": the qualifying order speaks."""
    t = final_seated["tournament"]
    Round.objects.filter(tournament=t, kind=Round.Kind.FINAL).update(state=Round.State.PLANNED)
    states = ps.player_states(t)
    assert states[final_seated["absent"]].key == ps.FINALIST
    assert states[final_seated["absent"]].words == "qualified for the final"
    playing = states[final_seated["playing_alternate"]]
    assert playing.key == ps.ALTERNATE and not playing.came_in_as_alternate
    for who in ("absent", "playing_alternate"):
        page = client.get(f"/tournaments/{t.pk}/players/{final_seated[who]}/").content.decode()
        assert "absent from the final" not in page and "came in as an alternate" not in page, who
    standings = client.get(f"/tournaments/{t.pk}/standings/").content.decode()
    assert "absent from the final" not in standings and "came in as an alternate" not in standings
