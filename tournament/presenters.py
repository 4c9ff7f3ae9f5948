"""JSON shapes of the tournament API (and the data the pages render): one function per object."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from tournament.models import PersonLink, Player, Round, Seat, Table, Tournament
from tournament.seating import marker_sector


def tournament_json(tournament: Tournament) -> dict[str, Any]:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "format": tournament.format,
        "ruleset": tournament.ruleset,
        "keep_clubs_apart": tournament.keep_clubs_apart,
        "series": tournament.series_id,
    }


def player_json(player: Player, *, private: bool = False) -> dict[str, Any]:
    """A player; the email only for the tournament's head judges."""
    data: dict[str, Any] = {
        "id": player.pk,
        "name": player.name,
        "club": player.club,
        "status": player.status,
    }
    if private:
        data["email"] = player.email
        data["household"] = player.household
    return data


def player_detail_json(player: Player) -> dict[str, Any]:
    """One player as anybody may read it (`GET /api/players/{id}/`): no email."""
    return {
        "id": player.pk,
        "name": player.name,
        "tournament": player.tournament_id,
        "club": player.club,
        "status": player.status,
        "person": player.person_id,
    }


def person_link_json(link: PersonLink) -> dict[str, Any]:
    return {
        "action": link.action,
        "from_person": link.from_person,
        "to_person": link.to_person,
        "by": link.user.get_username() if link.user else None,
        "at": link.at.isoformat(),
        "reason": link.reason,
    }


def round_json(round_: Round) -> dict[str, Any]:
    return {
        "id": round_.pk,
        "tournament": round_.tournament_id,
        "number": round_.number,
        "kind": round_.kind,
        "starts_at": round_.starts_at.isoformat() if round_.starts_at else None,
        "state": round_.state,
    }


def seated_tables(round_: Round) -> list[Table]:
    """The round's tables with seats and players (2 queries)."""
    seats = Seat.objects.select_related("player").order_by("seat")
    return list(
        round_.tables.order_by("number").select_related("judge").prefetch_related(Prefetch("seats", queryset=seats))
    )


def table_json(table: Table) -> dict[str, Any]:
    seats = list(table.seats.all())
    return {
        "id": table.pk,
        "number": table.number,
        "seats": [
            {
                "player": s.player_id,
                "name": s.player.name,
                "faction": s.faction or None,
                "seat": s.seat,
                "dealt": list(s.dealt or ()),
                "sector": marker_sector(s.seat, len(seats)) if len(seats) >= 2 else None,
            }
            for s in seats
        ],
        "undrawn": list(table.undrawn or ()),
        "flags": list(table.flags or ()),
    }


def seating_json(round_: Round, *, judge: bool) -> dict[str, Any]:
    """A round's current seating; before publication only its head judges see the tables."""
    visible = judge or round_.state != Round.State.PLANNED
    data: dict[str, Any] = {
        "round": round_.pk,
        "number": round_.number,
        "kind": round_.kind,
        "state": round_.state,
        "seed": round_.seed if visible else None,
        "tables": [table_json(t) for t in seated_tables(round_)] if visible else [],
        "issues": list(round_.seating_issues or ()) if visible else [],
        "flags": list(round_.seating_flags or ()) if visible else [],
        "waiting": list(round_.waiting or ()) if visible else [],
    }
    if round_.kind == Round.Kind.FINAL and visible:
        data["pick_order"] = list(round_.pick_order or ())
        data["alternates_seated"] = list(round_.alternates_seated or ())
    return data
