"""One parser reads every whole number typed into a query string or a form
(`dune.text_rules.whole_number`): `²` passes `str.isdigit()` but is no number, so it is refused
like any other text, never a server error."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dune.text_rules import MAX_WHOLE, whole_number

UNICODE_DIGITS = ["²", "①", "٣", "３", "1_000", "𝟙", "⁵", "½", "", " ", "-", "+", "9" * 20, str(2**63)]


@pytest.mark.parametrize("text", UNICODE_DIGITS)
def test_only_ascii_digits_make_a_whole_number(text: str) -> None:
    assert whole_number(text, signed=True) is None


def test_whole_numbers_read_as_typed() -> None:
    assert whole_number(" 42 ") == 42 and whole_number("+7") == 7 and whole_number("007") == 7
    assert whole_number("-5") is None and whole_number("-5", signed=True) == -5
    assert whole_number(str(MAX_WHOLE)) == MAX_WHOLE and whole_number(True) is None
    assert whole_number(12) == 12 and whole_number(2**64) is None and whole_number(1.5) is None


@given(st.text(max_size=24))
def test_any_text_is_a_whole_number_or_none_never_an_error(text: str) -> None:
    number = whole_number(text, signed=True)
    assert number is None or (str(number) == text.strip().lstrip("+").lstrip("0") or number == 0
                              or text.strip().lstrip("+-").lstrip("0") == str(abs(number)))


@given(st.integers(min_value=-MAX_WHOLE - 1, max_value=MAX_WHOLE))
def test_every_64_bit_integer_reads_back(number: int) -> None:
    assert whole_number(str(number), signed=True) == number


# --- every page and endpoint that reads a number from a query string or a form -------------

pytestmark_db = pytest.mark.django_db


@pytest.fixture
def table(head_judge: Any) -> Any:
    from gameplay import services
    from tests.factories import make_seated_table

    table = make_seated_table()
    table.round.tournament.head_judges.add(head_judge)
    services.game_for(table)
    return table


@pytest.mark.django_db
@pytest.mark.parametrize("digit", ["²", "٣", "9" * 30])
def test_a_unicode_digit_is_refused_at_every_site_never_a_server_error(
    table: Any, head_judge: Any, client: Any, api_client: Any, digit: str
) -> None:
    from tournament import people

    tournament = table.round.tournament
    player = tournament.players.first()
    people.link_players([player])
    client.force_login(head_judge)
    api_client.force_authenticate(head_judge)
    answers = {
        "events ?after": api_client.get(f"/api/tables/{table.pk}/game/events/?after={digit}"),
        "standings ?page": client.get(f"/tournaments/{tournament.pk}/standings/?page={digit}"),
        "clock extend (API)": api_client.post(f"/api/tables/{table.pk}/clock/extend/",
                                               {"minutes": digit, "reason": "a dispute"}, format="json"),
        "call stop (API)": api_client.post(f"/api/tables/{table.pk}/clock/call/stop/", {"timer": digit},
                                            format="json"),
        "clock extend (page)": client.post(f"/tables/{table.pk}/clock/extend/",
                                           {"minutes": digit, "reason": "a dispute"}),
        "call stop (page)": client.post(f"/tables/{table.pk}/clock/stop/", {"timer": digit}),
        "series rename": client.post("/series/", {"action": "rename", "series": digit, "name": "Cup"}),
        "new tournament series": client.post("/tournaments/new/", {"name": "Open", "format": "wbc",
                                                                   "series": digit}),
        "person link": client.post(f"/players/{player.pk}/person/", {"action": "link", "person": digit,
                                                                      "reason": "same person"}),
        "board ?seq": client.get(f"/tables/{table.pk}/board/?seq={digit}"),
    }
    failures = {site: a.status_code for site, a in answers.items() if a.status_code >= 500}
    assert failures == {}
    assert answers["events ?after"].status_code == 400 and "after" in answers["events ?after"].json()
    assert answers["standings ?page"].status_code == 200
