"""The players desk on a phone (390×844): registering is one tap from the top, and the rows'
rare actions (withdraw, drop) are quiet outlined buttons, not a column of red ones."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.factories import make_players, make_round, make_tournament

pytestmark = pytest.mark.django_db(transaction=True)

IN_VIEW = "(e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"


def test_the_desk_offers_registration_at_the_top_and_keeps_drop_quiet(
    phone_page: Any, live_server: Any, head_judge: Any, password: str, sign_in: Any
) -> None:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    make_players(tournament, 12)
    make_round(tournament, state="planned")
    sign_in(phone_page, head_judge.username, password)
    phone_page.goto(f"{live_server.url}/tournaments/{tournament.pk}/players/")
    register = phone_page.get_by_role("link", name="Register a player")
    assert register.evaluate(IN_VIEW)
    register.click()
    name = phone_page.locator("#id_name")
    phone_page.wait_for_function(f"(e) => ({IN_VIEW})(e)", arg=name.element_handle())
    drops = phone_page.locator(".roster").get_by_role("button", name="Drop", exact=False)
    expect(drops.first).to_be_visible()
    filled = drops.evaluate_all("(bs) => bs.map(b => getComputedStyle(b).backgroundColor)")
    assert filled and all(c in ("rgba(0, 0, 0, 0)", "transparent") for c in filled), filled
