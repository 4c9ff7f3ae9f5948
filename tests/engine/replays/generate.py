"""Generate the golden replays deterministically.

`wbc_10_turns_6_players.jsonl` (full tracking) and `lolv_quick_tracking_victory.jsonl`
(a LoLV table followed by quick tracking until a stronghold victory).

Run: `.venv/bin/python tests/engine/replays/generate.py` (rewrites the file). A seeded
random judge records a whole 10-turn, 6-player WBC game through `apply`: storm, worms and
nexus alliances, bidding, revival, shipments and moves, battles resolved by removing the
loser's forces, collection, the Mentat Pause and the end of the last turn. Every event is
legal by construction (each candidate is tried with `apply`; refused ones are dropped).

The file holds one event dict per line (canonical `to_dict()` form), then a last line `{"expected": evaluate(final).to_dict(),
"snapshot": dump_position(final)}`.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from dune.engine.board import TERRITORIES  # noqa: E402
from dune.engine.choices import legal_choices  # noqa: E402
from dune.engine.codec.position import dump_position  # noqa: E402
from dune.engine.errors import RuleViolation  # noqa: E402
from dune.engine.evaluation import evaluate  # noqa: E402
from dune.engine.events import event_from_dict  # noqa: E402
from dune.engine.game_log import apply  # noqa: E402
from dune.engine.position import Position  # noqa: E402

OUT = Path(__file__).resolve().parent / "wbc_10_turns_6_players.jsonl"
FACTIONS = ["atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild"]


class Judge:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.pos = Position()
        self.log: list[dict[str, Any]] = []

    def try_(self, event: dict[str, Any]) -> bool:
        try:
            self.pos = apply(self.pos, event)
        except RuleViolation:
            return False
        self.log.append(event)
        return True

    def must(self, event: dict[str, Any]) -> None:
        self.pos = apply(self.pos, event)
        self.log.append(event)

    # --- the judge's record of one turn ---------------------------------------------------

    def phase(self, name: str) -> None:
        self.must({"type": "phase_advanced", "phase": name})

    def stacks(self, faction: str) -> list[tuple[str, int | None, tuple[int, int, int]]]:
        return sorted(
            ((t, s, st) for (f, t, s), st in self.pos.forces.items() if f == faction),
            key=lambda x: (x[0], -1 if x[1] is None else x[1]),
        )

    def random_piece(self, territory: str) -> int | None:
        sectors = TERRITORIES[territory].sectors
        return self.rng.choice(sectors) if sectors else None

    def bookkeeping(self, faction: str, n: int) -> None:
        """Spice and card updates: the bulk of a real judge's record."""
        for _ in range(n):
            st = self.pos.states[faction]
            r = self.rng.random()
            if r < 0.45:
                delta = self.rng.randint(-min(st.spice or 0, 3), 4)
                if delta:
                    self.try_({"type": "spice_changed", "faction": faction, "delta": delta})
            elif r < 0.75:
                limit = self.pos.sheet(faction).hand_limit
                self.try_({"type": "cards_set", "faction": faction, "count": self.rng.randint(0, limit)})
            else:
                self.try_({"type": "spice_set", "faction": faction, "amount": self.rng.randint(0, 20)})

    def shipment_and_move(self, faction: str) -> None:
        st = self.pos.states[faction]
        assert st.reserves is not None
        if st.reserves[0] and faction != "fremen":
            for _ in range(6):
                t = self.rng.choice(sorted(TERRITORIES))
                if TERRITORIES[t].expansion:
                    continue
                n = self.rng.randint(1, min(4, st.reserves[0]))
                if self.try_(
                    {
                        "type": "forces_placed",
                        "faction": faction,
                        "territory": t,
                        "sector": self.random_piece(t),
                        "normal": n,
                    }
                ):
                    break
        if faction == "guild" and self.rng.random() < 0.3:
            self.move(faction, via="cross_ship")  # the Guild's site-to-site shipment (AH IX.C.1.g.ii)
        self.move(faction)

    def move(self, faction: str, via: str = "move") -> None:
        """One legal movement (LoLV 1.06.04.01, AH IX.C.2.b), picked from the engine's own
        listing; a group of several tokens is sometimes recorded in two events."""
        listing = legal_choices(self.pos, "forces_moved")["choices"]
        rows = [r for r in (listing or {}).get("moves", {}).get(faction, []) if r["via"] == via]
        if not rows or self.rng.random() < 0.15:
            return
        row = self.rng.choice(rows)
        dest = self.rng.choice(row["to"])
        forces = dict(row["forces"])
        if self.rng.random() < 0.4 and forces["normal"] > 1:
            forces["normal"] = self.rng.randint(1, forces["normal"])
        base = {
            "type": "forces_moved",
            "faction": faction,
            "from_territory": row["from"]["territory"],
            "from_sector": row["from"]["sector"],
            "to_territory": dest["territory"],
            "to_sector": dest["sector"],
            "via": via,
        }
        if forces["normal"] > 1 and self.rng.random() < 0.3:
            first = self.rng.randint(1, forces["normal"] - 1)
            self.must({**base, "normal": first})
            self.must(
                {
                    **base,
                    "normal": forces["normal"] - first,
                    "special": forces["special"],
                    "advisors": forces["advisors"],
                }
            )
        else:
            self.must({**base, **forces})

    def battles(self) -> None:
        for battle in evaluate(self.pos).battles:
            territory = battle.territory
            winner, losers = battle.factions[0], battle.factions[1:]
            for loser in losers:
                for (f, t, s), (n, sp, a) in list(self.pos.forces.items()):
                    if f == loser and t == territory:
                        self.try_(
                            {
                                "type": "forces_removed",
                                "faction": f,
                                "territory": t,
                                "sector": s,
                                "normal": n,
                                "special": sp,
                                "advisors": a,
                            }
                        )
                leaders = self.pos.sheet(loser).leaders
                st = self.pos.states[loser]
                alive = [
                    ld.id for ld, (status, _c) in zip(leaders, st.leaders, strict=True) if status == "active"
                ]
                if alive and self.rng.random() < 0.4:
                    self.try_(
                        {
                            "type": "leader_changed",
                            "faction": loser,
                            "leader": alive[0],
                            "status": "tanks_face_up",
                        }
                    )
            for (f, t, s), (n, _sp, _a) in list(self.pos.forces.items()):
                if f == winner and t == territory and n > 1:
                    self.try_(
                        {
                            "type": "forces_removed",
                            "faction": f,
                            "territory": t,
                            "sector": s,
                            "normal": self.rng.randint(1, n - 1),
                        }
                    )

    def no_winner(self) -> None:
        """Keep the game going to its tenth turn: a qualifying side loses a stronghold."""
        while True:
            ev = evaluate(self.pos)
            if ev.victory is None:
                return
            side = ev.victory.winners
            held = sorted(s for s, c in ev.control.items() if c in side)
            for (f, t, s), (n, sp, a) in list(self.pos.forces.items()):
                if t == held[0] and f in side:
                    self.must(
                        {
                            "type": "forces_removed",
                            "faction": f,
                            "territory": t,
                            "sector": s,
                            "normal": n,
                            "special": sp,
                            "advisors": a,
                        }
                    )

    def turn(self, number: int) -> None:
        rng = self.rng
        if number == 1:
            self.phase("storm")  # later turns start in the storm phase (turn_advanced)
            self.must({"type": "storm_placed", "sector": rng.randint(0, 17)})
        else:
            self.must({"type": "storm_moved", "sectors": rng.randint(2, 6)})
        self.phase("spice_blow")
        if number > 1 and rng.random() < 0.6:
            self.must({"type": "worm", "territory": None, "karama": rng.random() < 0.1})
            if rng.random() < 0.5:
                self.move("fremen", via="worm")  # riding the worm (AH VII.A.2.b)
            for _ in range(2):
                a, b = rng.sample(FACTIONS, 2)
                if rng.random() < 0.5:
                    self.try_({"type": "alliance_formed", "factions": [a, b]})
                else:
                    self.try_({"type": "alliance_broken", "faction": a})
        self.phase("bidding")
        for f in FACTIONS:
            self.bookkeeping(f, 12)
        self.phase("revival")
        for f in FACTIONS:
            st = self.pos.states[f]
            assert st.tanks is not None
            if st.tanks[0]:
                self.try_({"type": "forces_revived", "faction": f, "normal": min(3, st.tanks[0])})
        self.phase("shipment_movement")
        for f in evaluate(self.pos).storm_order:
            self.shipment_and_move(f)
            self.bookkeeping(f, 11)
        self.phase("battle")
        for side in evaluate(self.pos).win_attempts:
            self.try_({"type": "win_attempt_confirmed", "factions": side, "note": "proposed by the engine"})
        self.battles()
        self.phase("spice_collection")
        for f in FACTIONS:
            self.bookkeeping(f, 8)
        self.phase("mentat_pause")
        self.no_winner()
        if number < 10:
            self.must({"type": "turn_advanced", "turn": number + 1})


