"""A final the report's filing accepts never breaks a public page: every kind of final result
the WBC format allows is filed, then the standings, finalists, awards and event report pages
and APIs answer 200 with the placings. A Bene Gesserit prediction final names the predicted
player at filing (WBC Final Round Format), through the API and the page alike."""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from scoring import services
from scoring.models import GameReport
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db

SIX = ("atreides", "bene_gesserit", "emperor", "fremen", "guild", "harkonnen")
NO_GUILD = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen")


class Final(NamedTuple):
    """One kind of final result: what the winners' rows say, who wins, how the game ended."""

    result: str  # every winner's result row
    winners: tuple[str, ...]  # the winning factions; the first places 1st
    ended_by: str
    turns: int
    allied: tuple[str, ...]  # the alliance standing at the end, if any
    factions: tuple[str, ...]  # the factions at the final
    predicted: str | None = None  # the faction whose player the Bene Gesserit predicted


#: Every kind of final result the WBC format allows, one row each: the winners' result, the
#: winning factions (the first places 1st), how and when the game ended, the alliance standing
#: at the end, the factions at the final and whose player the Bene Gesserit predicted.
FINALS: dict[str, Final] = {row[0]: Final(*row[1:]) for row in (
    # kind                    result                   winners                    ended by      turns allied                     factions  predicted
    ("solo",                  "solo_stronghold",       ("atreides",),             "victory",    7,    (),                        SIX,      None),
    ("concession",            "solo_stronghold",       ("emperor",),              "concession", 7,    (),                        SIX,      None),
    ("bg_prediction",         "bg_prediction",         ("bene_gesserit",),        "victory",    7,    ("emperor", "harkonnen"),  SIX,      "emperor"),
    ("allied_stronghold",     "allied_stronghold",     ("atreides", "harkonnen"), "victory",    7,    ("atreides", "harkonnen"), SIX,      None),
    ("fremen_default_solo",   "fremen_default_solo",   ("fremen",),               "turn_limit", 15,   (),                        NO_GUILD, None),
    ("fremen_default_allied", "fremen_default_allied", ("fremen", "atreides"),    "turn_limit", 15,   ("atreides", "fremen"),    NO_GUILD, None),
    ("fremen_special_solo",   "fremen_special_solo",   ("fremen",),               "turn_limit", 15,   (),                        SIX,      None),
    ("fremen_special_allied", "fremen_special_allied", ("fremen", "atreides"),    "turn_limit", 15,   ("atreides", "fremen"),    SIX,      None),
    ("guild_default_solo",    "guild_default_solo",    ("guild",),                "turn_limit", 15,   (),                        SIX,      None),
    ("guild_default_allied",  "guild_default_allied",  ("guild", "atreides"),     "turn_limit", 15,   ("atreides", "guild"),     SIX,      None),
    ("adjudicated",           "adjudicated",           ("emperor",),              "time_limit", 9,    (),                        SIX,      None),
)}


def _final_report(final: Any, kind: Final, *, predicted: bool = True) -> dict[str, Any]:
    """The report of `kind` for the seated `final` (without the prediction when not `predicted`)."""
    by_faction = {s.faction: s.player_id for s in final.seats.all()}
    rows = [{"player": s.player_id, "result": kind.result if s.faction in kind.winners else "loss"}
            for s in final.seats.order_by("seat")]
    report: dict[str, Any] = {"turns": kind.turns, "ended_by": kind.ended_by, "results": rows}
    if kind.allied:
        report["alliances"] = [[by_faction[f] for f in kind.allied]]
    if kind.predicted and predicted:
        report["predicted"] = by_faction[kind.predicted]
    return report


@pytest.fixture
def event(head_judge: Any) -> Any:
    """A WBC event of 12: heat 1 filed at two tables; the final's round published."""
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    players = make_players(tournament, 12)
    heat = make_round(tournament, number=1)
    for number, seated in ((1, players[:6]), (2, players[6:])):
        table = seat_table(heat, seated, number=number)
        services.file_report(table, report_for(table, {0: "solo_stronghold"}), user=head_judge)
    final_round = make_round(tournament, number=2, kind="final")
    return tournament, players, final_round


