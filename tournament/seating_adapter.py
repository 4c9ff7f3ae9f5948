"""The one place where database rows and the seating planner's dataclasses meet.

Reads a round's players, their names, earlier rounds and keep-apart requests into a
SeatingRequest, rebuilds the current SeatingPlan / FinalPlan of a round from its tables, and
writes a plan back. Nothing else in the project converts between the two; the planner itself
never sees a model, and words its refusals with the names it is handed here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from dune.seating import (
    KeepApart,
    PastSeat,
    PastTable,
    PlannedSeat,
    PlannedTable,
    SeatingPlan,
    SeatingRequest,
    assess,
)
from dune.seating_changes import FinalPlan
from tournament.models import Player, Round, Seat, Table

#: A player as the planner's inputs need them: display name, household, club.
RosterRow = tuple[str, str, str]


def roster_for(round_: Round) -> dict[int, RosterRow]:
    """Every player of the round's tournament by id: name, household and club (1 query).

    The whole tournament, not just the round: a change may name a latecomer, or a player the
    head judge picked who has no seat in this round.
    """
    rows = Player.objects.filter(tournament_id=round_.tournament_id).values_list("pk", "name", "household", "club")
    return {pk: (name, household, club) for pk, name, household, club in rows}


def names_for(round_: Round, roster: dict[int, RosterRow] | None = None) -> dict[int, str]:
    """Every player of the round's tournament by id, with their display name (1 query, none
    when handed the ``roster``)."""
    rows = roster if roster is not None else roster_for(round_)
    return {pk: row[0] for pk, row in rows.items()}


def history_for(round_: Round) -> tuple[PastTable, ...]:
    """Every table of the tournament's earlier rounds, with the faction each player played (1 query)."""
    rows = (
        Seat.objects.filter(round__tournament_id=round_.tournament_id, round__number__lt=round_.number)
        .order_by("round__number", "table__number", "seat")
        .values_list("round__number", "table_id", "player_id", "faction")
    )
    tables: dict[tuple[int, int], list[PastSeat]] = defaultdict(list)
    for number, table_id, player_id, faction in rows:
        tables[(number, table_id)].append(PastSeat(player=player_id, faction=faction or None))
    return tuple(PastTable(round=number, seats=tuple(seats)) for (number, _), seats in tables.items())


def keep_apart_for(
    round_: Round, player_ids: Iterable[int], roster: dict[int, RosterRow] | None = None
) -> tuple[KeepApart, ...]:
    """Keep-apart requests among the round's players: explicit pairs, households, clubs (2
    queries, 1 when handed the ``roster``)."""
    ids = set(player_ids)
    groups: list[KeepApart] = []
    through = Player.keep_apart.through
    pairs = through.objects.filter(from_player_id__in=ids, to_player_id__in=ids).values_list(
        "from_player_id", "to_player_id"
    )
    seen: set[frozenset[int]] = set()
    for a, b in pairs:
        pair = frozenset((a, b))
        if a != b and pair not in seen:
            seen.add(pair)
            groups.append(KeepApart(players=pair, kind="request"))
    by_household: dict[str, set[int]] = defaultdict(set)
    by_club: dict[str, set[int]] = defaultdict(set)
    clubs_apart = round_.tournament.keep_clubs_apart
    rows = roster if roster is not None else roster_for(round_)
    for pk, (_name, household, club) in rows.items():
        if pk not in ids:
            continue
        if household.strip():
            by_household[household.strip().casefold()].add(pk)
        if clubs_apart and club.strip():
            by_club[club.strip().casefold()].add(pk)
    for kind, labelled in (("household", by_household), ("club", by_club)):
        for label in sorted(labelled):
            if len(labelled[label]) > 1:
                groups.append(KeepApart(players=frozenset(labelled[label]), kind=kind))
    return tuple(groups)


def request_for(
    round_: Round, *, players: Sequence[int], seed: int, small_tables: str | None = None
) -> SeatingRequest:
    """The planner's input for seating ``players`` in ``round_``, with every player's name."""
    roster = roster_for(round_)
    return SeatingRequest(
        players=tuple(players),
        format=round_.tournament.rules,
        seed=seed,
        history=history_for(round_),
        keep_apart=keep_apart_for(round_, players, roster),
        small_tables=small_tables or None,
        names=names_for(round_, roster),
    )


def _tables_of(round_: Round) -> list[Table]:
    return list(round_.tables.order_by("number").prefetch_related("seats"))


