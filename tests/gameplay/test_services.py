"""gameplay.services: the shared interface (game_for, current_position, append_event,
prefill_report, StaleWrite) and the append-only log."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.utils import DatabaseError

import dune.engine as engine
from dune.engine.errors import RuleViolation
from gameplay import engine_adapter, services
from gameplay.models import AppendOnlyError, Game, GameEvent
from tests.factories import make_players, make_round, make_seated_table, make_tournament, seat_table
from tests.gameplay.recorded_game import recorded_game


@pytest.mark.django_db
def test_game_for_is_created_once(table: Any) -> None:
    first = services.game_for(table)
    assert services.game_for(table).pk == first.pk
    assert GameEvent.objects.filter(game=first).count() == 1


@pytest.mark.django_db
def test_lolv_five_player_table_setup() -> None:
    """LoLV 0.07/0.10 at a 5-player table: markers on the dots from Tuek's Sietch's onwards,
    ruleset lolv-2.8.4, 10 turns (4.01.08)."""
    factions = ["atreides", "ixians", "emperor", "choam", "harkonnen"]
    table = make_seated_table(format="lolv", size=5, factions=factions)
    game = services.game_for(table)
    setup = game.events.get(seq=1).body
    assert game.ruleset == "lolv-2.8.4"
    assert setup["markers"] == dict(zip(factions, [4, 7, 10, 13, 16], strict=True))
    assert setup["turns"] == 10


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("format", "size", "kind", "three"),
    [
        ("wbc", 6, "heat", True),
        ("wbc", 5, "heat", False),
        ("wbc", 6, "final", False),
        ("lolv", 6, "heat", False),
    ],
)
def test_wbc_house_rules_three_faction_alliances_in_tracked_games(
    table_judge: Any, format: str, size: int, kind: str, three: bool
) -> None:
    """WBC house rules: a 3-faction alliance may form only at a 6-player table (WBC Final
    Round Format: never at the final; LoLV 1.10.01.03: never). A tracked game allows it
    exactly where a paper report of the same table may claim one."""
    tournament = make_tournament(format=format)
    table = seat_table(make_round(tournament, kind=kind), make_players(tournament, size), judge=table_judge)
    game = services.game_for(table)
    assert game.events.get(seq=1).body["three_alliances"] is three
    position, _seq = services.current_position(table)
    setup = position.setup
    assert setup is not None
    limit = position.ruleset.alliance_limit(len(position.factions), setup.three_alliances, setup.options)
    assert limit == (3 if three else 2)


@pytest.mark.django_db
def test_seat_without_faction_cannot_start_a_game(table: Any) -> None:
    from django.core.exceptions import ValidationError

    table.seats.filter(seat=2).update(faction="")
    with pytest.raises(ValidationError, match="no faction"):
        services.game_for(table)


@pytest.mark.django_db
def test_current_position_is_the_replay_of_the_log(table: Any, table_judge: Any) -> None:
    services.game_for(table)
    seq = 1
    for event in recorded_game()[:30]:
        services.append_event(table, event, expected_seq=seq, user=table_judge)
        seq += 1
        engine_adapter.forget_all()  # every write rebuilds from the stored snapshot
    position, last = services.current_position(table)
    log = list(GameEvent.objects.filter(game__table=table).order_by("seq").values_list("body", flat=True))
    assert last == 31
    assert position == engine.replay(log)
    assert Game.objects.get(table=table).position == engine_adapter.dump(engine.replay(log))


@pytest.mark.django_db
def test_stale_write_raises_with_what_changed(table: Any, table_judge: Any) -> None:
    services.game_for(table)
    services.append_event(table, {"type": "storm_placed", "sector": 5}, expected_seq=1, user=table_judge)
    with pytest.raises(services.StaleWrite) as caught:
        services.append_event(table, {"type": "storm_placed", "sector": 2}, expected_seq=1, user=table_judge)
    assert caught.value.current_seq == 2 and [e.seq for e in caught.value.changes] == [2]


@pytest.mark.django_db
def test_what_a_stale_write_missed_is_the_log_as_its_lock_saw_it_whenever_it_is_read(
    table: Any, table_judge: Any
) -> None:
    """The missed events are read only when asked for (a retry answered from its stored
    answer never asks); read later, they stop at the sequence number the write was refused at."""
    services.game_for(table)
    services.append_event(table, {"type": "storm_placed", "sector": 5}, expected_seq=1, user=table_judge)
    with pytest.raises(services.StaleWrite) as caught:
        services.append_event(table, {"type": "storm_placed", "sector": 2}, expected_seq=1, user=table_judge)
    services.append_event(table, {"type": "phase_advanced", "phase": "storm"}, expected_seq=2, user=table_judge)
    assert [e.seq for e in caught.value.changes] == [2]


@pytest.mark.django_db
def test_refused_event_writes_nothing(table: Any, table_judge: Any) -> None:
    services.game_for(table)
    before = Game.objects.get(table=table)
    with pytest.raises(RuleViolation) as caught:
        services.append_event(table, {"type": "worm"}, expected_seq=1, user=table_judge)
    assert caught.value.rule
    after = Game.objects.get(table=table)
    assert (after.seq, after.position, after.evaluation) == (before.seq, before.position, before.evaluation)
    assert GameEvent.objects.filter(game=after).count() == 1


@pytest.mark.django_db
def test_clock_can_record_without_a_user(table: Any) -> None:
    """The clocks record time-up and default actions with no judge behind them."""
    services.game_for(table)
    recorded = services.append_event(table, {"type": "time_up", "clock": "wbc_heat"}, expected_seq=1, user=None,
                                     reason="clock ran out")
    assert recorded.author is None and recorded.reason == "clock ran out"


@pytest.mark.django_db
def test_events_are_never_updated_or_deleted(table: Any) -> None:
    """DESIGN.md principle 2: corrections are new events; the log is append-only."""
    game = services.game_for(table)
    event = GameEvent.objects.get(game=game, seq=1)
    event.reason = "edited"
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    with pytest.raises(AppendOnlyError):
        GameEvent.objects.filter(game=game).update(reason="edited")
    with pytest.raises(AppendOnlyError):
        GameEvent.objects.filter(game=game).delete()
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("UPDATE gameplay_gameevent SET reason = 'x' WHERE id = %s", [event.pk])
    assert GameEvent.objects.get(pk=event.pk).reason == "from the seating"


@pytest.mark.django_db(transaction=True)
def test_two_judges_at_once_one_wins_one_is_stale(table: Any, table_judge: Any) -> None:
    """Two writes against the same sequence number from two connections: the row lock
    serialises them; exactly one is recorded and the other is refused as stale."""
    services.game_for(table)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def write(sector: int) -> None:
        try:
            barrier.wait()
            services.append_event(table, {"type": "storm_placed", "sector": sector}, expected_seq=1, user=table_judge)
            outcomes.append("recorded")
        except services.StaleWrite:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=write, args=(s,)) for s in (3, 9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["recorded", "stale"]
    assert GameEvent.objects.filter(game__table=table).count() == 2
