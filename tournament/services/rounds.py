"""Rounds: add the next heat or the final, publish its seating, close it once every report is filed."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from tournament.models import Round, SeatingAudit, Tournament
from tournament.services.shared import Refused, audit, locked


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


def publish_round(round_: Round, *, user: Any) -> Round:
    """Publish the seating: players see their tables; later changes need a reason."""
    with transaction.atomic():
        round_ = locked(round_)
        if not round_.tables.exists():
            raise Refused(f"{round_} has no seating to publish yet", field="round")
        if round_.state != Round.State.PLANNED:
            raise Refused(f"{round_} is already published", field="round", status=409)
        round_.state = Round.State.PUBLISHED
        round_.published_at = timezone.now()
        round_.save(update_fields=["state", "published_at"])
        audit(round_, SeatingAudit.Action.PUBLISH, user=user)
    return round_


def finish_round(round_: Round, *, user: Any) -> Round:
    """Close a published round once every table's game report is filed.

    A finished round is history: its reports are what scoring reads (a head judge can still
    reopen a report with a reason). Raises Refused naming the tables still without a report.
    """
    with transaction.atomic():
        round_ = locked(round_)
        if round_.state != Round.State.PUBLISHED:
            raise Refused(
                f"{round_} is {round_.get_state_display().lower()}: only a published round can be closed",
                field="round",
                status=409,
            )
        open_tables = list(
            round_.tables.filter(report_filed_at=None).order_by("number").values_list("number", flat=True)
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
        audit(round_, SeatingAudit.Action.FINISH, user=user)
    return round_
