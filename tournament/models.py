"""Tournaments, players, rounds, tables and seats.

The seating planner (`dune/seating.py`) knows none of these classes; one adapter
module converts between them and the planner's dataclasses.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from dune.engine.ids import FACTIONS
from dune.engine.names import faction_name
from dune.formats import (
    FORMATS,
    Format,
    FormatDocumentError,
    UnknownFormat,
    format_choices,
    format_from_document,
    get_format,
    preset_document,
)
from tournament.judge_models import JudgeInvitation  # noqa: F401

# People and series live in their own module; importing them here registers them with the app.
from tournament.people_models import Person, PersonLink, Series  # noqa: F401

FORMAT_CHOICES = format_choices()
#: Factions by stable id, labelled as the platform names them everywhere ("CHOAM").
FACTION_CHOICES = [(f, faction_name(f)) for f in FACTIONS]

def default_time_zone() -> str:
    """The platform's time zone (settings.TIME_ZONE): a new tournament's zone unless chosen."""
    return str(settings.TIME_ZONE)


#: Seating seeds are stored in bigint columns: larger ones are refused as input.
MAX_SEED = 2**63 - 1

#: A round's scheduled start lies in this window (UTC; the end is excluded). Far-off years
#: cannot be read back (year 0 and earlier, past 9999) or overflow the clocks' grace arithmetic;
#: the database refuses them too (`round_starts_at_in_window`).
ROUND_STARTS_FROM = datetime(1990, 1, 1, tzinfo=UTC)
ROUND_STARTS_BEFORE = datetime(2101, 1, 1, tzinfo=UTC)


class Tournament(models.Model):
    name = models.CharField(max_length=200)
    format = models.CharField(max_length=8, choices=FORMAT_CHOICES)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    head_judges = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="head_judge_of"
    )
    table_judges = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="table_judge_of"
    )
    #: Seat members of one club at different tables when possible (the keep-apart request of 4).
    keep_clubs_apart = models.BooleanField(default=False)
    #: The yearly event this tournament is an edition of (same format), if any.
    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    #: Where the tournament is played (an IANA name such as "America/Los_Angeles"): every page,
    #: sheet and export shows its times in this zone, naming it. Set at creation.
    time_zone = models.CharField(max_length=64, default=default_time_zone)
    #: The language its printed sheets and room screen are in: a code among settings.LANGUAGES.
    language = models.CharField(max_length=8, default="en")
    #: A frozen copy of the tournament's format document (`dune.formats.document`): its
    #: preset's (`format` names the preset) with the event's changes. Everything the format
    #: decides is read from it through `rules`; it changes only before the first round is seated.
    format_document = models.JSONField(default=dict, blank=True)
    #: The version of the preset the document came from ("2018", "2.8.4").
    format_version = models.CharField(max_length=20, blank=True)
    #: Online registration (`tournament.registration`): open from `registration_opens` until
    #: `registration_closes` (both set by the head judge; closed while either is empty).
    registration_opens = models.DateTimeField(null=True, blank=True)
    registration_closes = models.DateTimeField(null=True, blank=True)
    #: The most active players the event takes (None: no limit). Registrations past it wait
    #: in order when `waiting_list` is on, and are refused when it is off.
    capacity = models.PositiveIntegerField(null=True, blank=True)
    waiting_list = models.BooleanField(default=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: object, **kwargs: object) -> None:
        stale = not self.format_document or self.format_document.get("key") != self.format
        if stale and self.format in FORMATS:
            # A tournament made without a document (or given another preset) plays its
            # preset's document, frozen now.
            self.format_document = preset_document(self.format)
            self.format_version = self.format_document["version"]
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], "format_document", "format_version"}  # type: ignore[misc]
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    @property
    def rules(self) -> Format:
        """The tournament rules it plays: the format its frozen document describes (its
        preset's until the head judge changes it), everything the format decides."""
        if not self.format_document or self.format_document.get("key") != self.format:
            return get_format(self.format)  # not saved yet under another preset
        return format_from_document(self.format_document)

    @property
    def preset(self) -> Format:
        """The preset the tournament's format started from (for the differences it shows)."""
        return get_format(self.format)

    @property
    def ruleset(self) -> str:
        """The key of the game rules its tables play (what a game's setup records)."""
        return self.rules.ruleset.key

    def clean(self) -> None:
        if self.format not in FORMATS:
            try:
                get_format(self.format)
            except UnknownFormat as refusal:
                raise ValidationError({"format": refusal.message}) from None
        if self.format_document:
            try:
                format_from_document(self.format_document)
            except FormatDocumentError as refusal:
                raise ValidationError({"format_document": refusal.message}) from None


class Player(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        DROPPED = "dropped", _("Dropped")
        #: Registered online past the event's capacity: moves up in order when a place frees.
        WAITING = "waiting", _("Waiting list")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=120)
    email = models.EmailField(blank=True)
    club = models.CharField(max_length=120, blank=True)
    #: Players sharing a household label are seated at different tables when possible.
    household = models.CharField(max_length=120, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    #: Barred from further games by the format's dropout rule (WBC 2018 format, Dropouts).
    #: Scoring keeps it in step with the filed reports; the seating never seats such a player.
    disqualified = models.BooleanField(default=False, editable=False)
    #: Players this one must not share a table with (same household, same club on request).
    keep_apart = models.ManyToManyField("self", blank=True, symmetrical=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    #: The person behind this registration (tournament.people links it; never edited elsewhere).
    person = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    #: The factions the player would rather play, most wanted first (faction ids), where the
    #: tournament's format asks for them (`players.faction_preferences`); set from their private link.
    faction_preferences = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(Lower("name"), "tournament", name="player_name_unique_in_tournament"),
            # One person is one player per tournament: two registrations of one email (in any
            # case) share a person, so the database refuses the second.
            models.UniqueConstraint(
                fields=["tournament", "person"],
                condition=models.Q(person__isnull=False), name="person_once_per_tournament"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Round(models.Model):
    class Kind(models.TextChoices):
        HEAT = "heat", "Heat"
        FINAL = "final", "Final"

    class State(models.TextChoices):
        PLANNED = "planned", "Planned"
        PUBLISHED = "published", "Seating published"
        FINISHED = "finished", "Finished"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=5, choices=Kind.choices, default=Kind.HEAT)
    starts_at = models.DateTimeField(null=True, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PLANNED)
    #: The seed of the current seating: the same seed and players give the same seating.
    #: At most MAX_SEED (the column is a bigint).
    seed = models.BigIntegerField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    #: The head judge's choice for a count that does not split into 5s and 6s ("fours:1", "wait:3").
    small_tables = models.CharField(max_length=16, blank=True)
    #: Players (ids) who wait for the next round under a "wait:N" choice.
    waiting = models.JSONField(default=list, blank=True)
    #: What the planner could not avoid (SeatingIssue.to_dict() rows) and its reason flags.
    seating_issues = models.JSONField(default=list, blank=True)
    seating_flags = models.JSONField(default=list, blank=True)
    #: Final: the faction-pick order (qualifying order, then alternates) and the alternates seated.
    pick_order = models.JSONField(default=list, blank=True)
    alternates_seated = models.JSONField(default=list, blank=True)
    #: Players may check themselves in for this round (badge QR code or personal link) while open.
    self_check_in = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint("tournament", "number", name="round_number_unique"),
            models.CheckConstraint(
                condition=models.Q(starts_at__isnull=True)
                | models.Q(starts_at__gte=ROUND_STARTS_FROM, starts_at__lt=ROUND_STARTS_BEFORE),
                name="round_starts_at_in_window",
            ),
        ]

    @property
    def label(self) -> str:
        """"Final" or "Heat N", as every page names the round, in the reader's language (the
        pure core's `dune.seating_words.round_name` is the English form)."""
        if self.kind == self.Kind.FINAL:
            return str(_("Final"))
        return str(_("Heat %(number)s") % {"number": self.number})

    def __str__(self) -> str:
        return f"{self.tournament} — {self.label}"


class PlayerChange(models.Model):
    """A change to a player's registration (name, email, club, household, keep-apart), who made
    it and when: `changes` maps each field to its [before, after]."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="changes")
    at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    changes = models.JSONField(default=dict)

    class Meta:
        ordering = ["player", "-at", "-id"]

    def __str__(self) -> str:
        return f"{self.player}: {', '.join(self.changes)} at {self.at:%H:%M}"


class CheckIn(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="checkins")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="checkins")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint("round", "player", name="checkin_once_per_round")]


class NoShow(models.Model):
    """A player who did not come to a round: not a dropout (they stay in the tournament, may
    play the next round, and nothing says they are disqualified). Taken off their table if the
    round was seated (`table_number`: the table they were taken off), with the reason."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="no_shows")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="no_shows")
    reason = models.TextField()
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["round", "at", "id"]
        constraints = [models.UniqueConstraint("round", "player", name="no_show_once_per_round")]

    def __str__(self) -> str:
        return f"{self.player} did not come to {self.round}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="judged_tables"
    )
    #: Factions nobody at the table holds (WBC: the undrawn one at five; LoLV: the undealt cards).
    undrawn = models.JSONField(default=list, blank=True)
    #: The planner's reason flags for this table (repeat_opponent_unavoidable, ...).
    flags = models.JSONField(default=list, blank=True)
    #: When the table's game record began (set by the game log with its first judge event).
    #: From then on the seats and factions of the table are frozen.
    game_started_at = models.DateTimeField(null=True, blank=True, editable=False)
    #: When the table's game report was filed (set by scoring; cleared when a head judge
    #: reopens it). A filed report also freezes the seating.
    report_filed_at = models.DateTimeField(null=True, blank=True, editable=False)
    #: When the table's clock was first started (set by the clocks): the round is running.
    clock_started_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint("round", "number", name="table_number_unique_in_round")]

    def __str__(self) -> str:
        return f"{self.round} — table {self.number}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    #: Denormalised from the table so the database itself refuses a player at two tables of a round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    #: Seating order 1..n; seat 1 sits nearest Tuek's Sietch (LoLV 0.07).
    seat = models.PositiveSmallIntegerField()
    faction = models.CharField(max_length=16, choices=FACTION_CHOICES, blank=True)
    #: LoLV: the two alliance cards dealt (one classic, one expansion faction).
    dealt = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint("table", "seat", name="seat_number_unique_at_table"),
            models.UniqueConstraint("round", "player", name="player_once_per_round"),
            models.UniqueConstraint(
                "table", "faction", condition=~models.Q(faction=""), name="faction_once_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table} (seat {self.seat})"

    def save(self, *args: object, **kwargs: object) -> None:
        if self.round_id is None and self.table_id is not None:
            self.round_id = self.table.round_id
        super().save(*args, **kwargs)  # type: ignore[arg-type]


class SeatingAudit(models.Model):
    """Every seating change of a round, who made it, when and why (a published seating needs a reason)."""

    class Action(models.TextChoices):
        SEAT = "seat", "Seated"
        RESEAT = "reseat", "Reseated"
        SWAP = "swap", "Swapped two players"
        PUBLISH = "publish", "Published"
        LATECOMER = "latecomer", "Seated a latecomer"
        FACTION = "faction", "Recorded a faction trade or choice"
        PICK = "pick", "Recorded a final faction pick"
        FINISH = "finish", "Closed the round"
        NO_SHOW = "no_show", "Marked a no-show"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seating_audit")
    at = models.DateTimeField(auto_now_add=True)
    #: PROTECT: the audit is append-only, so its author is never blanked out.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    action = models.CharField(max_length=10, choices=Action.choices)
    reason = models.TextField(blank=True)
    seed = models.BigIntegerField(null=True, blank=True)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["round", "at", "id"]

    def __str__(self) -> str:
        return f"{self.round}: {self.get_action_display()} at {self.at:%H:%M}"


class Registration(models.Model):
    """A registration made online (`/tournaments/{id}/register/`): the fields the head judge
    asks for, the email's confirmation and, once confirmed, the player it made (active, or
    on the waiting list). `tournament.registration` is its one home."""

    class State(models.TextChoices):
        UNCONFIRMED = "unconfirmed", _("Email not confirmed yet")
        REGISTERED = "registered", _("Registered")
        WAITING = "waiting", _("Waiting list")
        WITHDRAWN = "withdrawn", "Withdrawn"
        REFUSED = "refused", _("Refused")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    name = models.CharField(max_length=120)
    email = models.EmailField()
    #: `dune.text_rules.email_key(email)`: one email is one person.
    email_key = models.CharField(max_length=254, editable=False)
    club = models.CharField(max_length=120, blank=True)
    note = models.TextField(blank=True)
    #: Stored for a registration without a player (unconfirmed, refused); with a player its
    #: state is read from the player's status (`tournament.registration.state_of`).
    state = models.CharField(max_length=12, choices=State.choices, default=State.UNCONFIRMED)
    #: Why it was refused, in words (a full event without a waiting list).
    refusal = models.TextField(blank=True)
    #: The registrations or players it probably duplicates, in words, for the head judge.
    probable_duplicate = models.TextField(blank=True)
    #: The confirmation link's token, looked up by its SHA-256 digest; it opens until `expires_at`.
    digest = models.CharField(max_length=64, unique=True)
    expires_at = models.DateTimeField()
    confirmed_at = models.DateTimeField(null=True, blank=True)
    player = models.OneToOneField(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="registration"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        constraints = [
            models.UniqueConstraint("tournament", "email_key", name="registration_email_once_per_tournament"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.tournament})"


class PrivateLink(models.Model):
    """A player's private link (`/me/{token}/`): opens their own event on a phone without a
    password. The token is drawn by `secrets.token_urlsafe` (192 bits); it is found by its SHA-256
    digest and then compared in constant time (`tournament.private_links`). Revoking deletes the
    row; renewing draws a new token, so the old link answers 404."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="private_link")
    #: Kept so the badge can print the link again; looked up only through `digest`.
    token = models.CharField(max_length=64)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Private link of {self.player}"
