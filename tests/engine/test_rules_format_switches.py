"""Two rules a format document switches, applied by the engine as every game's setup records
them (`fremen_full_strength`, `double_spice_blow`; bare or `=yes` on, `=no` off), per ruleset.

- The Fremen at full strength in every battle: under spice dialing (AH X.B.1 in the WBC's
  Advanced rules, LoLV 1.13.03) the Fremen's forces count full strength without spice (WBC house
  rules, since 2016; LoLV 2.04.21 Battle Hardened); switched off, they are supported like every
  faction's, so an unsupported force counts half. AH 1979 has no spice dialing: nothing to
  support.
- The double spice blow: one Spice Blow a turn (AH VII.A, LoLV 1.02.04), two with the double
  spice blow (WBC Rule Set: AH XXI; LoLV 1.13.02 in the Advanced game), counted from the seventh
  edition of the rulings; games recorded under the sixth replay as they were.
"""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.codec.position import dump_position, load_position
from dune.engine.editions import ORDERED, SEQUENCED
from dune.engine.errors import IllegalAction
from dune.engine.game_log import apply
from dune.formats import format_from_document, get_format, preset_document
from dune.formats.document import apply_changes, load_document
from tests.engine.helpers import CLASSIC, LOLV, at, snap


def _battle_pos(ruleset: str, options: list[str] | None = None, edition: int | None = None) -> Any:
    """6 Fremen against 4 Harkonnen in the Great Flat, 10 spice and 2 cards each."""
    forces = [at("fremen", "the_great_flat", 6), at("harkonnen", "the_great_flat", 4)]
    per_faction: dict[str, dict[str, Any]] = {f: {"leader_status": {}} for f in CLASSIC}
    for f, n in (("fremen", 6), ("harkonnen", 4)):
        per_faction[f].update({"spice": 10, "cards": 2, "reserves": 20 - n - 5, "tanks": 5})
    extra: dict[str, Any] = {}
    if options is not None:
        extra["options"] = options
    if edition is not None:
        extra["edition"] = edition
    return load_position(snap(ruleset, forces=forces, phase="battle", per_faction=per_faction, **extra))


def _fight(ruleset: str, pos: Any, *, dial: float, spice: int) -> Any:
    fremen: dict[str, Any] = {"faction": "fremen", "dial": dial, "leader": "stilgar"}
    harkonnen: dict[str, Any] = {"faction": "harkonnen", "dial": 1, "leader": "feyd_rautha"}
    if ruleset != "ah1979":
        fremen["spice"] = spice
        harkonnen["spice"] = 1
    body = {"type": "battle", "territory": "the_great_flat", "aggressor": fremen, "defender": harkonnen}
    return apply(pos, body)


@pytest.mark.parametrize(("ruleset", "base"), [("wbc2018", []), (LOLV, ["advanced"])])
def test_2_04_21_fremen_at_full_strength_without_spice_unless_switched_off(ruleset: str, base: list[str]) -> None:
    """WBC house rules / LoLV 2.04.21: six unsupported Fremen dial 6; with the rule switched
    off (`fremen_full_strength=no`) they count half (1.13.03, AH X.B.1): 3, or 6 with 6 spice."""
    after = _fight(ruleset, _battle_pos(ruleset, base or None), dial=6, spice=0)
    assert after.states["fremen"].spice == 10
    off = _battle_pos(ruleset, [*base, "fremen_full_strength=no"])
    assert off.ruleset.fremen_full_strength is False
    with pytest.raises(IllegalAction) as refused:
        _fight(ruleset, _battle_pos(ruleset, [*base, "fremen_full_strength=no"], edition=SEQUENCED), dial=6, spice=0)
    assert refused.value.field == "aggressor.dial" and "at most 3" in refused.value.message
    assert _fight(ruleset, off, dial=6, spice=6).states["fremen"].spice == 4
    assert _fight(ruleset, off, dial=3, spice=0).states["fremen"].spice == 10
    # The snapshot keeps the switch: the game replays under the same rules.
    assert load_position(dump_position(off)).ruleset.fremen_full_strength is False


def test_x_b_1_ah1979_has_no_spice_dialing_so_the_switch_changes_no_battle() -> None:
    for options in ([], ["fremen_full_strength"]):
        pos = _battle_pos("ah1979", options)
        assert _fight("ah1979", pos, dial=6, spice=0).states["fremen"].spice == 10


