"""Moved to `dune.engine.tracked_report_check` (a name that says what it decides); this name keeps old imports working."""

from dune.engine.tracked_report_check import *  # noqa: F403
