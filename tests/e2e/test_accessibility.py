"""Key pages pass an automated axe-core check with no serious violations, at phone and laptop sizes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.accessibility import serious_violations

PUBLIC_PAGES = ["/", "/accounts/login/"]


@pytest.mark.parametrize("path", PUBLIC_PAGES)
def test_public_pages_have_no_serious_violations(phone_page: Any, live_server: Any, path: str) -> None:
    phone_page.goto(live_server.url + path)
    assert serious_violations(phone_page) == []


def test_large_text_keeps_the_sign_in_form_usable(new_page: Any, live_server: Any, head_judge: Any, password: str) -> None:
    # Large text as a phone's accessibility setting gives it: everything scales from the root size.
    page = new_page({"width": 390, "height": 844}, device_scale_factor=2)
    page.goto(live_server.url + "/accounts/login/")
    # Set through the CSS object model: the Content-Security-Policy refuses inline <style> tags.
    page.evaluate("document.documentElement.style.setProperty('font-size', '150%', 'important')")
    page.get_by_label("Username").fill("head")
    page.get_by_label("Password").fill(password)
    button = page.get_by_role("button", name="Sign in")
    box = button.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390, "the button must stay on screen"
    button.click()
    page.wait_for_load_state()
    assert page.locator(".nav-user .who").inner_text() == "head"
