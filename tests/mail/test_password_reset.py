"""The password reset form answers the same whatever the address; only a judge's own address
gets a message, and it goes through the outbox."""

from __future__ import annotations

from typing import Any

import pytest

from mail.models import Message

pytestmark = pytest.mark.django_db


def test_the_sign_in_page_links_the_reset(client: Any) -> None:
    page = client.get("/accounts/login/")
    assert 'href="/accounts/password-reset/"' in page.content.decode()
    assert "Forgot your password?" in page.content.decode()


def test_an_unknown_address_gets_the_same_answer_and_no_message(client: Any, make_user: Any) -> None:
    make_user("irulan", email="irulan@example.org")
    unknown = client.post("/accounts/password-reset/", {"email": "nobody@example.org"})
    known = client.post("/accounts/password-reset/", {"email": "IRULAN@example.org"})
    assert unknown.status_code == known.status_code == 302
    assert unknown["Location"] == known["Location"] == "/accounts/password-reset/sent/"
    [message] = Message.objects.all()
    assert (message.recipient, message.kind, message.tournament_id) == ("irulan@example.org", "password_reset", None)
    assert "/accounts/password-reset/" in message.text and "/accounts/password-reset/" in message.html


def test_a_malformed_address_is_refused_next_to_its_field(client: Any) -> None:
    page = client.post("/accounts/password-reset/", {"email": "not an address"})
    assert page.status_code == 400
    assert "Enter a valid email address." in page.content.decode()
    assert not Message.objects.exists()


def test_a_malformed_link_is_refused_in_words(client: Any) -> None:
    page = client.get("/accounts/password-reset/MQ/not-a-token/")
    assert page.status_code == 400
    assert "This link no longer works" in page.content.decode()


def test_asking_again_and_again_fills_no_mailbox(client: Any, make_user: Any) -> None:
    make_user("irulan", email="irulan@example.org")
    answers = [client.post("/accounts/password-reset/", {"email": "irulan@example.org"}) for _ in range(5)]
    assert {a.status_code for a in answers} == {302}
    assert Message.objects.filter(kind="password_reset").count() == 3
