"""What a head judge does to a tournament: register, check in, seat, publish, change seats.

Pages and the API both call these functions. Each one validates everything first and writes
inside one transaction, so a refusal (:class:`Refused`) leaves the database as it was.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from gameplay.engine.ids import FORMATS
from tournament import people
from tournament import seating_adapter as adapter
from tournament.csv_import import ImportRow, parse_players_csv, validate_player_fields
from tournament.models import CheckIn, Player, Round, Seat, SeatingAudit, Table, Tournament
from tournament.seating import (
    RULE_SIZES,
    PlannedTable,
    SeatingPlan,
    SeatingUserError,
    UnsplittableCount,
    plan_seating,
    small_table_options,
)
from tournament.seating_changes import (
    FinalPlan,
    record_final_pick,
    record_lolv_choice,
    seat_final,
    seat_latecomer,
    swap_players,
    take_undrawn_faction,
    trade_factions,
)

RULE_PUBLISHED = "a published seating is replaced only with a reason for the audit log"
RULE_CHECK_IN = "each heat is seated from the players checked in for it (WBC 2018 format)"


class Refused(Exception):
    """A refused head-judge action: the message names the field or the rule; nothing was written."""

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        rule: str = "",
        status: int = 400,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.rule = rule
        self.status = status
        self.extra = extra or {}

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"detail": self.message}
        if self.field:
            body[self.field] = [self.message]
            body["field"] = self.field
        if self.rule:
            body["rule"] = self.rule
        body.update(self.extra)
        return body


def _from_planner(error: Exception, *, field_name: str | None = None) -> Refused:
    """Turn a planner error into a Refused answer (409 with the options for an unsplittable count)."""
    if isinstance(error, UnsplittableCount):
        return Refused(
            str(error),
            field="small_tables",
            rule=error.rule,
            status=409,
            extra={
                "count": error.count,
                "options": [
                    {"key": o.key, "label": o.label, "sizes": list(o.sizes), "waiting": o.waiting}
                    for o in error.options
                ],
            },
        )
    if isinstance(error, SeatingUserError):
        return Refused(str(error), field=field_name, rule=error.rule)
    return Refused(str(error), field=field_name)


def _audit(round_: Round, action: str, *, user: Any, reason: str = "", **details: Any) -> None:
    SeatingAudit.objects.create(
        round=round_,
        action=action,
        user=user if getattr(user, "pk", None) else None,
        reason=reason,
        seed=round_.seed,
        details=details,
    )


def _locked(round_: Round) -> Round:
    """Re-read the round under a row lock: two head judges never seat one round at once."""
    return Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)


def _require_reason(round_: Round, reason: str, what: str) -> None:
    if round_.state != Round.State.PLANNED and not reason.strip():
        raise Refused(
            f"the seating of {round_} is published; give a reason to {what}",
            field="reason",
            rule=RULE_PUBLISHED,
            status=400,
        )


# ----------------------------------------------------------------------------- tournaments


def create_tournament(*, name: str, format: str, user: Any, series: Any = None) -> Tournament:
    """Create a tournament; its creator becomes a head judge of it. `series` (an id or None)
    makes it an edition of a series of the same format."""
    name = (name or "").strip()
    if not name:
        raise Refused("a tournament needs a name", field="name")
    if len(name) > 200:
        raise Refused("a tournament name has at most 200 characters", field="name")
    if format not in FORMATS:
        raise Refused(f"unknown format {format!r}; expected one of {list(FORMATS)}", field="format")
    try:
        edition_of = people.series_for(series, format=format)
    except people.PeopleRefused as error:
        raise Refused(error.message, field=error.field) from error
    with transaction.atomic():
        tournament = Tournament.objects.create(name=name, format=format, created_by=user, series=edition_of)
        tournament.head_judges.add(user)
    return tournament


def appoint_table_judge(tournament: Tournament, username: str) -> Any:
    """Appoint an existing user as a table judge of the tournament."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(username=(username or "").strip()).first()
    if user is None:
        raise Refused(f"no user named {username!r}", field="username")
    tournament.table_judges.add(user)
    return user


def assign_table_judge(table: Table, username: str) -> Any:
    """Put one of the tournament's table judges at a table (an empty name frees the table).

    A table judge writes only to the tables assigned to them (tournament.permissions);
    a table with nobody assigned is open to every table judge of the tournament.
    """
    tournament = table.round.tournament
    name = (username or "").strip()
    if not name:
        table.judge = None
    else:
        user = tournament.table_judges.filter(username=name).first()
        if user is None:
            raise Refused(
                f"{name!r} is not a table judge of {tournament.name}; appoint them on the dashboard first",
                field="judge",
            )
        table.judge = user
    table.save(update_fields=["judge"])
    return table.judge


