"""The outbox's messages travel with their tournament: an import renumbers the tournament they
name, another tournament's messages stay behind, and a message queued on another installation
is kept, not sent, where no mail server is configured."""

from __future__ import annotations

import json
from typing import Any

from mail import outbox
from mail.models import Message


def test_an_import_carries_the_tournaments_messages_under_its_new_number(full_event: Any, settings: Any) -> None:
    from tests.factories import make_tournament
    from venue import export, restore

    other = make_tournament(name="Another open")
    outbox.queue_message(to="paul@example.org", kind="seating", subject="Heat 1: table 2, seat 3", text="kept here",
                         tournament_id=full_event.pk)
    outbox.queue_message(to="chani@example.org", kind="seating", subject="Elsewhere", text="t", tournament_id=other.pk)
    content = export.export_content(full_event)
    carried = {row["recipient"] for row in content["rows"]["mail.message"]}
    assert "paul@example.org" in carried and "chani@example.org" not in carried
    assert len(carried) > 1, "the demo's own messages (its seatings) travel too"

    content["origin"] = {"installation": "another-installation", "tournament": full_event.pk}
    imported = restore.import_text(json.dumps(export.seal(content))).tournament
    copy = Message.objects.get(tournament_id=imported.pk, recipient="paul@example.org")
    assert (copy.text.split("\n")[0], copy.state) == ("kept here", "kept")
    assert Message.objects.filter(tournament_id=imported.pk).count() == len(content["rows"]["mail.message"])
    assert Message.objects.filter(tournament_id=other.pk).count() == 1

    tampered = export.export_content(full_event)
    tampered["origin"] = {"installation": "a-third-installation", "tournament": full_event.pk}
    tampered["rows"]["mail.message"][-1]["tournament_id"] = other.pk
    try:
        restore.import_text(json.dumps(export.seal(tampered)))
    except restore.DocumentRefused as refusal:
        assert "not the file's" in str(refusal)
    else:
        raise AssertionError("a message naming another tournament was imported")


def test_a_queued_message_of_another_installation_is_kept_without_a_mail_server(db: Any, settings: Any) -> None:
    settings.EMAIL_KEEP_IN_OUTBOX = True
    message = Message.objects.create(recipient="paul@example.org", kind="seating", subject="s", text="t",
                                     tournament_id=1, state="queued")
    assert outbox.deliver(message.pk).state == "kept"
    message.refresh_from_db()
    assert (message.state, message.attempts) == ("kept", 0)
