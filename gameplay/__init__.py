"""A published table's game: the append-only event log on top of the rules engine.

- `models`: Game (latest position and evaluation), GameEvent (the log), GameSnapshot;
- `services`: the interface other apps call (game_for, current_position, append_event,
  prefill_report, StaleWrite);
- `engine_adapter`: the one place this layer calls `dune.engine`;
- `api` / `views`: `/api/tables/{id}/game/...` and the table judge's page `/tables/{id}/`.
"""
