"""WBC Preliminary Heat Duration and Adjudication: when time runs out the GM determines the
winner at the end of the last turn played; from the ninth edition the engine states the result
the criteria determine at that Mentat Pause (`end_of_game`, kind `adjudicated`), and the judge
still confirms it (`adjudication_confirmed`)."""

from __future__ import annotations

from dune.engine.codec.position import load_position
from dune.engine.editions import SEQUENCED
from dune.engine.evaluation import evaluate
from dune.engine.game_log import apply
from tests.engine.helpers import CLASSIC, at, snap

FORCES = [at("harkonnen", "carthag", 5), at("harkonnen", "arrakeen", 3), at("atreides", "tueks_sietch", 2)]


def _pos(**kw: object) -> object:
    per = {f: {"spice": 5, "cards": 1, "leader_status": {}} for f in CLASSIC}
    return load_position(snap("wbc2018", forces=FORCES, phase="mentat_pause", turn=5, time_up="wbc_heat", per_faction=per, **kw))


def test_wbc_heat_duration_the_engine_states_the_adjudicated_result() -> None:
    pos = _pos()
    eog = evaluate(pos).end_of_game
    assert eog is not None and eog.winners == ("harkonnen",) and str(eog.kind) == "adjudicated"
    assert eog.rule == "WBC Preliminary Heat Duration and Adjudication"
    assert evaluate(_pos(edition=SEQUENCED)).end_of_game is None  # as before
    confirmed = apply(pos, {"type": "adjudication_confirmed", "winners": ["harkonnen"]})
    assert confirmed.outcome is not None and confirmed.outcome.winners == ("harkonnen",)