def create_round(tournament: Tournament, *, kind: str, starts_at: datetime | None = None) -> Round:
    """Add the next round (heats numbered in order; one final, after the heats)."""
    if kind not in Round.Kind.values:
        raise Refused(f"unknown round kind {kind!r}; expected one of {Round.Kind.values}", field="kind")
    with transaction.atomic():
        rounds = Round.objects.select_for_update().filter(tournament=tournament)
        if kind == Round.Kind.FINAL and rounds.filter(kind=Round.Kind.FINAL).exists():
            raise Refused("this tournament already has a final", field="kind")
        number = (rounds.aggregate(n=Max("number"))["n"] or 0) + 1
        return Round.objects.create(tournament=tournament, number=number, kind=kind, starts_at=starts_at)


# ----------------------------------------------------------------------------- players


def add_player(
    tournament: Tournament, *, name: str, email: str = "", club: str = "", household: str = ""
) -> Player:
    """Register one player; refuses an empty name, a bad email or a name already registered."""
    problems = validate_player_fields(name, email)
    if problems:
        field_name, message = problems[0]
        raise Refused(message, field=field_name)
    name = name.strip()
    if Player.objects.filter(tournament=tournament, name__iexact=name).exists():
        raise Refused(f"{name!r} is already registered in this tournament", field="name")
    try:
        with transaction.atomic():
            player = Player.objects.create(
                tournament=tournament,
                name=name,
                email=(email or "").strip(),
                club=(club or "").strip(),
                household=(household or "").strip(),
            )
            people.link_players([player])
            return player
    except IntegrityError as error:  # a concurrent registration of the same name
        raise Refused(f"{name!r} is already registered in this tournament", field="name") from error


def preview_import(tournament: Tournament, text: str) -> list[ImportRow]:
    """Every CSV row with the reasons it would be refused (duplicate, empty name, bad email)."""
    taken = {
        n.casefold() for n in Player.objects.filter(tournament=tournament).values_list("name", flat=True)
    }
    return parse_players_csv(text, registered=taken)


def import_players(
    tournament: Tournament, text: str, *, skip_refused: bool = False
) -> tuple[list[Player], list[ImportRow]]:
    """Register the CSV's players in one transaction.

    Refuses the whole file (nothing saved) if any row is refused, unless ``skip_refused``:
    then the good rows are registered and the refused ones listed.
    """
    rows = preview_import(tournament, text)
    refused = [r for r in rows if r.errors]
    if not rows:
        raise Refused("the CSV has no player rows (expected columns: name, email, club)", field="file")
    if refused and not skip_refused:
        raise Refused(
            f"{len(refused)} of {len(rows)} rows are refused; fix them or import the others explicitly",
            field="file",
            extra={"rows": [r.to_dict() for r in rows]},
        )
    good = [r for r in rows if not r.errors]
    try:
        with transaction.atomic():
            created = Player.objects.bulk_create(
                Player(tournament=tournament, name=r.name, email=r.email, club=r.club) for r in good
            )
            people.link_players(created)
    except IntegrityError as error:
        raise Refused(
            "another registration with one of these names arrived meanwhile; preview again", field="file"
        ) from error
    return created, rows


def check_in(round_: Round, player: Player) -> CheckIn:
    """Check a player in for a round (WBC: a player may enter any number of heats)."""
    if player.tournament_id != round_.tournament_id:
        raise Refused(f"{player} is not registered in {round_.tournament}", field="player")
    if player.status != Player.Status.ACTIVE:
        raise Refused(
            f"{player} has {player.get_status_display().lower()} and cannot check in", field="player"
        )
    with transaction.atomic():
        checkin, _ = CheckIn.objects.get_or_create(round=round_, player=player)
        # A player who checks in themself (or was registered before people existed) is linked now.
        people.link_players([player])
    return checkin


def undo_check_in(round_: Round, player: Player) -> None:
    CheckIn.objects.filter(round=round_, player=player).delete()


def set_status(player: Player, status: str) -> Player:
    """Withdraw (registration cancelled) or drop (leaves after playing) a player, or reinstate them.

    A player who leaves is also checked out of every round not yet published.
    """
    if status not in Player.Status.values:
        raise Refused(f"unknown status {status!r}; expected one of {Player.Status.values}", field="status")
    with transaction.atomic():
        player.status = status
        player.save(update_fields=["status"])
        if status != Player.Status.ACTIVE:
            CheckIn.objects.filter(player=player, round__state=Round.State.PLANNED).delete()
    return player


