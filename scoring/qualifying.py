"""The qualifying order as the final's seating page shows it: every ranked player by name, who
may be chosen as a finalist or an alternate, and why the others may not.

Scoring answers the ranking and the suggested finalists (`scoring_for`); a player who dropped
or withdrew since (tournament's `Player.status`) or whom a dropout disqualified (WBC 2018
format, Dropouts) is left out with the reason, and the suggestion moves up past them.
"""

from __future__ import annotations

from dataclasses import dataclass

from dune.points.numbers import fmt
from scoring.services import Scoring, scoring_for
from tournament.models import Player, Tournament


@dataclass(frozen=True)
class Contender:
    rank: int
    tied: bool
    player: int
    name: str
    points: str
    #: Why the player cannot be seated in the final ("" if they can).
    left_out: str
    suggested: str  # "finalist", "alternate" or ""

    @property
    def eligible(self) -> bool:
        return not self.left_out


@dataclass(frozen=True)
class QualifyingOrder:
    rows: tuple[Contender, ...]
    finalist_seats: int
    alternates: int

    @property
    def eligible(self) -> tuple[Contender, ...]:
        return tuple(r for r in self.rows if r.eligible)

    @property
    def left_out(self) -> tuple[Contender, ...]:
        return tuple(r for r in self.rows if not r.eligible)

    def suggested(self, kind: str) -> list[int]:
        return [r.player for r in self.rows if r.suggested == kind]

    def position(self, player: int) -> int:
        """The player's place in the qualifying order (unranked players after everyone)."""
        return next((i for i, r in enumerate(self.rows) if r.player == player), len(self.rows))


_WHY = {
    Player.Status.DROPPED: "dropped out of the tournament",
    Player.Status.WITHDRAWN: "withdrew from the tournament",
}


def qualifying_order(
    tournament: Tournament, *, scoring: Scoring | None = None, players: dict[int, Player] | None = None
) -> QualifyingOrder:
    """Every ranked player in qualifying order, with the suggested finalists and alternates
    (the scoring's, with players who cannot be seated skipped and the next eligible ones moved up).
    `scoring` and `players` (by id), when the caller has them, save their queries."""
    scoring = scoring or scoring_for(tournament)
    if players is None:
        players = {p.pk: p for p in Player.objects.filter(tournament=tournament)}
    seats = tournament.rules.finalist_seats
    # As many alternates as the format names ("all": every eligible player after the
    # finalists; a number: that many, and whoever ties with the last of them).
    alternates = len(scoring.finalists.alternates)
    rows: list[Contender] = []
    finalists = alternates_taken = 0
    # The scoring's order across the cut, lots drawn included (4.01.10; WBC), then the rest.
    chosen = {p: i for i, p in enumerate((*scoring.finalists.finalists, *scoring.finalists.alternates))}
    ordered = sorted(scoring.standings, key=lambda r: chosen.get(r.player, len(chosen)))
    for row in ordered:
        player = players.get(row.player)
        if player is None:
            continue
        why = _WHY.get(player.status, "")
        if not why and (row.disqualified or player.disqualified):
            why = "disqualified by the dropout rule (WBC 2018 format, Dropouts)"
        suggested = ""
        if not why and finalists < seats:
            suggested, finalists = "finalist", finalists + 1
        elif not why and alternates_taken < alternates:
            suggested, alternates_taken = "alternate", alternates_taken + 1
        rows.append(
            Contender(
                rank=row.rank,
                tied=row.tied,
                player=player.pk,
                name=player.name,
                points=fmt(row.points),
                left_out=why,
                suggested=suggested,
            )
        )
    return QualifyingOrder(rows=tuple(rows), finalist_seats=seats, alternates=alternates)