def _blow_pos(ruleset: str, options: list[str] | None = None, edition: int | None = None) -> Any:
    extra: dict[str, Any] = {"phase": "spice_blow", "storm": 2, "automatic_losses": True}
    if options is not None:
        extra["options"] = options
    if edition is not None:
        extra["edition"] = edition
    return load_position(snap(ruleset, per_faction={f: {"tanks": 0, "spice": 5} for f in CLASSIC}, **extra))


BLOWS = ("the_great_flat", "sihaya_ridge", "red_chasm")


def _blow(pos: Any, territory: str) -> Any:
    return apply(pos, {"type": "spice_blow", "territory": territory})


@pytest.mark.parametrize(
    ("ruleset", "options", "most", "rule"),
    [
        ("ah1979", [], 1, "AH VII.A.1"),
        ("ah1979", ["double_spice_blow"], 2, "AH XXI (Double Spice Blow)"),
        ("wbc2018", [], 2, "WBC Rule Set (AH XXI, Double Spice Blow)"),
        ("wbc2018", ["double_spice_blow=no"], 1, "AH VII.A.1"),
        (LOLV, ["advanced"], 2, "1.13.02"),
        (LOLV, [], 1, "1.02.04"),  # the Basic game (1.13.00): one blow
        (LOLV, ["advanced", "double_spice_blow=no"], 1, "1.02.04"),
    ],
)
def test_1_13_02_spice_blows_a_turn_as_the_setup_says(ruleset: str, options: list[str], most: int, rule: str) -> None:
    pos = _blow_pos(ruleset, options)
    for territory in BLOWS[:most]:
        pos = _blow(pos, territory)
    assert pos.blown == (pos.turn, most)
    with pytest.raises(IllegalAction) as refused:
        _blow(pos, BLOWS[most])
    assert refused.value.rule == rule and refused.value.field == "territory"
    assert ("two Spice Blows a turn" if most == 2 else "no double spice blow") in refused.value.message
    # The next turn blows again; a snapshot keeps the count.
    assert load_position(dump_position(pos)).blown == pos.blown
    data = dump_position(pos)
    data["turn"] = pos.turn + 1
    assert _blow(load_position(data), BLOWS[most]).blown == (pos.turn + 1, 1)


@pytest.mark.parametrize("ruleset", ["ah1979", "wbc2018", LOLV])
def test_games_of_the_sixth_edition_replay_their_spice_blows_uncounted(ruleset: str) -> None:
    pos = _blow_pos(ruleset, edition=ORDERED)
    for territory in BLOWS:
        pos = _blow(pos, territory)
    assert pos.blown is None and set(pos.spice_on_board) == set(BLOWS)


def test_the_document_switches_record_in_the_setup_only_where_they_differ_from_the_ruleset() -> None:
    """The presets play their rulesets' own (WBC and LoLV: both on; AH 1979: both off), so their
    setups record nothing; an event that switches one records it."""
    for key in ("wbc", "lolv", "ah1979"):
        assert not any(o.startswith(("fremen_full_strength", "double_spice_blow")) for o in get_format(key).setup_options)
    wbc_2015 = format_from_document(
        apply_changes(preset_document("wbc"), {"engine.fremen_full_strength": False, "engine.double_spice_blow": False})
    )
    assert wbc_2015.setup_options == ("double_spice_blow=no", "fremen_full_strength=no")
    assert wbc_2015.ruleset.fremen_full_strength is False and wbc_2015.ruleset.double_spice_blow is False
    club = format_from_document(apply_changes(preset_document("ah1979"), {"engine.double_spice_blow": True}))
    assert club.setup_options == ("double_spice_blow",)


def test_a_schema_1_document_reads_its_switches_as_the_ruleset_played_them() -> None:
    """Schema 1 recorded the two rules as ones the table judge added to the ruleset's: a WBC
    document of then (both false) played the WBC's own rules, so it reads as the preset does."""
    old = apply_changes(preset_document("wbc"), {"engine.fremen_full_strength": False, "engine.double_spice_blow": False})
    old["schema"] = 1
    old["rules"]["engine.fremen_full_strength"] = "AH 1979 (Fremen battle strength)"
    assert load_document(old) == dict(get_format("wbc").document)
    assert format_from_document(old).setup_options == ()
