"""Browser: a control character pasted into the desk's registration form (under a long roster)
comes back as a message beside the field, in view on a phone (390×844) and a laptop
(1366×900); the field keeps the name without the invisible character, and nobody is registered."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament
from tournament.models import Player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    "viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}], ids=["phone", "laptop"]
)
def test_the_registration_form_refuses_a_control_character_beside_the_name(
    new_page: Any, live_server: Any, make_user: Any, password: str, sign_in: Any, screenshot: Any,
    viewport: dict[str, int],
) -> None:
    head = make_user("head", is_staff=True)
    tournament = make_tournament(format="wbc", head_judge=head)
    make_players(tournament, 30)  # the form sits under a roster longer than the screen
    make_round(tournament, state="planned")
    page = new_page(viewport=viewport, locale="en-US", timezone_id="UTC", timeout=10_000)
    sign_in(page, "head", password)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/players/")
    page.locator("#id_name").fill("Ali\u0007a")
    page.locator("#id_club").fill("Ginaz")
    with page.expect_navigation():
        page.get_by_role("button", name="Register").click()
    error = page.locator("#name-error")
    error.wait_for()
    screenshot(page, f"text-refusal-{viewport['width']}")
    assert "control character U+0007 at position 4" in error.inner_text()
    field, message = page.locator("#id_name").bounding_box(), error.bounding_box()
    assert field is not None and message is not None
    assert 0 <= field["y"] and message["y"] + message["height"] <= viewport["height"], (field, message)
    assert 0 <= message["y"] - (field["y"] + field["height"]) < 40  # right under the field
    assert page.locator("#id_name").input_value() == "Alia"
    assert page.locator("#id_club").input_value() == "Ginaz"
    assert page.locator("#id_name").get_attribute("aria-invalid") == "true"
    assert not Player.objects.filter(tournament=tournament, name__startswith="Ali").exists()