def _public_answers(client: Any, tournament: Any, final: Any) -> dict[str, int]:
    pages = [
        f"/api/tournaments/{tournament.pk}/standings/",
        f"/api/tournaments/{tournament.pk}/finalists/",
        f"/api/tournaments/{tournament.pk}/awards/",
        f"/api/tournaments/{tournament.pk}/event-report/",
        f"/tournaments/{tournament.pk}/standings/",
        f"/tournaments/{tournament.pk}/standings.csv",
        f"/tournaments/{tournament.pk}/awards/",
        f"/tournaments/{tournament.pk}/event-report/",
        f"/tournaments/{tournament.pk}/event-report.csv",
        f"/tables/{final.pk}/filed-report/",
        *(f"/tournaments/{tournament.pk}/players/{s.player_id}/" for s in final.seats.all()),
    ]
    return {page: client.get(page).status_code for page in pages}


@pytest.mark.parametrize("kind", list(FINALS))
def test_wbc_final_round_format_every_accepted_final_reads_on_every_public_page(
    kind: str, event: Any, judge_client: Any, client: Any
) -> None:
    tournament, players, final_round = event
    row = FINALS[kind]
    final = seat_table(final_round, players[: len(row.factions)], factions=row.factions)
    answer = judge_client.post(f"/api/tables/{final.pk}/report/", _final_report(final, row), format="json")
    assert answer.status_code == 201, answer.json()

    answers = _public_answers(client, tournament, final)
    assert set(answers.values()) == {200}, answers
    placings = client.get(f"/api/tournaments/{tournament.pk}/finalists/").json()["placings"]
    assert placings[0]["place"] == 1
    assert placings[0]["player"] == final.seats.get(faction=row.winners[0]).player_id
    assert len(placings) == len(row.factions)


def test_wbc_final_round_format_no_three_faction_alliance_in_the_final(event: Any, judge_client: Any) -> None:
    tournament, players, final_round = event
    final = seat_table(final_round, players[:6], factions=SIX)
    three = ("atreides", "emperor", "guild")
    report = _final_report(final, Final("three_alliance", three, "victory", 7, (), SIX))
    answer = judge_client.post(f"/api/tables/{final.pk}/report/", report, format="json")
    assert answer.status_code == 400
    assert "WBC Final Round Format" in answer.json()["rule"]
    assert "three-faction" in answer.json()["detail"]
    report["alliances"] = [[final.seats.get(faction=f).player_id for f in three]]
    answer = judge_client.post(f"/api/tables/{final.pk}/report/", report, format="json")
    assert answer.status_code == 400 and "WBC Final Round Format" in answer.json()["rule"]
    assert not GameReport.objects.filter(table=final).exists()


def test_wbc_final_round_format_bg_prediction_names_the_predicted_player_api(
    event: Any, judge_client: Any, client: Any
) -> None:
    tournament, players, final_round = event
    final = seat_table(final_round, players[:6], factions=SIX)
    without = _final_report(final, FINALS["bg_prediction"], predicted=False)
    answer = judge_client.post(f"/api/tables/{final.pk}/report/", without, format="json")
    assert answer.status_code == 400, answer.json()
    body = answer.json()
    assert body["field"] == "predicted" and body["rule"] == "WBC Final Round Format"
    assert "predicted player" in body["detail"]
    assert not GameReport.objects.filter(table=final).exists()

    answer = judge_client.post(f"/api/tables/{final.pk}/report/", _final_report(final, FINALS["bg_prediction"]),
                               format="json")
    assert answer.status_code == 201, answer.json()
    seat = {s.faction: s.player_id for s in final.seats.all()}
    finalists = client.get(f"/api/tournaments/{tournament.pk}/finalists/")
    assert finalists.status_code == 200
    assert [p["player"] for p in finalists.json()["placings"][:3]] == [
        seat["bene_gesserit"], seat["emperor"], seat["harkonnen"]
    ]
    assert client.get(f"/api/tournaments/{tournament.pk}/event-report/").status_code == 200
    assert client.get(f"/tournaments/{tournament.pk}/event-report/").status_code == 200


