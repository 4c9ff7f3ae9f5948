"""Every refusal and issue of the planner names players by display name and factions as the
platform names them (CHOAM, Bene Gesserit); the ids stay in the refusal's ``offending``."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest

from dune.engine.ids import CLASSIC_FACTIONS
from dune.engine.names import faction_name
from dune.seating import (
    KeepApart,
    PlannedSeat,
    PlannedTable,
    SeatingPlan,
    SeatingRequest,
    SeatingUserError,
    plan_seating,
    player_name,
    validate_tables,
)
from dune.seating_changes import (
    record_final_pick,
    record_lolv_choice,
    seat_final,
    seat_latecomer,
    swap_players,
    take_undrawn_faction,
    trade_factions,
)

from .helpers import past_round, plan, shape

FIRST = ("Alia", "Bijaz", "Chani", "Duncan", "Esmar", "Feyd", "Gurney", "Hwi", "Irulan", "Jamis", "Korba", "Liet")
#: Display names for players 1..12, and 40 (registered, but not in the round).
NAMES = {i: f"{name} of Arrakis" for i, name in enumerate(FIRST, start=1)} | {40: "Leto Okafor"}
#: A player named by id: "player 12", "player #12", "players 3 and 5".
BY_ID = re.compile(r"players? #?\d")


def refused(call: Callable[[], object]) -> SeatingUserError:
    with pytest.raises(SeatingUserError) as info:
        call()
    return info.value


def says(error: SeatingUserError, *players: int, factions: tuple[str, ...] = ()) -> None:
    """The message names each player and faction by display name and nobody by id."""
    for p in players:
        assert NAMES[p] in error.message, error.message
    for f in factions:
        assert faction_name(f) in error.message, error.message
    assert not BY_ID.search(error.message), error.message
    assert str(error) == f"{error.rule}: {error.message}"


def named(count: int, **options: object) -> SeatingPlan:
    return plan(count, names=NAMES, **options)


def lolv_table(dealt: tuple[tuple[str, str], ...]) -> SeatingPlan:
    """A LoLV plan of one table, players 1.. with the given dealt cards and nothing kept yet."""
    seats = tuple(PlannedSeat(player=i, seat=i, faction=None, dealt=d) for i, d in enumerate(dealt, start=1))
    request = SeatingRequest(players=tuple(range(1, len(dealt) + 1)), format="lolv", seed=1, names=NAMES)
    return SeatingPlan(request=request, tables=(PlannedTable(number=1, seats=seats),))


# ------------------------------------------------------------------ names are words, not data


def test_names_change_no_plan_and_requests_differ_only_in_words() -> None:
    """The names are for messages: the same seed seats the same tables with or without them."""
    assert shape(named(17, seed=4)) == shape(plan(17, seed=4))
    assert named(17, seed=4).request == plan(17, seed=4).request


def test_a_player_without_a_name_is_named_by_id_marked_as_one() -> None:
    assert player_name(12, {12: "Chani Kynes"}) == "Chani Kynes"
    assert player_name(12, {}) == "player #12"
    assert player_name(12, {12: ""}) == "player #12"


# ------------------------------------------------------------------ the draw


def test_a_player_listed_twice_is_named() -> None:
    error = refused(lambda: plan_seating(SeatingRequest(players=(1, 2, 3, 3, 4), format="wbc", seed=1, names=NAMES)))
    says(error, 3)
    assert error.message == "Chani of Arrakis is listed twice" and error.offending == 3


def test_a_player_at_two_tables_of_an_earlier_round_is_named() -> None:
    history = past_round(1, [[1, 2, 3, 4, 5], [5, 6, 7, 8, 9, 10]])
    error = refused(lambda: named(10, history=history))
    says(error, 5)
    assert error.offending == 5


def test_tables_seating_a_player_twice_name_them() -> None:
    tables = (
        PlannedTable(number=1, seats=(PlannedSeat(1, 1, "fremen", ("fremen",)),)),
        PlannedTable(number=2, seats=(PlannedSeat(1, 1, "guild", ("guild",)),)),
    )
    error = refused(lambda: validate_tables(tables, NAMES))
    says(error, 1)
    assert error.message == "Alia of Arrakis is seated at table 1 and table 2"


def test_0_08_a_faction_twice_at_a_table_is_named_as_the_platform_names_it() -> None:
    table = PlannedTable(
        number=3,
        seats=(PlannedSeat(1, 1, None, ("fremen", "choam")), PlannedSeat(2, 2, None, ("guild", "choam"))),
    )
    error = refused(lambda: validate_tables([table], NAMES))
    says(error)
    assert error.message == "table 3 has a faction twice: CHOAM"


def test_issues_name_the_players_and_factions() -> None:
    """Repeat opponents, keep-apart requests and faction repeats are reported by name."""
    forced = named(6, history=past_round(1, [[1, 2, 3, 4, 5, 6]]), keep_apart=(KeepApart(frozenset({1, 2})),))
    messages = {i.code: i.message for i in forced.issues if i.players == (1, 2)}
    assert messages["repeat_opponent_unavoidable"] == "Alia of Arrakis and Bijaz of Arrakis already met once and share table 1"
    assert messages["keep_apart_violated"] == (
        "Alia of Arrakis and Bijaz of Arrakis asked to be kept apart (request) but share table 1"
    )
    every = tuple(
        t
        for r in range(6)
        for t in past_round(r + 1, [[1, 2, 3, 4, 5, 6]], {p: CLASSIC_FACTIONS[(p + r) % 6] for p in range(1, 7)})
    )
    again = named(6, seed=3, history=every)
    repeats = [i for i in again.issues if i.code == "faction_repeat_unavoidable"]
    assert len(repeats) == 6
    for issue in repeats:
        (player,) = issue.players
        (seat,) = (s for s in again.tables[0].seats if s.player == player)
        assert issue.message == (
            f"{NAMES[player]} already played {faction_name(seat.faction or '')} and gets it again at table 1"
        )
    for issue in forced.issues + again.issues:
        assert not BY_ID.search(issue.message), issue.message
        assert "_" not in issue.message  # no faction id such as bene_gesserit


# ------------------------------------------------------------------ WBC trades


def test_wbc_trade_refusals_name_the_players() -> None:
    """WBC house rules: a trade is between two players at one table who both consent."""
    before = named(11, seed=3)
    a, b = before.tables[0].players[:2]
    c = before.tables[1].players[0]
    says(refused(lambda: trade_factions(before, a, a, consenting={a})), a)
    says(refused(lambda: trade_factions(before, a, c, consenting={a, c})), a, c)
    missing = refused(lambda: trade_factions(before, a, b, consenting={a}))
    says(missing, b)
    assert missing.message.endswith(f"{NAMES[b]} has not consented")
    assert missing.field == "consenting" and missing.offending == [b]
    both = refused(lambda: trade_factions(before, a, b, consenting=()))
    assert both.message.endswith(f"{NAMES[min(a, b)]} and {NAMES[max(a, b)]} have not consented")
    says(refused(lambda: trade_factions(before, a, 40, consenting={a, 40})), 40)


def test_wbc_undrawn_faction_refusals_name_players_and_factions() -> None:
    before = named(11, seed=3)
    five = next(t for t in before.tables if len(t.seats) == 5)
    six = next(t for t in before.tables if len(t.seats) == 6)
    (undrawn,) = five.undrawn
    not_here = refused(lambda: take_undrawn_faction(before, six.players[0], undrawn, consenting=six.players))
    says(not_here, factions=(undrawn,))
    assert not_here.message == f"{faction_name(undrawn)} is not undrawn at table {six.number}; undrawn there: none"
    assert not_here.field == "faction" and not_here.offending == undrawn
    holdout = five.players[4]
    missing = refused(lambda: take_undrawn_faction(before, five.players[0], undrawn, consenting=five.players[:4]))
    says(missing, holdout)
    assert missing.offending == [holdout]


# ------------------------------------------------------------------ LoLV kept cards


def test_0_08_a_card_not_dealt_names_the_player_and_the_cards() -> None:
    """LoLV 0.08: the kept card is one of the two dealt; the refusal names both, as printed."""
    before = lolv_table((("bene_gesserit", "choam"), ("fremen", "tleilaxu")))
    error = refused(lambda: record_lolv_choice(before, 1, "atreides"))
    says(error, 1, factions=("bene_gesserit", "choam", "atreides"))
    assert error.message == (
        "Alia of Arrakis (table 1) was dealt Bene Gesserit and CHOAM; Atreides is not one of them"
    )
    assert error.rule == "LoLV 0.08" and error.field == "faction" and error.offending == "atreides"
    unseated = refused(lambda: record_lolv_choice(before, 40, "fremen"))
    assert unseated.message == "Leto Okafor has no seat in this round" and unseated.offending == 40


# ------------------------------------------------------------------ latecomers and swaps


def test_latecomer_refusals_name_the_latecomer() -> None:
    """WBC 2018 format: 15-minute grace period; no seat at a full table."""
    eleven = named(11, seed=6)
    says(refused(lambda: seat_latecomer(eleven, 3, late_by=timedelta(0))), 3)
    late = refused(lambda: seat_latecomer(eleven, 40, late_by=timedelta(minutes=20)))
    says(late, 40)
    assert late.message.startswith("Leto Okafor arrived 20 minutes after the start")
    full = refused(lambda: seat_latecomer(named(12, seed=6), 40, late_by=timedelta(0)))
    says(full, 40)


def test_swap_refusals_name_the_players() -> None:
    before = named(12, seed=5)
    mate = next(p for p in before.table_of(1).players if p != 1)
    self_swap = refused(lambda: swap_players(before, 1, 1))
    assert self_swap.message == "cannot swap Alia of Arrakis with themselves"
    says(refused(lambda: swap_players(before, 1, 40)), 40)
    says(refused(lambda: swap_players(before, 1, mate)), 1, mate)
    waiting = named(8, seed=5, small_tables="wait:2")
    first, second = waiting.waiting
    both = refused(lambda: swap_players(waiting, first, second))
    says(both, first, second)
    assert both.offending == (first, second)


# ------------------------------------------------------------------ the final


def test_final_refusals_name_the_finalists() -> None:
    """WBC 2018 format, final round faction assignment: qualifying order, no faction twice."""
    duplicate = refused(lambda: seat_final([1, 2, 3, 4, 5, 6], format="wbc", seed=1, alternates=[3], names=NAMES))
    says(duplicate, 3)
    short = refused(lambda: seat_final([1, 2, 3, 4, 5, 6], format="wbc", seed=1, absent={2}, names=NAMES))
    says(short, 1, 3, 4, 5, 6)
    final = record_final_pick(seat_final([1, 2, 3, 4, 5, 6], format="wbc", seed=1, names=NAMES), 1, "fremen")
    turn = refused(lambda: record_final_pick(final, 3, "atreides"))
    assert turn.message == "it is Bijaz of Arrakis's turn to pick, not Chani of Arrakis's"
    assert turn.offending == 3
    taken = refused(lambda: record_final_pick(final, 2, "fremen"))
    says(taken, 1, factions=("fremen", "atreides", "bene_gesserit"))
    assert taken.message.startswith("Fremen cannot be picked: Alia of Arrakis already picked it; still free: ")
    assert taken.field == "faction" and taken.offending == "fremen"
    outside = refused(lambda: record_final_pick(final, 2, "choam"))
    assert outside.message.startswith("CHOAM cannot be picked: it is not played in the WBC Dune final")


def test_seat_numbers_out_of_order_are_listed_in_words() -> None:
    seats = tuple(PlannedSeat(player=p, seat=s, faction=None, dealt=()) for p, s in ((1, 1), (2, 3), (3, 2)))
    with pytest.raises(SeatingUserError) as err:
        validate_tables([PlannedTable(number=4, seats=seats)])
    assert err.value.message == "table 4 seats are numbered 1, 3 and 2, not 1 to 3"
