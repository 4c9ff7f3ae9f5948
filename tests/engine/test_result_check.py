"""The engine's adjudicator: one decision on whether a reported result is valid, under the
table's ruleset (turn limits per round kind, alliance sizes, simultaneous solo wins, the
Fremen special victory's need of the Guild), for paper reports and tracked games alike."""

from __future__ import annotations

import pytest

from dune.clock_limits import LIMITS
from dune.engine.errors import ResultRefused, UnknownIdentifier
from dune.engine.ids import ResultKind
from dune.engine.result_check import ReportedGame, check_result
from dune.engine.rulesets import RULESETS, get_ruleset
from dune.formats import FORMATS
from dune.points import ReportShapeError
from tests.scoring.scoring_helpers import validated

R = ResultKind
LOLV = get_ruleset("lolv-2.8.4")
WBC = get_ruleset("wbc2018")
SIX = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")


def game(
    won: dict[str, ResultKind], *, turns: int = 7, ended_by: str = "victory", **kw: object
) -> ReportedGame:
    results = {f: won.get(f, R.LOSS) for f in SIX}
    return ReportedGame(results=results, ended_by=ended_by, turns=turns, **kw)  # type: ignore[arg-type]


def lolv_report(turns: int) -> dict[str, object]:
    rows = [{"player": p, "result": "solo_stronghold" if p == 1 else "loss"} for p in range(1, 7)]
    return {"turns": turns, "ended_by": "victory", "results": rows}


SEATS = dict(zip(range(1, 7), SIX, strict=True))


def test_0_02_lolv_report_of_12_turns_refused() -> None:
    """LoLV 0.02: a game lasts at most 10 turns; a report claiming 12 is refused citing 0.02."""
    with pytest.raises(ReportShapeError) as err:
        validated("lolv", lolv_report(12), SEATS)
    assert err.value.rule == "0.02" and err.value.field == "turns" and err.value.value == 12
    assert "from 1 to 10" in str(err.value)
    assert validated("lolv", lolv_report(10), SEATS).turns == 10


def test_wbc_heats_last_10_turns_and_the_final_15() -> None:
    """WBC Preliminary Heat Duration (10 turns) and Final Round Duration (15 turns)."""
    with pytest.raises(ResultRefused) as err:
        check_result(WBC, game({"atreides": R.SOLO_STRONGHOLD}, turns=11))
    assert err.value.rule == "WBC Preliminary Heat Duration" and err.value.field == "turns"
    check_result(WBC, game({"atreides": R.SOLO_STRONGHOLD}, turns=15, round_kind="final"))
    with pytest.raises(ResultRefused) as err:
        check_result(WBC, game({"atreides": R.SOLO_STRONGHOLD}, turns=16, round_kind="final"))
    assert err.value.rule == "WBC Final Round Duration"


def test_turn_limits_have_one_home_the_ruleset() -> None:
    """The clock limits and the formats read the ruleset's turn limit per round kind."""
    assert (LOLV.turn_limit_for("heat"), LOLV.turn_limit_for("final")) == (10, 10)
    assert (WBC.turn_limit_for("heat"), WBC.turn_limit_for("final")) == (10, 15)
    for limit in LIMITS.values():
        assert limit.max_turns == get_ruleset(limit.ruleset).turn_limit_for(limit.round_kind)
    for fmt in FORMATS.values():
        for kind in ("heat", "final"):
            assert fmt.turn_limit(kind) == fmt.ruleset.turn_limit_for(kind)
    for rs in RULESETS.values():
        assert max(r.turns for r in rs.rounds.values()) == rs.max_turns
    with pytest.raises(UnknownIdentifier):
        WBC.turn_limit_for("semifinal")


def test_wbc_qp_two_simultaneous_solo_wins_lolv_4_01_12_one() -> None:
    """WBC QP: two unallied players may both win at one Mentat Pause; LoLV 4.01.12: only the
    first in storm order wins, so two solo winners are refused citing 4.01.12."""
    both = {"atreides": R.SOLO_STRONGHOLD, "emperor": R.SOLO_STRONGHOLD}
    check_result(WBC, game(both))
    with pytest.raises(ResultRefused) as err:
        check_result(LOLV, game(both))
    assert err.value.rule == "4.01.12" and err.value.faction == "emperor"


def test_2_04_09_00_fremen_special_needs_the_guild_in_lolv_only() -> None:
    """LoLV 2.04.09.00: without the Guild the Fremen special victory does not exist; AH IV.B
    (WBC) has no such condition."""
    five = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen")
    results = {f: R.FREMEN_SPECIAL_SOLO if f == "fremen" else R.LOSS for f in five}
    check_result(WBC, ReportedGame(results=results, ended_by="turn_limit", turns=10))
    with pytest.raises(ResultRefused) as err:
        check_result(LOLV, ReportedGame(results=results, ended_by="turn_limit", turns=10))
    assert err.value.rule == "2.04.09.00"


def test_wbc_three_faction_alliance_default_victory() -> None:
    """WBC QP: a 3-faction alliance's default victory is one kind with its stronghold victory;
    at the end of the last turn it is the Guild's (or the Fremen's) side that wins."""
    three = {"guild": R.THREE_ALLIANCE, "atreides": R.THREE_ALLIANCE, "emperor": R.THREE_ALLIANCE}
    check_result(WBC, game(three, turns=10, ended_by="turn_limit"))
    others = {"atreides": R.THREE_ALLIANCE, "emperor": R.THREE_ALLIANCE, "harkonnen": R.THREE_ALLIANCE}
    with pytest.raises(ResultRefused) as err:
        check_result(WBC, game(others, turns=10, ended_by="turn_limit"))
    assert err.value.rule == "AH IV.C"


def test_4_01_12_one_winning_side_named_by_players() -> None:
    """LoLV 4.01.12: one side wins; the message names the players, not ids."""
    won = {"atreides": R.SOLO_STRONGHOLD, "emperor": R.ALLIED_STRONGHOLD, "harkonnen": R.ALLIED_STRONGHOLD}
    with pytest.raises(ResultRefused) as err:
        check_result(LOLV, game(won, names={"atreides": "Ann", "emperor": "Cy"}))
    assert err.value.rule == "4.01.12" and err.value.faction == "emperor"
    assert "Cy wins with an allied stronghold victory while Ann wins with a solo" in str(err.value)


def test_1_10_01_04_one_alliance_each_and_the_bg_predicts_another() -> None:
    """LoLV 1.10.01.04 (AH XII.C.4): a faction belongs to one alliance at a time; LoLV 2.02.03:
    the Bene Gesserit predicts another faction's win."""
    won = {"atreides": R.SOLO_STRONGHOLD}
    twice = (frozenset({"emperor", "fremen"}), frozenset({"fremen", "guild"}))
    with pytest.raises(ResultRefused) as err:
        check_result(LOLV, game(won, alliances=twice))
    assert err.value.rule == "1.10.01.04" and err.value.faction == "fremen" and err.value.field == "alliances"
    with pytest.raises(ResultRefused) as err:
        check_result(LOLV, game({"bene_gesserit": R.BG_PREDICTION}, predicted="bene_gesserit"))
    assert err.value.rule == "2.02.03" and err.value.field == "predicted"
