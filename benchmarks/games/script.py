"""A game script (`benchmarks/games/*.toml`, documented in README.md beside it) as the rules
engine's events, turn by turn.

What a script states is what happened at the table; the events are what a judge records for it.
Some events depend on the position they are recorded in (the storm order of the shipments and
moves, the CHOAM Charity and the collection the engine derives, the turn's phases), so each turn
is a list of steps, each a function of the position before it answering one event dict (or None
when there is nothing to record). The engine's own replay (`tests/benchmarks/test_game_scripts.py`)
and the phone's (`benchmarks/table_phone.py --game FILE`) walk the same steps.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dune.engine.board import TERRITORIES
from dune.engine.editions import CURRENT
from dune.engine.events import event_from_dict
from dune.engine.income import charity_due, collection_due, income_due
from dune.engine.payments import ambassador_price, own_revival_price, shipment_price
from dune.engine.storm import storm_order
from dune.formats import get_format
from dune.seating import marker_sector

GAMES = Path(__file__).resolve().parent
Position = Any
Step = Callable[[Position], "dict[str, Any] | None"]


@dataclass(frozen=True)
class Script:
    path: Path
    game: Mapping[str, Any]
    turns: list[Mapping[str, Any]]
    final: Mapping[str, Any]

    @property
    def name(self) -> str:
        return str(self.game.get("title") or self.path.stem)


def load(path: str | Path) -> Script:
    p = Path(path)
    data = tomllib.loads(p.read_text(encoding="utf-8"))
    return Script(path=p, game=data["game"], turns=list(data.get("turns", [])), final=data.get("final", {}))


def setup_event(script: Script) -> dict[str, Any]:
    """The `game_setup` a table seated in the script's order records (as
    `gameplay.services.setup_event_for` does for a final in full tracking)."""
    game = script.game
    rules = get_format(game["format"])
    factions = list(game["factions"])
    kind = game.get("round", "final")
    return {
        "type": "game_setup",
        "ruleset": rules.ruleset.key,
        "factions": factions,
        "markers": {f: marker_sector(seat, len(factions)) for seat, f in enumerate(factions, start=1)},
        "turns": rules.turn_limit(kind),
        "quick": False,
        "options": list(rules.setup_options),
        "three_alliances": rules.ruleset.most_allies(len(factions), kind) == 3,
        "automatic_losses": True,
        "edition": CURRENT,
        "placements": [_placement(p) for p in game.get("placements", [])],
    }


def _placement(p: Mapping[str, Any]) -> dict[str, Any]:
    territory, sector = piece(p["to"], p.get("sector"))
    return {"faction": p["faction"], "territory": territory, "sector": sector,
            "normal": p.get("normal", 0), "special": p.get("special", 0)}


def piece(territory: str, sector: int | None = None) -> tuple[str, int | None]:
    """A territory and its sector: the one named, else the territory's first."""
    if sector is not None:
        return territory, sector
    sectors = TERRITORIES[territory].sectors
    return territory, (sectors[0] if sectors else None)


def _phase(name: str) -> Step:
    def step(pos: Position) -> dict[str, Any] | None:
        if pos.phase == name:
            return None
        return {"type": "phase_advanced", "phase": name}
    step.phase = name  # type: ignore[attr-defined]  # a replayer may reach it with the form before
    return step


def phase_of(step: Step) -> str | None:
    """The phase a step moves the game on to, or None for a step that records something."""
    return getattr(step, "phase", None)


def _fixed(event: dict[str, Any]) -> Step:
    return lambda pos: dict(event)


