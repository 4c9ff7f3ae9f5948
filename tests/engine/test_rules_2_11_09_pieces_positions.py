"""Positions the texts make impossible, refused by `load_position` from the third edition of
the rulings (a snapshot of an older game loads as before): where the Hidden Mobile Stronghold
may point (LoLV 2.07.04, 2.07.18), the No-Field token as one force for the occupancy limit
(2.10.11 with 1.06.02.05), where Terror tokens stand (2.12.05, 4.02.07), the Atomics Aftermath
and the Moritani's smaller hand (2.12.09.02), where Ambassadors stand, which exist and how many
(2.11.03, 2.11.05, 2.11.10, 4.02.07), the Auditor (2.09.19), and who holds a captured leader
(AH X.B.2.a.ii, 2.05.10) or a ghola (2.08.16). Also the rulings on Ambassadors: the HMS is a
stronghold an Ambassador may enter (2.11.05 with 2.07.17), and the storm sends Ambassadors back
to the supply when the engine removes what the storm destroys (2.11.09)."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.editions import CORRECTED, CURRENT, REFINED
from dune.engine.errors import IllegalAction, InvalidPosition
from dune.engine.evaluation import Evaluation, evaluate
from dune.engine.game_log import apply
from dune.engine.losses import losses_json
from dune.engine.position import Position

from .helpers import CLASSIC, at, snap

IXIANS = ("atreides", "ixians", "emperor", "fremen", "harkonnen", "guild")
RICHESE = ("atreides", "richese", "emperor", "fremen", "harkonnen", "guild")
MORITANI = ("atreides", "moritani", "emperor", "fremen", "harkonnen", "guild")
ECAZ = ("atreides", "ecaz", "emperor", "fremen", "ixians", "guild")
TLEILAXU = ("atreides", "tleilaxu", "choam", "fremen", "harkonnen", "guild")


def _load(edition: int = REFINED, **kw: Any) -> Position:
    return load_position(snap(ruleset="lolv-2.8.4", edition=edition, **kw))


def _refused(rule: str, **kw: Any) -> InvalidPosition:
    with pytest.raises(InvalidPosition) as info:
        _load(**kw)
    assert info.value.rule == rule
    _load(CORRECTED, **kw)  # an older game's snapshot loads as it did
    return info.value


def test_2_07_04_the_hms_points_at_a_sector_of_a_non_stronghold_territory() -> None:
    assert _load(factions=IXIANS, hms=["the_great_flat", 14]).hms == ("the_great_flat", 14)
    _refused("2.07.04", factions=IXIANS, hms=["carthag", 10])
    _refused("2.07.04", factions=IXIANS, hms=["the_great_flat", 3])  # not one of its sectors
    _refused("2.07.04", factions=CLASSIC, hms=["the_great_flat", 14])  # no Ixians
    _refused("2.07.04", factions=IXIANS, storm=None, hms=["the_great_flat", 14])  # before the first storm


def test_2_10_11_no_field_token_counts_for_the_occupancy_limit() -> None:
    held = [at("harkonnen", "carthag", 2), at("emperor", "carthag", 2)]
    error = _refused("2.10.11", factions=RICHESE, forces=held, no_field=["carthag", 10])
    assert "Harkonnen" in error.message and "1.06.02.05" in error.message
    assert _load(factions=RICHESE, forces=held[:1], no_field=["carthag", 10]).no_field == ("carthag", 10)


def test_2_12_05_terror_tokens_stand_in_the_five_strongholds() -> None:
    assert _load(factions=MORITANI, terror=["carthag", "arrakeen"]).terror == {"carthag", "arrakeen"}
    for place in ("shield_wall", "hidden_mobile_stronghold", "the_great_flat"):
        _refused("2.12.05", factions=MORITANI, terror=[place])
    _refused("2.12.05", factions=CLASSIC, terror=["carthag"])


def test_2_12_09_02_the_aftermath_needs_the_moritani_and_shrinks_their_hands() -> None:
    _refused("2.12.09.02", factions=CLASSIC, aftermath="carthag")
    full = {"moritani": {"cards": 4}}
    error = _refused("2.12.09.02", factions=MORITANI, aftermath="carthag", per_faction=full)
    assert "3" in error.message
    # The Moritani's cards drop with the Atomics (the ally's as the judge records the discard).
    pos = _load(factions=MORITANI, terror=["carthag"], per_faction={"moritani": {"cards": 4}}, phase="battle")
    atomics = apply(pos, {"type": "terror_revealed", "territory": "carthag", "effect": "atomics"})
    assert atomics.states["moritani"].cards == 3
    assert load_position(dump_position(atomics)) == atomics
    assert _load(factions=MORITANI, aftermath="carthag", per_faction={"moritani": {"cards": 3}}).aftermath


def test_2_11_05_ambassadors_stand_in_strongholds_once_each() -> None:
    assert _load(factions=ECAZ, ambassadors={"carthag": "ecaz", "arrakeen": "fremen"}).ambassadors
    _refused("2.11.05", factions=ECAZ, ambassadors={"shield_wall": "fremen"})
    _refused("2.11.05", factions=ECAZ, ambassadors={"the_great_flat": "fremen"})
    _refused("2.11.05", factions=CLASSIC, ambassadors={"carthag": "fremen"})
    _refused("2.11.10", factions=ECAZ, ambassadors={"carthag": "moritani"})
    _refused("2.11.10", factions=ECAZ, ambassadors={"carthag": "fremen", "arrakeen": "fremen"})


def test_2_11_03_at_most_six_ambassadors() -> None:
    ecaz_ixians = ("atreides", "ecaz", "emperor", "fremen", "ixians", "guild")
    six = {"carthag": "ecaz", "arrakeen": "fremen", "tueks_sietch": "guild", "sietch_tabr": "emperor"}
    six |= {"habbanya_sietch": "atreides", "hidden_mobile_stronghold": "richese"}
    assert len(_load(factions=ecaz_ixians, hms=["the_great_flat", 14], ambassadors=six).ambassadors) == 6
    # Six strongholds with the HMS, one Ambassador each: the supply's limit of six is never
    # passed on the board; what it forbids shows as a symbol standing twice (2.11.10).


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    [("ah1979", "AH X.B.2.a.ii"), ("wbc2018", "AH X.B.2.a.ii"), ("lolv-2.8.4", "2.05.10")],
)
def test_2_05_10_only_the_harkonnen_capture_leaders(ruleset: str, rule: str) -> None:
    status = {"atreides": {"leader_status": {"duncan_idaho": "captured:emperor"}}}
    with pytest.raises(InvalidPosition) as info:
        load_position(snap(ruleset=ruleset, edition=REFINED, per_faction=status))
    assert info.value.rule == rule
    ok = {"atreides": {"leader_status": {"duncan_idaho": "captured:harkonnen"}}}
    load_position(snap(ruleset=ruleset, edition=REFINED, per_faction=ok))


def test_2_08_16_only_the_tleilaxu_hold_gholas() -> None:
    held = {"atreides": {"leader_status": {"duncan_idaho": "held:harkonnen"}}}
    _refused("2.08.16", factions=TLEILAXU, per_faction=held)
    ghola = {"atreides": {"leader_status": {"duncan_idaho": "held:tleilaxu"}}}
    assert ("held", "tleilaxu") in _load(factions=TLEILAXU, per_faction=ghola).states["atreides"].leaders


def test_2_09_19_the_auditor_is_never_captured_nor_a_ghola() -> None:
    for state in ("captured:harkonnen", "held:tleilaxu"):
        _refused("2.09.19", factions=TLEILAXU, per_faction={"choam": {"leader_status": {"auditor": state}}})
    pos = _load(factions=TLEILAXU, phase="battle")
    with pytest.raises(IllegalAction) as info:
        apply(
            pos,
            {
                "type": "leader_changed",
                "faction": "choam",
                "leader": "auditor",
                "status": "captured",
                "captor": "harkonnen",
            },
        )
    assert info.value.rule == "2.09.19"


def _hms_game(edition: int = REFINED, **kw: Any) -> Position:
    return _load(edition, factions=ECAZ, hms=["the_great_flat", 14], phase="shipment_movement", **kw)


def test_2_11_05_an_ambassador_may_go_into_the_hms() -> None:
    """2.07.17: the HMS is a stronghold; only Terror tokens are kept out of it (2.12.05)."""
    event = {"type": "ambassador_placed", "territory": "hidden_mobile_stronghold", "ambassador": "fremen"}
    assert apply(_hms_game(), event).ambassadors == {"hidden_mobile_stronghold": "fremen"}
    with pytest.raises(IllegalAction):  # the second edition kept it out
        apply(_hms_game(CORRECTED), event)
    with pytest.raises(IllegalAction) as info:  # in storm with the sector it points at
        apply(_hms_game(storm=14), event)
    assert info.value.rule == "2.11.05"


def test_2_11_09_the_storm_sends_ambassadors_back_to_the_supply() -> None:
    placed = {"carthag": "fremen", "hidden_mobile_stronghold": "guild", "tueks_sietch": "emperor"}
    kw: dict[str, Any] = {"factions": ECAZ, "hms": ["the_great_flat", 14], "ambassadors": placed, "turn": 3}
    kw |= {"phase": "storm", "storm": 8}
    storm = {"type": "storm_moved", "sectors": 6}  # 9..14: Carthag (10) and the HMS (14)
    automatic = load_position(snap(ruleset="lolv-2.8.4", edition=REFINED, automatic_losses=True, **kw))
    assert apply(automatic, storm).ambassadors == {"tueks_sietch": "emperor"}
    by_hand = load_position(snap(ruleset="lolv-2.8.4", edition=REFINED, **kw))
    assert apply(by_hand, storm).ambassadors == placed  # the judge removes them
    old = load_position(snap(ruleset="lolv-2.8.4", edition=CORRECTED, automatic_losses=True, **kw))
    assert apply(old, storm).ambassadors == placed


def test_2_07_17_the_evaluation_shows_the_pieces_on_the_board() -> None:
    """The HMS (2.07.17), Terror tokens (2.12.05), the Aftermath (2.12.09.02), Ambassadors
    (2.11.05), the No-Field token (2.10.11) and board spice (1.02.04) appear in `evaluate()`;
    a position without them answers without a "board" key, as before."""
    factions = ("ixians", "richese", "moritani", "ecaz", "fremen", "guild")
    pos = _load(
        factions=factions,
        hms=["the_great_flat", 14],
        terror=["carthag"],
        aftermath="arrakeen",
        ambassadors={"tueks_sietch": "fremen"},
        no_field=["sietch_tabr", None],
        spice_on_board={"the_great_flat": 6},
    )
    answer = evaluate(pos)
    board = answer.to_dict()["board"]
    assert board == {
        "hms": {"territory": "the_great_flat", "sector": 14},
        "terror": ["carthag"],
        "aftermath": "arrakeen",
        "ambassadors": {"tueks_sietch": "fremen"},
        "no_field": {"territory": "sietch_tabr", "sector": None},
        "spice": {"the_great_flat": 6},
        "terror_supply": 5,  # six (2.12.03), one on the board
        "ambassador_supply": None,  # not tracked (2.11.03)
        "ambassadors_aside": [],
        "ambassadors_out": [],
        "no_field_supply": 2,  # three (2.10.03), one on the board
        "no_field_face_up": [],
    }
    assert Evaluation.from_dict(answer.to_dict()) == answer
    assert evaluate(_load(factions=factions)).to_dict()["board"]["terror_supply"] == 6
    assert "board" not in evaluate(_load(factions=IXIANS)).to_dict()


@pytest.mark.parametrize("edition", [REFINED, CURRENT])
def test_2_11_09_the_storm_says_which_ambassadors_it_sent_back(edition: int) -> None:
    """Never silently: the Ambassadors the storm takes off the board are listed beside the
    losses (what, where, the rule), kept in the snapshot, and gone with the next event. (From
    the fifth edition the standing Shield Wall spares the one in Carthag, 1.01.04.)"""
    placed = {"carthag": "fremen", "hidden_mobile_stronghold": "guild", "tueks_sietch": "emperor"}
    kw: dict[str, Any] = {"factions": ECAZ, "hms": ["the_great_flat", 14], "ambassadors": placed, "turn": 3}
    kw |= {"phase": "storm", "storm": 8}
    pos = load_position(snap(ruleset="lolv-2.8.4", edition=edition, automatic_losses=True, **kw))
    after = apply(pos, {"type": "storm_moved", "sectors": 6})
    rows = [r for r in losses_json(after) if r.get("ambassador")]
    expected = [
        {"faction": "ecaz", "territory": "hidden_mobile_stronghold", "sector": 14, "normal": 0, "special": 0,
         "advisors": 0, "spice": 0, "ambassador": "guild", "rule": "2.11.09"},
    ]
    if edition == REFINED:
        expected.insert(0, {**expected[0], "territory": "carthag", "sector": 10, "ambassador": "fremen"})
    assert rows == expected
    assert load_position(dump_position(after)).pieces_lost == after.pieces_lost
    assert dump_position(after)["losses"][-len(expected):] == expected
    later = apply(after, {"type": "phase_advanced", "phase": "spice_blow"})
    assert later.pieces_lost == after.pieces_lost  # still in view as the phase moves on at once
    later = apply(later, {"type": "phase_advanced", "phase": "bidding"})
    assert later.pieces_lost == () and not [r for r in losses_json(later) if r.get("ambassador")]
