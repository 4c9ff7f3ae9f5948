"""Run in a process of its own on an SQLite file (the venue laptop): a phone records as fast as it
can on one thread while the export and the changes feed are read again and again on another;
prints one line of JSON: how many reads, how many records meanwhile, and every tear found (an
answer kept for a key whose record the same read lacks). `tests/venue/test_embedded_database.py`
runs it."""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    import django

    django.setup()
    from django.core.management import call_command

    from tests.venue.test_one_moment import Phone, _torn
    from tournament.models import Round, Table
    from venue import changes, export

    call_command("migrate", verbosity=0)
    call_command("load_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    table = (Table.objects.filter(round__state=Round.State.PUBLISHED, report_filed_at=None)
             .exclude(judge=None).select_related("round__tournament").order_by("round__number", "number").first())
    assert table is not None, "the demo has a running heat"
    tournament = table.round.tournament
    phone = Phone(table.pk, table.judge_id)
    phone.start()
    tears: list[list[int]] = []
    reads = 0
    start = phone.recorded
    try:
        while reads < 40 and (reads < 6 or phone.recorded - start < 20):
            if reads % 2:
                rows = export.export_content(tournament)["rows"]
            else:
                rows = changes.changes(tournament, changes.Cursor(None, {}))["rows"]
            tears.append(_torn(rows, table.pk))
            reads += 1
            if phone.failure is not None:
                raise phone.failure
    finally:
        phone.stop.set()
        phone.join(timeout=60)
    sys.stdout.write(json.dumps({"reads": reads, "recorded": phone.recorded - start,
                                 "tears": [t for t in tears if t]}) + "\n")


if __name__ == "__main__":
    main()
