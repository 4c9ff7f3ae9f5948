"""The window in which no new turn starts is the document's (`rounds.<kind>.no_new_turn_minutes`),
not a fixed 30 minutes: the clock's warning stage starts that long before the end, pages name
it, and the sweep writes the game's `time_up` at the stage where the tournament's own limit
stops new turns (WBC Preliminary Heat Duration: 30 minutes; a document: N, or none)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from clocks import transitions
from clocks.presenters import clock_view
from dune import clock_limits as limits
from dune.formats import format_from_document, get_format, preset_document
from dune.formats.document import FormatDocumentError, apply_changes, load_document
from tests.clocks.conftest import seated, started_clock_due_in

START = datetime(2026, 7, 30, 9, 0, tzinfo=UTC)


def _heat_limit(minutes: int) -> limits.Limit:
    doc = apply_changes(preset_document("wbc"), {"rounds.heat.no_new_turn_minutes": minutes})
    return format_from_document(doc).clock("heat")


def test_a_20_minute_window_stops_new_turns_20_minutes_before_the_end() -> None:
    limit = _heat_limit(20)
    assert limit.no_new_turn == limits.LAST_30 and limit.warning == timedelta(minutes=20)
    dl = limits.deadlines(limit, players=6, started_at=START)
    assert dl.last_30 == START + timedelta(hours=5, minutes=-20) and dl.time_up == START + timedelta(hours=5)
    assert limits.may_start_turn(limits.RUNNING, limit) and not limits.may_start_turn(limits.LAST_30, limit)
    assert limit.stage_label(limits.LAST_30) == "Last 20 minutes"
    assert "no new turn in the last 20 minutes" in limit.label
    # The preset keeps its own limit: the last 30 minutes (WBC Preliminary Heat Duration).
    wbc = get_format("wbc").clock("heat")
    assert wbc is limits.LIMITS["wbc_heat"] and wbc.stage_label(limits.LAST_30) == "Last 30 minutes"


def test_without_a_window_turns_start_until_the_time_is_up() -> None:
    limit = _heat_limit(0)
    assert limit.no_new_turn == limits.TIME_UP
    assert limits.may_start_turn(limits.LAST_30, limit) and not limits.may_start_turn(limits.TIME_UP, limit)
    assert "no new turn" not in limit.label


def test_the_window_is_checked_naming_the_field() -> None:
    for changes, field in (
        ({"rounds.heat.no_new_turn_minutes": 150}, "rounds.heat.no_new_turn_minutes"),
        ({"rounds.final.no_new_turn_minutes": 45, "rounds.final.hours": "0.5"}, "rounds.final.hours"),
    ):
        with pytest.raises(FormatDocumentError) as refused:
            load_document(apply_changes(preset_document("wbc"), changes))
        assert list(refused.value.problems) == [field]
    lolv = apply_changes(preset_document("lolv"), {"rounds.heat.no_new_turn_minutes": 10})
    with pytest.raises(FormatDocumentError) as finish:
        load_document(lolv)
    assert "new turns stop at the limit" in finish.value.problems["rounds.heat.no_new_turn_minutes"]


@pytest.mark.django_db
@pytest.mark.parametrize("window", [0, 20])
def test_the_sweep_writes_time_up_where_the_documents_window_says(window: int, record_calls: Any) -> None:
    round_ = seated(format="wbc", size=5)
    tournament = round_.tournament
    tournament.format_document = apply_changes(tournament.format_document, {"rounds.heat.no_new_turn_minutes": window})
    tournament.save()
    table = round_.tables.get()
    clock = started_clock_due_in(table, seconds=-1)
    assert clock.time_up_at - clock.last_30_at == timedelta(minutes=window or 30)
    assert [m.to_state for m in transitions.advance()] == ["last_30"]
    clock.refresh_from_db()
    view = clock_view(table, clock, now=clock.last_30_at + timedelta(seconds=1))
    assert view["state_label"] == f"Last {window or 30} minutes" and view["may_start_turn"] is (window == 0)
    if window:
        assert transitions.log_time_up() == [clock.pk]
        assert record_calls == [(table.pk, {"type": "time_up", "clock": "wbc_heat"})]
    else:
        assert transitions.log_time_up() == [] and record_calls == []


@pytest.mark.django_db
def test_the_waiver_is_the_documents_for_the_round_kind(head_judge: Any) -> None:
    """WBC Final Round Duration lets all players waive the final's limit, WBC Preliminary Heat
    Duration not a heat's; an event whose document lets heats waive it (and cites its rule)
    gets the waiver at a heat, and a final it does not let waive is refused citing that rule."""
    from clocks import services
    from dune.clock_limits import UnknownLimit

    round_ = seated(format="wbc", size=5)
    tournament = round_.tournament
    tournament.format_document = apply_changes(
        tournament.format_document,
        {"rounds.heat.waivable": True, "rules.rounds.heat.waivable": "club rule (heats waivable)", "rounds.final.waivable": False},
    )
    tournament.save()
    table = round_.tables.get()
    services.start(table, user=head_judge)
    clock = services.waive(table, user=head_judge, reason="all five agreed", all_players_agree=True)
    assert clock.waived
    final_round = seated(format="wbc", size=5, kind="final")
    final_round.tournament.format_document = tournament.format_document
    final_round.tournament.save()
    final = final_round.tables.get()
    services.start(final, user=head_judge)
    with pytest.raises(UnknownLimit) as refused:
        services.waive(final, user=head_judge, reason="all agreed", all_players_agree=True)
    assert refused.value.rule == "WBC Final Round Duration" and "a final's time limit cannot be waived" in refused.value.message
