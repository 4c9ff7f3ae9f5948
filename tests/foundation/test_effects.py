"""A command's write says what it causes (`foundation.effects`): handlers run after the
command's transaction commits, never for a write rolled back, and never for a row saved by
something that is not a command."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from foundation import effects

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def heard() -> Any:
    got: list[tuple[str, dict[str, Any]]] = []

    def after(**facts: Any) -> None:
        got.append(("after", facts))

    def within(**facts: Any) -> None:
        got.append(("within", facts))

    effects.on(effects.ROUND_CLOSED, after)
    effects.on(effects.ROUND_CLOSED, within, in_transaction=True)
    yield got
    effects._after_commit[effects.ROUND_CLOSED].remove(after)
    effects._in_transaction[effects.ROUND_CLOSED].remove(within)


def test_an_effect_runs_after_its_commit_and_never_for_a_write_rolled_back(heard: Any) -> None:
    with transaction.atomic():
        effects.cause(effects.ROUND_CLOSED, round_id=7)
        assert heard == [("within", {"round_id": 7})]
    assert heard == [("within", {"round_id": 7}), ("after", {"round_id": 7})]
    heard.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        effects.cause(effects.ROUND_CLOSED, round_id=8)
        raise RuntimeError("refused")
    assert ("after", {"round_id": 8}) not in heard


def test_an_unknown_effect_is_refused() -> None:
    with pytest.raises(ValueError):
        effects.cause("report filled", report_id=1)
    with pytest.raises(ValueError):
        effects.on("report filled", print)


def test_a_report_saved_outside_the_filing_command_stops_no_clock(head_judge: Any) -> None:
    """A save that is not a command's (a shell, the admin of old) causes nothing: the clock
    stops with the filing command only."""
    from clocks import services as clocks
    from clocks.models import TableClock
    from dune import clock_limits as limits
    from scoring.models import GameReport
    from tests.clocks.conftest import seated
    from tournament.models import Round

    round_ = seated(format="wbc", size=6, tables=1)
    round_.tournament.head_judges.add(head_judge)
    Round.objects.filter(pk=round_.pk).update(state=Round.State.PUBLISHED)
    table = round_.tables.get()
    clocks.start(table, user=head_judge)
    GameReport.objects.create(table=table, tournament=round_.tournament, data={}, filed_by=head_judge,
                              filed_at=timezone.now())
    assert TableClock.objects.get(table=table).state != limits.FINISHED
