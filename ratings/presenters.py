"""JSON shapes of people, their ratings and series (the API's; pages use the same records)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from dune.ratings.compute import Rating
from ratings.models import PersonRating, RatingHistory
from ratings.records import Edition, FactionBalance, Registration, exact, faction_name, round_label
from tournament.models import Person, Series


def rating_json(rating: Rating) -> dict[str, Any]:
    return {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal, "games": rating.games}


def person_json(
    person: Person, registrations: list[Registration], rating: Rating, recomputed_at: datetime | None
) -> dict[str, Any]:
    """A person as anybody may read them: public name only, never the email."""
    return {
        "id": person.pk,
        "name": person.display_name,
        "tournaments": [
            {
                "tournament": reg.tournament.pk,
                "tournament_name": reg.tournament.name,
                "player": reg.player.pk,
                "games": reg.games,
                "points": exact(reg.points) if reg.points is not None else 0,
                "rank": reg.rank,
            }
            for reg in registrations
        ],
        "rating": rating_json(rating),
        "ratings_recomputed_at": recomputed_at.isoformat() if recomputed_at else None,
    }


def history_json(rows: list[RatingHistory]) -> list[dict[str, Any]]:
    return [
        {
            "report": row.report_id,
            "tournament": row.report.table.round.tournament_id,
            "round": round_label(row.report.table.round),
            "table": row.report.table.number,
            "won": row.won,
            "mu": row.mu,
            "sigma": row.sigma,
            "ordinal": row.ordinal,
            "games": row.games,
        }
        for row in rows
    ]


def list_row_json(row: PersonRating) -> dict[str, Any]:
    return {
        "person": row.person_id,
        "name": row.person.display_name,
        "ordinal": row.ordinal,
        "mu": row.mu,
        "sigma": row.sigma,
        "games": row.games,
    }


def series_json(
    series: Series,
    editions: list[Edition],
    factions: list[FactionBalance],
    ratings: list[PersonRating],
    recomputed_at: datetime | None,
) -> dict[str, Any]:
    return {
        "id": series.pk,
        "name": series.name,
        "format": series.format,
        "owner": series.owner.get_username() if series.owner_id else None,
        "tournaments": [
            {
                "id": e.tournament.pk,
                "name": e.tournament.name,
                "players": e.players,
                "champions": [{"person": pid, "name": name} for pid, name in e.champions],
            }
            for e in editions
        ],
        "factions": [
            {"faction": b.faction, "name": faction_name(b.faction), "games": b.games, "wins": b.wins}
            for b in factions
        ],
        "ratings": [list_row_json(r) for r in ratings],
        "ratings_recomputed_at": recomputed_at.isoformat() if recomputed_at else None,
    }
