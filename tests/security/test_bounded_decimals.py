"""Every decimal the platform reads is bounded in digits and exponent, and refused at once with
400 naming the field: `Fraction(Decimal("1E+999999999"))` would build a billion-digit integer
and keep a worker busy until the server kills it."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from dune.engine import numbers
from dune.engine.numbers import parse_decimal
from dune.points.numbers import to_fraction
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for
from tests.timing import assert_no_slower_than
from web.gameplay.engine_api import EXAMPLE_SNAPSHOT

HUGE = ["1E+999999999", "1E+5000", "1e999999", "-1E+999999999", "9" * 4000, "1E-999999999", "0." + "1" * 40]
#: A plain figure's reading, the baseline a huge one's refusal is compared with (tests/timing.py).
PLAIN = "12.5"


@pytest.mark.parametrize("text", HUGE)
def test_the_bounded_reader_refuses_huge_digits_and_exponents_without_computing_them(text: str) -> None:
    with pytest.raises(ValueError):
        parse_decimal(text)
    with pytest.raises(ValueError):
        to_fraction(text)

    def refuse() -> None:
        for _ in range(50):
            for read in (parse_decimal, to_fraction):
                try:
                    read(text)
                except ValueError:
                    pass

    def read_plain() -> None:
        for _ in range(50):
            parse_decimal(PLAIN)
            to_fraction(PLAIN)

    assert_no_slower_than(refuse, read_plain, factor=50)


@pytest.mark.parametrize("value", [10**4000, float("inf"), float("nan"), 1e300])
def test_numbers_that_are_not_text_are_bounded_too(value: Any) -> None:
    with pytest.raises(ValueError):
        to_fraction(value)


@pytest.mark.parametrize("text", ["9.5", "0.1", "12", "0", "3.25", "1" * 14 + ".5", "1e3"])
def test_a_table_s_figures_are_read_exactly(text: str) -> None:
    assert to_fraction(text) == parse_decimal(text)
    assert len(numbers.bounded_decimal(text).as_tuple().digits) <= numbers.MAX_DIGITS


def _evaluate(client: Any, text: str) -> Any:
    return client.post("/api/engine/evaluate/", text, content_type="application/json")


@pytest.mark.django_db
@pytest.mark.parametrize("text", HUGE)
@pytest.mark.parametrize("as_json_number", [False, True], ids=["string", "number"])
def test_engine_evaluate_refuses_a_huge_pp_total_at_once_naming_the_field(
    client: Any, text: str, as_json_number: bool
) -> None:
    snapshot = copy.deepcopy(EXAMPLE_SNAPSHOT)
    snapshot["factions"]["atreides"]["pp_total"] = "@@"
    body = json.dumps(snapshot).replace('"@@"', text if as_json_number else json.dumps(text))
    response = _evaluate(client, body)
    plain = body.replace(text if as_json_number else json.dumps(text), json.dumps("not a number"))
    assert_no_slower_than(lambda: _evaluate(client, body), lambda: _evaluate(client, plain))
    assert response.status_code == 400, response.content[:300]
    assert "pp_total" in response.content.decode()


@pytest.mark.django_db
def test_engine_evaluate_still_reads_a_plain_pp_total(client: Any) -> None:
    snapshot = copy.deepcopy(EXAMPLE_SNAPSHOT)
    snapshot["factions"]["atreides"]["pp_total"] = "12.5"
    response = _evaluate(client, json.dumps(snapshot))
    assert response.status_code == 200, response.content[:300]


@pytest.fixture
def table(head_judge: Any) -> Any:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    return seat_table(make_round(tournament), make_players(tournament, 6))


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["tokens", "pp"])
@pytest.mark.parametrize("text", HUGE)
@pytest.mark.parametrize("as_json_number", [False, True], ids=["string", "number"])
def test_filing_refuses_a_huge_decimal_at_once_naming_the_field_and_stores_nothing(
    client: Any, head_judge: Any, table: Any, field: str, text: str, as_json_number: bool
) -> None:
    from scoring.models import GameReport

    client.force_login(head_judge)
    report = report_for(table, {0: "solo_stronghold"}, **{"0": {field: "@@"}})
    body = json.dumps(report).replace('"@@"', text if as_json_number else json.dumps(text))
    url = f"/api/tables/{table.pk}/report/"
    response = client.post(url, body, content_type="application/json")
    plain = body.replace(text if as_json_number else json.dumps(text), json.dumps("not a number"))
    assert_no_slower_than(
        lambda: client.post(url, body, content_type="application/json"),
        lambda: client.post(url, plain, content_type="application/json"),
    )
    assert response.status_code == 400, response.content[:300]
    assert field in response.json()["field"]
    assert not GameReport.objects.filter(table=table).exists()


@pytest.mark.django_db
def test_any_json_number_is_bounded_before_a_view_reads_it(client: Any, head_judge: Any) -> None:
    """A number no field could use is refused by the parser, naming where it was."""
    client.force_login(head_judge)
    response = client.post(
        "/api/tournaments/",
        '{"name": "Open", "format": "wbc", "x": 1E+999999999}',
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "x"


@pytest.mark.django_db
def test_the_report_page_shows_a_huge_decimal_refused_next_to_its_field(
    client: Any, head_judge: Any, table: Any
) -> None:
    from scoring.models import GameReport

    client.force_login(head_judge)
    first = table.seats.order_by("seat").first().player_id
    url = f"/tables/{table.pk}/report/"

    def post(tokens: str) -> Any:
        return client.post(url, {f"p{first}_tokens": tokens, "confirm": "yes", "ended_by": "victory"})

    response = post("1E+999999999")
    assert_no_slower_than(lambda: post("1E+999999999"), lambda: post("not a number"))
    assert response.status_code == 400
    assert "at most 15 digits before the decimal point" in response.content.decode()
    assert not GameReport.objects.filter(table=table).exists()
