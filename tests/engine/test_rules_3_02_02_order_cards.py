"""Cards that change who goes when in storm order (`order_card_played`): Juice of Sappho puts a
faction first or last, even before or after the Guild (LoLV 3.02.02.02-03), or makes it the
aggressor in a battle (3.02.02.01); a Karama card forces the Guild to take its turn in storm
order (WBC Player Aid 19; the 1979 text has no Karama card and its WBC clarification is cited
for it; LoLV 3.01.11.02 against Ship As It Pleases You, 2.06.12, marked * before and after).

With the storm on sector 0 and the markers on the dots 1, 4, ... in seat order, the storm order
is Atreides, Bene Gesserit, Emperor, Fremen, Harkonnen, Guild.
"""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.errors import IllegalAction, InvalidEvent, InvalidPosition, WrongPhase
from dune.engine.events import event_from_dict
from dune.engine.game_log import apply
from dune.engine.position import Position
from dune.engine.storm import played_order

from .helpers import AH_WBC, ALL_RULESETS, LOLV, at, snap, started, to_phase

KARAMA_RULE = {"ah1979": "WBC Player Aid 19", "wbc2018": "WBC Player Aid 19", LOLV: "3.01.11.02"}
ORDER_RULE = {"ah1979": "AH IX.C", "wbc2018": "WBC IX.1", LOLV: "1.06.01"}
BG = "bene_gesserit"


def _movement(ruleset: str, **setup: Any) -> Position:
    return to_phase(started(ruleset, **setup), "shipment_movement")


def _ship(faction: str, territory: str, sector: int | None, normal: int = 1) -> dict[str, Any]:
    return {"type": "forces_placed", "faction": faction, "territory": territory, "sector": sector, "normal": normal}


def _card(faction: str, order_card: str, place: str, **kw: Any) -> dict[str, Any]:
    return {"type": "order_card_played", "faction": faction, "order_card": order_card, "place": place, **kw}


def _refused(pos: Position, event: dict[str, Any]) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        apply(pos, event)
    return info.value


# --- Juice of Sappho (LoLV 3.02.02) ----------------------------------------------------------


def test_3_02_02_02_juice_of_sappho_goes_first_even_before_the_guild() -> None:
    pos = apply(_movement(LOLV), _card("harkonnen", "juice_of_sappho", "first"))
    assert played_order(pos)[0] == "harkonnen"
    # The Guild may not go ahead of the faction that plays the card to go first.
    refusal = _refused(pos, _ship("guild", "arrakeen", 9))
    assert refusal.rule == "3.02.02.02" and refusal.field == "faction"
    assert "Harkonnen played Juice of Sappho" in refusal.message
    # The Harkonnen go first; then the Atreides, first in storm order, as usual.
    pos = apply(pos, _ship("harkonnen", "tueks_sietch", 4))
    pos = apply(pos, _ship("atreides", "carthag", 10))
    assert pos.acted == frozenset({"harkonnen"})
    assert _refused(pos, _ship("harkonnen", "carthag", 10)).rule == "1.06.01"
    # Once the Harkonnen have gone, the Guild may go out of turn again.
    assert apply(pos, _ship("guild", "arrakeen", 9)).acting == "guild"


def test_3_02_02_02_nobody_goes_first_once_a_faction_has_begun() -> None:
    pos = apply(_movement(LOLV), _ship("atreides", "carthag", 10))
    refusal = _refused(pos, _card("harkonnen", "juice_of_sappho", "first"))
    assert refusal.rule == "3.02.02.02" and refusal.field == "place"
    pos = apply(_movement(LOLV), _card("harkonnen", "juice_of_sappho", "first"))
    assert _refused(pos, _card("emperor", "juice_of_sappho", "first")).rule == "3.02.02.02"


