"""A backup, an export and a pull read the tournament at one moment: a judge's records written
while they are read are either wholly in them (the record and the answer kept for its key) or
wholly not. Real concurrency on PostgreSQL: a phone records as fast as it can while the export
and the changes feed are read again and again."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest
from django.db import connection

from tests.factories import make_players, make_round, make_tournament, seat_table

pytestmark = pytest.mark.django_db(transaction=True)

SIX = ["atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild"]


class Phone(threading.Thread):
    """Records spice counts on one table, each with its own key, until told to stop."""

    def __init__(self, table_id: int, judge_id: int) -> None:
        super().__init__(daemon=True)
        self.table_id, self.judge_id = table_id, judge_id
        self.stop = threading.Event()
        self.recorded = 0
        self.failure: BaseException | None = None

    def run(self) -> None:
        from django.contrib.auth import get_user_model

        from gameplay import commands, services
        from tournament.models import Table

        try:
            judge = get_user_model().objects.get(pk=self.judge_id)
            seq = services.game_for(Table.objects.get(pk=self.table_id)).seq
            while not self.stop.is_set():
                table = Table.objects.select_related("round__tournament").get(pk=self.table_id)
                answer = commands.record_event(
                    table, {"type": "spice_set", "faction": "atreides", "amount": seq % 20},
                    actor=judge, key=str(uuid.uuid4()), expected_seq=seq,
                )
                seq = answer.body["seq"]
                self.recorded += 1
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.failure = exc
        finally:
            connection.close()


def _torn(rows: dict[str, list[dict[str, Any]]], table_id: int) -> list[int]:
    """Record numbers an answered key names that the same read does not hold."""
    held = {row["seq"] for row in rows.get("gameplay.gameevent", [])}
    answered = [row["response"]["event"]["seq"] for row in rows.get("foundation.idempotencyrecord", [])
                if row["scope"] == f"table:{table_id}:events"]
    return sorted(seq for seq in answered if seq not in held)


@pytest.fixture
def racing(head_judge: Any, make_user: Any) -> Any:
    judge = make_user("racer")
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    tournament.table_judges.add(judge)
    heat = make_round(tournament)
    table = seat_table(heat, make_players(tournament, 6), number=1, factions=SIX, judge=judge)
    phone = Phone(table.pk, judge.pk)
    phone.start()
    yield tournament, table, phone
    phone.stop.set()
    phone.join(timeout=60)


def _race(phone: Phone, read: Any, table_id: int) -> list[list[int]]:
    """Read while the phone records, until it has recorded a good number of records meanwhile."""
    tears: list[list[int]] = []
    reads = 0
    start = phone.recorded
    while reads < 40 and (reads < 5 or phone.recorded - start < 30):
        tears.append(_torn(read(), table_id))
        reads += 1
        assert phone.failure is None, phone.failure
    assert phone.recorded - start > 0, "the phone recorded nothing while the tournament was read"
    return [t for t in tears if t]


def test_an_export_racing_a_phone_holds_every_record_it_holds_an_answer_for(racing: Any) -> None:
    from venue import export

    tournament, table, phone = racing
    tears = _race(phone, lambda: export.export_content(tournament)["rows"], table.pk)
    assert tears == [], f"answers kept for records the same export does not hold: {tears[:3]}"


def test_a_pull_racing_a_phone_holds_every_record_it_holds_an_answer_for(racing: Any) -> None:
    from venue import changes

    tournament, table, phone = racing
    tears = _race(phone, lambda: changes.changes(tournament, changes.Cursor(None, {}))["rows"], table.pk)
    assert tears == [], f"answers kept for records the same pull does not hold: {tears[:3]}"


def test_an_imported_answer_whose_record_the_file_lacks_is_dropped_not_served(head_judge: Any,
                                                                               make_user: Any) -> None:
    """A file written before backups were read at one moment may hold the answer to a key
    without its record: the import drops that answer, and the phone's key records it again."""
    from django.core.cache import cache
    from django.core.management import call_command

    from foundation.models import IdempotencyRecord
    from gameplay import commands, services
    from gameplay.models import GameEvent
    from tournament.models import Table
    from venue import export, restore

    judge = make_user("racer")
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    tournament.table_judges.add(judge)
    table = seat_table(make_round(tournament), make_players(tournament, 6), number=1, factions=SIX, judge=judge)
    seq = services.game_for(table).seq
    keys = []
    content: dict[str, Any] = {}
    for amount in (3, 5, 8):
        if amount == 8:  # the file's records are read here, the answers after the last write
            content = export.export_content(tournament)
        keys.append(str(uuid.uuid4()))
        seq = commands.record_event(table, {"type": "spice_set", "faction": "atreides", "amount": amount},
                                    actor=judge, key=keys[-1], expected_seq=seq).body["seq"]
    later = export.export_content(tournament)["rows"]["foundation.idempotencyrecord"]
    content["rows"]["foundation.idempotencyrecord"] = later
    torn = export.seal(content)

    call_command("flush", interactive=False, verbosity=0)
    cache.clear()
    imported = restore.import_text(export.document.canonical(torn))
    assert imported.dropped_answers == 1
    assert IdempotencyRecord.objects.filter(scope=f"table:{table.pk}:events").count() == 2
    judge = type(judge).objects.get(username="racer")
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    again = commands.record_event(table, {"type": "spice_set", "faction": "atreides", "amount": 8},
                                  actor=judge, key=keys[-1], expected_seq=seq - 1)
    assert not again.replayed
    assert list(GameEvent.objects.filter(game__table=table, type="spice_set").values_list("seq", flat=True)) \
        == [seq - 2, seq - 1, seq]
