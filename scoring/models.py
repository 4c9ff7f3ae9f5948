"""Filed game reports: the validated report of one table, locked once filed.

A report is written only through `scoring.services.file_report` (validated by the pure systems)
and reopened only by a head judge with a reason. Every filing and reopening leaves a
`ReportRevision`, so the history of a table's result is never lost.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class GameReport(models.Model):
    class State(models.TextChoices):
        FILED = "filed", "Filed (locked)"
        REOPENED = "reopened", "Reopened for correction"

    table = models.OneToOneField("tournament.Table", on_delete=models.CASCADE, related_name="report")
    #: Denormalised from table.round so standings read one table (the index serves the query).
    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="reports")
    #: The validated report in its stored form (`dune.points.serialize.report_to_data`).
    data = models.JSONField()
    state = models.CharField(max_length=8, choices=State.choices, default=State.FILED)
    #: 1 for the first filing, +1 at each refiling after a reopening.
    version = models.PositiveIntegerField(default=1)
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    filed_at = models.DateTimeField()
    reopened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reopened_at = models.DateTimeField(null=True, blank=True)
    reopen_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["table"]
        indexes = [models.Index(fields=["tournament", "state"], name="report_tournament_state")]

    def __str__(self) -> str:
        return f"Report of {self.table} (v{self.version}, {self.state})"

    @property
    def locked(self) -> bool:
        return self.state == self.State.FILED


class ReportRevision(models.Model):
    """One filing or reopening of a report; append-only."""

    class Action(models.TextChoices):
        FILED = "filed", "Filed"
        REOPENED = "reopened", "Reopened"

    report = models.ForeignKey(GameReport, on_delete=models.CASCADE, related_name="revisions")
    action = models.CharField(max_length=8, choices=Action.choices)
    version = models.PositiveIntegerField()
    data: Any = models.JSONField(null=True, blank=True)
    #: PROTECT: revisions are append-only, so their author is never blanked out.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField(blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["report", "at", "id"]

    def __str__(self) -> str:
        return f"{self.action} v{self.version} of {self.report_id}"


class ReportEntry(models.Model):
    """One seat of a filed report, kept beside the JSON so a player's games and a WBC dropout
    (barred from later heats) are found with an indexed query instead of scanning reports."""

    report = models.ForeignKey(GameReport, on_delete=models.CASCADE, related_name="entries")
    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("tournament.Player", on_delete=models.CASCADE, related_name="report_entries")
    round_number = models.PositiveSmallIntegerField()
    result = models.CharField(max_length=24)

    class Meta:
        ordering = ["round_number", "report"]
        constraints = [models.UniqueConstraint("report", "player", name="report_entry_once_per_player")]
        indexes = [models.Index(fields=["player", "result"], name="report_entry_player_result")]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.result} in round {self.round_number}"


class ResultConfirmation(models.Model):
    """A player's word on their table's filed report: they agree, or they dispute it with a
    reason. A dispute never changes the report; the head judge reads it and decides. Reopening
    the report deletes the table's confirmations: the refiled result is confirmed afresh."""

    report = models.ForeignKey(GameReport, on_delete=models.CASCADE, related_name="confirmations")
    player = models.ForeignKey("tournament.Player", on_delete=models.CASCADE, related_name="+")
    #: The report's version the player read.
    version = models.PositiveIntegerField()
    agree = models.BooleanField()
    reason = models.TextField(blank=True)
    at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["report", "player"]
        constraints = [models.UniqueConstraint("report", "player", name="confirmation_once_per_player")]

    def __str__(self) -> str:
        return f"{self.player_id} {'agrees with' if self.agree else 'disputes'} {self.report_id}"
