"""Moved to `dune.engine.result_check` (a name that says what it decides); this name keeps old imports working."""

from dune.engine.result_check import *  # noqa: F403
