"""Generate the battle replays: one log per ruleset with a battle of each kind.

Run: `.venv/bin/python tests/engine/replays/battles/generate.py` (rewrites `battles_<ruleset>.jsonl`).
Five turns of a six-player game, each with one battle recorded as the engine's `battle` event:

1. a traitor: the Harkonnen call Duncan Idaho a traitor in Arrakeen (the Atreides lose their ten
   forces there: the Kwisatz Haderach awakens);
2. the Kwisatz Haderach and a capture: Thufir Hawat with the Kwisatz Haderach loses to
   Feyd-Rautha, and the Harkonnen capture Lady Jessica;
3. a captive used once: the Harkonnen play Lady Jessica, lose, and she goes home;
4. two traitors: the Emperor and the Guild both call a traitor in Tuek's Sietch;
5. an explosion: a lasgun meets a shield on the Great Flat, taking the Fremen, the Bene
   Gesserit's advisor (coexisting tokens under AH and WBC) and the spice there with it.

Each file holds one event dict per line, then `{"expected": evaluate(final).to_dict(),
"snapshot": dump_position(final)}`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT))

from dune.engine.codec.position import dump_position  # noqa: E402
from dune.engine.editions import ACCOUNTED  # noqa: E402
from dune.engine.evaluation import evaluate  # noqa: E402
from dune.engine.events import event_from_dict  # noqa: E402
from dune.engine.game_log import replay  # noqa: E402
from tests.engine.helpers import LOLV, setup_event  # noqa: E402

HERE = Path(__file__).resolve().parent
RULESETS = ("ah1979", "wbc2018", LOLV)


def path_for(ruleset: str) -> Path:
    return HERE / f"battles_{ruleset.replace('-', '_').replace('.', '_')}.jsonl"


def _plan(ruleset: str, faction: str, dial: int, **kw: Any) -> dict[str, Any]:
    """A plan; under spice dialing (WBC, LoLV Advanced) each force dialed is paid for."""
    plan = {"faction": faction, "dial": dial, **kw}
    if ruleset != "ah1979" and faction != "fremen":
        plan["spice"] = dial
    return plan


def _phase(name: str) -> dict[str, Any]:
    return {"type": "phase_advanced", "phase": name}


def _ship(faction: str, territory: str, sector: int | None, normal: int = 0, advisors: int = 0) -> dict[str, Any]:
    return {
        "type": "forces_placed",
        "faction": faction,
        "territory": territory,
        "sector": sector,
        "normal": normal,
        "advisors": advisors,
    }


def log_for(ruleset: str) -> list[dict[str, Any]]:
    p = lambda *a, **k: _plan(ruleset, *a, **k)  # noqa: E731
    # Recorded under the fourth edition and kept so: a log replays under the edition it names.
    setup = setup_event(ruleset, edition=ACCOUNTED)
    log: list[dict[str, Any]] = [setup, _phase("storm"), {"type": "storm_placed", "sector": 0}]
    # Turn 1: a traitor.
    log += [
        _phase("shipment_movement"),
        _ship("harkonnen", "arrakeen", 9, 6),
        _phase("battle"),
        {
            "type": "battle",
            "territory": "arrakeen",
            "aggressor": p("atreides", 3, leader="duncan_idaho", weapon="crysknife"),
            "defender": p("harkonnen", 1, leader="beast_rabban", traitor=True),
        },
        _phase("mentat_pause"),
        {"type": "turn_advanced", "turn": 2},
    ]
    # Turn 2: the Kwisatz Haderach, and a capture.
    log += [
        _phase("shipment_movement"),
        _ship("atreides", "arrakeen", 9, 5),
        _phase("battle"),
        {
            "type": "battle",
            "territory": "arrakeen",
            "aggressor": p("atreides", 2, leader="thufir_hawat", kwisatz_haderach=True),
            "defender": p("harkonnen", 5, leader="feyd_rautha"),
            "capture": {"faction": "atreides", "leader": "lady_jessica"},
        },
        _phase("mentat_pause"),
        {"type": "turn_advanced", "turn": 3},
    ]
    # Turn 3: the captive fights once and goes home.
    log += [
        _phase("shipment_movement"),
        _ship("atreides", "arrakeen", 9, 4),
        _phase("battle"),
        {
            "type": "battle",
            "territory": "arrakeen",
            "aggressor": p("atreides", 2, leader="gurney_halleck", kwisatz_haderach=True),
            "defender": p("harkonnen", 1, leader="lady_jessica", leader_of="atreides"),
        },
        _phase("mentat_pause"),
        {"type": "turn_advanced", "turn": 4},
    ]
    # Turn 4: two traitors.
    log += [
        _phase("shipment_movement"),
        _ship("emperor", "tueks_sietch", 4, 4),
        _phase("battle"),
        {
            "type": "battle",
            "territory": "tueks_sietch",
            "aggressor": p("emperor", 2, leader="caid", traitor=True),
            "defender": p("guild", 2, leader="staban_tuek", traitor=True),
        },
        _phase("mentat_pause"),
        {"type": "turn_advanced", "turn": 5},
    ]
    # Turn 5: a lasgun meets a shield on the Great Flat.
    log += [
        _phase("spice_blow"),
        {"type": "spice_blow", "territory": "the_great_flat"},
        _phase("shipment_movement"),
        _ship("emperor", "the_great_flat", 14, 3),
        _ship("guild", "the_great_flat", 14, 2),
        _ship("fremen", "the_great_flat", 14, 3),
    ]
    if ruleset == LOLV:
        log.append(_ship("bene_gesserit", "the_great_flat", 14, advisors=1))
    else:
        log.append(_ship("bene_gesserit", "the_great_flat", 14, 1))
        log.append({"type": "coexistence_declared", "territory": "the_great_flat"})
    log += [
        _phase("battle"),
        {
            "type": "battle",
            "territory": "the_great_flat",
            "aggressor": p("emperor", 1, leader="burseg", weapon="lasgun"),
            "defender": p("guild", 1, leader="master_bewt", defense="shield"),
        },
    ]
    return [event_from_dict(e).to_dict() for e in log]


def main() -> None:
    for ruleset in RULESETS:
        log = log_for(ruleset)
        final = replay(log)
        with open(path_for(ruleset), "w", encoding="utf-8") as fh:
            for event in log:
                fh.write(json.dumps(event, sort_keys=True) + "\n")
            fh.write(
                json.dumps({"expected": evaluate(final).to_dict(), "snapshot": dump_position(final)}, sort_keys=True)
                + "\n"
            )
        print(path_for(ruleset).name, len(log), "events")


if __name__ == "__main__":
    main()