def generate(seed: int = 1979) -> tuple[list[dict[str, Any]], Position]:
    judge = Judge(seed)
    judge.must(
        {
            "type": "game_setup",
            # Recorded under the first edition of the rulings, and saying so.
            "edition": 1,
            "v": 1,
            "ruleset": "wbc2018",
            "factions": FACTIONS,
            "markers": {f: dot for f, dot in zip(FACTIONS, (1, 4, 7, 10, 13, 16), strict=True)},
            "seed": seed,
            "placements": [
                {"faction": "fremen", "territory": "sietch_tabr", "sector": 13, "normal": 4, "special": 2},
                {"faction": "fremen", "territory": "false_wall_south", "sector": 4, "normal": 2},
                {"faction": "fremen", "territory": "false_wall_west", "sector": 16, "normal": 2},
                {"faction": "bene_gesserit", "territory": "polar_sink", "sector": None, "normal": 1},
            ],
            "bg_prediction": {"faction": "harkonnen", "turn": 7},
        }
    )
    for number in range(1, 11):
        judge.turn(number)
    judge.must({"type": "last_turn_ended"})
    judge.must({"type": "game_ended", "reason": "turn limit"})
    return judge.log, judge.pos


QUICK_OUT = Path(__file__).resolve().parent / "lolv_quick_tracking_victory.jsonl"
LOLV = ["atreides", "bene_gesserit", "fremen", "harkonnen", "guild", "ixians"]
STRONGHOLDS = [
    "arrakeen",
    "carthag",
    "tueks_sietch",
    "sietch_tabr",
    "habbanya_sietch",
    "hidden_mobile_stronghold",
]


