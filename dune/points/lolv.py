"""Landsraad of Las Vegas 2.8.4 weighted points (rules 4.01.09-4.01.10).

Where the LoLV text and the shared result kinds name the same event differently:
- "Solo/Allied Default Victory" (4.01.09.08-.09) is the Guild special victory (2.06.08, allies
  2.06.11) and the Fremen win when the Guild is absent (1.09.05): `guild_default_*`,
  `fremen_default_*`.
- "Fremen Challenged Special" (4.01.09.04-.05) is the Fremen special victory (2.04.09, allies
  2.04.12): `fremen_special_*`.
- "End Game Victory" (4.01.09.06-.07) is the most-strongholds win with neither Guild nor
  Fremen in the game (1.09.05): `end_game_*`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from dune.engine.ids import ResultKind
from dune.points.base import Metric
from dune.points.ranking import PlayerRecord, Precedence, Tiebreaker
from dune.points.system import PointsEntry, PointsSystem, Refusal

R = ResultKind

#: The points allocation list of 4.01.09, heaviest first: (rule, label, points, kinds).
CATEGORIES: tuple[tuple[str, str, Fraction, tuple[ResultKind, ...]], ...] = (
    ("4.01.09.01", "solo stronghold victory", Fraction(3), (R.SOLO_STRONGHOLD,)),
    ("4.01.09.02", "Bene Gesserit prediction", Fraction(3), (R.BG_PREDICTION,)),
    ("4.01.09.03", "allied stronghold victory", Fraction(2), (R.ALLIED_STRONGHOLD,)),
    ("4.01.09.04", "solo Fremen challenged special", Fraction(2), (R.FREMEN_SPECIAL_SOLO,)),
    ("4.01.09.05", "allied Fremen challenged special", Fraction(1), (R.FREMEN_SPECIAL_ALLIED,)),
    ("4.01.09.06", "solo end game victory", Fraction(1), (R.END_GAME_SOLO,)),
    ("4.01.09.07", "allied end game victory", Fraction(1), (R.END_GAME_ALLIED,)),
    ("4.01.09.08", "solo default victory", Fraction(1), (R.GUILD_DEFAULT_SOLO, R.FREMEN_DEFAULT_SOLO)),
    ("4.01.09.09", "allied default victory", Fraction(1), (R.GUILD_DEFAULT_ALLIED, R.FREMEN_DEFAULT_ALLIED)),
    ("4.01.09.10", "adjudicated", Fraction(1, 2), (R.ADJUDICATED,)),
)

_CATEGORY_OF: dict[ResultKind, int] = {
    kind: i for i, (_, _, _, kinds) in enumerate(CATEGORIES) for kind in kinds
}

_TABLE: dict[ResultKind, PointsEntry] = {
    kind: PointsEntry(points, rule, label) for rule, label, points, kinds in CATEGORIES for kind in kinds
}
_TABLE[R.LOSS] = PointsEntry(Fraction(0), "4.01.09.00", "loss")
# LoLV has no dropout penalty: a seat that leaves simply scores nothing.
_TABLE[R.DROPOUT] = PointsEntry(Fraction(0), "4.01.09.00", "dropout")


def weighted_wins(record: PlayerRecord) -> tuple[Metric, ...]:
    """4.01.09: the count of wins in each category of the allocation list, heaviest first.

    Compared left to right, one 3-point solo stronghold win outweighs two 2-point allied ones.
    """
    counts = [0] * len(CATEGORIES)
    for game in record.games:
        category = _CATEGORY_OF.get(game.row.result)
        if category is not None:
            counts[category] += 1
    return tuple(counts)


def best_game(record: PlayerRecord) -> tuple[Metric, ...]:
    """4.01.10: the best game's tuple (points, win attempts, strongholds, forces, spice, cards,
    leaders), e.g. 2.2.3.8.12.3.3; the best game is the greatest such tuple."""
    return max(
        (
            g.points,
            g.row.win_attempts,
            g.row.strongholds,
            g.row.forces,
            g.row.spice,
            g.row.cards,
            g.row.leaders,
        )
        for g in record.games
    )


@dataclass(frozen=True, kw_only=True)
class LoLVSystem(PointsSystem):
    """LoLV 2.8.4: weighted points, then the best game's tiebreak tuple (4.01.09-4.01.10)."""

    key: ClassVar[str] = "lolv"
    name: ClassVar[str] = "Landsraad of Las Vegas 2.8.4"
    text: ClassVar[str] = "rules 4.01.09-4.01.10"
    table: ClassVar[dict[ResultKind, PointsEntry]] = _TABLE
    refused: ClassVar[dict[ResultKind, Refusal]] = {
        R.THREE_ALLIANCE: Refusal(
            "4.01.09.00",
            "an LoLV alliance joins two players (glossary 'Alliance'); the allocation list has no "
            "three-faction alliance victory",
        ),
    }
    precedence: ClassVar[Precedence] = Precedence(
        (
            Tiebreaker(
                "weighted_wins",
                tuple(f"{label} wins ({rule})" for rule, label, _, _ in CATEGORIES),
                weighted_wins,
                "wins per 4.01.09 category, heaviest first",
            ),
            Tiebreaker(
                "best_game",
                (
                    "best game points (4.01.10)",
                    "best game win attempts (4.01.10.01)",
                    "best game strongholds (4.01.10.02)",
                    "best game forces on board (4.01.10.03)",
                    "best game spice (4.01.10.04)",
                    "best game treachery cards (4.01.10.05)",
                    "best game active leaders (4.01.10.06)",
                ),
                best_game,
                "the best game (its points, then win attempts, strongholds, forces, spice, cards, leaders; 4.01.10)",
            ),
        )
    )
    dropout_disqualifies: ClassVar[bool] = False
    dropout_rule: ClassVar[str] = "4.01.09.00 (no dropout penalty in LoLV)"
    qualifying_rule: ClassVar[str] = "4.01.10"
    report_rule: ClassVar[str] = "4.01.07 Game Report; 4.01.10"
