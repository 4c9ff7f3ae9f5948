"""The restore drill: the laptop dies mid-round; another installation imports the last backup
the worker wrote; the table judge's phone, which kept its outbox, sends everything again and
each action lands exactly once: actions recorded before the backup are recognised by their
idempotency keys, actions after it are unknown to the restored installation and are
accepted once."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command

from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db(transaction=True)

SIX = ["atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild"]
NO_GUILD = ["atreides", "bene_gesserit", "emperor", "fremen", "harkonnen"]
#: Recorded and answered before the backup.
BEFORE = [
    {"type": "storm_placed", "sector": 5},
    {"type": "phase_advanced", "phase": "storm"},
    {"type": "phase_advanced", "phase": "spice_blow"},
]
#: Recorded on the laptop after its last backup, moments before it died.
AFTER = [
    {"type": "phase_advanced", "phase": "battle"},
    {"type": "phase_advanced", "phase": "mentat_pause"},
    {"type": "turn_advanced", "turn": 2},
    {"type": "storm_moved", "sectors": 3},
    {"type": "phase_advanced", "phase": "spice_blow"},
    {"type": "worm", "territory": None, "karama": False},
]


def wait_for(predicate: Callable[[], bool], timeout: float = 20) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


class Phone:
    """A table judge's phone: every action goes into the outbox with its key and expected
    sequence number, and stays there (the answers of the last ones never arrived)."""

    def __init__(self, user: Any, table_id: int) -> None:
        from rest_framework.test import APIClient

        self.client = APIClient()
        self.client.force_authenticate(user)
        self.url = f"/api/tables/{table_id}/game/events/"
        self.outbox: list[tuple[str, dict[str, Any]]] = []

    def record(self, event: dict[str, Any], expected_seq: int) -> Any:
        entry = (str(uuid.uuid4()), {"event": event, "expected_seq": expected_seq})
        self.outbox.append(entry)
        return self.send(*entry)

    def send(self, key: str, body: dict[str, Any]) -> Any:
        return self.client.post(self.url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)

    def send_again(self, user: Any) -> list[Any]:
        """After the restore: signed in again, the whole outbox in order."""
        self.client.force_authenticate(user)
        return [self.send(key, body) for key, body in self.outbox]


def log_of(table_id: int) -> list[tuple[int, str]]:
    from gameplay.models import GameEvent

    return list(GameEvent.objects.filter(game__table_id=table_id).order_by("seq").values_list("seq", "type"))


def test_a_restored_backup_takes_the_phones_outbox_exactly_once(
    celery_worker: Any, settings: Any, tmp_path: Path, head_judge: Any, make_user: Any
) -> None:
    from django.contrib.auth import get_user_model

    from foundation.models import IdempotencyRecord
    from gameplay.models import Game
    from scoring import services as scoring
    from venue import backups

    settings.VENUE_BACKUP_ON_FILING = True
    settings.VENUE_BACKUP_DIR = tmp_path / "backups"
    judge = make_user("judge1")
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    tournament.table_judges.add(judge)
    players = make_players(tournament, 11)
    heat = make_round(tournament)
    table = seat_table(heat, players[:6], number=1, factions=SIX, judge=judge)
    other = seat_table(heat, players[6:], number=2, factions=NO_GUILD)

    phone = Phone(judge, table.pk)
    phone.client.get(f"/api/tables/{table.pk}/game/")
    for seq, event in enumerate(BEFORE, start=1):
        assert phone.record(event, seq).status_code == 201
    # Another table files its report: the worker backs the tournament up at once.
    scoring.file_report(other, report_for(other, {0: "solo_stronghold"}), user=head_judge)
    assert wait_for(lambda: backups.last_backup(tournament.pk) is not None), "the worker wrote no backup"
    backup = backups.last_backup(tournament.pk)
    assert backup is not None
    for seq, event in enumerate(AFTER, start=len(BEFORE) + 1):
        answer = phone.record(event, seq)
        assert answer.status_code == 201, answer.json()
    original = Game.objects.get(table_id=table.pk).position
    recorded = log_of(table.pk)
    assert len(recorded) == 1 + len(BEFORE) + len(AFTER)

    # The laptop dies. Another installation (empty) imports the last backup.
    call_command("flush", interactive=False, verbosity=0)
    cache.clear()
    call_command("import_tournament", str(backup.path), stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert log_of(table.pk) == recorded[: 1 + len(BEFORE)]
    assert IdempotencyRecord.objects.filter(scope=f"table:{table.pk}:events").count() == len(BEFORE)

    # The judge signs in again (the organiser set a password on the restored account); the phone
    # sends its whole outbox.
    restored_judge = get_user_model().objects.get(username="judge1")
    answers = phone.send_again(restored_judge)
    assert [a.status_code for a in answers] == [201] * (len(BEFORE) + len(AFTER))
    replayed = [a.headers.get("Idempotent-Replayed") == "true" for a in answers]
    assert replayed == [True] * len(BEFORE) + [False] * len(AFTER)
    assert log_of(table.pk) == recorded
    # And once more: now every action is recognised, nothing is recorded twice.
    again = phone.send_again(restored_judge)
    assert all(a.headers.get("Idempotent-Replayed") == "true" for a in again)
    assert log_of(table.pk) == recorded
    assert Game.objects.get(table_id=table.pk).position == original
