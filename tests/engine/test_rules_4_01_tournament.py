"""Tournament rules: LoLV 4.01.04 (win attempts), 4.01.08 and the WBC time limits,
LoLV 0.02 / WBC turn limits, WBC adjudication, concessions, time guidelines and dropouts.
The time limit and adjudication are in both tournament texts and run under both (the AH text
has neither: 15 turns, AH V); the turn limit runs under every ruleset; win attempts are
LoLV-only, concessions, time guidelines and dropouts WBC-only."""

from __future__ import annotations

import pytest

from dune.engine.errors import IllegalAction, OutOfTime, RuleViolation
from dune.engine.evaluation import evaluate
from dune.engine.game_log import apply, replay
from dune.engine.position import Position

from .helpers import at, in_turn, next_turn, position, setup_event, started, to_phase

LOLV = ("atreides", "bene_gesserit", "fremen", "harkonnen", "guild", "ecaz")
#: The tournament clock and the rule its time limit cites: LoLV 4.01.08, WBC Preliminary
#: Heat Duration.
CLOCKS = [("lolv-2.8.4", "lolv", "4.01.08"), ("wbc2018", "wbc_heat", "WBC Preliminary Heat Duration")]


def _place(pos: Position, faction: str, territory: str, sector: int | None, n: int = 1) -> Position:
    return apply(
        pos,
        {"type": "forces_placed", "faction": faction, "territory": territory, "sector": sector, "normal": n},
    )


def test_4_01_04_win_attempts_are_proposed_at_the_battle_phase() -> None:
    """LoLV 4.01.04: a side standing in as many strongholds as it needs makes a win attempt
    (it wins if it wins its battles), even where the strongholds are contested. LoLV only:
    win attempts are a LoLV tiebreak (4.01.10.01)."""
    forces = [
        at("harkonnen", "carthag"),
        at("harkonnen", "arrakeen"),
        at("atreides", "arrakeen"),
        at("harkonnen", "tueks_sietch"),
    ]
    ev = evaluate(position(ruleset="lolv-2.8.4", forces=forces))
    assert ev.win_attempts == (("harkonnen",),)
    assert ev.victory is None


def test_4_01_04_confirmed_win_attempts_count_per_faction() -> None:
    """LoLV only (4.01.04, 4.01.10.01)."""
    pos = to_phase(in_turn(2, ruleset="lolv-2.8.4"), "spice_blow")
    pos = apply(pos, {"type": "worm", "territory": "the_great_flat"})
    pos = apply(pos, {"type": "alliance_formed", "factions": ["atreides", "fremen"]})
    pos = to_phase(pos, "battle")
    pos = apply(
        pos,
        {
            "type": "win_attempt_confirmed",
            "factions": ["fremen", "atreides"],
            "note": "Tabr, Arrakeen, Carthag, Tuek's",
        },
    )
    assert pos.states["atreides"].win_attempts == pos.states["fremen"].win_attempts == 1
    with pytest.raises(IllegalAction):  # once per side per turn
        apply(pos, {"type": "win_attempt_confirmed", "factions": ["atreides", "fremen"]})
    with pytest.raises(IllegalAction) as info:  # part of an alliance is not a side
        apply(pos, {"type": "win_attempt_confirmed", "factions": ["atreides"]})
    assert "side" in info.value.message
    assert evaluate(pos).stats["fremen"].win_attempts == 1


def test_win_attempts_only_in_the_battle_phase() -> None:
    """LoLV only (4.01.04: at the start of every battle phase)."""
    pos = to_phase(in_turn(2, ruleset="lolv-2.8.4"), "bidding")
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "win_attempt_confirmed", "factions": ["guild"]})
    assert "battle" in info.value.message


@pytest.mark.parametrize(("ruleset", "clock", "rule"), CLOCKS)
def test_4_01_08_time_up_refuses_a_new_turn(ruleset: str, clock: str, rule: str) -> None:
    """LoLV 4.01.08: when the clock runs out, only the turn in play is finished; WBC
    Preliminary Heat Duration: no new game turn past the limit."""
    pos = started(ruleset)
    pos = apply(pos, {"type": "time_up", "clock": clock})
    assert pos.last_turn
    pos = to_phase(pos, "mentat_pause")
    with pytest.raises(OutOfTime) as info:
        apply(pos, {"type": "turn_advanced"})
    assert info.value.rule == rule
    # Time ran out before the turn limit: the adjudication decides, not the last turn's
    # special and default victories (last_turn_ended is refused as well); from the ninth
    # edition the engine states the adjudicated result for the judge to confirm.
    eog = evaluate(pos).end_of_game
    assert eog is not None and str(eog.kind) == "adjudicated"


