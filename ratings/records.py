"""What a person did, read from the tournaments: every registration, game and its points,
and a series' editions, champions and faction balance. Reads only; the pages and the API
share these shapes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Count, Q

from dune.engine.ids import WINNING_KINDS
from dune.engine.names import faction_name as display_name
from dune.points import ScoringError
from scoring import services as scoring
from scoring.adapters import table_result
from scoring.models import GameReport, ReportEntry
from tournament.models import Person, Player, Round, Series, Tournament
from tournament.presenters import round_label

WINNING = frozenset(kind.value for kind in WINNING_KINDS)
RESULT_WORDS = {
    "solo_stronghold": "solo win",
    "bg_prediction": "BG prediction win",
    "allied_stronghold": "allied win",
    "three_alliance": "three-way alliance win",
    "fremen_special_solo": "Fremen special win",
    "fremen_special_allied": "Fremen special win (allied)",
    "guild_default_solo": "Guild default win",
    "guild_default_allied": "Guild default win (allied)",
    "fremen_default_solo": "Fremen default win",
    "fremen_default_allied": "Fremen default win (allied)",
    "end_game_solo": "end-game win",
    "end_game_allied": "end-game win (allied)",
    "adjudicated": "adjudicated win",
    "loss": "loss",
    "dropout": "dropout",
}


def faction_name(faction: str) -> str:
    """The faction as the rulebooks print it (the engine's one list of names); "—" for none."""
    return display_name(faction) if faction else "—"


@dataclass(frozen=True)
class GameLine:
    report: int
    table_id: int
    table: int
    round: str
    faction: str
    result: str
    won: bool
    points: Fraction


@dataclass
class Registration:
    tournament: Tournament
    player: Player
    games: int = 0
    points: Fraction | None = None
    rank: int | None = None
    lines: list[GameLine] = field(default_factory=list)


def _standing(tournament: Tournament, player_id: int, fingerprint: str) -> tuple[Fraction | None, int | None]:
    """The player's points and rank in the tournament's standings (None if not in them)."""
    try:
        rows = scoring.standings_for(tournament, fingerprint=fingerprint)
    except ScoringError:
        return None, None
    row = next((r for r in rows if r.player == player_id), None)
    return (row.points, row.rank) if row else (None, None)


def registrations(people: Sequence[Person]) -> dict[int, list[Registration]]:
    """Each person's registrations with their filed-game count and standings points
    (three queries, plus the cached standings of each tournament)."""
    players = list(
        Player.objects.filter(person__in=list(people))
        .select_related("tournament")
        .annotate(
            filed=Count("report_entries", filter=Q(report_entries__report__state=GameReport.State.FILED))
        )
        .order_by("tournament__created_at", "tournament_id")
    )
    out: dict[int, list[Registration]] = {p.pk: [] for p in people}
    # Whether each cached standings is current, for every tournament at once (one query).
    current = scoring.fingerprints({player.tournament_id for player in players})
    for player in players:
        points, rank = _standing(player.tournament, player.pk, current.get(player.tournament_id, ""))
        out[player.person_id].append(
            Registration(
                tournament=player.tournament, player=player, games=player.filed, points=points, rank=rank
            )
        )
    return out


def record_of(person: Person) -> list[Registration]:
    """The person's registrations, each with every filed game: round, table, faction, result
    and points (as the tournament's format scores them)."""
    regs = registrations([person])[person.pk]
    by_player = {r.player.pk: r for r in regs}
    entries = (
        ReportEntry.objects.filter(player_id__in=list(by_player), report__state=GameReport.State.FILED)
        .select_related("report__table__round")
        .order_by("report__table__round__number", "report_id")
    )
    for entry in entries:
        reg = by_player[entry.player_id]
        report = entry.report
        result = table_result(report)
        scores = reg.tournament.rules.points.scores(result)
        row = result.row(entry.player_id)
        reg.lines.append(
            GameLine(
                report=report.pk,
                table_id=report.table_id,
                table=report.table.number,
                round=round_label(report.table.round),
                faction=row.faction,
                result=RESULT_WORDS.get(row.result.value, row.result.value),
                won=row.result.value in WINNING,
                points=scores[entry.player_id],
            )
        )
    return regs


# ----------------------------------------------------------------------------- series


@dataclass(frozen=True)
class Edition:
    tournament: Tournament
    players: int
    champions: tuple[tuple[int | None, str], ...]  # (person id, public name)


@dataclass(frozen=True)
class FactionBalance:
    faction: str
    games: int
    wins: int

    @property
    def win_share(self) -> float:
        return self.wins / self.games if self.games else 0.0


def public_name(player: Player) -> str:
    return player.person.display_name if player.person_id else player.name


def editions(series: Series) -> list[Edition]:
    """Each edition of the series, oldest first, with its attendance (players who did not
    withdraw) and its champions (the winners of its filed final; allies share the title)."""
    tournaments = list(
        series.tournaments.order_by("created_at", "id").annotate(
            attendance=Count("players", filter=~Q(players__status=Player.Status.WITHDRAWN), distinct=True)
        )
    )
    winners = (
        ReportEntry.objects.filter(
            tournament__in=tournaments,
            report__state=GameReport.State.FILED,
            report__table__round__kind=Round.Kind.FINAL,
            result__in=WINNING,
        )
        .select_related("player__person")
        .order_by("player__name")
    )
    champions: dict[int, list[tuple[int | None, str]]] = {}
    for entry in winners:
        champions.setdefault(entry.tournament_id, []).append(
            (entry.player.person_id, public_name(entry.player))
        )
    return [
        Edition(tournament=t, players=t.attendance, champions=tuple(champions.get(t.pk, ())))  # type: ignore[attr-defined]
        for t in tournaments
    ]


def faction_balance(tournaments: Iterable[Tournament]) -> list[FactionBalance]:
    """Games and wins per faction over every filed game of the tournaments, most played first."""
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    reports = GameReport.objects.filter(tournament__in=list(tournaments), state=GameReport.State.FILED)
    for data in reports.values_list("data", flat=True):
        for row in data.get("results", ()):
            faction = row.get("faction") or ""
            if not faction:
                continue
            games[faction] += 1
            if row.get("result") in WINNING:
                wins[faction] += 1
    return sorted(
        (FactionBalance(faction=f, games=n, wins=wins[f]) for f, n in games.items()),
        key=lambda b: (-b.games, b.faction),
    )


def exact(value: Fraction | int | None) -> int | float | None:
    """A number for JSON: whole numbers stay ints, others become floats."""
    if value is None:
        return None
    if isinstance(value, int) or value.denominator == 1:
        return int(value)
    return float(value)
