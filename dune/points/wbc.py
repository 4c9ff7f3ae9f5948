"""WBC Dune 2018 qualification points (QP), best-game tiebreak, finals qualification.

The WBC text is not numbered; rules are cited by its section titles ("WBC QP" is the
"Qualification Points" section). Mapping of the shared result kinds onto its QP list:
- "Solo Victory" / "2-Faction Alliance Victory": `solo_stronghold` / `allied_stronghold`.
- The Fremen special win of AH IV.B is scored as the Fremen default (`fremen_special_*` score
  the QP of "Solo/2-Faction Alliance Fremen Default Victory", under their own name), as is
  AH IV.C.1's Fremen win with the Guild absent (`fremen_default_*`).
- The Guild win of AH IV.C is `guild_default_*`.
- A 3-faction alliance win, by strongholds or by default, is `three_alliance`.
- The AH IV.C.1 most-strongholds win (`end_game_*`) needs Guild and Fremen both absent, which a
  WBC table of five or six of the six factions never has: refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from dune.engine.ids import ResultKind
from dune.engine.results import kind_words
from dune.points.base import Metric
from dune.points.ranking import PlayerRecord, Precedence, Tiebreaker
from dune.points.system import PointsEntry, PointsSystem, Refusal

R = ResultKind
QP = "WBC QP"

#: Each line of the QP list, named as the platform names its result kind (one name per kind).
_TABLE: dict[ResultKind, PointsEntry] = {
    R.SOLO_STRONGHOLD: PointsEntry(Fraction(2), QP, kind_words(R.SOLO_STRONGHOLD)),
    R.BG_PREDICTION: PointsEntry(Fraction(2), QP, kind_words(R.BG_PREDICTION)),
    R.FREMEN_DEFAULT_SOLO: PointsEntry(Fraction(2), f"{QP}; AH IV.C.1", kind_words(R.FREMEN_DEFAULT_SOLO)),
    R.FREMEN_SPECIAL_SOLO: PointsEntry(Fraction(2), f"{QP}; AH IV.B", kind_words(R.FREMEN_SPECIAL_SOLO)),
    R.GUILD_DEFAULT_SOLO: PointsEntry(Fraction(1), f"{QP}; AH IV.C", kind_words(R.GUILD_DEFAULT_SOLO)),
    R.ALLIED_STRONGHOLD: PointsEntry(Fraction(1), QP, kind_words(R.ALLIED_STRONGHOLD)),
    R.FREMEN_DEFAULT_ALLIED: PointsEntry(Fraction(1), f"{QP}; AH IV.C.1", kind_words(R.FREMEN_DEFAULT_ALLIED)),
    R.FREMEN_SPECIAL_ALLIED: PointsEntry(Fraction(1), f"{QP}; AH IV.B", kind_words(R.FREMEN_SPECIAL_ALLIED)),
    R.GUILD_DEFAULT_ALLIED: PointsEntry(Fraction(1, 2), f"{QP}; AH IV.C", kind_words(R.GUILD_DEFAULT_ALLIED)),
    R.THREE_ALLIANCE: PointsEntry(Fraction(1, 2), QP, kind_words(R.THREE_ALLIANCE)),
    R.ADJUDICATED: PointsEntry(Fraction(1, 2), f"{QP}; WBC Adjudication", kind_words(R.ADJUDICATED)),
    R.LOSS: PointsEntry(Fraction(0), QP, kind_words(R.LOSS)),
    R.DROPOUT: PointsEntry(Fraction(0), "WBC Dropouts", kind_words(R.DROPOUT)),
}

_END_GAME = Refusal(
    "AH IV.C.1; WBC Tournament Format",
    "a most-strongholds end-game win needs both Guild and Fremen absent, which a WBC table of five "
    "or six of the six factions never has; the QP list has no such line",
)


def best_single_game(record: PlayerRecord) -> tuple[Metric, ...]:
    """WBC Advancement to Finals: the best single game, compared by its QP, then the
    adjudication criteria (strongholds, weighted tokens, spice, cards, leaders, die roll);
    unrecorded values are 0."""
    return max((g.points, *g.row.criteria()) for g in record.games)


@dataclass(frozen=True, kw_only=True)
class WBCSystem(PointsSystem):
    """WBC 2018: sum of QPs over the heats, ties by the best single game; top six qualify."""

    key: ClassVar[str] = "wbc"
    name: ClassVar[str] = "WBC Dune 2018"
    text: ClassVar[str] = "WBC 2018 Tournament Format and Scoring"
    table: ClassVar[dict[ResultKind, PointsEntry]] = _TABLE
    refused: ClassVar[dict[ResultKind, Refusal]] = {R.END_GAME_SOLO: _END_GAME, R.END_GAME_ALLIED: _END_GAME}
    precedence: ClassVar[Precedence] = Precedence(
        (
            Tiebreaker(
                "best_single_game",
                (
                    "best game QP",
                    "best game strongholds",
                    "best game weighted tokens",
                    "best game spice",
                    "best game cards",
                    "best game leaders",
                    "best game die roll",
                ),
                best_single_game,
                "the best single game (its QP, then strongholds, weighted tokens, spice, cards, leaders, die roll)",
            ),
        )
    )
    dropout_disqualifies: ClassVar[bool] = True
    dropout_rule: ClassVar[str] = "WBC Dropouts"
    qualifying_rule: ClassVar[str] = "WBC Advancement to Finals"
    report_rule: ClassVar[str] = "WBC Advancement to Finals (game record)"
