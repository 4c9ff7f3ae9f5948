"""WBC trades, LoLV kept cards (0.08) and the final's faction picks."""

from __future__ import annotations

import pytest

from dune.engine.ids import CLASSIC_FACTIONS, FACTIONS
from dune.seating import DuplicatePlayer, SeatingUserError, UnknownPlayer
from dune.seating_changes import (
    PickRefused,
    TradeRefused,
    available_final_factions,
    next_final_picker,
    record_final_pick,
    record_lolv_choice,
    seat_final,
    take_undrawn_faction,
    trade_factions,
)

from .helpers import plan


def _faction(result, player):  # type: ignore[no-untyped-def]
    return next(s.faction for t in result.tables for s in t.seats if s.player == player)


def test_wbc_trade_by_mutual_consent_swaps_factions() -> None:
    """WBC house rules: two players at a table may trade their drawn factions if both consent."""
    before = plan(11, seed=3)
    a, b = before.tables[0].players[:2]
    after = trade_factions(before, a, b, consenting={a, b})
    assert (_faction(after, a), _faction(after, b)) == (_faction(before, b), _faction(before, a))
    assert "faction_traded" in after.flags
    seat = next(s for s in after.tables[0].seats if s.player == a)
    assert seat.dealt == (_faction(before, a),)  # the draw stays on record


def test_wbc_trade_without_both_consents_refused() -> None:
    before = plan(11, seed=3)
    a, b = before.tables[0].players[:2]
    with pytest.raises(TradeRefused, match=rf"WBC 2018 house rules.*consent; player #{b} has not consented"):
        trade_factions(before, a, b, consenting={a})


def test_wbc_trade_across_tables_refused() -> None:
    before = plan(11, seed=3)
    a, b = before.tables[0].players[0], before.tables[1].players[0]
    with pytest.raises(TradeRefused, match="different tables"):
        trade_factions(before, a, b, consenting={a, b})
    with pytest.raises(UnknownPlayer, match="player #99 has no seat"):
        trade_factions(before, a, 99, consenting={a, 99})


def test_wbc_undrawn_faction_needs_everyone_at_the_table() -> None:
    """WBC house rules: at fewer than six, a trade for the undrawn faction needs all players' consent."""
    before = plan(11, seed=3)
    five = next(t for t in before.tables if len(t.seats) == 5)
    (undrawn,) = five.undrawn
    player = five.players[2]
    with pytest.raises(TradeRefused, match="needs every player"):
        take_undrawn_faction(before, player, undrawn, consenting=five.players[:4])
    after = take_undrawn_faction(before, player, undrawn, consenting=five.players)
    assert _faction(after, player) == undrawn
    table = after.table_of(player)
    assert table.undrawn == (_faction(before, player),)
    assert sorted([s.faction for s in table.seats] + list(table.undrawn)) == sorted(CLASSIC_FACTIONS)
    six = next(t for t in before.tables if len(t.seats) == 6)
    with pytest.raises(TradeRefused, match="is not undrawn"):
        take_undrawn_faction(before, six.players[0], undrawn, consenting=six.players)


def test_0_08_lolv_no_trades_player_keeps_a_dealt_card() -> None:
    """LoLV 0.08: each player keeps one of the two cards dealt; keeping another faction is refused."""
    before = plan(6, seed=2, format="lolv")
    seat = before.tables[0].seats[0]
    with pytest.raises(TradeRefused, match="LoLV 0.08"):
        trade_factions(
            before, seat.player, before.tables[0].seats[1].player, consenting=before.tables[0].players
        )
    other = next(f for f in FACTIONS if f not in seat.dealt)
    with pytest.raises(TradeRefused, match=rf"LoLV 0.08: player #{seat.player} \(table 1\) was dealt"):
        record_lolv_choice(before, seat.player, other)
    with pytest.raises(TradeRefused, match="Spacing Guild is not one of them"):
        record_lolv_choice(before, seat.player, "spacing_guild")
    with pytest.raises(TradeRefused, match="no card is not one of them"):
        record_lolv_choice(before, seat.player, "")
    after = record_lolv_choice(before, seat.player, seat.dealt[1])
    assert _faction(after, seat.player) == seat.dealt[1]
    assert before.tables[0].seats[0].faction is None  # the input plan is untouched
    with pytest.raises(TradeRefused, match="WBC"):
        record_lolv_choice(plan(6, seed=2), seat.player, seat.dealt[0])


# ------------------------------------------------------------------ the final


def test_final_pick_order_is_qualifying_order_alternates_fill_in_order() -> None:
    """WBC final round faction assignment: first qualifier picks first; alternates fill empty seats in order."""
    final = seat_final(
        [11, 12, 13, 14, 15, 16], format="wbc", seed=4, alternates=[21, 22, 23], absent={13, 15}
    )
    assert final.pick_order == (11, 12, 14, 16, 21, 22)
    assert final.alternates_seated == (21, 22)
    assert sorted(final.table.players) == [11, 12, 14, 16, 21, 22]
    assert [s.seat for s in final.table.seats] == [1, 2, 3, 4, 5, 6]
    assert (
        seat_final([11, 12, 13, 14, 15, 16], format="wbc", seed=4, alternates=[21, 22, 23], absent={13, 15})
        == final
    )


def test_final_picks_walk_the_qualifying_order_no_faction_twice() -> None:
    """Each finalist picks from what is left, in qualifying order; a taken faction is refused."""
    final = seat_final([1, 2, 3, 4, 5, 6], format="wbc", seed=1)
    assert next_final_picker(final) == 1
    final = record_final_pick(final, 1, "fremen")
    with pytest.raises(PickRefused, match="it is player #2's turn to pick, not player #3's"):
        record_final_pick(final, 3, "atreides")
    with pytest.raises(PickRefused, match="Fremen cannot be picked: player #1 already picked it"):
        record_final_pick(final, 2, "fremen")
    with pytest.raises(PickRefused, match="Ixians cannot be picked: it is not played in the WBC Dune final"):
        record_final_pick(final, 2, "ixians")
    for player, faction in zip(
        [2, 3, 4, 5, 6], ["atreides", "emperor", "guild", "harkonnen", "bene_gesserit"], strict=True
    ):
        assert faction in available_final_factions(final)
        final = record_final_pick(final, player, faction)
    assert next_final_picker(final) is None
    assert sorted(s.faction for s in final.table.seats if s.faction) == sorted(CLASSIC_FACTIONS)
    with pytest.raises(PickRefused, match="already picked"):
        record_final_pick(final, 1, "fremen")


def test_lolv_final_picks_from_all_twelve_factions() -> None:
    final = seat_final([1, 2, 3, 4, 5, 6], format="lolv", seed=1)
    assert available_final_factions(final) == FACTIONS
    left = available_final_factions(record_final_pick(final, 1, "ixians"))
    assert len(left) == 11 and "ixians" not in left


def test_final_bad_input() -> None:
    with pytest.raises(DuplicatePlayer, match="player #3 is listed twice"):
        seat_final([1, 2, 3, 4, 5, 6], format="wbc", seed=1, alternates=[3])
    with pytest.raises(SeatingUserError, match="the final has 6 seats but only 5 finalists and alternates are present"):
        seat_final([1, 2, 3, 4, 5, 6], format="wbc", seed=1, absent={2})
    with pytest.raises(ValueError, match="unknown format"):
        seat_final([1, 2, 3, 4, 5, 6], format="dip", seed=1)
