"""The golden games (tests/engine/replays/) recorded at a table, for the board's page tests:
the log, the latest position and the periodic snapshots written as `append_event` writes
them, without posting two thousand records one by one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dune.engine.events import event_from_dict
from dune.engine.game_log import apply, replay

REPLAYS = Path(__file__).resolve().parents[1] / "engine" / "replays"
WBC = REPLAYS / "wbc_10_turns_6_players.jsonl"
LOLV = REPLAYS / "lolv_quick_tracking_victory.jsonl"


def golden_events(path: Path) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [line for line in lines if "type" in line]


def positions(path: Path) -> list[Any]:
    """The position after each record (index 0: after record #1)."""
    events = golden_events(path)
    out = [replay([event_from_dict(events[0])])]
    for body in events[1:]:
        out.append(apply(out[-1], event_from_dict(body)))
    return out


def golden_table(path: Path, *, kind: str = "heat", judge: Any = None) -> Any:
    """A published table of the golden game's factions, its whole log recorded."""
    from gameplay import engine_adapter as rules
    from gameplay import services
    from gameplay.models import SNAPSHOT_EVERY, Game, GameEvent, GameSnapshot
    from tests.factories import make_players, make_round, make_tournament, seat_table

    events = golden_events(path)
    setup = events[0]
    fmt = "lolv" if setup["ruleset"].startswith("lolv") else "wbc"
    tournament = make_tournament(format=fmt)
    players = make_players(tournament, len(setup["factions"]))
    round_ = make_round(tournament, kind=kind)
    table = seat_table(round_, players, factions=setup["factions"], judge=judge)
    services.start_game(table, setup, user=None)
    game = Game.objects.get(table=table)
    position = services.position_of(game)
    rows, snapshots = [], []
    for seq, body in enumerate(events[1:], start=2):
        event = rules.parse_event(body)
        position = apply(position, event)
        rows.append(GameEvent(game=game, seq=seq, type=event.type, body=rules.event_body(event)))
        if seq % SNAPSHOT_EVERY == 0:
            snapshots.append(GameSnapshot(game=game, seq=seq, position=rules.dump(position)))
    GameEvent.objects.bulk_create(rows)
    GameSnapshot.objects.bulk_create(snapshots)
    game.seq = len(events)
    game.position = rules.dump(position)
    game.evaluation = rules.evaluation(position)
    game.save()
    return table