def _quick_record(judge: Judge, *, allow_victory: bool) -> None:
    """The judge's tap grid: up to two factions per stronghold, allies never together."""
    rng = judge.rng
    for _attempt in range(50):
        occupants: dict[str, list[str]] = {}
        coexisting: list[str] = []
        for s in STRONGHOLDS + (["shield_wall@8"] if judge.pos.worms >= 4 else []):
            present = rng.sample(LOLV, rng.choice([0, 1, 1, 1, 2]))
            if any(set(judge.pos.allies_of(f)) & set(present) for f in present):
                present = present[:1]
            if present:
                occupants[s] = present
            if "bene_gesserit" in present and len(present) == 2 and rng.random() < 0.7:
                coexisting.append(s)
        event = {
            "type": "quick_record",
            "occupants": occupants,
            "coexisting": coexisting,
            "storm": judge.pos.storm,
            "worms": judge.pos.worms,
        }
        before = judge.pos
        if not judge.try_(event):
            continue
        if allow_victory or evaluate(judge.pos).victory is None:
            return
        judge.pos = before
        judge.log.pop()
    raise RuntimeError("no record without a winner found")


def generate_quick(seed: int = 2024) -> tuple[list[dict[str, Any]], Position]:
    """A LoLV table followed by quick tracking until a stronghold victory in turn 7."""
    judge = Judge(seed)
    judge.must(
        {
            "type": "game_setup",
            # Recorded under the first edition of the rulings, and saying so.
            "edition": 1,
            "ruleset": "lolv-2.8.4",
            "factions": LOLV,
            "markers": {f: dot for f, dot in zip(LOLV, (1, 4, 7, 10, 13, 16), strict=True)},
            "seed": seed,
            "quick": True,
            "placements": [{"faction": "fremen", "territory": "sietch_tabr", "sector": 13, "normal": 10}],
            "bg_prediction": {"faction": "guild", "turn": 9},
        }
    )
    rng = judge.rng
    for number in range(1, 8):
        if number == 1:
            judge.phase("storm")
            judge.must({"type": "storm_placed", "sector": rng.randint(0, 17)})
        else:
            judge.must({"type": "storm_moved", "sectors": rng.randint(2, 6)})
        judge.phase("spice_blow")
        if number > 1:
            for _ in range(rng.choice([0, 1, 1, 2])):
                judge.must({"type": "worm", "karama": rng.random() < 0.2})
            if judge.pos.nexus and number in (3, 5):
                a, b = rng.sample(LOLV, 2)
                judge.try_({"type": "alliance_formed", "factions": [a, b]})
        judge.phase("battle")
        _quick_record(judge, allow_victory=False)
        for side in evaluate(judge.pos).win_attempts:
            judge.must({"type": "win_attempt_confirmed", "factions": side, "note": ""})
        judge.phase("mentat_pause")
        if number < 7:
            _quick_record(judge, allow_victory=False)
        else:
            winner = next(f for f in ("harkonnen", "atreides", "guild") if len(judge.pos.side_of(f)) == 1)
            held = {s: [winner] for s in ("carthag", "arrakeen", "tueks_sietch")}
            judge.must(
                {
                    "type": "quick_record",
                    "occupants": {
                        **held,
                        "sietch_tabr": ["fremen"],
                        "habbanya_sietch": ["bene_gesserit", "fremen"],
                    },
                    "coexisting": ["habbanya_sietch"],
                    "storm": judge.pos.storm,
                    "worms": judge.pos.worms,
                }
            )
        won = evaluate(judge.pos).victory
        if won is not None:
            judge.must({"type": "victory_claimed", "winners": list(won.winners), "kind": str(won.kind)})
            judge.must({"type": "game_ended", "reason": "stronghold victory"})
            return judge.log, judge.pos
        judge.must({"type": "turn_advanced", "turn": number + 1})
    raise RuntimeError("the quick game found no winner")


def _write(path: Path, log: list[dict[str, Any]], final: Position) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for event in log:
            # The canonical form, as the event log stores it (type, v and every field).
            fh.write(json.dumps(event_from_dict(event).to_dict(), sort_keys=True) + "\n")
        fh.write(
            json.dumps(
                {"expected": evaluate(final).to_dict(), "snapshot": dump_position(final)}, sort_keys=True
            )
            + "\n"
        )
    print(f"wrote {len(log)} events to {path}")


def main() -> None:
    _write(OUT, *generate())
    _write(QUICK_OUT, *generate_quick())


if __name__ == "__main__":
    main()
