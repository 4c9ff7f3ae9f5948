"""End of the last turn with no stronghold winner: LoLV 1.09.05, 2.04.09, 2.04.12, 2.06.08,
2.06.11, 2.10.18, 4.01.18; AH IV.B, IV.C, IV.C.1 and the Fremen shield. Each rule runs under
every ruleset, with the rule cited per ruleset; the Richese is LoLV-only."""

from __future__ import annotations

from typing import Any

import pytest

from dune.engine.errors import IllegalAction
from dune.engine.evaluation import evaluate
from dune.engine.game_log import apply
from dune.engine.rulesets import get_ruleset

from .helpers import ALL_RULESETS, CLASSIC, at, in_turn, position, to_phase

LOLV = ("atreides", "fremen", "guild", "harkonnen", "richese", "emperor")
#: The Fremen special victory: AH IV.B (WBC adds nothing), LoLV 2.04.09.
FREMEN_SPECIAL = {"ah1979": "AH IV.B", "wbc2018": "AH IV.B", "lolv-2.8.4": "2.04.09"}
#: The Fremen's default victory without the Guild: AH IV.C.1, LoLV 1.09.05.
FREMEN_DEFAULT = {"ah1979": "AH IV.C.1", "wbc2018": "AH IV.C.1", "lolv-2.8.4": "1.09.05"}


def _eog(**kw: Any) -> Any:
    kw.setdefault("last_turn", True)
    return evaluate(position(**kw)).end_of_game


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_end_of_game_only_on_the_last_turn(ruleset: str) -> None:
    """LoLV 1.09.05 / AH IV.B-C: "by the end of the last turn"."""
    assert _eog(ruleset=ruleset, last_turn=False) is None
    # ... and not when someone wins at the Mentat Pause.
    forces = [at("harkonnen", s) for s in ("carthag", "arrakeen", "tueks_sietch")]
    assert _eog(ruleset=ruleset, forces=forces) is None


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_ah_iv_b_fremen_special_victory(ruleset: str) -> None:
    """AH IV.B + Fremen shield 4 / LoLV 2.04.09.01-02: only the Fremen (or nobody) in Sietch
    Tabr and Habbanya Sietch and no Harkonnen, Atreides or Emperor in Tuek's Sietch: the
    Fremen win."""
    forces = [at("fremen", "sietch_tabr", 3), at("guild", "tueks_sietch", 2)]
    e = _eog(ruleset=ruleset, forces=forces)
    assert e.winners == ("fremen",) and e.kind == "fremen_special_solo" and e.rule == FREMEN_SPECIAL[ruleset]
    blocked = forces + [at("emperor", "tueks_sietch", 1)]
    assert _eog(ruleset=ruleset, forces=blocked).kind == "guild_default_solo"
    blocked = [at("fremen", "sietch_tabr", 3), at("guild", "habbanya_sietch", 1)]
    assert _eog(ruleset=ruleset, forces=blocked).kind == "guild_default_solo"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_fremen_allies_win_with_them(ruleset: str) -> None:
    """AH Fremen shield (alliance) / LoLV 2.04.12: the Fremen's allies win with them."""
    e = _eog(ruleset=ruleset, forces=[at("fremen", "sietch_tabr")], alliances=[["emperor", "fremen"]])
    assert sorted(e.winners) == ["emperor", "fremen"] and e.kind == "fremen_special_allied"


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    # The Guild's default victory: AH IV.C (WBC adds nothing), LoLV 2.06.08.
    [("ah1979", "AH IV.C"), ("wbc2018", "AH IV.C"), ("lolv-2.8.4", "2.06.08")],
)
def test_ah_iv_c_guild_default_victory_with_ally(ruleset: str, rule: str) -> None:
    """AH IV.C and the Guild shield / LoLV 2.06.08, 2.06.11: the Guild (and ally) win when
    nobody else did."""
    forces = [at("harkonnen", "sietch_tabr")]
    e = _eog(ruleset=ruleset, forces=forces, alliances=[["guild", "harkonnen"]])
    assert sorted(e.winners) == ["guild", "harkonnen"] and e.kind == "guild_default_allied"
    assert e.rule == rule


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_09_05_fremen_win_by_default_without_the_guild(ruleset: str) -> None:
    """LoLV 1.09.05 / AH IV.C.1: without the Guild in the game, the Fremen win."""
    factions = CLASSIC[:5]
    e = _eog(ruleset=ruleset, factions=factions, forces=[at("harkonnen", "sietch_tabr")])
    assert e.winners == ("fremen",) and e.kind == "fremen_default_solo" and e.rule == FREMEN_DEFAULT[ruleset]


@pytest.mark.parametrize(
    ("ruleset", "special"),
    # Without the Guild: the Fremen special victory still stands under AH IV.B (WBC adds
    # nothing); the LoLV has it only with the Guild in the game (2.04.09.00), so the Fremen
    # win by default instead (1.09.05).
    [("ah1979", True), ("wbc2018", True), ("lolv-2.8.4", False)],
)
def test_2_04_09_lolv_fremen_special_needs_the_guild(ruleset: str, special: bool) -> None:
    """LoLV 2.04.09.00: the Fremen special victory exists only when the Guild is in the game;
    without the Guild the Fremen win by default (1.09.05). AH IV.B sets no such condition."""
    no_guild = CLASSIC[:5]
    e = _eog(ruleset=ruleset, factions=no_guild, forces=[at("fremen", "sietch_tabr")])
    if special:
        assert e.kind == "fremen_special_solo" and e.rule == FREMEN_SPECIAL[ruleset]
    else:
        assert e.kind == "fremen_default_solo" and e.rule == FREMEN_DEFAULT[ruleset]
    e = _eog(ruleset=ruleset, forces=[at("fremen", "sietch_tabr")])
    assert e.kind == "fremen_special_solo" and e.rule == FREMEN_SPECIAL[ruleset]


