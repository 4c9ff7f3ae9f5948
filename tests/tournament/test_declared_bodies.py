"""The rest of the tournament's writes read their input through one declaration too
(`foundation.commands.Field`): faction changes and picks, check-ins, a draw, a tournament's
settings, a person link, a table judge's invitation, a CSV import, the format's changes, a
player's report and preferences, an online registration. Each body's schema is its command's
declaration; a value too long or of the wrong type, or a field the write does not read, is
refused naming the field (400) through the API and beside the page's form, and nothing is
written."""

from __future__ import annotations

from typing import Any

import pytest

from config.schema import schema
from tournament import commands
from tournament.models import SeatingAudit

pytestmark = pytest.mark.django_db


def _body(path: str, method: str = "post") -> dict[str, Any]:
    """The properties and required fields of an API write's JSON body, as the schema shows them."""
    document = schema()
    found = document["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    return document["components"]["schemas"][found["$ref"].rsplit("/", 1)[-1]]


def _enum(prop: dict[str, Any]) -> list[str]:
    """The values a property of the schema allows (spectacular names an enum as a component)."""
    ref = prop.get("$ref") or next((p["$ref"] for p in prop.get("allOf", []) if "$ref" in p), "")
    found = schema()["components"]["schemas"][ref.rsplit("/", 1)[-1]] if ref else prop
    return [v for v in found["enum"] if v]


@pytest.fixture
def desk(client: Any, head_judge: Any) -> Any:
    client.force_login(head_judge)
    return client


@pytest.fixture
def seated(checked_in: Any, heat: Any, head_judge: Any) -> list[int]:
    """A heat of twelve seated (not published): the players' ids."""
    players = [p.pk for p in checked_in(12)]
    commands.seat_round(heat, {"seed": 1}, actor=head_judge, key=None)
    return players


# --- faction changes and a finalist's pick ----------------------------------------------------


def test_the_faction_bodies_are_their_declarations() -> None:
    changes = _body("/api/rounds/{id}/seating/factions/")
    assert set(changes["properties"]) == set(commands.FACTION_ACTION_FIELDS)
    assert _enum(changes["properties"]["action"]) == list(commands.FACTION_ACTIONS)
    assert changes["properties"]["faction"]["maxLength"] == commands.FACTION_CHANGE_FIELDS["faction"].max_length
    assert set(changes["required"]) == {"action", "player"}
    pick = _body("/api/rounds/{id}/final/picks/")
    assert set(pick["properties"]) == set(commands.PICK_FIELDS) and set(pick["required"]) == {"player", "faction"}


@pytest.mark.parametrize(("bad", "field"), [
    ({"faction": "F" * 41}, "faction"),
    ({"player": "someone"}, "player"),
    ({"consenting": "one two"}, "consenting"),
    ({"colour": "red"}, "colour"),
])
def test_a_bad_faction_change_is_refused_by_name_through_both_doors(
    judge_client: Any, desk: Any, seated: list[int], heat: Any, bad: dict[str, Any], field: str
) -> None:
    audited = SeatingAudit.objects.filter(round=heat).count()
    sent = {"action": "take_undrawn", "player": seated[0], "faction": "atreides", **bad}
    answer = judge_client.post(f"/api/rounds/{heat.pk}/seating/factions/", sent, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == field, answer.json()
    if field != "consenting":  # the page's form says who consents with its own box
        form = {k: v for k, v in sent.items() if k != "action"}
        shown = desk.post(f"/rounds/{heat.pk}/seat/undrawn/", form)
        assert shown.status_code == 400 and (field in shown.content.decode() or "a player's id" in shown.content.decode())
    assert SeatingAudit.objects.filter(round=heat).count() == audited


def test_a_finalists_pick_names_its_faction(judge_client: Any, tournament: Any, head_judge: Any) -> None:
    from tournament.models import Round

    final = Round.objects.create(tournament=tournament, number=2, kind="final")
    for sent, field in (({"player": 1}, "faction"), ({"player": 1, "faction": "F" * 41}, "faction"),
                        ({"player": 1, "faction": "atreides", "seat": 2}, "seat")):
        answer = judge_client.post(f"/api/rounds/{final.pk}/final/picks/", sent, format="json")
        assert answer.status_code == 400 and answer.json()["field"] == field, answer.json()