def _in_storm_order(pos: Position, rows: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    order = storm_order(pos) or []
    return sorted(rows, key=lambda r: (order.index(r["faction"]) if r["faction"] in order else 99))


def _shipment(row: Mapping[str, Any]) -> dict[str, Any]:
    territory, sector = piece(row["to"], row.get("sector"))
    return {"type": "forces_placed", "faction": row["faction"], "territory": territory, "sector": sector,
            "normal": row.get("normal", 0), "special": row.get("special", 0), "source": "reserves"}


def _move(row: Mapping[str, Any]) -> dict[str, Any]:
    territory, sector = piece(row["from"], row.get("from_sector"))
    to, to_sector = piece(row["to"], row.get("to_sector"))
    return {"type": "forces_moved", "faction": row["faction"], "from_territory": territory, "from_sector": sector,
            "to_territory": to, "to_sector": to_sector, "normal": row.get("normal", 0),
            "special": row.get("special", 0)}


def _actions(turn: Mapping[str, Any]) -> Step:
    """Every faction's shipment then move, in storm order (AH IX.C, LoLV 1.06.01): one step per
    event, in the order the position gives at the start of the phase."""
    rows = [dict(r, kind="ship") for r in turn.get("shipments", [])] + [dict(r, kind="move") for r in turn.get("moves", [])]
    queue: list[dict[str, Any]] = []

    def step(pos: Position) -> dict[str, Any] | None:
        if not rows and not queue:
            return None
        if rows:
            by_faction: dict[str, list[dict[str, Any]]] = {}
            for r in _in_storm_order(pos, rows):
                by_faction.setdefault(r["faction"], []).append(r)
            for mine in by_faction.values():
                mine.sort(key=lambda r: r["kind"] != "ship")  # its shipment before its move
                queue.extend(_shipment(r) if r["kind"] == "ship" else _move(r) for r in mine)
            rows.clear()
        if queue and queue[0]["type"] == "forces_placed":
            return _priced(queue.pop(0))(pos)
            rows.clear()
        return queue.pop(0) if queue else None
    return step


def _priced(event: dict[str, Any]) -> Step:
    """A shipment or revival with the rules' price, as the table page's empty cost sends it."""
    def step(pos: Position) -> dict[str, Any]:
        typed = event_from_dict(event)
        price = shipment_price(pos, typed) if event["type"] == "forces_placed" else own_revival_price(pos, typed)  # type: ignore[arg-type]
        return event if price is None else {**event, "cost": price}
    return step


def _repeat(step: Step, times: int) -> list[Step]:
    return [step] * times


def _charity(pos: Position) -> dict[str, Any] | None:
    due = charity_due(pos)
    return {"type": "charity_collected", "amounts": due or {}}


def _harvest(pos: Position) -> dict[str, Any] | None:
    collections = [{"faction": f, "territory": t, "amount": n} for f, t, n in collection_due(pos)]
    income = income_due(pos)
    if not collections and not income:
        return None
    return {"type": "spice_harvested", "collections": collections, "income": income}


def _battle(row: Mapping[str, Any]) -> dict[str, Any]:
    def plan(side: Mapping[str, Any]) -> dict[str, Any]:
        out = {"faction": side["faction"], "dial": side.get("dial", 0), "spice": side.get("spice", 0)}
        for key in ("leader", "weapon", "defense", "traitor", "cheap_hero", "lost_normal", "lost_special", "discard"):
            if key in side:
                out[key] = side[key]
        return out
    return {"type": "battle", "territory": row["territory"], "aggressor": plan(row["aggressor"]),
            "defender": plan(row["defender"])}


def pile_tops(script: Script, after_turn: int) -> list[str | None]:
    """The territory on top of Spice discard piles A and B once the turns up to `after_turn` are
    played: a turn's first card goes on pile A, its second on pile B (the double Spice Blow, WBC
    XXI, LoLV 1.13.02), and a worm appears in the territory on top of its own pile (AH VII.A.2.a,
    LoLV 1.02.05, 1.13.02.01-02)."""
    piles: list[str | None] = [None, None]
    for turn in script.turns:
        if int(turn["turn"]) > after_turn:
            break
        blows = turn.get("blows", [])
        if len(blows) > len(piles):
            raise ValueError(f"turn {turn['turn']}: one Spice Blow card a discard pile, at most {len(piles)}")
        for pile, blow in enumerate(blows):
            if blow != "worm":
                piles[pile] = blow
    return piles


def turn_steps(script: Script, turn: Mapping[str, Any]) -> list[Step]:
    """The steps of one turn of the script, in the ruleset's phase order."""
    number = int(turn["turn"])
    lolv = "choam_charity" in get_format(script.game["format"]).ruleset.phases
    steps: list[Step] = []
    if number > 1:
        steps.append(_fixed({"type": "turn_advanced"}))
    if number == 1:  # the storm starts in the setup (AH VI.A, LoLV 0.15)
        steps += [_fixed({"type": "storm_placed", "sector": turn["storm"]}), _phase("storm")]
    else:
        steps += [_phase("storm"), _fixed({"type": "storm_moved", "sectors": turn["storm"]})]
    steps.append(_phase("spice_blow"))
    piles = pile_tops(script, number - 1)
    for pile, blow in enumerate(turn.get("blows", [])):
        if blow == "worm":
            steps.append(_fixed({"type": "worm", "territory": piles[pile], "karama": False}))
        else:
            steps.append(_fixed({"type": "spice_blow", "territory": blow}))
            piles[pile] = blow
    for side in turn.get("alliances", []):
        steps.append(_fixed({"type": "alliance_formed", "factions": list(side)}))
    if lolv:
        steps += [_phase("choam_charity"), _charity, _phase("bidding")]
    else:
        steps += [_phase("bidding"), _charity]
    for bid in turn.get("bids", []):
        if bid.get("faction", "none") == "none":
            steps.append(_fixed({"type": "card_bought", "faction": None}))
        else:
            steps.append(_fixed({"type": "card_bought", "faction": bid["faction"], "price": bid.get("price", 0),
                                 "karama": bid.get("karama", False), "ally_paid": bid.get("ally_paid", 0)}))
    steps.append(_phase("revival"))
    for r in turn.get("revivals", []):
        steps.append(_priced({"type": "forces_revived", "faction": r["faction"], "normal": r.get("normal", 0),
                              "special": r.get("special", 0)}))
    steps.append(_phase("shipment_movement"))
    for amb in turn.get("ambassadors", []):
        event = {"type": "ambassador_placed", "territory": amb["to"], "ambassador": amb["ambassador"]}
        steps.append(lambda pos, event=event: {**event, "cost": ambassador_price(pos)})
    actions = _actions(turn)
    steps += _repeat(actions, len(turn.get("shipments", [])) + len(turn.get("moves", [])))
    steps.append(_phase("battle"))
    steps += [_fixed(_battle(b)) for b in turn.get("battles", [])]
    steps.append(_phase("spice_collection"))
    steps.append(_harvest)
    steps.append(_phase("mentat_pause"))
    if turn.get("end") == "victory":
        steps.append(_fixed({"type": "victory_claimed", "winners": list(turn["winners"]), "kind": None}))
    return steps


def events(script: Script, apply: Callable[[Position, dict[str, Any]], Position], start: Position) -> Iterator[tuple[int, dict[str, Any], Position]]:
    """Each event of the script with its turn, applied with `apply` from `start` (the position
    after the setup): (turn, event, position after it)."""
    pos = start
    for turn in script.turns:
        for step in turn_steps(script, turn):
            event = step(pos)
            if event is None:
                continue
            pos = apply(pos, event)
            yield int(turn["turn"]), event, pos


def final_of(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot in the terms of a script's `[final]`."""
    sheets = snapshot["factions"]
    forces = [
        {k: v for k, v in row.items() if v or k in ("faction", "territory", "normal")}
        for row in snapshot["forces"]
        if row["normal"] + row["special"] + row["advisors"]
    ]
    return {
        "turn": snapshot["turn"],
        "spice": {f: s["spice"] for f, s in sheets.items()},
        "cards": {f: s["cards"] for f, s in sheets.items()},
        "leaders": {f: s["leaders"] for f, s in sheets.items()},
        "tanks": {f: s["tanks"] for f, s in sheets.items()},
        "forces": sorted(forces, key=lambda r: (r["faction"], r["territory"], r.get("sector") or -1)),
        "winners": (snapshot.get("outcome") or {}).get("winners", []),
    }


def stated(script: Script) -> dict[str, Any]:
    final = dict(script.final)
    final["forces"] = sorted((dict(r) for r in final.get("forces", [])),
                             key=lambda r: (r["faction"], r["territory"], r.get("sector") or -1))
    final.setdefault("winners", [])
    return final
