"""Stored ratings: the current list, each person's rating after each game, and the last run.

All three are written only by `ratings.services.recompute`, in one transaction, so a reader
sees either the list before a recompute or the list after it, never a mix.
"""

from __future__ import annotations

from django.db import models


class PersonRating(models.Model):
    """A person's current rating (after their last filed game)."""

    person = models.OneToOneField(
        "tournament.Person", on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["-ordinal", "person"]

    def __str__(self) -> str:
        return f"{self.person_id}: {self.ordinal:.2f} after {self.games} games"


class RatingHistory(models.Model):
    """A person's rating right after one game (what "rating over time" draws)."""

    #: No index of its own: the (person, filed_at, report) index below serves person lookups.
    person = models.ForeignKey(
        "tournament.Person", on_delete=models.CASCADE, related_name="rating_history", db_index=False
    )
    report = models.ForeignKey("scoring.GameReport", on_delete=models.CASCADE, related_name="+")
    #: When the report was first filed: with the report id, the order games are rated in.
    filed_at = models.DateTimeField()
    won = models.BooleanField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["filed_at", "report"]
        constraints = [models.UniqueConstraint("person", "report", name="rating_history_once_per_game")]
        indexes = [
            models.Index(fields=["filed_at", "report"], name="rating_history_order"),
            models.Index(fields=["person", "filed_at", "report"], name="rating_history_person"),
        ]

    def __str__(self) -> str:
        return f"{self.person_id} after report {self.report_id}: {self.ordinal:.2f}"


class RatingRun(models.Model):
    """The one row that says when the list was last recomputed (and serialises recomputes)."""

    recomputed_at = models.DateTimeField(null=True, blank=True)
    #: Games rated in total, and replayed in the last run (from its starting game on).
    games = models.PositiveIntegerField(default=0)
    replayed = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"ratings recomputed at {self.recomputed_at}"
