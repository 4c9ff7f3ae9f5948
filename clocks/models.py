"""A clock per table, its pauses, extensions and history, and the call-the-clock timers.

The database is the single source of truth: the deadlines below are wall-clock moments
computed by `dune.clock_limits` from the start, the pauses and the extensions, and they are
compared with the database's own `now()` (never a process's clock) by conditional updates
(`clocks.transitions`).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models.functions import Now
from django.utils.translation import gettext_lazy

from dune import clock_limits as limits
from dune.engine.names import faction_name
from tournament.models import Table

STATE_CHOICES = [(s, gettext_lazy(limits.STATE_LABELS[s])) for s in limits.STATES]  # foundation.core_words
LIMIT_CHOICES = [(key, limit.label) for key, limit in limits.LIMITS.items()]
ACTION_CHOICES = [(key, rule.label) for key, rule in limits.CALL_TIMERS.items()]


class TableClock(models.Model):
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="clock")
    limit_key = models.CharField(max_length=12, choices=LIMIT_CHOICES)
    #: Players at the table when the clock was set up (LoLV 4.01.08 counts them).
    players = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=10, choices=STATE_CHOICES, default=limits.PENDING, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: Start of the open pause; the deadlines are NULL while it lasts.
    paused_at = models.DateTimeField(null=True, blank=True)
    #: Sum of the extensions (rows in ClockExtension).
    extension = models.DurationField(default=timedelta(0))
    waived = models.BooleanField(default=False)
    waived_at = models.DateTimeField(null=True, blank=True)
    waived_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    waiver_reason = models.TextField(blank=True)
    # Deadlines of the timed stages (NULL: no such stage, paused, waived or not started).
    last_30_at = models.DateTimeField(null=True, blank=True)
    last_turn_at = models.DateTimeField(null=True, blank=True)
    time_up_at = models.DateTimeField(null=True, blank=True)
    #: The deadline a `clocks.fire_deadline` task was last armed for (so a sweep arms it once).
    armed_for = models.DateTimeField(null=True, blank=True)
    #: When the game log received the `time_up` event (no new turn), and failed tries so far.
    game_logged_at = models.DateTimeField(null=True, blank=True)
    game_log_attempts = models.PositiveSmallIntegerField(default=0)
    #: The sequence number of that `time_up` event, so that an extension can void it.
    time_up_seq = models.PositiveIntegerField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["pk"]  # not by table: a join here would widen every row lock
        constraints = [
            models.CheckConstraint(condition=models.Q(state__in=limits.STATES), name="clock_state_known"),
            models.CheckConstraint(
                condition=models.Q(limit_key__in=list(limits.LIMITS)), name="clock_limit_known"
            ),
            models.CheckConstraint(
                condition=models.Q(players__gte=1, players__lte=6), name="clock_players_1_to_6"
            ),
        ]
        indexes = [
            models.Index(
                fields=["state", "last_30_at", "last_turn_at", "time_up_at"],
                name="clock_live_deadlines",
                condition=models.Q(state__in=limits.LIVE_STATES, paused_at__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return f"Clock of {self.table}"

    @property
    def limit(self) -> limits.Limit:
        """The limit this clock runs under: its table's format's clock for the round's kind
        (`limit_key` records its name for the database's sweeps and constraint)."""
        round_ = self.table.round
        return round_.tournament.rules.clock(round_.kind)

    def get_deadlines(self) -> limits.Deadlines:
        return limits.Deadlines(self.last_30_at, self.last_turn_at, self.time_up_at)


class ClockPause(models.Model):
    """One paused interval of a table's clock (a break, or a pause of the whole round)."""

    clock = models.ForeignKey(TableClock, on_delete=models.CASCADE, related_name="pauses")
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField(blank=True)
    round_wide = models.BooleanField(default=False)

    class Meta:
        ordering = ["clock", "started_at"]
        constraints = [
            models.UniqueConstraint(
                "clock", condition=models.Q(ended_at__isnull=True), name="one_open_pause_per_clock"
            ),
        ]

    def as_interval(self) -> limits.Interval:
        return limits.Interval(self.started_at, self.ended_at)


class ClockExtension(models.Model):
    clock = models.ForeignKey(TableClock, on_delete=models.CASCADE, related_name="extensions")
    minutes = models.PositiveIntegerField()
    reason = models.TextField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(db_default=Now())

    class Meta:
        ordering = ["clock", "at", "id"]
        constraints = [models.CheckConstraint(condition=models.Q(minutes__gte=1), name="extension_positive")]


class ClockHistory(models.Model):
    """Every change of a table's clock: who, when (the database's time), why, and the state."""

    class Kind(models.TextChoices):
        CREATED = "created", "Created"
        STARTED = "started", "Started"
        PAUSED = "paused", "Paused"
        RESUMED = "resumed", "Resumed"
        EXTENDED = "extended", "Extended"
        WAIVED = "waived", "Limit waived"
        STAGE = "stage", "Time moved the clock"
        FINISHED = "finished", "Finished"
        GAME_LOG = "game_log", "Game log"
        CALLED = "called", "Clock called"
        CALL_STOPPED = "call_stopped", "Called clock stopped"
        CALL_EXPIRED = "call_expired", "Called clock expired"

    clock = models.ForeignKey(TableClock, on_delete=models.CASCADE, related_name="history")
    at = models.DateTimeField(db_default=Now())
    kind = models.CharField(max_length=14, choices=Kind.choices)
    from_state = models.CharField(max_length=10, blank=True)
    to_state = models.CharField(max_length=10, blank=True)
    #: NULL for changes made by time (the sweep or a deadline task). PROTECT: the history is
    #: append-only, so its author is never blanked out.
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["clock", "at", "id"]
        verbose_name_plural = "clock history"

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.from_state}→{self.to_state}"


class CallTimer(models.Model):
    """A called clock for the current action (WBC time guidelines), or a diplomacy chip's talk."""

    class State(models.TextChoices):
        RUNNING = "running", gettext_lazy("Running")
        STOPPED = "stopped", gettext_lazy("Done in time")
        EXPIRED = "expired", gettext_lazy("Expired")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="call_timers")
    action = models.CharField(max_length=12, choices=ACTION_CHOICES)
    faction = models.CharField(max_length=16)
    started_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    state = models.CharField(max_length=8, choices=State.choices, default=State.RUNNING)
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    stopped_at = models.DateTimeField(null=True, blank=True)
    stopped_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    armed = models.BooleanField(default=False)
    #: The sequence number of the default-action event in the game log, once recorded.
    game_seq = models.IntegerField(null=True, blank=True)
    game_error = models.TextField(blank=True)

    class Meta:
        ordering = ["table", "started_at", "id"]
        indexes = [models.Index(fields=["state", "ends_at"], name="calltimer_due")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(action__in=list(limits.CALL_TIMERS)), name="call_action_known"
            ),
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("started_at")), name="call_ends_after_start"
            ),
            # A double tap must not start two timers for the same player's action.
            models.UniqueConstraint(
                "table", "action", "faction", condition=models.Q(state="running"), name="one_running_call"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_action_display()} for {faction_name(self.faction)} at {self.table}"