def _planned(table: Table) -> PlannedTable:
    seats = sorted(table.seats.all(), key=lambda s: s.seat)
    return PlannedTable(
        number=table.number,
        seats=tuple(
            PlannedSeat(
                player=s.player_id, seat=s.seat, faction=s.faction or None, dealt=tuple(s.dealt or ())
            )
            for s in seats
        ),
        undrawn=tuple(table.undrawn or ()),
        flags=tuple(table.flags or ()),
    )


def plan_for(round_: Round) -> SeatingPlan:
    """Rebuild the round's current seating as a SeatingPlan (issues recomputed from the tables)."""
    tables = tuple(_planned(t) for t in _tables_of(round_))
    players = [s.player for t in tables for s in t.seats] + list(round_.waiting or ())
    request = request_for(
        round_, players=players, seed=round_.seed or 0, small_tables=round_.small_tables or None
    )
    plan = SeatingPlan(
        request=request,
        tables=tables,
        waiting=tuple(round_.waiting or ()),
        flags=tuple(round_.seating_flags or ()),
    )
    return assess(plan)


def final_for(round_: Round) -> FinalPlan:
    """Rebuild the final's table and pick state from the round (one table, picks in seat factions)."""
    (table,) = _tables_of(round_)[:1] or (None,)
    if table is None:
        raise ValueError(f"round {round_.pk!r} has no final table yet")
    planned = _planned(table)
    factions = {s.player: s.faction for s in planned.seats}
    picks = []
    for player in round_.pick_order:
        if not factions.get(player):
            break
        picks.append((player, factions[player]))
    return FinalPlan(
        format=round_.tournament.rules,
        seed=round_.seed or 0,
        table=planned,
        pick_order=tuple(round_.pick_order),
        alternates_seated=tuple(round_.alternates_seated),
        picks=tuple(picks),
        names=names_for(round_),
    )


def save_tables(round_: Round, tables: Sequence[PlannedTable]) -> list[Table]:
    """Write ``tables`` as the round's tables and seats; table rows are kept by number.

    Keeping the rows keeps table ids stable for the table pages, games and reports when a
    seating is replaced; tables the new plan no longer has are deleted. Constant query count.
    Call inside a transaction.
    """
    existing = {t.number: t for t in round_.tables.all()}
    Seat.objects.filter(round=round_).delete()
    keep, create = [], []
    for planned in tables:
        row = existing.pop(planned.number, None)
        if row is None:
            create.append(
                Table(
                    round=round_,
                    number=planned.number,
                    undrawn=list(planned.undrawn),
                    flags=list(planned.flags),
                )
            )
        else:
            row.undrawn, row.flags = list(planned.undrawn), list(planned.flags)
            keep.append(row)
    if existing:
        Table.objects.filter(pk__in=[t.pk for t in existing.values()]).delete()
    if keep:
        Table.objects.bulk_update(keep, ["undrawn", "flags"])
    created = Table.objects.bulk_create(create)
    rows = {t.number: t for t in keep + created}
    Seat.objects.bulk_create(
        Seat(
            table=rows[planned.number],
            round=round_,
            player_id=s.player,
            seat=s.seat,
            faction=s.faction or "",
            dealt=list(s.dealt),
        )
        for planned in tables
        for s in planned.seats
    )
    return sorted(rows.values(), key=lambda t: t.number)


def save_plan(round_: Round, plan: SeatingPlan) -> list[Table]:
    """Write a SeatingPlan: tables, seats, seed, waiting players, issues and flags. Call inside a transaction."""
    round_.seed = plan.seed
    round_.small_tables = plan.request.small_tables or ""
    round_.waiting = list(plan.waiting)
    round_.seating_issues = [i.to_dict() for i in plan.issues]
    round_.seating_flags = list(plan.flags)
    round_.save(update_fields=["seed", "small_tables", "waiting", "seating_issues", "seating_flags"])
    return save_tables(round_, plan.tables)


def save_final(round_: Round, final: FinalPlan) -> list[Table]:
    """Write a FinalPlan: the table, seed, pick order and alternates seated. Call inside a transaction."""
    round_.seed = final.seed
    round_.pick_order = list(final.pick_order)
    round_.alternates_seated = list(final.alternates_seated)
    round_.waiting, round_.seating_issues = [], []
    round_.seating_flags = list(final.table.flags)
    round_.save(
        update_fields=[
            "seed",
            "pick_order",
            "alternates_seated",
            "waiting",
            "seating_issues",
            "seating_flags",
        ]
    )
    return save_tables(round_, [final.table])