def checked_in_ids(round_: Round) -> list[int]:
    return list(
        CheckIn.objects.filter(round=round_, player__status=Player.Status.ACTIVE)
        .order_by("player_id")
        .values_list("player_id", flat=True)
    )


def disqualified_ids(tournament: Tournament) -> set[int]:
    """Players barred from further games after a WBC dropout (from the scoring app, when it has them)."""
    try:
        from scoring.services import disqualified_players
    except ImportError:
        return set()
    return set(disqualified_players(tournament))


def _player_ids(round_: Round, players: Iterable[Any], field_name: str = "players") -> list[int]:
    """Validate a list of player ids: integers, registered in this tournament, still active."""
    ids: list[int] = []
    for p in players:
        if isinstance(p, bool) or not isinstance(p, int):
            raise Refused(f"player ids are integers, got {p!r}", field=field_name)
        ids.append(p)
    if len(set(ids)) != len(ids):
        twice = sorted({p for p in ids if ids.count(p) > 1})
        raise Refused(
            f"players listed twice: {twice}", field=field_name, rule="one table per player per round"
        )
    known = dict(
        Player.objects.filter(tournament_id=round_.tournament_id, pk__in=ids).values_list("pk", "status")
    )
    unknown = [p for p in ids if p not in known]
    if unknown:
        raise Refused(f"not players of this tournament: {unknown}", field=field_name)
    gone = [p for p in ids if known[p] != Player.Status.ACTIVE]
    if gone:
        raise Refused(f"players who withdrew or dropped cannot be seated: {gone}", field=field_name)
    return ids


# ----------------------------------------------------------------------------- seating a heat


def seat_round(
    round_: Round,
    *,
    user: Any,
    seed: int | None = None,
    players: Sequence[Any] | None = None,
    small_tables: str | None = None,
    reason: str = "",
) -> SeatingPlan:
    """Seat a heat (or replace its seating) from ``players`` (default: those checked in).

    Refuses: replacing a published seating without a reason, nobody to seat, unknown or
    inactive players, a count that does not split (409 with the options) unless
    ``small_tables`` names one of them.
    """
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
        raise Refused(f"seed must be a non-negative integer, got {seed!r}", field="seed")
    with transaction.atomic():
        round_ = _locked(round_)
        if round_.kind == Round.Kind.FINAL:
            raise Refused("a final is seated from the finalists: use the final seating", field="kind")
        _require_reason(round_, reason, "replace it")
        barred = disqualified_ids(round_.tournament)
        if players is not None:
            ids = _player_ids(round_, players)
            if barred & set(ids):
                raise Refused(
                    f"players disqualified after a dropout cannot be seated: {sorted(barred & set(ids))}",
                    field="players",
                    rule="WBC 2018 format (dropout penalties)",
                )
        else:
            ids = [p for p in checked_in_ids(round_) if p not in barred]
        if not ids:
            raise Refused(
                f"nobody to seat: no player is checked in for {round_}", field="players", rule=RULE_CHECK_IN
            )
        offered = [o.key for o in small_table_options(len(ids))]
        if small_tables and small_tables not in offered:
            raise Refused(
                f"{small_tables!r} is not an option for {len(ids)} players; options: {offered or 'none needed'}",
                field="small_tables",
                rule=RULE_SIZES[round_.tournament.format],
            )
        chosen_seed = seed if seed is not None else secrets.randbelow(2**31)
        request = adapter.request_for(
            round_, players=ids, seed=chosen_seed, small_tables=small_tables or None
        )
        try:
            plan = plan_seating(request)
        except (SeatingUserError, ValueError) as error:
            raise _from_planner(error, field_name="players") from error
        action = SeatingAudit.Action.RESEAT if round_.tables.exists() else SeatingAudit.Action.SEAT
        _refuse_changes_under_games(round_, plan.tables)
        adapter.save_plan(round_, plan)
        _audit(round_, action, user=user, reason=reason, players=len(ids), small_tables=small_tables or "")
    return plan


def publish_round(round_: Round, *, user: Any) -> Round:
    """Publish the seating: players see their tables; later changes need a reason."""
    with transaction.atomic():
        round_ = _locked(round_)
        if not round_.tables.exists():
            raise Refused(f"{round_} has no seating to publish yet", field="round")
        if round_.state != Round.State.PLANNED:
            raise Refused(f"{round_} is already published", field="round", status=409)
        round_.state = Round.State.PUBLISHED
        round_.published_at = timezone.now()
        round_.save(update_fields=["state", "published_at"])
        _audit(round_, SeatingAudit.Action.PUBLISH, user=user)
    return round_


