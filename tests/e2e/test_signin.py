"""Browser: the home page and the sign-in page open, and a judge signs in."""

from __future__ import annotations

from typing import Any


def test_home_and_sign_in(page: Any, live_server: Any, head_judge: Any, password: str, sign_in: Any, screenshot: Any) -> None:
    page.goto(live_server.url + "/")
    assert page.get_by_role("heading", name="Dune tournaments").is_visible()
    page.get_by_role("link", name="Sign in").click()
    assert page.get_by_role("heading", name="Sign in").is_visible()
    screenshot(page, "sign-in-laptop")

    sign_in(page, "head", password)
    assert page.locator(".nav-user .who").inner_text() == "head"
    assert page.get_by_role("button", name="Sign out").is_visible()


def test_wrong_password_is_shown_next_to_the_form(phone_page: Any, live_server: Any, head_judge: Any, sign_in: Any, screenshot: Any) -> None:
    sign_in(phone_page, "head", "not the password")
    assert phone_page.get_by_role("alert").is_visible()
    assert "correct username and password" in phone_page.get_by_role("alert").inner_text()
    screenshot(phone_page, "sign-in-error-phone")
