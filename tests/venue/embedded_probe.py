"""Run in a process of its own on an SQLite file (the embedded default and the venue laptop):
migrate, load the demo, then read the live pages and record a move with a token, printing one
line of JSON with what was seen. `tests/venue/test_embedded_database.py` runs it."""

from __future__ import annotations

import json
import os
import re
import sys
from html import unescape


def main() -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from tournament.models import Round, Table

    call_command("migrate", verbosity=0)
    call_command("load_demo", stdout=open(os.devnull, "w"))
    table = (
        Table.objects.filter(round__state=Round.State.PUBLISHED, report_filed_at=None)
        .exclude(judge=None).select_related("round").order_by("round__number", "number").first()
    )
    assert table is not None, "the demo has a running heat"
    heat = table.round
    seen: dict[str, object] = {}
    page = Client()
    first = page.get(f"/rounds/{heat.pk}/")
    etag = unescape(re.search(r'data-etag="([^"]*)"', first.content.decode()).group(1))
    poll = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "round-live", "HTTP_IF_NONE_MATCH": etag}
    seen["round"] = [first.status_code, page.get(f"/rounds/{heat.pk}/", **poll).status_code]
    standings = page.get(f"/tournaments/{heat.tournament_id}/standings/")
    seen["standings"] = standings.status_code
    judge = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=table.judge)[0].key}")
    game = judge.get(f"/api/tables/{table.pk}/game/").json()
    faction = game["position"]["seats"][0]
    body = {"event": {"type": "spice_set", "faction": faction, "amount": 4}, "expected_seq": game["seq"]}
    posted = judge.post(f"/api/tables/{table.pk}/game/events/", body, content_type="application/json",
                        HTTP_IDEMPOTENCY_KEY="embedded-1")
    again = judge.post(f"/api/tables/{table.pk}/game/events/", body, content_type="application/json",
                       HTTP_IDEMPOTENCY_KEY="embedded-1")
    seen["post"] = [posted.status_code, again.status_code, again.get("Idempotent-Replayed")]
    seen["seq"] = [game["seq"], judge.get(f"/api/tables/{table.pk}/game/").json()["seq"]]
    seen["changed"] = page.get(f"/rounds/{heat.pk}/", **poll).status_code
    sys.stdout.write(json.dumps(seen) + "\n")


if __name__ == "__main__":
    main()