def _refuse_changes_under_games(round_: Round, tables: Sequence[PlannedTable]) -> None:
    """A table whose game record has begun keeps its seats, players and factions: its setup
    event named them, and the log is never rewritten (DESIGN.md principle 2). Changing the
    seating of any other table stays possible. Call inside the round's lock.

    Raises Refused (409) naming the tables whose game has begun.
    """
    from gameplay.models import Game

    current: dict[int, set[tuple[int, int, str]]] = {}
    for number, player, seat, faction in Seat.objects.filter(round=round_).values_list(
        "table__number", "player_id", "seat", "faction"
    ):
        current.setdefault(number, set()).add((player, seat, faction))
    if not current:
        return  # nothing seated yet, so no table has a game
    planned = {t.number: {(s.player, s.seat, s.faction or "") for s in t.seats} for t in tables}
    changed = {n for n in current.keys() | planned.keys() if current.get(n) != planned.get(n)}
    if not changed:
        return
    started = list(
        Game.objects.filter(table__round=round_, table__number__in=changed)
        .order_by("table__number")
        .values_list("table__number", flat=True)
    )
    if started:
        listed = ", ".join(str(n) for n in started)
        raise Refused(
            f"table(s) {listed} of {round_} already have a game record; their seats and factions can no "
            "longer change (the record would not match the table)",
            field="round",
            rule="game record",
            status=409,
        )


def _change_plan(
    round_: Round, change: Any, *, user: Any, action: str, reason: str, need_reason: bool, **details: Any
) -> SeatingPlan:
    with transaction.atomic():
        round_ = _locked(round_)
        if need_reason:
            _require_reason(round_, reason, "change it")
        if not round_.tables.exists():
            raise Refused(f"{round_} is not seated yet", field="round")
        try:
            plan = change(adapter.plan_for(round_))
        except (SeatingUserError, ValueError) as error:
            raise _from_planner(error, field_name="player") from error
        _refuse_changes_under_games(round_, plan.tables)
        adapter.save_plan(round_, plan)
        _audit(round_, action, user=user, reason=reason, **details)
    return plan


def swap(round_: Round, first: int, second: int, *, user: Any, reason: str = "") -> SeatingPlan:
    """Swap two players' places by hand (each takes the other's table, seat and faction)."""
    ids = _player_ids(round_, [first, second], "player")
    return _change_plan(
        round_,
        lambda plan: swap_players(plan, ids[0], ids[1]),
        user=user,
        action=SeatingAudit.Action.SWAP,
        reason=reason,
        need_reason=True,
        players=ids,
    )