def test_wbc_final_round_format_bg_prediction_names_the_predicted_player_page(
    event: Any, head_judge: Any, client: Any
) -> None:
    tournament, players, final_round = event
    final = seat_table(final_round, players[:6], factions=SIX)
    seat = {s.faction: s.player_id for s in final.seats.all()}
    client.force_login(head_judge)
    page = client.get(f"/tables/{final.pk}/report/").content.decode()
    assert 'name="predicted"' in page and "WBC Final Round Format" in page
    form = {"turns": "7", "ended_by": "victory", "confirm": "yes", "idempotency_key": "bg-1", "predicted": ""}
    for faction, player in seat.items():
        form[f"p{player}_result"] = "bg_prediction" if faction == "bene_gesserit" else "loss"
    refused = client.post(f"/tables/{final.pk}/report/", form)
    assert refused.status_code == 400
    html = refused.content.decode()
    assert 'id="err-predicted"' in html and "WBC Final Round Format" in html
    assert not GameReport.objects.filter(table=final).exists()

    form.update({"predicted": str(seat["emperor"]), "idempotency_key": "bg-2"})
    assert client.post(f"/tables/{final.pk}/report/", form).status_code == 302
    placings = client.get(f"/api/tournaments/{tournament.pk}/finalists/").json()["placings"]
    assert [p["player"] for p in placings[:2]] == [seat["bene_gesserit"], seat["emperor"]]


def test_the_event_report_and_the_standings_name_the_champion_and_the_placings(
    event: Any, judge_client: Any, client: Any
) -> None:
    tournament, players, final_round = event
    final = seat_table(final_round, players[:6], factions=SIX)
    report = _final_report(final, FINALS["bg_prediction"])
    assert judge_client.post(f"/api/tables/{final.pk}/report/", report, format="json").status_code == 201
    seat = {s.faction: s.player_id for s in final.seats.all()}
    name = {p.pk: p.name for p in players}
    champion = seat["bene_gesserit"]

    body = client.get(f"/api/tournaments/{tournament.pk}/event-report/").json()
    assert body["champion"] == {"player": champion, "name": name[champion], "shared_with": []}
    assert [(p["place"], p["player"]) for p in body["placings"][:3]] == [
        (1, champion), (2, seat["emperor"]), (3, seat["harkonnen"])
    ]
    assert all(p["name"] == name[p["player"]] for p in body["placings"])

    page = client.get(f"/tournaments/{tournament.pk}/event-report/").content.decode()
    assert f'data-champion="{champion}"' in page and name[champion] in page.split('id="champion"')[1][:300]
    placings = page.split('id="final-placings"')[1].split("</ol>")[0]
    assert placings.index(name[champion]) < placings.index(name[seat["emperor"]]) < placings.index(
        name[seat["harkonnen"]]
    )

    csv_text = client.get(f"/tournaments/{tournament.pk}/event-report.csv").content.decode()
    assert f"champion,{name[champion]}," in csv_text
    assert f"final placings,2nd,{name[seat['emperor']]}:" in csv_text

    standings = client.get(f"/tournaments/{tournament.pk}/standings/").content.decode()
    assert "Champion:" in standings and f'data-champion="{champion}"' in standings


def test_a_reopened_report_makes_every_page_provisional_in_the_same_words(
    event: Any, judge_client: Any, client: Any, head_judge: Any
) -> None:
    """After the event, a heat report reopened for correction: the standings do not say
    "nobody is a finalist", the event report does not say "these are the event's final
    figures"; both say a report is reopened."""
    from tournament.models import Round

    tournament, players, final_round = event
    final = seat_table(final_round, players[:6], factions=SIX)
    report = _final_report(final, FINALS["solo"])
    assert judge_client.post(f"/api/tables/{final.pk}/report/", report, format="json").status_code == 201
    Round.objects.filter(tournament=tournament).update(state=Round.State.FINISHED)
    settled = client.get(f"/tournaments/{tournament.pk}/event-report/").content.decode()
    assert "these are the event's final figures" in settled

    heat_table = GameReport.objects.get(table__round__number=1, table__number=2)
    services.reopen_report(heat_table, user=head_judge, reason="a row was typed twice")
    standings = client.get(f"/tournaments/{tournament.pk}/standings/").content.decode()
    assert 'id="reopened-note"' in standings and "Heat 1, table 2" in standings
    assert "nobody is a finalist" not in standings
    page = client.get(f"/tournaments/{tournament.pk}/event-report/").content.decode()
    assert 'id="reopened-note"' in page and "these are the event's final figures" not in page
    body = client.get(f"/api/tournaments/{tournament.pk}/event-report/").json()
    assert body["provisional"] is True and body["reopened"] == 1
    assert client.get(f"/api/tournaments/{tournament.pk}/standings/").json()["provisional"] is True