def test_3_02_02_03_juice_of_sappho_goes_last_even_after_the_guild() -> None:
    pos = apply(_movement(LOLV), _card("atreides", "juice_of_sappho", "last"))
    assert played_order(pos)[-1] == "atreides"
    # The Bene Gesserit, now first, ships: the Atreides have not passed.
    pos = apply(pos, _ship(BG, "polar_sink", None))
    assert "atreides" not in pos.acted
    for f, where in (("emperor", ("carthag", 10)), ("fremen", ("the_great_flat", 14)), ("harkonnen", ("tueks_sietch", 4))):
        pos = apply(pos, _ship(f, *where))
    # The Atreides go last: the Guild, still waiting, may not go after them.
    pos = apply(pos, _ship("atreides", "arrakeen", 9))
    assert "guild" in pos.acted
    refusal = _refused(pos, _ship("guild", "arrakeen", 9))
    assert refusal.rule == "3.02.02.03" and "Atreides played Juice of Sappho to go last" in refusal.message


def test_3_02_02_03_last_only_before_ones_own_turn_is_over() -> None:
    pos = apply(_movement(LOLV), _ship("atreides", "carthag", 10))
    refusal = _refused(pos, _card("atreides", "juice_of_sappho", "last"))
    assert refusal.rule == "3.02.02.03" and "Atreides has already had its turn" in refusal.message


def test_3_02_02_01_juice_of_sappho_makes_its_player_the_aggressor() -> None:
    forces = [at("atreides", "arrakeen", 5), at("harkonnen", "arrakeen", 4)]
    per_faction = {f: {"spice": 10, "cards": 2, "reserves": 20 - n - 5, "tanks": 5} for f, n in (("atreides", 5), ("harkonnen", 4))}
    pos = load_position(snap(LOLV, forces=forces, phase="battle", per_faction=per_faction))
    plans = (
        {"faction": "harkonnen", "dial": 0, "spice": 0, "leader": "umman_kudu"},
        {"faction": "atreides", "dial": 1, "spice": 1, "leader": "gurney_halleck"},
    )
    battle = {"type": "battle", "territory": "arrakeen", "aggressor": plans[0], "defender": plans[1]}
    assert _refused(pos, battle).rule == "1.07.02"  # storm order: the Atreides are the aggressor
    # Played for another territory, the card changes nothing here.
    elsewhere = apply(pos, _card("harkonnen", "juice_of_sappho", "aggressor", territory="carthag"))
    assert _refused(elsewhere, battle).rule == "1.07.02"
    sappho = apply(pos, _card("harkonnen", "juice_of_sappho", "aggressor", territory="arrakeen"))
    assert apply(sappho, battle).seq == sappho.seq + 1
    swapped = {**battle, "aggressor": plans[1], "defender": plans[0]}
    refusal = _refused(sappho, swapped)
    assert refusal.rule == "3.02.02.01" and refusal.field == "aggressor.faction"
    # The card's place survives a snapshot and lapses with the phase.
    assert load_position(dump_position(sappho)).order_cards == {"aggressor@arrakeen": "harkonnen"}
    assert to_phase(sappho, "spice_collection").order_cards == {}
    moving = _movement(LOLV)
    refusal = _refused(moving, _card("harkonnen", "juice_of_sappho", "aggressor", territory="arrakeen"))
    assert refusal.rule == "3.02.02.01"


@pytest.mark.parametrize("ruleset", AH_WBC)
def test_ah_ii_d_wbc_rule_set_no_juice_of_sappho(ruleset: str) -> None:
    """The 1979 deck holds no Juice of Sappho (AH II.D); the WBC plays no expansion cards."""
    refusal = _refused(_movement(ruleset), _card("harkonnen", "juice_of_sappho", "first"))
    assert refusal.rule == {"ah1979": "AH II.D", "wbc2018": "WBC Rule Set (no expansion cards)"}[ruleset]
    assert refusal.field == "order_card"


def test_order_card_fields_are_checked() -> None:
    with pytest.raises(InvalidEvent):
        event_from_dict(_card("harkonnen", "hajr", "first"))
    with pytest.raises(InvalidEvent):
        event_from_dict(_card("harkonnen", "juice_of_sappho", "middle"))
    refusal = _refused(_movement(LOLV), _card("harkonnen", "juice_of_sappho", "guild_in_order"))
    assert refusal.rule == "3.02.02"
    refusal = _refused(_movement(LOLV), _card("harkonnen", "karama", "first"))
    assert refusal.rule == "3.01.11.02"