def add_latecomer(
    round_: Round,
    player: Player,
    *,
    user: Any,
    override: bool = False,
    reason: str = "",
    now: datetime | None = None,
) -> SeatingPlan:
    """Seat a latecomer at a table of fewer than six (WBC: within 15 minutes; later by override with a reason)."""
    _player_ids(round_, [player.pk], "player")
    if override and not reason.strip():
        raise Refused(
            "seating a latecomer after the grace period needs a reason",
            field="reason",
            rule="WBC 2018 format (15-minute grace period)",
        )
    start = round_.starts_at or round_.published_at
    late_by = max((now or timezone.now()) - start, timedelta(0)) if start else timedelta(0)

    def change(plan: SeatingPlan) -> SeatingPlan:
        return seat_latecomer(plan, player.pk, late_by=late_by, override=override)

    with transaction.atomic():
        result = _change_plan(
            round_,
            change,
            user=user,
            action=SeatingAudit.Action.LATECOMER,
            reason=reason,
            need_reason=False,
            player=player.pk,
            late_minutes=int(late_by.total_seconds() // 60),
            override=override,
        )
        CheckIn.objects.get_or_create(round=round_, player=player)
    return result


def finish_round(round_: Round, *, user: Any) -> Round:
    """Close a published round once every table's game report is filed.

    A finished round is history: its reports are what scoring reads (a head judge can still
    reopen a report with a reason). Raises Refused naming the tables still without a report.
    """
    from scoring.models import GameReport

    with transaction.atomic():
        round_ = _locked(round_)
        if round_.state != Round.State.PUBLISHED:
            raise Refused(
                f"{round_} is {round_.get_state_display().lower()}: only a published round can be closed",
                field="round",
                status=409,
            )
        open_tables = list(
            round_.tables.exclude(report__state=GameReport.State.FILED).order_by("number").values_list("number", flat=True)
        )
        if open_tables:
            listed = ", ".join(str(n) for n in open_tables)
            raise Refused(
                f"table(s) {listed} of {round_} have no filed game report yet (LoLV 4.01.07: every game ends with its report)",
                field="round",
                rule="4.01.07",
            )
        round_.state = Round.State.FINISHED
        round_.save(update_fields=["state"])
        _audit(round_, SeatingAudit.Action.FINISH, user=user)
    return round_


def trade(round_: Round, first: int, second: int, *, consenting: Iterable[int], user: Any) -> SeatingPlan:
    """WBC: two players at one table trade factions by mutual consent."""
    agreed = list(consenting)
    return _change_plan(
        round_,
        lambda plan: trade_factions(plan, first, second, consenting=agreed),
        user=user,
        action=SeatingAudit.Action.FACTION,
        reason="",
        need_reason=False,
        trade=[first, second],
    )


def take_undrawn(
    round_: Round, player: int, faction: str, *, consenting: Iterable[int], user: Any
) -> SeatingPlan:
    """WBC: at a table of fewer than six, a player takes the undrawn faction if everyone consents."""
    agreed = list(consenting)
    return _change_plan(
        round_,
        lambda plan: take_undrawn_faction(plan, player, faction, consenting=agreed),
        user=user,
        action=SeatingAudit.Action.FACTION,
        reason="",
        need_reason=False,
        player=player,
        faction=faction,
    )


def keep_card(round_: Round, player: int, faction: str, *, user: Any) -> SeatingPlan:
    """LoLV 0.08: record which dealt alliance card the player keeps."""
    return _change_plan(
        round_,
        lambda plan: record_lolv_choice(plan, player, faction),
        user=user,
        action=SeatingAudit.Action.FACTION,
        reason="",
        need_reason=False,
        player=player,
        faction=faction,
    )


# ----------------------------------------------------------------------------- the final


def suggested_finalists(tournament: Tournament) -> tuple[list[int], list[int]]:
    """Finalists and alternates from the standings (scoring), in qualifying order, if available."""
    try:
        from scoring.services import finalists_for  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return [], []
    result = finalists_for(tournament)
    finalists = getattr(result, "finalists", result)
    alternates = getattr(result, "alternates", [])

    def ids(items: Any) -> list[int]:
        return [getattr(i, "pk", getattr(i, "player_id", i)) for i in items or []]

    return ids(finalists), ids(alternates)


def seat_final_round(
    round_: Round,
    *,
    user: Any,
    finalists: Sequence[Any],
    alternates: Sequence[Any] = (),
    absent: Sequence[Any] = (),
    seed: int | None = None,
    reason: str = "",
) -> FinalPlan:
    """Seat the final: finalists in qualifying order, alternates filling empty seats in order."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise Refused(f"seed must be a non-negative integer, got {seed!r}", field="seed")
    with transaction.atomic():
        round_ = _locked(round_)
        if round_.kind != Round.Kind.FINAL:
            raise Refused(f"{round_} is a heat, not the final", field="kind")
        _require_reason(round_, reason, "replace it")
        final_ids = _player_ids(round_, finalists, "finalists")
        alternate_ids = _player_ids(round_, alternates, "alternates")
        if not final_ids:
            raise Refused("name the finalists in qualifying order", field="finalists")
        chosen_seed = seed if seed is not None else secrets.randbelow(2**31)
        try:
            final = seat_final(
                final_ids,
                format=round_.tournament.format,
                seed=chosen_seed,
                alternates=alternate_ids,
                absent=[a for a in absent if isinstance(a, int)],
            )
        except (SeatingUserError, ValueError) as error:
            raise _from_planner(error, field_name="finalists") from error
        _refuse_changes_under_games(round_, [final.table])
        adapter.save_final(round_, final)
        _audit(
            round_,
            SeatingAudit.Action.SEAT,
            user=user,
            reason=reason,
            finalists=final_ids,
            alternates=alternate_ids,
        )
    return final


def pick_final_faction(round_: Round, player: int, faction: str, *, user: Any) -> FinalPlan:
    """Record the next finalist's faction pick (qualifying order, no faction twice)."""
    with transaction.atomic():
        round_ = _locked(round_)
        if round_.kind != Round.Kind.FINAL or not round_.tables.exists():
            raise Refused(f"{round_} has no final table", field="round")
        try:
            final = record_final_pick(adapter.final_for(round_), player, faction)
        except (SeatingUserError, ValueError) as error:
            raise _from_planner(error, field_name="faction") from error
        _refuse_changes_under_games(round_, [final.table])
        adapter.save_final(round_, final)
        _audit(round_, SeatingAudit.Action.PICK, user=user, player=player, faction=faction)
    return final
