"""AH XV.B: in every territory the Bene Gesserit shares with another faction it is assumed in
coexistence unless it states otherwise; WBC XV.6 rules the opposite (a territory not declared
coexisting is not). Under AH from the third edition of the rulings; the second edition read AH
as the WBC does. A stated refusal is remembered for the turn: the assumption comes back only
once every other faction has left and a different one has come in (as WBC XV.8 words it)."""

from __future__ import annotations

from typing import Any

from dune.engine.codec.position import dump_position, load_position
from dune.engine.editions import CORRECTED, REFINED
from dune.engine.evaluation import Evaluation, evaluate
from dune.engine.game_log import apply
from dune.engine.position import Position

from .helpers import at, position

SHIP = {
    "type": "forces_placed",
    "faction": "bene_gesserit",
    "territory": "carthag",
    "sector": 10,
    "normal": 2,
}
HELD = [at("harkonnen", "carthag", 3)]


def _game(ruleset: str, edition: int = REFINED, **kw: Any) -> Position:
    kw.setdefault("forces", HELD)
    kw.setdefault("per_faction", {f: {"tanks": 0} for f in ("bene_gesserit", "emperor", "harkonnen")})
    return position(ruleset=ruleset, edition=edition, phase="shipment_movement", storm=0, **kw)


def test_ah_xv_b_bg_tokens_beside_another_faction_are_assumed_coexisting() -> None:
    pos = apply(_game("ah1979"), SHIP)
    assert "carthag" in pos.coexisting
    assert evaluate(pos).control["carthag"] == "harkonnen"  # no battle, no contest
    assert load_position(dump_position(pos)) == pos
    # The second edition read undeclared tokens as not coexisting.
    assert "carthag" not in apply(_game("ah1979", CORRECTED), SHIP).coexisting


def test_wbc_xv_6_undeclared_tokens_do_not_coexist() -> None:
    pos = apply(_game("wbc2018"), SHIP)
    assert "carthag" not in pos.coexisting
    assert len(evaluate(pos).battles) == 1


def test_ah_xv_b_stating_otherwise_holds_until_a_new_faction_comes() -> None:
    pos = apply(_game("ah1979"), SHIP)
    pos = apply(pos, {"type": "coexistence_declared", "territory": "carthag", "coexisting": False})
    assert "carthag" not in pos.coexisting
    assert load_position(dump_position(pos)) == pos  # the statement survives a snapshot
    leave = {
        "type": "forces_removed",
        "faction": "harkonnen",
        "territory": "carthag",
        "sector": 10,
        "normal": 3,
    }
    pos = apply(pos, leave)
    assert "carthag" not in pos.coexisting
    enter = {"type": "forces_placed", "faction": "emperor", "territory": "carthag", "sector": 10, "normal": 1}
    assert "carthag" in apply(pos, enter).coexisting


def test_ah_xv_b_a_snapshot_reads_shared_territories_as_coexisting() -> None:
    forces = [*HELD, at("bene_gesserit", "carthag", 2)]
    assert "carthag" in _game("ah1979", forces=forces).coexisting
    assert "carthag" not in _game("ah1979", CORRECTED, forces=forces).coexisting
    assert "carthag" not in _game("wbc2018", forces=forces).coexisting
    alone = [at("bene_gesserit", "carthag", 2)]
    assert "carthag" not in _game("ah1979", forces=alone).coexisting


def test_ah_xv_b_the_evaluation_tells_declared_from_assumed() -> None:
    pos = apply(_game("ah1979"), SHIP)
    assert evaluate(pos).to_dict()["coexistence"] == {"declared": [], "assumed": ["carthag"]}
    stated = apply(pos, {"type": "coexistence_declared", "territory": "carthag", "coexisting": True})
    answer = evaluate(stated)
    assert answer.to_dict()["coexistence"] == {"declared": ["carthag"], "assumed": []}
    assert Evaluation.from_dict(answer.to_dict()) == answer
    assert "coexistence" not in evaluate(apply(_game("wbc2018"), SHIP)).to_dict()