def test_2_10_18_richese_in_tueks_sietch_denies_the_fremen() -> None:
    """LoLV 2.10.18: Richese counts among the factions barred from Tuek's Sietch (the
    second criterion, 2.04.09.02). LoLV only: the Richese is an expansion faction."""
    e = _eog(ruleset="lolv-2.8.4", factions=LOLV, forces=[at("richese", "tueks_sietch")])
    assert e.kind == "guild_default_solo"


@pytest.mark.parametrize(
    ("ruleset", "kind"),
    # The Fremen's Harkonnen ally in Tuek's Sietch: it bars the Fremen under AH IV.B and the
    # Fremen shield (WBC adds nothing); LoLV 4.01.18 exempts the Fremen's allies.
    [
        ("ah1979", "guild_default_solo"),
        ("wbc2018", "guild_default_solo"),
        ("lolv-2.8.4", "fremen_special_allied"),
    ],
)
def test_4_01_18_fremen_ally_in_tueks_sietch_does_not_count(ruleset: str, kind: str) -> None:
    """LoLV 4.01.18: the Fremen's allies do not count against the Tuek's Sietch criterion;
    under AH they do."""
    forces = [at("harkonnen", "tueks_sietch")]
    alliances = [["fremen", "harkonnen"]]
    assert _eog(ruleset=ruleset, forces=forces, alliances=alliances).kind == kind


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_09_05_most_strongholds_without_fremen_or_guild_all_tied_win(ruleset: str) -> None:
    """LoLV 1.09.05 / AH IV.C.1: neither Guild nor Fremen: most strongholds occupied wins;
    if several qualify, all win."""
    factions = ("atreides", "bene_gesserit", "emperor", "harkonnen")
    forces = [
        at("atreides", "arrakeen"),
        at("atreides", "tueks_sietch"),
        at("harkonnen", "carthag"),
        at("harkonnen", "sietch_tabr"),
        at("emperor", "habbanya_sietch"),
    ]
    e = _eog(ruleset=ruleset, factions=factions, forces=forces)
    assert sorted(e.winners) == ["atreides", "harkonnen"] and e.kind == "end_game_solo"
    e = _eog(ruleset=ruleset, factions=factions, forces=forces, alliances=[["bene_gesserit", "emperor"]])
    assert sorted(e.winners) == ["atreides", "harkonnen"]
    forces.append(at("bene_gesserit", "sietch_tabr"))  # contests Tabr: still occupied by both
    # (under AH only once the BG has said it does not coexist there, AH XV.B)
    apart = {"declared_apart": {"sietch_tabr": {"factions": ["harkonnen"], "vacated": False}}}
    kw = apart if ruleset == "ah1979" else {}
    e = _eog(
        ruleset=ruleset, factions=factions, forces=forces, alliances=[["bene_gesserit", "emperor"]], **kw
    )
    assert sorted(e.winners) == ["atreides", "bene_gesserit", "emperor", "harkonnen"]
    assert {k for _side, k in e.sides} == {"end_game_solo", "end_game_allied"}


@pytest.mark.parametrize(
    ("ruleset", "turns", "rule"),
    # The last turn: 15 in the AH text (AH V), 10 in a WBC heat (WBC Preliminary Heat
    # Duration) and at the LoLV (0.02).
    [
        ("ah1979", 15, "AH V"),
        ("wbc2018", 10, "WBC Preliminary Heat Duration"),
        ("lolv-2.8.4", 10, "0.02"),
    ],
)
def test_last_turn_ended_records_the_default_victory(ruleset: str, turns: int, rule: str) -> None:
    pos = in_turn(turns, ruleset=ruleset, phase="mentat_pause")
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "turn_advanced"})
    assert info.value.rule == rule
    done = apply(pos, {"type": "last_turn_ended"})
    assert done.outcome is not None
    # The Fremen sit alone in Sietch Tabr from the start and nobody took Tuek's Sietch from the Guild.
    assert done.outcome.kind == "fremen_special_solo" and done.outcome.ended_by == "turn_limit"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_last_turn_ended_refused_before_the_last_turn(ruleset: str) -> None:
    pos = to_phase(in_turn(3, ruleset=ruleset), "mentat_pause")
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "last_turn_ended"})
    assert "not the last" in info.value.message


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_1_09_05_time_up_before_the_last_turn_is_adjudicated_not_ended(ruleset: str) -> None:
    """WBC Preliminary Heat Duration and Adjudication (LoLV 4.01.08-10 likewise): when time runs
    out before the turn limit, the adjudication decides; the evaluation announces no Fremen
    special victory as the end of the game (last_turn_ended is refused then as well)."""
    forces = [at("fremen", "sietch_tabr", 3), at("guild", "tueks_sietch", 2)]
    assert _eog(ruleset=ruleset, forces=forces, turn=3) is not None  # the turn limit's last turn
    timed = evaluate(position(ruleset=ruleset, forces=forces, turn=3, last_turn=True, time_up="wbc_heat"))
    assert timed.end_of_game is None and timed.victory is None
    assert bool(timed.adjudication.sides) is (ruleset != "ah1979")  # AH has no criteria
    limit = get_ruleset(ruleset).turn_limit
    at_limit = position(ruleset=ruleset, forces=forces, turn=limit, last_turn=True, time_up="wbc_heat")
    assert evaluate(at_limit).end_of_game is not None  # time ran out in the last turn itself
