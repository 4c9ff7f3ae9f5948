"""Round and table clocks: time limits, breaks, extensions and call-the-clock timers.

Modules, one topic each:

- `limits`: the limits of each format as data and the deadline arithmetic (pure Python).
- `models`: a clock per table with its pauses, extensions and history; call timers.
- `services`: what judges do (start, pause, resume, extend, waive, finish, call the clock),
  atomic and timed by the database.
- `transitions`: how time moves clocks: conditional updates against the database's `now()`.
- `tasks`: `clocks.sweep` (beat, every 15 s, exactly one beat process) and
  `clocks.fire_deadline` (armed with an ETA a few minutes ahead at most, never revoked).
- `game_log`: the one place that talks to the table's game log (gameplay.services).
- `presenters`, `api`, `views`, `templatetags.clocks`: what pages and the API show.
"""
