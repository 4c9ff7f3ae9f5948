"""A published table's game: its append-only event log and the cached position.

The position is the fold of the log through the rules engine (DESIGN.md principle 2). Reading
it never replays the log: the game row carries the latest position (and its evaluation), and
`GameSnapshot` rows keep the position every `SNAPSHOT_EVERY` events so a full rebuild or an
audit starts from the nearest one. Events are never updated or deleted; a correction is a new
`void` event naming the sequence number it cancels.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

#: A periodic snapshot is kept every this many events (the latest is always on the game row).
SNAPSHOT_EVERY = 50


class AppendOnlyError(RuntimeError):
    """A caller tried to change or delete a recorded event (DESIGN.md principle 2)."""


class Game(models.Model):
    class Tracking(models.TextChoices):
        QUICK = "quick", "Quick (strongholds at battle phase and Mentat Pause)"
        FULL = "full", "Full (every force, spice, card and leader)"

    table = models.OneToOneField("tournament.Table", on_delete=models.CASCADE, related_name="game")
    ruleset = models.CharField(max_length=16)
    tracking = models.CharField(max_length=5, choices=Tracking.choices, default=Tracking.QUICK)
    #: Sequence number of the last event in the log (0: nothing recorded yet).
    seq = models.PositiveIntegerField(default=0)
    #: The engine's snapshot of the position after event `seq` (`dump_position`).
    position = models.JSONField(default=dict)
    #: `evaluate(position)` at `seq`, so reading a table never runs the engine.
    evaluation = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["table"]

    def __str__(self) -> str:
        return f"Game at {self.table}"


class GameEventQuerySet(models.QuerySet["GameEvent"]):
    """Refuses bulk edits: the log is append-only (corrections are `void` events)."""

    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError("game events are never updated; record a void event instead")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("game events are never deleted; record a void event instead")


class GameEvent(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    #: 1-based position in the game's log, voids included (the engine's `void.seq`).
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    #: The event as the engine's `to_dict()` wrote it.
    body = models.JSONField()
    #: PROTECT: the log is append-only (no author is blanked out), so a user who recorded
    #: events cannot be deleted; deactivate them instead.
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    reason = models.TextField(blank=True)

    objects = GameEventQuerySet.as_manager()

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint("game", "seq", name="game_event_seq_unique")]

    def __str__(self) -> str:
        return f"#{self.seq} {self.type}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError(f"event #{self.seq} is already recorded; record a void event instead")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError(f"event #{self.seq} cannot be deleted; record a void event instead")


class GameSnapshot(models.Model):
    """The position after event `seq`: a truthful prefix of the log, never rewritten."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    position = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "-seq"]
        constraints = [models.UniqueConstraint("game", "seq", name="game_snapshot_seq_unique")]

    def __str__(self) -> str:
        return f"{self.game} after #{self.seq}"


class PhoneSeen(models.Model):
    """What the table judges' phones told this server about a table's records: the highest
    record number a phone saw (on this server or on the one it replaced), and how many
    acknowledged records phones sent again after finding this server behind (a restore from a
    backup). Not exported: after an import it starts empty, so it speaks of what came back
    since the restore. The head judge's dashboard compares it with the game's `seq`."""

    table = models.OneToOneField("tournament.Table", on_delete=models.CASCADE, related_name="phone_seen")
    #: The highest record number a phone was told for this table.
    highest_seq = models.PositiveIntegerField(default=0)
    #: The server's record number when a phone first found it behind (the backup's).
    behind_at_seq = models.PositiveIntegerField(null=True, blank=True)
    #: Acknowledged records phones sent again since then.
    refilled = models.PositiveIntegerField(default=0)
    reported_at = models.DateTimeField(auto_now=True)
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