# --- a Karama card forces the Guild into storm order ------------------------------------------


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_wbc_player_aid_19_karama_forces_the_guild_into_order(ruleset: str) -> None:
    pos = apply(_movement(ruleset), _card("atreides", "karama", "guild_in_order"))
    assert pos.order_cards == {"guild_in_order": "atreides"}
    # The Guild may no longer go ahead of the Harkonnen, before it in storm order.
    pos = apply(pos, _ship("guild", "arrakeen", 9))
    assert pos.acted == frozenset({"atreides", BG, "emperor", "fremen", "harkonnen"})
    refusal = _refused(pos, _ship("harkonnen", "tueks_sietch", 4))
    assert refusal.rule == ORDER_RULE[ruleset]
    # Nor wait past its place: once the Harkonnen begin, the Guild's turn comes next.
    pos = apply(_movement(ruleset), _card("emperor", "karama", "guild_in_order"))
    pos = apply(pos, _ship("harkonnen", "tueks_sietch", 4))
    pos = apply(pos, _ship("guild", "arrakeen", 9))
    assert pos.acting == "guild"
    # The Karama lapses with the phase.
    assert to_phase(pos, "battle").order_cards == {}


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_wbc_player_aid_19_karama_only_before_the_guilds_turn(ruleset: str) -> None:
    """Played in the movement round, before the faction after the Guild has begun (WBC Player
    Aid 19); under the LoLV before the Guild uses its ability (3.01.11.02)."""
    went = apply(_movement(ruleset), _ship("guild", "arrakeen", 9))
    refusal = _refused(went, _card("atreides", "karama", "guild_in_order"))
    assert refusal.rule == KARAMA_RULE[ruleset] and "Guild has already had its turn" in refusal.message
    once = apply(_movement(ruleset), _card("atreides", "karama", "guild_in_order"))
    assert _refused(once, _card("emperor", "karama", "guild_in_order")).rule == KARAMA_RULE[ruleset]
    with pytest.raises(WrongPhase) as info:
        apply(to_phase(started(ruleset), "bidding"), _card("atreides", "karama", "guild_in_order"))
    assert info.value.rule == KARAMA_RULE[ruleset]


def test_wbc_player_aid_19_not_once_the_faction_after_the_guild_has_begun() -> None:
    """With the storm on sector 14 the order is Guild (16), Atreides (1), ...: once the
    Atreides have begun, the Guild is holding its turn and no Karama forces it back."""
    pos = to_phase(started("wbc2018", storm=14), "shipment_movement")
    pos = apply(pos, _ship("atreides", "carthag", 10))
    refusal = _refused(pos, _card("emperor", "karama", "guild_in_order"))
    assert refusal.rule == "WBC Player Aid 19" and "Atreides, after the Guild in storm order" in refusal.message


def test_2_06_00_lolv_basic_guild_has_no_ability_to_cancel() -> None:
    refusal = _refused(_movement(LOLV, options=[]), _card("atreides", "karama", "guild_in_order"))
    assert refusal.rule == "2.06.00"


def test_order_cards_snapshot_is_checked() -> None:
    data = snap(LOLV, phase="shipment_movement", order_cards={"first": "harkonnen", "guild_in_order": "atreides"})
    assert load_position(data).order_cards == {"first": "harkonnen", "guild_in_order": "atreides"}
    with pytest.raises(InvalidPosition):
        load_position({**data, "order_cards": {"middle": "harkonnen"}})


@pytest.mark.parametrize("ruleset", AH_WBC)
def test_ah_ii_d_no_juice_of_sappho_in_a_position(ruleset: str) -> None:
    data = snap(ruleset, phase="shipment_movement", order_cards={"first": "harkonnen"})
    with pytest.raises(InvalidPosition) as err:
        load_position(data)
    assert err.value.rule == {"ah1979": "AH II.D", "wbc2018": "WBC Rule Set (no expansion cards)"}[ruleset]
    forced = load_position(snap(ruleset, phase="shipment_movement", order_cards={"guild_in_order": "atreides"}))
    assert forced.order_cards == {"guild_in_order": "atreides"}
