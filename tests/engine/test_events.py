"""Events: one round trip per event type (dict and repr), and refusals of bad dicts."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dune.engine import events as ev
from dune.engine.errors import InvalidEvent, RuleViolation, UnknownIdentifier
from dune.engine.events import EVENT_TYPES, SCHEMA_VERSION, event_from_dict

SAMPLES: dict[str, ev.Event] = {
    "game_setup": ev.GameSetup(
        ruleset="wbc2018",
        factions=("atreides", "fremen"),
        markers=(("atreides", 1), ("fremen", 4)),
        seed=7,
        turns=15,
        options=(),
        placements=(ev.ForcesAt("fremen", "sietch_tabr", 13, 7, 3, 0),),
        bg_prediction=None,
        storm=5,
        quick=True,
        automatic_losses=True,
    ),
    "bg_prediction_made": ev.BgPredictionMade(faction="harkonnen", turn=5),
    "bg_prediction_revealed": ev.BgPredictionRevealed(),
    "storm_placed": ev.StormPlaced(sector=11),
    "storm_moved": ev.StormMoved(sectors=4),
    "worm": ev.Worm(territory="the_great_flat", karama=True),
    "family_atomics": ev.FamilyAtomics(faction="atreides"),
    "alliance_formed": ev.AllianceFormed(factions=("atreides", "fremen"), how="moritani"),
    "alliance_broken": ev.AllianceBroken(faction="fremen"),
    "forces_placed": ev.ForcesPlaced("bene_gesserit", "carthag", 10, 0, 0, 1, "reserves", True, 3),
    "forces_moved": ev.ForcesMoved("emperor", "arrakeen", 9, "old_gap", 8, 3, 2, 0),
    "forces_removed": ev.ForcesRemoved("guild", "tueks_sietch", 4, 2, 0, 0, "reserves"),
    "forces_revived": ev.ForcesRevived(faction="emperor", normal=2, special=1, karama=True),
    "forces_flipped": ev.FlipForces(territory="polar_sink", sector=None, side="advisors", count=1),
    "coexistence_declared": ev.CoexistenceDeclared(territory="carthag", coexisting=False),
    "spice_set": ev.SpiceSet(faction="guild", amount=12),
    "spice_changed": ev.SpiceChanged(faction="guild", delta=-3),
    "cards_set": ev.CardsSet(faction="harkonnen", count=2, names=("Lasgun", "Karama"), karama=True),
    "leader_changed": ev.LeaderChanged(
        faction="atreides", leader="duncan_idaho", status="captured", captor="harkonnen"
    ),
    "phase_advanced": ev.PhaseAdvanced(phase="battle"),
    "turn_advanced": ev.TurnAdvanced(turn=4),
    "quick_record": ev.QuickRecord(
        occupants=(("carthag", ("harkonnen", "bene_gesserit")), ("shield_wall@8", ("emperor",))),
        coexisting=("carthag",),
        storm=3,
        worms=4,
    ),
    "win_attempt_confirmed": ev.WinAttemptConfirmed(factions=("atreides", "fremen"), note="Carthag open"),
    "victory_claimed": ev.VictoryClaimed(winners=("harkonnen",), kind="solo_stronghold"),
    "last_turn_ended": ev.LastTurnEnded(),
    "concession": ev.Concession(to_factions=("emperor", "harkonnen"), unanimous=True),
    "time_up": ev.TimeUp(clock="wbc_heat"),
    "default_action": ev.DefaultAction(faction="emperor", action="battle_plan"),
    "diplomacy_chip_used": ev.DiplomacyChipUsed(faction="emperor"),
    "dropout": ev.Dropout(faction="guild", reason="left for another event"),
    "die_rolled": ev.DieRolled(die=(("atreides", 6), ("guild", 2))),
    "adjudication_confirmed": ev.AdjudicationConfirmed(winners=("atreides",), override_reason=None),
    "game_ended": ev.GameEnded(reason="turn limit"),
    "void": ev.Void(seq=12, reason="wrong territory"),
    "inflation_placed": ev.InflationPlaced(face="double"),
    "insert": ev.Insert(
        before=9,
        event=ev.ForcesMoved(faction="fremen", from_territory="the_great_flat", from_sector=14,
                             to_territory="funeral_plain", to_sector=14, normal=2),
        reason="entered late",
    ),
    "hms_moved": ev.HmsMoved(territory="the_great_flat", sector=14),
    "no_field_placed": ev.NoFieldPlaced(territory="carthag", sector=10),
    "no_field_revealed": ev.NoFieldRevealed(normal=3),
    "terror_placed": ev.TerrorPlaced(territory="carthag", from_territory="arrakeen"),
    "terror_revealed": ev.TerrorRevealed(territory="carthag", effect="atomics"),
    "ambassador_placed": ev.AmbassadorPlaced(territory="tueks_sietch", ambassador="fremen"),
    "ambassador_removed": ev.AmbassadorRemoved(territory="tueks_sietch"),
    "ambassador_supply_set": ev.AmbassadorSupplySet(
        supply=("ecaz", "fremen"), set_aside=("guild",), out_of_game=("bene_gesserit",)
    ),
    "ambassadors_drawn": ev.AmbassadorsDrawn(ambassadors=("atreides", "emperor", "fremen", "guild", "ixians")),
    "duke_vidal": ev.DukeVidal(holder="moritani"),
    "spice_in_front": ev.SpiceInFront(faction="guild", delta=4, from_faction="atreides"),
    "action_ended": ev.ActionEnded(faction="guild"),
    "order_card_played": ev.OrderCardPlayed(faction="harkonnen", order_card="juice_of_sappho", place="aggressor", territory="arrakeen"),
    "loss_corrected": ev.LossCorrected("fremen", "the_great_flat", 14, "storm moved 3, not 4", 2, 1, 0),
    "spice_blow": ev.SpiceBlow("the_great_flat"),
    "spice_collected": ev.SpiceCollected("fremen", "the_great_flat", 4),
    "battle": ev.Battle(
        "arrakeen",
        ev.BattlePlan("atreides", 2.5, leader="thufir_hawat", weapon="crysknife", spice=2, kwisatz_haderach=True),
        ev.BattlePlan("harkonnen", 3, leader="lady_jessica", leader_of="atreides", traitor=True, discard=("shield",)),
        ev.Capture("atreides", "duncan_idaho", kill=True),
    ),
    "board_spice_set": ev.BoardSpiceSet("the_great_flat", 10, "the storm stopped one sector short"),
    "card_bought": ev.CardBought("harkonnen", 3, ally_paid=1),
    "charity_collected": ev.CharityCollected((("atreides", 2), ("bene_gesserit", 2))),
    "spice_harvested": ev.SpiceHarvested((("fremen", "the_great_flat", 4),), (("guild", 1),)),
}


def test_every_event_type_has_a_sample() -> None:
    assert set(SAMPLES) == set(EVENT_TYPES)


@pytest.mark.parametrize("type_name", sorted(EVENT_TYPES))
def test_round_trip(type_name: str) -> None:
    """to_dict -> JSON -> event_from_dict gives an equal event; the repr rebuilds it."""
    event = SAMPLES[type_name]
    assert event.type == type_name
    d = event.to_dict()
    assert d["type"] == type_name and d["v"] == SCHEMA_VERSION
    again = event_from_dict(json.loads(json.dumps(d)))
    assert again == event
    assert type(again) is type(event)
    rebuilt = eval(repr(event), vars(ev))  # noqa: S307 - our own repr
    assert rebuilt == event
    hash(event)  # events are hashable values


def test_defaults_fill_missing_optional_fields() -> None:
    e = event_from_dict({"type": "worm"})
    assert e == ev.Worm(territory=None, karama=False)


def test_unknown_type_is_refused() -> None:
    with pytest.raises(InvalidEvent) as info:
        event_from_dict({"type": "teleport"})
    assert "teleport" in info.value.message
    assert info.value.to_dict()["rule"] == "event schema"


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"type": "spice_set", "faction": "guild"}, "amount"),
        ({"type": "spice_set", "faction": "guild", "amount": "ten"}, "amount"),
        ({"type": "spice_set", "faction": "guild", "amount": 3, "colour": "red"}, "colour"),
        (
            {
                "type": "forces_moved",
                "faction": "atreides",
                "from_territory": "arrakeen",
                "from_sector": 19,
                "to_territory": "old_gap",
                "to_sector": 9,
                "normal": 1,
            },
            "from_sector",
        ),
        (
            {
                "type": "forces_placed",
                "faction": "atreides",
                "territory": "arrakeen",
                "sector": 9,
                "normal": -2,
            },
            "normal",
        ),
        ({"type": "alliance_formed", "factions": ["fremen", "fremen"]}, "factions"),
        ({"type": "time_up", "clock": "sundial"}, "clock"),
        ({"type": "storm_moved", "sectors": True}, "sectors"),
        ({"type": "storm_moved", "sectors": 3, "v": 99}, "v"),
    ],
)
def test_bad_field_is_named(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidEvent) as info:
        event_from_dict(raw)
    assert repr(field) in info.value.message


def test_unknown_faction_is_an_unknown_identifier() -> None:
    with pytest.raises(UnknownIdentifier) as info:
        event_from_dict({"type": "spice_set", "faction": "sardaukar", "amount": 1})
    assert isinstance(info.value, RuleViolation) and isinstance(info.value, ValueError)
    assert "'faction'" in info.value.message


def test_describe_events_lists_every_type_and_field() -> None:
    described = ev.describe_events()
    json.dumps(described)
    assert set(described) == set(EVENT_TYPES)
    moved = {f["name"]: f for f in described["forces_moved"]["fields"]}
    assert (
        moved["faction"]["required"] and not moved["normal"]["required"] and moved["normal"]["default"] == 0
    )
    assert described["void"]["doc"].startswith("A correction")


def test_directly_built_events_are_checked_by_apply() -> None:
    """Events built in Python skip `from_dict`; `apply` still refuses impossible values."""
    from dune.engine.game_log import apply, replay

    from .helpers import in_turn, setup_event

    pos = replay([setup_event()])
    for bad in (
        ev.SpiceSet("guild", -1),
        ev.CardsSet("guild", -1),
        ev.DieRolled((("guild", 9),)),
        ev.ForcesRevived("guild", -1, 0),
    ):
        with pytest.raises(RuleViolation):
            apply(pos, bad)
    with pytest.raises(RuleViolation):
        apply(in_turn(2), ev.StormMoved(sectors=-2))