def test_wbc_time_limit_cited_and_adjudication_follows() -> None:
    """WBC heat duration: no new turn past the limit; the GM adjudicates by the criteria.
    WBC only: the WBC criteria are the WBC's (the LoLV's: test_lolv_adjudication_...)."""
    pos = to_phase(apply(in_turn(3), {"type": "time_up", "clock": "wbc_heat"}), "mentat_pause")
    with pytest.raises(OutOfTime) as info:
        apply(pos, {"type": "turn_advanced"})
    assert info.value.rule == "WBC Preliminary Heat Duration"
    with pytest.raises(IllegalAction):  # adjudicated, not the turn-limit defaults
        apply(pos, {"type": "last_turn_ended"})
    eog = evaluate(pos).end_of_game
    assert eog is not None and str(eog.kind) == "adjudicated"  # no Fremen special victory either
    best = evaluate(pos).adjudication.sides[0]
    done = apply(pos, {"type": "adjudication_confirmed", "winners": best})
    assert (
        done.outcome is not None
        and done.outcome.kind == "adjudicated"
        and done.outcome.ended_by == "time_limit"
    )


@pytest.mark.parametrize(("ruleset", "clock", "rule"), CLOCKS)
def test_adjudication_needs_time_up_and_the_engine_ranking(ruleset: str, clock: str, rule: str) -> None:
    """LoLV 4.01.09.10 / WBC adjudication: the judge confirms the engine's ranking once time
    is up; a different choice needs the head judge's reason."""
    pos = to_phase(in_turn(3, ruleset=ruleset), "mentat_pause")
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "adjudication_confirmed", "winners": ["guild"]})
    assert info.value.rule == rule
    pos = apply(pos, {"type": "time_up", "clock": clock})
    best = evaluate(pos).adjudication.sides[0]
    other = "guild" if best != ["guild"] else "emperor"
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "adjudication_confirmed", "winners": [other]})
    assert "rank" in info.value.message
    overridden = apply(
        pos, {"type": "adjudication_confirmed", "winners": [other], "override_reason": "head judge ruling"}
    )
    assert overridden.outcome is not None and overridden.outcome.winners == (other,)


def test_wbc_adjudication_criteria_in_order_alliance_sums() -> None:
    """WBC adjudication: strongholds, weighted tokens (1 / starred 2 / coexisting 0.5),
    spice, cards, leaders, die; an alliance sums its members. WBC only (the LoLV's
    categories: test_lolv_adjudication_uses_its_tiebreak_categories)."""
    forces = [
        at("harkonnen", "carthag", 5),
        at("atreides", "arrakeen", 2),
        at("emperor", "tueks_sietch", 1, 2),
    ]
    per = {
        f: {"spice": 5, "cards": 1, "leaders": 5}
        for f in ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")
    }
    per["emperor"]["spice"] = 1
    ev = evaluate(position(forces=forces, per_faction=per, alliances=[["atreides", "emperor"]]))
    # atreides+emperor: 2 strongholds; harkonnen: 1 stronghold; the rest 0 (ties by tokens: 0).
    assert ev.adjudication.sides[0] == ("atreides", "emperor")
    assert ev.adjudication.sides[1] == ("harkonnen",)
    assert ev.stats["emperor"].tokens == 5
    assert ev.adjudication.tied is True  # bene_gesserit, fremen and guild need the die
    ev = evaluate(position(forces=forces, per_faction=per))
    # One stronghold each; Harkonnen and Emperor both weigh 5 tokens (5 / 1 + 2 starred);
    # spice then puts the Harkonnen (5) ahead of the Emperor (1); the Atreides weigh 2.
    assert ev.adjudication.sides[:3] == (("harkonnen",), ("emperor",), ("atreides",))


def test_die_rolls_break_a_tie() -> None:
    """WBC only: the WBC criteria end with the highest die roll; LoLV 4.01.10 lists none."""
    pos = to_phase(apply(in_turn(3), {"type": "time_up", "clock": "wbc_heat"}), "mentat_pause")
    pos = apply(pos, {"type": "die_rolled", "die": {f: i + 1 for i, f in enumerate(pos.factions)}})
    assert evaluate(pos).adjudication.unknown == ()


def test_lolv_adjudication_uses_its_tiebreak_categories() -> None:
    """LoLV 4.01.10.00: win attempts first, then strongholds, forces, spice, cards, leaders.
    LoLV only (the WBC criteria: test_wbc_adjudication_criteria_in_order_alliance_sums)."""
    forces = [at("harkonnen", "carthag", 5)]
    per = {"fremen": {"win_attempts": 2}}
    ev = evaluate(position(ruleset="lolv-2.8.4", factions=LOLV, forces=forces, per_faction=per))
    assert ev.adjudication.sides[0] == ("fremen",)
    assert ev.adjudication.sides[1] == ("harkonnen",)


