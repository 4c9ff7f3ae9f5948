"""The head judge reads the tournament's outbox: what was queued, sent, failed or kept, and the text."""

from __future__ import annotations

from typing import Any

import pytest

from mail import outbox
from mail.models import Message
from tests.factories import make_tournament

pytestmark = pytest.mark.django_db


def test_the_head_judge_reads_each_message_by_state(client: Any, head_judge: Any, make_user: Any) -> None:
    tournament = make_tournament(head_judge=head_judge, name="Outbox open")
    other = make_tournament(name="Other open")
    outbox.queue_message(to="paul@example.org", kind="seating", subject="Heat 1: table 2, seat 3",
                         text="Heat 1: table 2, seat 3, starts 10:00 EDT", tournament_id=tournament.pk)
    outbox.queue_message(to="chani@example.org", kind="seating", subject="Elsewhere", text="t", tournament_id=other.pk)
    Message.objects.create(recipient="leto@example.org", kind="final_qualified", subject="You are in the final",
                           text="x", tournament_id=tournament.pk, state="failed", attempts=5,
                           last_error="SMTPRecipientsRefused: leto@example.org")
    client.force_login(head_judge)
    page = client.get(f"/tournaments/{tournament.pk}/outbox/")
    body = page.content.decode()
    assert page.status_code == 200
    assert "Heat 1: table 2, seat 3, starts 10:00 EDT" in body and "Seating to paul@example.org" in body
    assert "Last error: SMTPRecipientsRefused" in body and "5 attempts" in body
    assert "Elsewhere" not in body
    assert "Kept messages were not sent" in body
    failed = client.get(f"/tournaments/{tournament.pk}/outbox/?state=failed").content.decode()
    assert "You are in the final" in failed and "paul@example.org" not in failed
    refused = client.get(f"/tournaments/{tournament.pk}/outbox/?state=lost")
    assert refused.status_code == 400 and "There is no state" in refused.content.decode()

    detail = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/outbox/"' in detail


def test_only_its_head_judges_open_it(client: Any, head_judge: Any, make_user: Any) -> None:
    tournament = make_tournament(head_judge=head_judge)
    assert client.get(f"/tournaments/{tournament.pk}/outbox/").status_code == 302
    client.force_login(make_user("someone"))
    assert client.get(f"/tournaments/{tournament.pk}/outbox/").status_code == 403


def test_password_resets_are_read_by_a_superuser_on_the_installations_outbox(
    client: Any, head_judge: Any, make_user: Any
) -> None:
    tournament = make_tournament(head_judge=head_judge)
    outbox.queue_message(to="irulan@example.org", kind="password_reset", subject="Your password", text="reset link")
    outbox.queue_message(to="paul@example.org", kind="seating", subject="Heat 1", text="t", tournament_id=tournament.pk)
    assert client.get("/outbox/").status_code == 302
    client.force_login(make_user("judge"))
    assert client.get("/outbox/").status_code == 403
    client.force_login(head_judge)
    body = client.get("/outbox/").content.decode()
    assert "Password reset to irulan@example.org" in body and "reset link" in body
    assert "paul@example.org" not in body
