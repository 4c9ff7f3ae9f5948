"""Moved to `dune.engine.time_up_ranking` (a name that says what it decides); this name keeps old imports working."""

from dune.engine.time_up_ranking import *  # noqa: F403
