"""What people read is words, not codes: rounds named as every page names them, states said once,
factions and clock stages by name, times in the tournament's zone with the zone said, an order
of tiebreaks in words, counts with their plural, refusals without a program's list, and a
styled page for what one may not do."""

from __future__ import annotations

import html as entities
import re
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from clocks import services as clocks
from scoring import services as scoring
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.scoring.db.conftest import report_for
from tournament import services
from tournament.models import Round

pytestmark = pytest.mark.django_db


def _text(page: Any) -> str:
    body = page.content.decode()
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", body, flags=re.S)
    return re.sub(r"\s+", " ", entities.unescape(re.sub(r"<[^>]+>", " ", body)))


@pytest.fixture
def heat(head_judge: Any) -> Any:
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    tournament.time_zone = "America/New_York"
    tournament.save()
    heat = make_round(tournament)
    Round.objects.filter(pk=heat.pk).update(published_at=timezone.now() - timedelta(hours=1))
    heat.refresh_from_db()
    return heat


def test_the_history_counts_records_names_the_rules_and_keeps_its_times_in_the_zone(
    client: Any, head_judge: Any, heat: Any
) -> None:
    table = seat_table(heat, make_players(heat.tournament, 6))
    client.force_login(head_judge)
    first = client.get(f"/tables/{table.pk}/history/")
    text = _text(first)
    assert "1 record ·" in text and "1 records" not in text
    assert "wbc2018" not in text and "rules WBC 2018" in text
    assert "Time (America/New York)" in text
    published = timezone.localtime(heat.published_at, ZoneInfo("America/New_York"))
    assert published.strftime("%H:%M:%S") in text  # the seating's moment, in New York
    assert re.search(r"\d{4}-\d\d-\d\dT", text) is None  # no ISO stamp for people
    assert _text(client.get(f"/tables/{table.pk}/history/")) == text  # the same on every view


def test_a_round_state_is_said_once(client: Any, head_judge: Any, heat: Any) -> None:
    Round.objects.create(tournament=heat.tournament, number=2, kind="final")
    client.force_login(head_judge)
    text = _text(client.get(f"/tournaments/{heat.tournament_id}/"))
    assert "Planned Planned" not in text and "Planned nobody is seated yet" in text


def test_the_standings_order_is_in_words(client: Any, head_judge: Any, heat: Any) -> None:
    table = seat_table(heat, make_players(heat.tournament, 6))
    scoring.file_report(table, report_for(table, {0: "solo_stronghold"}), user=head_judge)
    text = _text(client.get(f"/tournaments/{heat.tournament_id}/standings/"))
    assert "QP.strongholds" not in text
    assert "the best single game (its QP, then strongholds, weighted tokens, spice, cards, leaders, die roll)" in text


def test_a_table_page_names_its_round_as_every_page_does(client: Any, head_judge: Any, heat: Any) -> None:
    final = Round.objects.create(tournament=heat.tournament, number=4, kind="final", state="published")
    table = seat_table(final, make_players(heat.tournament, 6))
    client.force_login(head_judge)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert '<span class="badge">Final</span>' in page and "Final 4" not in page
    assert "Final 4" not in _text(client.get("/my/tables/"))


def test_the_clock_page_names_factions_and_stages(client: Any, head_judge: Any, heat: Any) -> None:
    table = seat_table(heat, make_players(heat.tournament, 6))
    clocks.start(table, user=head_judge)
    clocks.call_clock(table, action=next(iter(heat.tournament.rules.call_timers)).action, faction="bene_gesserit", user=head_judge)
    client.force_login(head_judge)
    text = _text(client.get(f"/tables/{table.pk}/clock/"))
    assert "bene_gesserit" not in text and "Bene Gesserit" in text
    assert not re.search(r"\b(pending|running|last_30|time_up)\b", text), text[-800:]


def test_an_import_refusal_lists_columns_in_words(head_judge: Any, heat: Any) -> None:
    rows = services.preview_import(heat.tournament, "name,email,club\nAda,ada@example.org,Club,x,y\n")
    assert rows[0].errors[0].startswith("unexpected extra columns “x”, “y”")
    assert "['" not in " ".join(rows[0].errors)


def test_the_backup_time_says_its_zone() -> None:
    from pathlib import Path

    template = Path("templates/venue/_last_backup.html").read_text()
    assert 'date:"D j M, H:i:s T"' in template and 'date:"H:i:s T"' in template


def test_what_one_may_not_do_is_a_styled_page(client: Any, make_user: Any, heat: Any) -> None:
    table = seat_table(heat, make_players(heat.tournament, 6))
    client.force_login(make_user("passerby"))
    refused = client.post(f"/tables/{table.pk}/keep/", {"player": "1", "faction": "atreides"})
    assert refused.status_code == 403
    assert "<h1>Not allowed</h1>" in refused.content.decode() and "kept cards" in refused.content.decode()
    clock = client.post(f"/tables/{table.pk}/clock/start/")
    assert clock.status_code == 403 and "<h1>Not allowed</h1>" in clock.content.decode()
