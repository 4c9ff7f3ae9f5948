"""Pure points systems: game reports in, standings, finalists, placings and awards out.

Nothing here imports Django. A tournament's points system is its format's
(`dune.formats.get_format(key).points`); the registry by key is private to the cores.
"""

from __future__ import annotations

from dune.points.awards import (
    MEASURES,
    Award,
    AwardMeasure,
    award_measure,
    awards_from,
    best_faction_awards,
    faction_leaderboard,
    faction_scores,
    leaderboard_from,
    normalised_pp,
    strongholds_per_turn,
)
from dune.points.base import Finalists, PlayerId, ReportRow, ScoringSystem, StandingRow, TableResult
from dune.points.errors import (
    ReportError,
    ReportShapeError,
    ResultKindError,
    ScoringError,
    StandingsError,
    TieAtCutError,
    UnknownSystemError,
    UnsupportedResultError,
    WinnersContradictResultError,
)
from dune.points.lolv import LoLVSystem
from dune.points.placings import Placing, check_final, final_placings
from dune.points.ranking import Precedence, Tiebreaker, competition_ranks
from dune.points.report import validate_report
from dune.points.serialize import report_to_data, table_result_from_data
from dune.points.system import PointsSystem
from dune.points.wbc import WBCSystem

__all__ = [
    "MEASURES",
    "Award",
    "AwardMeasure",
    "award_measure",
    "strongholds_per_turn",
    "Finalists",
    "LoLVSystem",
    "Placing",
    "PlayerId",
    "PointsSystem",
    "Precedence",
    "ReportError",
    "ReportRow",
    "ReportShapeError",
    "ResultKindError",
    "ScoringError",
    "ScoringSystem",
    "StandingRow",
    "StandingsError",
    "TableResult",
    "TieAtCutError",
    "Tiebreaker",
    "UnknownSystemError",
    "UnsupportedResultError",
    "WBCSystem",
    "WinnersContradictResultError",
    "awards_from",
    "best_faction_awards",
    "faction_scores",
    "leaderboard_from",
    "competition_ranks",
    "faction_leaderboard",
    "final_placings",
    "check_final",
    "normalised_pp",
    "report_to_data",
    "table_result_from_data",
    "validate_report",
]
