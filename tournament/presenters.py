"""JSON shapes of the tournament API (and the data the pages render): one function per object."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.db.models import Prefetch
from django.utils import translation

from dune.engine.ids import FACTIONS
from dune.engine.names import faction_name
from dune.seating import marker_sector
from dune.seating_words import flag_words
from tournament.models import PersonLink, Player, Round, Seat, Table, Tournament
from tournament.round_state import round_state, state_from_tables
from tournament.table_state import TableState, table_state

#: What people read for a faction id (ids stay in URLs, forms and the API).
FACTION_LABELS = {f: faction_name(f) for f in FACTIONS}


def faction_label(faction: str) -> str:
    return FACTION_LABELS.get(faction, faction)


def round_label(round_: Round) -> str:
    return round_.label


def tournament_json(tournament: Tournament) -> dict[str, Any]:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "format": tournament.format,
        # The preset's version the tournament's frozen document came from, and how many of its
        # fields the event changed (GET /api/tournaments/{id}/format/ lists them).
        "format_version": tournament.format_version,
        "format_changes": len(tournament.rules.differences()),
        "ruleset": tournament.ruleset,
        "keep_clubs_apart": tournament.keep_clubs_apart,
        "series": tournament.series_id,
        "time_zone": tournament.time_zone,
        "language": tournament.language,
        "registration_opens": tournament.registration_opens.isoformat() if tournament.registration_opens else None,
        "registration_closes": tournament.registration_closes.isoformat() if tournament.registration_closes else None,
        "capacity": tournament.capacity,
        "waiting_list": tournament.waiting_list,
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


def current_seat(player: Player) -> Seat | None:
    """Where the player sits in the round being played now: the latest published, unfinished
    round that seats them at a table still playing (None between rounds, before the seating is
    published, or once their table's report is filed: that game is over)."""
    return (
        Seat.objects.filter(player=player, round__state=Round.State.PUBLISHED, table__report_filed_at__isnull=True)
        .select_related("round", "table")
        .order_by("-round__number")
        .first()
    )


def player_detail_json(player: Player) -> dict[str, Any]:
    """One player as anybody may read it (`GET /api/players/{id}/`): no email; `current` is
    where they sit now (null between rounds)."""
    seat = current_seat(player)
    data: dict[str, Any] = {
        "id": player.pk,
        "name": player.name,
        "tournament": player.tournament_id,
        "club": player.club,
        "status": player.status,
        "person": player.person_id,
    }
    data["current"] = (
        {
            "round": seat.round_id,
            "table": seat.table.number,
            "seat": seat.seat,
            "faction": seat.faction or None,
        }
        if seat is not None
        else None
    )
    return data


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
    """A round; `state` is the one round state every page shows (tournament.round_state)."""
    return {
        "id": round_.pk,
        "tournament": round_.tournament_id,
        "number": round_.number,
        "kind": round_.kind,
        "name": round_label(round_),
        "starts_at": round_.starts_at.isoformat() if round_.starts_at else None,
        "state": round_state(round_).key,
    }


def seated_tables(round_: Round) -> list[Table]:
    """The round's tables with seats and players (2 queries)."""
    seats = Seat.objects.select_related("player").order_by("seat")
    return list(
        round_.tables.order_by("number").select_related("judge").prefetch_related(Prefetch("seats", queryset=seats))
    )


def table_json(table: Table, state: TableState | None = None) -> dict[str, Any]:
    """A seated table as the API answers it; `state` is its `table_state` when the caller has
    the facts owned higher up (the game's result, the clock), else read from its columns."""
    seats = list(table.seats.all())
    state = state or table_state(table)
    return {
        "id": table.pk,
        "number": table.number,
        "state": state.key,
        "state_label": state.label,
        "clock_state": state.clock,
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


def seating_json(
    round_: Round, *, judge: bool, states: Callable[[list[Table]], Mapping[int, TableState]] | None = None
) -> dict[str, Any]:
    """A round's current seating; before publication only its head judges see the tables.
    `states` answers each table's state by id (`clocks.presenters.table_states`, which knows
    the games' results and the clocks); without it the state is read from the tables' columns."""
    visible = judge or round_.state != Round.State.PLANNED
    tables = seated_tables(round_)
    known = states(tables) if states is not None and visible else {}
    data: dict[str, Any] = {
        "round": round_.pk,
        "number": round_.number,
        "kind": round_.kind,
        "state": state_from_tables(round_.state, tables).key,
        "seed": round_.seed if visible else None,
        "tables": [table_json(t, known.get(t.pk)) for t in tables] if visible else [],
        "issues": list(round_.seating_issues or ()) if visible else [],
        "flags": list(round_.seating_flags or ()) if visible else [],
        "waiting": list(round_.waiting or ()) if visible else [],
    }
    if round_.kind == Round.Kind.FINAL and visible:
        data["pick_order"] = list(round_.pick_order or ())
        data["alternates_seated"] = list(round_.alternates_seated or ())
    return data


def tables_for_page(round_: Round) -> list[dict[str, Any]]:
    """Tables ready for a template: seats with names, faction labels, dealt cards and marker sectors."""
    rows = []
    for table in seated_tables(round_):
        seats = list(table.seats.all())
        rows.append(
            {
                "table": table,
                "seats": [
                    {
                        "seat": s,
                        "player": s.player,
                        "faction": FACTION_LABELS.get(s.faction, ""),
                        "dealt": [FACTION_LABELS[f] for f in s.dealt or () if f in FACTION_LABELS],
                        "cards": [(f, FACTION_LABELS[f], f == s.faction) for f in s.dealt or () if f in FACTION_LABELS],
                        "sector": marker_sector(s.seat, len(seats)) if len(seats) >= 2 else None,
                    }
                    for s in seats
                ],
                "undrawn": [FACTION_LABELS.get(f, f) for f in table.undrawn or ()],
                "missing": [s.player.name for s in seats if not s.faction],
                "flags": [flag_words(f, translation) for f in table.flags or ()],
            }
        )
    return rows
