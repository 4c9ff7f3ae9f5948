"""An ally's territory: under the LoLV nothing is refused when forces ship or move where an
ally stands; forces that end the shipment-and-movement action there go to the tanks (1.06.06,
4.01.16), with the Polar Sink, advisors and the Ecaz's alliance (2.11.11) excepted. Under WBC
entering an ally's location is refused (WBC IX.2) and tokens that end the turn beside the
ally's for any reason go to the tanks (WBC IX.3); under AH entering is refused (XII.E.5) and
nothing is destroyed. Each test runs under every ruleset with its own expected answer."""

from __future__ import annotations

import pytest

from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import ALL_RULESETS, started, to_phase

#: The rule that sends the tokens beside an ally to the tanks: WBC IX.3, LoLV 1.06.06; the AH
#: text has none (AH XII.E.5 only forbids entry).
TANKS_RULE = {"ah1979": None, "wbc2018": "WBC IX.3", "lolv-2.8.4": "1.06.06"}


def _movement(ruleset: str, **extra: object) -> Position:
    pos = to_phase(started(ruleset, storm=0, **extra), "shipment_movement")
    return pos.evolve(alliances=(("atreides", "emperor"),))


def _sharing(ruleset: str, **extra: object) -> Position:
    """The Emperor and the Atreides allied while sharing the Great Flat (WBC XII.1)."""
    pos = _movement(ruleset, **extra)
    forces = {
        **pos.forces,
        ("emperor", "the_great_flat", 14): (2, 0, 0),
        ("atreides", "the_great_flat", 14): (1, 0, 0),
    }
    return pos.evolve(forces=forces)


SHIP = {"type": "forces_placed", "faction": "emperor", "territory": "arrakeen", "sector": 9, "normal": 3}
ONWARD = {
    "type": "forces_moved",
    "faction": "emperor",
    "from_territory": "the_great_flat",
    "from_sector": 14,
    "to_territory": "funeral_plain",
    "to_sector": 14,
    "normal": 2,
}


@pytest.mark.parametrize(
    ("ruleset", "refusal"),
    # Shipping where an ally stands: refused by AH XII.E.5 (under WBC too: WBC IX.2 only
    # adds passing through); accepted by LoLV 1.06.06 (the forces go to the tanks at the end
    # of the action).
    [("ah1979", "AH XII.E.5"), ("wbc2018", "AH XII.E.5"), ("lolv-2.8.4", None)],
)
def test_1_06_06_lolv_shipping_beside_an_ally_is_accepted_then_sent_to_the_tanks(
    ruleset: str, refusal: str | None
) -> None:
    pos = _movement(ruleset, automatic_losses=True)
    if refusal is not None:
        with pytest.raises(IllegalAction) as info:
            apply(pos, SHIP)
        assert info.value.rule == refusal
        return
    pos = apply(pos, SHIP)
    assert pos.forces[("emperor", "arrakeen", 9)] == (3, 0, 0)
    ended = apply(pos, {"type": "action_ended", "faction": "emperor"})
    assert ("emperor", "arrakeen", 9) not in ended.forces
    assert ended.states["emperor"].tanks == (3, 0)
    assert ended.losses[0][-1] == "1.06.06"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_4_01_16_a_move_onward_ends_the_action_elsewhere(ruleset: str) -> None:
    """LoLV 4.01.16, WBC IX.3: what counts is where the action ends; forces that move on
    from beside the ally lose nothing (nor under AH, which destroys nothing)."""
    pos = apply(_sharing(ruleset, automatic_losses=True), ONWARD)
    pos = to_phase(pos, "battle")
    assert pos.forces[("emperor", "funeral_plain", 14)] == (2, 0, 0)
    assert pos.states["emperor"].tanks == (0, 0)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_4_01_16_the_next_factions_shipment_ends_the_action(ruleset: str) -> None:
    """LoLV 1.06.01, AH IX.C: factions take their shipment and movement in turn, so the next
    faction's shipment closes the previous faction's action (and, under WBC IX.3 and LoLV
    1.06.06, sends its forces beside the ally to the tanks)."""
    pos = _sharing(ruleset, automatic_losses=True)
    pos = apply(
        pos,
        {
            "type": "forces_placed",
            "faction": "emperor",
            "territory": "tueks_sietch",
            "sector": 4,
            "normal": 1,
        },
    )
    nxt = {
        "type": "forces_placed",
        "faction": "harkonnen",
        "territory": "the_great_flat",
        "sector": 14,
        "normal": 1,
    }
    after = apply(pos, nxt)
    if TANKS_RULE[ruleset] is None:
        assert after.forces[("emperor", "the_great_flat", 14)] == (2, 0, 0)
    else:
        assert ("emperor", "the_great_flat", 14) not in after.forces
        assert after.losses[0][-1] == TANKS_RULE[ruleset]


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_06_06_without_automatic_losses_the_judge_removes_them(ruleset: str) -> None:
    pos = apply(_sharing(ruleset), {"type": "action_ended", "faction": "emperor"})
    assert to_phase(pos, "battle").forces[("emperor", "the_great_flat", 14)] == (2, 0, 0)


@pytest.mark.parametrize(
    ("ruleset", "refusal"),
    # Moving into an ally's territory: refused by AH XII.E.5 (WBC IX.2 repeats it and adds
    # passing through, test_rules_1_06_04_force_movement); accepted by LoLV 1.06.06.
    [("ah1979", "AH XII.E.5"), ("wbc2018", "AH XII.E.5"), ("lolv-2.8.4", None)],
)
def test_wbc_ix_2_entering_an_allys_territory_is_refused(ruleset: str, refusal: str | None) -> None:
    pos = _movement(ruleset)
    into = {
        "type": "forces_moved",
        "faction": "atreides",
        "from_territory": "arrakeen",
        "from_sector": 9,
        "to_territory": "old_gap",
        "to_sector": 9,
        "normal": 2,
    }
    pos = pos.evolve(forces={**pos.forces, ("emperor", "old_gap", 9): (1, 0, 0)})
    if refusal is None:
        assert apply(pos, into).forces[("atreides", "old_gap", 9)] == (2, 0, 0)
    else:
        with pytest.raises(IllegalAction) as info:
            apply(pos, into)
        assert info.value.rule == refusal


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_wbc_ix_3_ending_beside_an_ally_for_any_reason_destroys_the_tokens(ruleset: str) -> None:
    """WBC IX.3: a player ending his shipment/movement turn beside his ally's (non-coexisting)
    tokens loses them, however they came together (here: allied while sharing the Great
    Flat, WBC XII.1); LoLV 1.06.06 likewise; AH XII.E.5 only forbids entry, so nothing is
    destroyed in the 1979 text."""
    pos = apply(
        _sharing(ruleset, automatic_losses=True),
        {
            "type": "forces_placed",
            "faction": "emperor",
            "territory": "tueks_sietch",
            "sector": 4,
            "normal": 1,
        },
    )
    ended = apply(pos, {"type": "action_ended", "faction": "emperor"})
    if TANKS_RULE[ruleset] is None:
        assert ended.forces[("emperor", "the_great_flat", 14)] == (2, 0, 0)
    else:
        assert ("emperor", "the_great_flat", 14) not in ended.forces
        assert ended.losses[0][-1] == TANKS_RULE[ruleset]
    assert ("atreides", "the_great_flat", 14) in ended.forces