@pytest.mark.parametrize(
    ("ruleset", "longest", "rule"),
    # The longest game: 15 turns in the AH text (AH V), 15 in the WBC final (WBC Final Round
    # Duration; a heat's 10 is the default), 10 at the LoLV (0.02).
    [("ah1979", 15, "AH V"), ("wbc2018", 15, "WBC Preliminary Heat Duration"), ("lolv-2.8.4", 10, "0.02")],
)
def test_turn_limit_0_02_and_wbc_final(ruleset: str, longest: int, rule: str) -> None:
    """LoLV 0.02: at most 10 turns in tournament play; WBC finals 15; AH V: 15."""
    pos = replay([setup_event(ruleset, turns=longest)])
    assert pos.setup is not None and pos.setup.turn_limit == longest
    with pytest.raises(RuleViolation) as info:
        replay([setup_event(ruleset, turns=longest + 1)])
    assert info.value.rule == rule


def test_wbc_concession_to_an_unallied_player_or_a_whole_alliance() -> None:
    """WBC Concessions: unanimous; never to a single allied player. WBC only."""
    pos = apply(to_phase(in_turn(2), "spice_blow"), {"type": "worm"})
    pos = apply(pos, {"type": "alliance_formed", "factions": ["atreides", "fremen"]})
    with pytest.raises(IllegalAction):
        apply(pos, {"type": "concession", "to_factions": ["atreides"]})
    with pytest.raises(IllegalAction):
        apply(pos, {"type": "concession", "to_factions": ["guild"], "unanimous": False})
    solo = apply(pos, {"type": "concession", "to_factions": ["guild"]})
    assert (
        solo.outcome is not None
        and solo.outcome.kind == "solo_stronghold"
        and solo.outcome.ended_by == "concession"
    )
    allied = apply(pos, {"type": "concession", "to_factions": ["fremen", "atreides"]})
    assert allied.outcome is not None and allied.outcome.kind == "allied_stronghold"


def test_wbc_time_guidelines_default_actions_and_three_chips() -> None:
    """WBC time guidelines: defaults are recorded; each player has 3 diplomacy chips. WBC only."""
    pos = to_phase(in_turn(2), "bidding")
    pos = apply(pos, {"type": "default_action", "faction": "emperor", "action": "bid"})
    assert pos.states["emperor"].defaults == 1
    with pytest.raises(IllegalAction):
        apply(pos, {"type": "default_action", "faction": "emperor", "action": "battle_plan"})
    for _ in range(3):
        pos = apply(pos, {"type": "diplomacy_chip_used", "faction": "guild"})
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "diplomacy_chip_used", "faction": "guild"})
    assert info.value.rule == "WBC Time Guidelines"


def test_wbc_dropout_tokens_and_leaders_leave_and_play_goes_on() -> None:
    """WBC Dropouts: tokens and uncaptured leaders leave, spice and cards go; a dropping
    Harkonnen returns captured leaders; the others play on. WBC only."""
    pos = to_phase(in_turn(2), "battle")
    pos = apply(
        pos,
        {
            "type": "leader_changed",
            "faction": "atreides",
            "leader": "Duncan Idaho",
            "status": "captured",
            "captor": "harkonnen",
        },
    )
    assert evaluate(pos).stats["harkonnen"].leaders == 6
    pos = apply(pos, {"type": "dropout", "faction": "harkonnen", "reason": "ill"})
    assert "harkonnen" not in pos.factions
    assert not any(f == "harkonnen" for (f, _t, _s) in pos.forces)
    assert pos.states["atreides"].leaders[3] == ("active", None)
    ev = evaluate(pos)
    assert "harkonnen" not in ev.stats and ev.control["carthag"] is None
    with pytest.raises(IllegalAction):
        apply(pos, {"type": "spice_set", "faction": "harkonnen", "amount": 1})
    pos = next_turn(pos)
    assert pos.turn == 3


def test_wbc_final_clock_cites_the_final_round_limit() -> None:
    """WBC final: 15 turns or 8 hours; the refusal names the final's limit. WBC only."""
    pos = to_phase(apply(in_turn(2), {"type": "time_up", "clock": "wbc_final"}), "mentat_pause")
    with pytest.raises(OutOfTime) as info:
        apply(pos, {"type": "turn_advanced"})
    assert info.value.rule == "WBC Final Round Duration"
    with pytest.raises(IllegalAction):
        apply(pos, {"type": "time_up", "clock": "wbc_final"})  # already up


@pytest.mark.parametrize("ruleset", ["lolv-2.8.4", "ah1979"])
def test_4_01_08_no_diplomacy_chips_or_called_clocks_outside_the_wbc(ruleset: str) -> None:
    """The diplomacy chips and call-the-clock defaults are WBC time guidelines; the LoLV times
    the whole game (4.01.08) and the 1979 rules have neither: the first chip is refused."""
    pos = to_phase(in_turn(2, ruleset=ruleset), "bidding")
    with pytest.raises(IllegalAction) as info:
        apply(pos, {"type": "diplomacy_chip_used", "faction": "guild"})
    assert "no diplomacy chips" in info.value.message
    assert info.value.rule == {"lolv-2.8.4": "4.01.08"}.get(ruleset, "WBC Time Guidelines")
    with pytest.raises(IllegalAction):
        apply(pos, {"type": "default_action", "faction": "emperor", "action": "bid"})
