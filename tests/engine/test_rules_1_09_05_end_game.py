"""End of the last turn with no stronghold winner: LoLV 1.09.05, 2.04.09, 2.04.12, 2.06.08,
2.06.11, 2.10.18, 4.01.18; AH IV.B, IV.C, IV.C.1 and the Fremen shield."""

from __future__ import annotations

from typing import Any

import pytest

from gameplay.engine.errors import IllegalAction
from gameplay.engine.evaluation import evaluate
from gameplay.engine.game_log import apply

from .helpers import CLASSIC, at, in_turn, position, to_phase

LOLV = ("atreides", "fremen", "guild", "harkonnen", "richese", "emperor")


def _eog(**kw: Any) -> Any:
    kw.setdefault("last_turn", True)
    return evaluate(position(**kw)).end_of_game


def test_end_of_game_only_on_the_last_turn() -> None:
    assert _eog(last_turn=False) is None
    # ... and not when someone wins at the Mentat Pause.
    forces = [at("harkonnen", s) for s in ("carthag", "arrakeen", "tueks_sietch")]
    assert _eog(forces=forces) is None


def test_ah_iv_b_fremen_special_victory() -> None:
    """AH IV.B + Fremen shield 4: only the Fremen (or nobody) in Sietch Tabr and Habbanya
    Sietch and no Harkonnen, Atreides or Emperor in Tuek's Sietch: the Fremen win."""
    forces = [at("fremen", "sietch_tabr", 3), at("guild", "tueks_sietch", 2)]
    e = _eog(forces=forces)
    assert e.winners == ("fremen",) and e.kind == "fremen_special_solo" and e.rule == "AH IV.B"
    blocked = forces + [at("emperor", "tueks_sietch", 1)]
    assert _eog(forces=blocked).kind == "guild_default_solo"
    blocked = [at("fremen", "sietch_tabr", 3), at("guild", "habbanya_sietch", 1)]
    assert _eog(forces=blocked).kind == "guild_default_solo"


def test_fremen_allies_win_with_them() -> None:
    """AH Fremen shield (alliance) / LoLV 2.04.12: the Fremen's allies win with them."""
    e = _eog(forces=[at("fremen", "sietch_tabr")], alliances=[["emperor", "fremen"]])
    assert sorted(e.winners) == ["emperor", "fremen"] and e.kind == "fremen_special_allied"


def test_ah_iv_c_guild_default_victory_with_ally() -> None:
    """AH IV.C / LoLV 2.06.08, 2.06.11: the Guild (and ally) win when nobody else did."""
    forces = [at("harkonnen", "sietch_tabr")]
    e = _eog(forces=forces, alliances=[["guild", "harkonnen"]])
    assert sorted(e.winners) == ["guild", "harkonnen"] and e.kind == "guild_default_allied"
    assert e.rule == "AH IV.C"


def test_1_09_05_fremen_win_by_default_without_the_guild() -> None:
    """LoLV 1.09.05 / AH IV.C.1: without the Guild in the game, the Fremen win."""
    factions = CLASSIC[:5]
    e = _eog(factions=factions, forces=[at("harkonnen", "sietch_tabr")])
    assert e.winners == ("fremen",) and e.kind == "fremen_default_solo" and e.rule == "AH IV.C.1"


def test_2_04_09_lolv_fremen_special_needs_the_guild() -> None:
    """LoLV 2.04.09.00: the Fremen special victory exists only when the Guild is in the game;
    without the Guild the Fremen win by default (1.09.05)."""
    no_guild = ("atreides", "fremen", "harkonnen", "richese", "emperor")
    e = _eog(ruleset="lolv-2.8.4", factions=no_guild, forces=[at("fremen", "sietch_tabr")])
    assert e.kind == "fremen_default_solo" and e.rule == "1.09.05"
    e = _eog(ruleset="lolv-2.8.4", factions=LOLV, forces=[at("fremen", "sietch_tabr")])
    assert e.kind == "fremen_special_solo" and e.rule == "2.04.09"


def test_2_10_18_richese_in_tueks_sietch_denies_the_fremen() -> None:
    """LoLV 2.10.18: Richese counts among the factions barred from Tuek's Sietch (the
    second criterion, 2.04.09.02)."""
    e = _eog(ruleset="lolv-2.8.4", factions=LOLV, forces=[at("richese", "tueks_sietch")])
    assert e.kind == "guild_default_solo"


def test_4_01_18_fremen_ally_in_tueks_sietch_does_not_count() -> None:
    """LoLV 4.01.18: the Fremen's allies do not count against the Tuek's Sietch criterion;
    under AH they do."""
    forces = [at("harkonnen", "tueks_sietch")]
    alliances = [["fremen", "harkonnen"]]
    lolv = _eog(ruleset="lolv-2.8.4", factions=LOLV, forces=forces, alliances=alliances)
    assert lolv.kind == "fremen_special_allied"
    wbc = _eog(forces=forces, alliances=alliances)
    assert wbc.kind == "guild_default_solo"


def test_1_09_05_most_strongholds_without_fremen_or_guild_all_tied_win() -> None:
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
    e = _eog(factions=factions, forces=forces)
    assert sorted(e.winners) == ["atreides", "harkonnen"] and e.kind == "end_game_solo"
    e = _eog(factions=factions, forces=forces, alliances=[["bene_gesserit", "emperor"]])
    assert sorted(e.winners) == ["atreides", "harkonnen"]
    forces.append(at("bene_gesserit", "sietch_tabr"))  # contests Tabr: still occupied by both
    e = _eog(factions=factions, forces=forces, alliances=[["bene_gesserit", "emperor"]])
    assert sorted(e.winners) == ["atreides", "bene_gesserit", "emperor", "harkonnen"]
    assert {k for _side, k in e.sides} == {"end_game_solo", "end_game_allied"}


def test_last_turn_ended_records_the_default_victory() -> None:
    pos = in_turn(10, phase="mentat_pause")
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "turn_advanced"})
    assert info.value.rule == "WBC Preliminary Heat Duration"
    done = apply(pos, {"type": "last_turn_ended"})
    assert done.outcome is not None
    # The Fremen sit alone in Sietch Tabr from the start and nobody took Tuek's Sietch from the Guild.
    assert done.outcome.kind == "fremen_special_solo" and done.outcome.ended_by == "turn_limit"


def test_last_turn_ended_refused_before_the_last_turn() -> None:
    pos = to_phase(in_turn(3), "mentat_pause")
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "last_turn_ended"})
    assert "not the last" in info.value.message
