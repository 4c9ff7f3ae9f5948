"""The incremental form of the export (`GET /api/tournaments/{id}/changes/`): an empty cursor
gives the whole tournament, the next cursor only what was written since; head judges only."""

from __future__ import annotations

import datetime as dt
import json
import urllib.parse
from typing import Any

import pytest


def pull(client: Any, tournament: Any, cursor: dict[str, Any] | None = None) -> Any:
    query = urllib.parse.urlencode({"cursor": json.dumps(cursor or {})})
    answer = client.get(f"/api/tournaments/{tournament.pk}/changes/?{query}")
    assert answer.status_code == 200, answer.content[:300]
    return answer.json()


def test_an_empty_cursor_gives_every_row_and_the_next_only_what_was_written_since(
    full_event: Any, client: Any
) -> None:
    from gameplay.models import Game, GameEvent
    from venue import changes, export

    head = full_event.head_judges.first()
    client.force_login(head)
    whole = pull(client, full_event)
    content = export.export_content(full_event)
    for label, rows in content["rows"].items():
        assert len(whole["rows"].get(label, [])) == len(rows), label
    events = whole["rows"]["gameplay.gameevent"]
    assert whole["cursor"]["pk"]["gameplay.gameevent"] == max(e["id"] for e in events)
    accounts = {a["username"]: a for a in whole["shared"]["auth.user"]}
    assert "password" not in accounts[head.username], "no hash leaves for a laptop that is not a paired spare"

    # Nothing written since: no append-only row is sent again beyond the margin's.
    again = pull(client, full_event, whole["cursor"])
    assert {e["id"] for e in again["rows"].get("gameplay.gameevent", [])} <= {e["id"] for e in events}

    game = Game.objects.filter(table__round__tournament=full_event, table__round__state="published").first()
    last = GameEvent.objects.filter(game=game).order_by("-seq").first()
    assert last is not None
    new = GameEvent.objects.create(game=game, seq=last.seq + 1, type="spice_set",
                                   body={"type": "spice_set", "faction": "atreides", "amount": 3}, author=head)
    # The previous pull as if taken past the margin: only rows above the cursor's numbers come.
    past_margin = (dt.datetime.now(dt.UTC) + changes.MARGIN + dt.timedelta(seconds=5)).isoformat()
    later = pull(client, full_event, {"since": past_margin, "pk": whole["cursor"]["pk"]})
    sent = later["rows"]["gameplay.gameevent"]
    assert [e["id"] for e in sent] == [new.pk] and sent[0]["seq"] == last.seq + 1
    assert later["cursor"]["pk"]["gameplay.gameevent"] == new.pk
    assert "tournament.table" in later["ids"] and "gameplay.gameevent" not in later["ids"]


@pytest.mark.django_db
def test_only_a_head_judge_of_the_tournament_pulls_its_changes_and_a_bad_cursor_is_a_400(
    client: Any, head_judge: Any, make_user: Any
) -> None:
    from tests.factories import make_round, make_tournament

    tournament = make_tournament(format="wbc", head_judge=head_judge)
    make_round(tournament, number=1, state="published")
    path = f"/api/tournaments/{tournament.pk}/changes/"
    assert client.get(path).status_code in (401, 403)
    client.force_login(make_user("table-judge"))
    assert client.get(path).status_code == 403
    assert client.get("/api/venue/followed/").json() == {"tournaments": []}
    client.force_login(head_judge)
    assert client.get("/api/venue/followed/").json() == {"tournaments": [{"id": tournament.pk, "name": tournament.name}]}
    for bad in ("{", '{"pk": {"gameplay.gameevent": -1}}', '{"pk": {"gameplay.gameevent": 9223372036854775808}}',
                '{"since": "yesterday"}', '{"since": "2026-07-28T09:00:00"}', '{"since": "0001-01-01T00:00:00+14:00"}', "[]", "[" * 5000):
        answer = client.get(path, {"cursor": bad})
        assert answer.status_code == 400 and "cursor" in answer.content.decode(), bad


def test_a_paired_spare_proves_it_and_gets_the_judges_sign_ins(full_event: Any, client: Any) -> None:
    """Only a pull proven by the event key (a spare paired with `bin/venue pair`) carries the
    password hashes and privileges; a proof for another cursor or tournament does not."""
    from venue import installation, pairing

    head = full_event.head_judges.first()
    client.force_login(head)
    raw = json.dumps({})
    path = f"/api/tournaments/{full_event.pk}/changes/?" + urllib.parse.urlencode({"cursor": raw})

    def accounts(proof: str) -> dict[str, Any]:
        answer = client.get(path, headers={pairing.SPARE_HEADER: proof})
        assert answer.status_code == 200
        return {a["username"]: a for a in answer.json()["shared"]["auth.user"]}

    proven = accounts(pairing.spare_proof(installation.export_key(), full_event.pk, raw))
    assert proven[head.username]["password"] == head.password
    assert proven[head.username]["is_staff"] == head.is_staff
    assert "password" not in accounts(pairing.spare_proof(installation.export_key(), full_event.pk + 1, raw))[head.username]
    assert "password" not in accounts(pairing.spare_proof(b"another laptop's key" * 2, full_event.pk, raw))[head.username]
