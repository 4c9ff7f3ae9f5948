"""The outbox: a message is recorded in the caller's transaction, delivered by a real worker to
a real SMTP server on loopback, tried again when the server refuses, and never sent to an
address that asked to stop."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import pytest
from django.db import transaction

from mail import outbox
from mail.models import Message, Stop


def _wait_for_state(message: Message, state: str, timeout: float = 20.0) -> Message:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message.refresh_from_db()
        if message.state == state:
            return message
        time.sleep(0.05)
    pytest.fail(f"message stayed {message.state!r} (attempts {message.attempts}, {message.last_error!r}), not {state!r}")


@pytest.mark.django_db(transaction=True)
def test_a_queued_message_reaches_the_smtp_server_through_the_worker(celery_worker: Any, smtp_server: Any) -> None:
    outbox.queue_message(
        to="paul@example.org", kind="seating", subject="Heat 2: table 4,\nseat 3",
        text="Heat 2: table 4, seat 3, starts 10:00 EDT", html="<p>Heat 2: <b>table 4</b></p>", tournament_id=7,
    )
    [received] = smtp_server.wait_for(1)
    assert received["To"] == "paul@example.org"
    assert received["Subject"] == "Heat 2: table 4, seat 3"
    text = received.get_body(preferencelist=("plain",)).get_content()
    html = received.get_body(preferencelist=("html",)).get_content()
    assert "table 4, seat 3, starts 10:00 EDT" in text
    assert "<b>table 4</b>" in html
    link = outbox.stop_url("paul@example.org")
    assert link in text and link in html
    assert received["List-Unsubscribe"].strip() == f"<{link}>"
    message = _wait_for_state(Message.objects.get(), Message.State.SENT)
    assert (message.attempts, message.tournament_id, message.kind) == (1, 7, "seating")
    assert message.sent_at is not None


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_write_sends_nothing(celery_worker: Any, smtp_server: Any) -> None:
    with pytest.raises(RuntimeError), transaction.atomic():
        outbox.queue_message(to="rolled@example.org", kind="seating", subject="s", text="t")
        raise RuntimeError("the command refused")
    outbox.queue_message(to="kept@example.org", kind="seating", subject="s", text="t")
    [received] = smtp_server.wait_for(1)
    assert received["To"] == "kept@example.org"
    assert list(Message.objects.values_list("recipient", flat=True)) == ["kept@example.org"]


@pytest.mark.django_db(transaction=True)
def test_a_refusing_server_is_tried_again_then_the_message_fails(
    celery_worker: Any, smtp_server: Any, settings: Any
) -> None:
    settings.EMAIL_PORT = smtp_server.port + 1 if smtp_server.port < 65535 else smtp_server.port - 1
    settings.MAIL_ATTEMPTS = 3
    settings.MAIL_RETRY_SECONDS = 0.2
    outbox.queue_message(to="paul@example.org", kind="seating", subject="s", text="t")
    message = _wait_for_state(Message.objects.get(), Message.State.FAILED)
    assert message.attempts == 3
    assert "Connection" in message.last_error or "refused" in message.last_error
    assert smtp_server.messages == []


@pytest.mark.django_db(transaction=True)
def test_a_retry_delivers_once_the_server_is_back(celery_worker: Any, smtp_server: Any, settings: Any) -> None:
    real_port = smtp_server.port
    settings.EMAIL_PORT = real_port + 1 if real_port < 65535 else real_port - 1
    settings.MAIL_ATTEMPTS = 5
    settings.MAIL_RETRY_SECONDS = 0.5
    outbox.queue_message(to="paul@example.org", kind="seating", subject="s", text="t")
    message = Message.objects.get()
    deadline = time.monotonic() + 20
    while message.attempts == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
        message.refresh_from_db()
    assert message.state == Message.State.QUEUED and message.last_error
    settings.EMAIL_PORT = real_port
    smtp_server.wait_for(1)
    message = _wait_for_state(message, Message.State.SENT)
    assert message.attempts >= 2 and message.last_error == ""


@pytest.mark.django_db
def test_delivering_twice_sends_once(smtp_server: Any) -> None:
    outbox.queue_message(to="paul@example.org", kind="seating", subject="s", text="t")
    message = Message.objects.get()
    assert outbox.deliver(message.pk).state == Message.State.SENT
    assert outbox.deliver(message.pk).state == Message.State.SENT
    smtp_server.wait_for(1)
    message.refresh_from_db()
    assert message.attempts == 1
    assert len(smtp_server.messages) == 1


@pytest.mark.django_db
def test_without_an_email_url_messages_are_kept(settings: Any) -> None:
    settings.EMAIL_KEEP_IN_OUTBOX = True
    outbox.queue_message(to="paul@example.org", kind="seating", subject="s", text="t", tournament_id=3)
    message = Message.objects.get()
    assert message.state == Message.State.KEPT
    assert outbox.deliver(message.pk).state == Message.State.KEPT
    message.refresh_from_db()
    assert message.attempts == 0


@pytest.mark.django_db
def test_no_address_no_message(settings: Any) -> None:
    outbox.queue_message(to="  ", kind="seating", subject="s", text="t")
    assert not Message.objects.exists()


@pytest.mark.django_db
def test_the_stop_link_stops_every_spelling_of_the_address(client: Any) -> None:
    link = outbox.stop_url("Paul@Example.org")
    path = link.removeprefix("http://127.0.0.1:8000")
    page = client.get(path)
    assert page.status_code == 200
    assert "paul@example.org" in page.content.decode()
    assert not Stop.objects.exists(), "opening the link changes nothing"
    done = client.post(path)
    assert done.status_code == 200
    assert "receives no more messages" in done.content.decode()
    assert outbox.is_stopped(" PAUL@example.org")
    outbox.queue_message(to="PAUL@EXAMPLE.ORG", kind="seating", subject="s", text="t")
    outbox.queue_message(to="other@example.org", kind="seating", subject="s", text="t")
    assert list(Message.objects.values_list("recipient", flat=True)) == ["other@example.org"]


@pytest.mark.django_db
def test_a_forged_stop_link_is_refused_in_words(client: Any) -> None:
    token = outbox.stop_token("paul@example.org")
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    for method in (client.get, client.post):
        page = method(f"/mail/stop/{forged}/")
        assert page.status_code == 404
        assert "not one this platform sent" in page.content.decode()
    assert not Stop.objects.exists()


@pytest.mark.django_db
def test_the_sweep_finds_a_message_whose_task_was_lost(settings: Any) -> None:
    settings.EMAIL_KEEP_IN_OUTBOX = False
    settings.MAIL_RETRY_SECONDS = 1
    settings.MAIL_ATTEMPTS = 1
    outbox.queue_message(to="paul@example.org", kind="seating", subject="s", text="t")
    message = Message.objects.get()
    assert outbox.waiting_too_long() == []
    Message.objects.filter(pk=message.pk).update(updated_at=message.updated_at - dt.timedelta(minutes=5))
    assert outbox.waiting_too_long() == [message.pk]


@pytest.mark.django_db(transaction=True)
def test_many_messages_of_one_write_are_each_delivered_once(celery_worker: Any, smtp_server: Any) -> None:
    recorded = outbox.queue_messages(
        [outbox.Outgoing(to=f"p{n}@example.org", kind="seating", subject=f"Seat {n}", text="t") for n in range(5)]
        + [outbox.Outgoing(to="", kind="seating", subject="nobody", text="t")]
    )
    assert recorded == 5
    received = smtp_server.wait_for(5)
    assert sorted(str(m["To"]) for m in received) == [f"p{n}@example.org" for n in range(5)]
    for message in Message.objects.all():
        assert _wait_for_state(message, Message.State.SENT).attempts == 1
    assert len(smtp_server.messages) == 5
