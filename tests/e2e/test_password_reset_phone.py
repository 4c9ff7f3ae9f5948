"""A judge who forgot their password asks for a link on a phone, reads the message the SMTP
server really received (sent by a real worker through the outbox), and chooses a new password;
the link used again, or a link too old, is refused in words and changes nothing."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tests.conftest import PASSWORD

NEW_PASSWORD = "spice must flow 10191"


class _FourDaysAgo(PasswordResetTokenGenerator):
    def _now(self) -> datetime:
        return datetime.now() - timedelta(days=4)


def _fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1


@pytest.mark.django_db(transaction=True)
def test_a_judge_resets_a_forgotten_password_from_the_email(
    phone_page: Any, live_server: Any, make_user: Any, celery_worker: Any, smtp_server: Any,
    sign_in: Any, screenshot: Any,
) -> None:
    judge = make_user("irulan", email="irulan@example.org")
    page = phone_page

    old = f"/accounts/password-reset/{urlsafe_base64_encode(force_bytes(judge.pk))}/{_FourDaysAgo().make_token(judge)}/"
    answer = page.goto(f"{live_server.url}{old}")
    assert answer is not None and answer.status == 400
    assert "This link no longer works" in page.get_by_role("alert").inner_text()

    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("Email").fill("Irulan@example.org")
    _fits(page)
    page.get_by_role("button", name="Send the link").click()
    page.get_by_role("heading", name="Check your email").wait_for()
    screenshot(page, "password-reset-sent")

    [message] = smtp_server.wait_for(1)
    assert message["To"] == "irulan@example.org"
    assert message["Subject"] == "Your password for the Dune tournaments platform"
    text = message.get_body(preferencelist=("plain",)).get_content()
    assert "irulan" in text
    link = re.search(r"http://\S+/accounts/password-reset/[^/\s]+/[^/\s]+/", text)
    assert link is not None, text
    assert link.group(0) in message.get_body(preferencelist=("html",)).get_content()

    page.goto(link.group(0))
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password again").fill(NEW_PASSWORD)
    _fits(page)
    page.get_by_role("button", name="Set the new password").click()
    page.get_by_role("heading", name="Password changed").wait_for()
    judge.refresh_from_db()
    assert judge.check_password(NEW_PASSWORD) and not judge.check_password(PASSWORD)
    changed = judge.password

    again = page.goto(link.group(0))
    assert again is not None and again.status == 400
    refusal = page.get_by_role("alert")
    assert refusal.is_visible() and "it was already used" in refusal.inner_text()
    _fits(page)
    screenshot(page, "password-reset-used-link")
    judge.refresh_from_db()
    assert judge.password == changed

    sign_in(page, "irulan", NEW_PASSWORD)
    page.get_by_role("button", name="Sign out").wait_for()
