"""The seating adapter and services on the database: history, keep-apart, latecomers, the final."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from dune.engine.ids import CLASSIC_FACTIONS
from dune.seating import count_repeats
from tests.factories import make_players
from tournament import seating_adapter as adapter
from tournament import services
from tournament.models import CheckIn, Player, Round, Seat, SeatingAudit

pytestmark = pytest.mark.django_db


def _tables(round_: Any) -> list[list[int]]:
    return [
        list(t.seats.order_by("seat").values_list("player_id", flat=True))
        for t in round_.tables.order_by("number")
    ]


def test_second_heat_avoids_opponents_and_factions_of_the_first(tournament: Any, head_judge: Any) -> None:
    """The adapter feeds earlier heats to the planner: heat 2 of 36 players repeats no pairing and no faction."""
    players = make_players(tournament, 36)
    heats = [Round.objects.create(tournament=tournament, number=n) for n in (1, 2)]
    for heat in heats:
        CheckIn.objects.bulk_create(CheckIn(round=heat, player=p) for p in players)
    services.seat_round(heats[0], user=head_judge, seed=11)
    plan = services.seat_round(heats[1], user=head_judge, seed=12)
    history = adapter.history_for(heats[1])
    assert len(history) == 6 and all(s.faction in CLASSIC_FACTIONS for t in history for s in t.seats)
    assert count_repeats(_tables(heats[1]), history) == 0 == plan.repeats
    first = dict(Seat.objects.filter(round=heats[0]).values_list("player_id", "faction"))
    second = dict(Seat.objects.filter(round=heats[1]).values_list("player_id", "faction"))
    assert all(first[p] != second[p] for p in first)


def test_households_and_clubs_kept_apart(
    tournament: Any, heat: Any, checked_in: Any, head_judge: Any
) -> None:
    """Same household always, same club when the tournament asks: different tables."""
    players = checked_in(24)
    Player.objects.filter(pk__in=[players[0].pk, players[1].pk]).update(household="Atreides, 12 Arrakeen Way")
    Player.objects.filter(pk__in=[p.pk for p in players[2:6]]).update(club="Caladan Club")
    players[6].keep_apart.add(players[7])
    tournament.keep_clubs_apart = True
    tournament.save()
    groups = adapter.keep_apart_for(heat, [p.pk for p in players])
    assert sorted(g.kind for g in groups) == ["club", "household", "request"]
    plan = services.seat_round(heat, user=head_judge, seed=3)
    where = {s.player: t.number for t in plan.tables for s in t.seats}
    assert where[players[0].pk] != where[players[1].pk]
    assert where[players[6].pk] != where[players[7].pk]
    assert len({where[p.pk] for p in players[2:6]}) == 4
    assert "keep_apart_honoured" in Round.objects.get(pk=heat.pk).seating_flags


def test_plan_round_trips_through_the_database(heat: Any, checked_in: Any, head_judge: Any) -> None:
    """What the planner answered is what the adapter reads back (tables, seats, factions, undrawn)."""
    checked_in(11)
    plan = services.seat_round(heat, user=head_judge, seed=8)
    again = adapter.plan_for(Round.objects.get(pk=heat.pk))
    assert again.tables == plan.tables and again.seed == 8


def test_wbc_latecomer_within_grace_then_only_by_override(
    heat: Any, checked_in: Any, head_judge: Any, tournament: Any
) -> None:
    """WBC 2018: within 15 minutes a latecomer joins a 5-player table; later only with override and reason."""
    checked_in(10)
    heat.starts_at = timezone.now()
    heat.save()
    services.seat_round(heat, user=head_judge, seed=4)
    services.publish_round(heat, user=head_judge)
    early, late = make_players(tournament, 2, prefix="Late")
    before = {(s.player_id, s.table_id, s.seat, s.faction) for s in Seat.objects.filter(round=heat)}
    services.add_latecomer(heat, early, user=head_judge, now=heat.starts_at + timedelta(minutes=10))
    after = {(s.player_id, s.table_id, s.seat, s.faction) for s in Seat.objects.filter(round=heat)}
    assert before < after
    seat = Seat.objects.get(player=early)
    assert seat.seat == 6 and seat.table.seats.count() == 6
    with pytest.raises(services.Refused, match="grace period"):
        services.add_latecomer(heat, late, user=head_judge, now=heat.starts_at + timedelta(minutes=16))
    with pytest.raises(services.Refused, match="needs a reason"):
        services.add_latecomer(
            heat, late, user=head_judge, override=True, now=heat.starts_at + timedelta(minutes=16)
        )
    assert not Seat.objects.filter(player=late).exists()
    services.add_latecomer(
        heat,
        late,
        user=head_judge,
        override=True,
        reason="car trouble",
        now=heat.starts_at + timedelta(minutes=16),
    )
    assert Seat.objects.get(player=late).seat == 6
    assert SeatingAudit.objects.filter(round=heat, action="latecomer", reason="car trouble").exists()
    assert CheckIn.objects.filter(round=heat, player=late).exists()


def test_wbc_trades_by_consent_on_the_database(heat: Any, checked_in: Any, head_judge: Any) -> None:
    checked_in(6)
    plan = services.seat_round(heat, user=head_judge, seed=4)
    a, b = plan.tables[0].seats[0], plan.tables[0].seats[1]
    with pytest.raises(services.Refused, match="consent"):
        services.trade(heat, a.player, b.player, consenting=[a.player], user=head_judge)
    services.trade(heat, a.player, b.player, consenting=[a.player, b.player], user=head_judge)
    assert Seat.objects.get(round=heat, player_id=a.player).faction == b.faction


def test_final_seated_from_finalists_alternates_fill_picks_in_order(
    tournament: Any, judge_client: Any
) -> None:
    """WBC final: alternates fill empty seats in order; the first qualifier picks first; no faction twice."""
    players = make_players(tournament, 9)
    final = Round.objects.create(tournament=tournament, number=4, kind="final")
    ids = [p.pk for p in players]
    response = judge_client.post(
        f"/api/rounds/{final.pk}/seating/",
        {"players": ids[:6], "alternates": ids[6:], "absent": [ids[2]], "seed": 1},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["pick_order"] == ids[:2] + ids[3:6] + [ids[6]]
    assert sorted(s["player"] for s in body["tables"][0]["seats"]) == sorted(body["pick_order"])
    with pytest.raises(services.Refused, match="turn to pick"):
        services.pick_final_faction(final, ids[1], "fremen", user=None)
    services.pick_final_faction(final, ids[0], "fremen", user=None)
    with pytest.raises(services.Refused, match="Fremen cannot be picked: .* already picked it"):
        services.pick_final_faction(final, ids[1], "fremen", user=None)
    services.pick_final_faction(final, ids[1], "atreides", user=None)
    factions = dict(Seat.objects.filter(round=final).values_list("player_id", "faction"))
    assert factions[ids[0]] == "fremen" and factions[ids[1]] == "atreides"
    assert adapter.final_for(Round.objects.get(pk=final.pk)).picks == (
        (ids[0], "fremen"),
        (ids[1], "atreides"),
    )


def test_heat_seating_refuses_final_and_final_refuses_heat(
    heat: Any, tournament: Any, head_judge: Any
) -> None:
    final = Round.objects.create(tournament=tournament, number=2, kind="final")
    with pytest.raises(services.Refused, match="finalists"):
        services.seat_round(final, user=head_judge)
    with pytest.raises(services.Refused, match="not the final"):
        services.seat_final_round(heat, user=head_judge, finalists=[1])


def test_load_demo_is_repeatable(db: Any, settings: Any, tmp_path: Any) -> None:
    """`make run` loads the demo every time: 47 players, heat 1 played and closed, judges appointed;
    the logins of the first run (kept in var/demo-logins.txt) still work after the second."""
    from io import StringIO

    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tournament.models import Tournament

    settings.VAR_DIR = tmp_path
    first, out = StringIO(), StringIO()
    call_command("load_demo", stdout=first)
    call_command("load_demo", "--no-logins", stdout=out)
    assert "password" not in out.getvalue()
    kept = (tmp_path / "demo-logins.txt").read_text()
    assert kept.rstrip() in first.getvalue()  # what the first run printed
    call_command("load_demo", stdout=out)
    assert kept in out.getvalue()
    head_line = next(line for line in kept.splitlines() if "headjudge" in line)
    assert get_user_model().objects.get(username="headjudge").check_password(head_line.split("password: ")[1])
    tournament = Tournament.objects.get()
    heat = tournament.rounds.get(number=1)
    assert tournament.players.count() == 47 and heat.state == "finished"
    assert sorted(len(_t) for _t in _tables(heat)) == [5] + [6] * 7
    assert heat.tables.filter(judge__isnull=False).count() == 8
    assert "headjudge" in out.getvalue() and "judge8" in out.getvalue()
