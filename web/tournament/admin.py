
from django.contrib import admin

from tournament.models import (
    CheckIn,
    JudgeInvitation,
    NoShow,
    Person,
    PersonLink,
    Player,
    PlayerChange,
    PrivateLink,
    Registration,
    Round,
    Seat,
    SeatingAudit,
    Series,
    Table,
    Tournament,
)
from web.read_only_admin import ReadOnlyAdmin, ReadOnlyInline


class RoundInline(ReadOnlyInline):
    model = Round
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "format", "created_at")
    list_filter = ("format",)
    search_fields = ("name",)
    filter_horizontal = ("head_judges", "table_judges")
    inlines = [RoundInline]


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ("name", "tournament", "club", "status")
    list_filter = ("tournament", "status")
    search_fields = ("name", "email", "club")


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "kind", "state", "starts_at", "seed")
    list_filter = ("tournament", "kind", "state")


class SeatInline(ReadOnlyInline):
    model = Seat
    extra = 0
    raw_id_fields = ("player",)


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "judge")
    list_filter = ("round__tournament",)
    inlines = [SeatInline]


@admin.register(CheckIn)
class CheckInAdmin(ReadOnlyAdmin):
    list_display = ("player", "round", "at")
    list_filter = ("round",)


@admin.register(NoShow)
class NoShowAdmin(ReadOnlyAdmin):  # written by the no-show command only, with its audit entry
    list_display = ("player", "round", "table_number", "reason", "by", "at")
    list_filter = ("round__tournament",)


@admin.register(PrivateLink)
class PrivateLinkAdmin(ReadOnlyAdmin):  # made, renewed and revoked by the head judge's commands only
    list_display = ("player", "created_at")
    exclude = ("token", "digest")  # a usable link is never shown here


@admin.register(Registration)
class RegistrationAdmin(ReadOnlyAdmin):  # made and confirmed by the registration commands only
    list_display = ("name", "tournament", "state", "created_at", "confirmed_at")
    list_filter = ("tournament", "state")
    search_fields = ("name", "email", "club")
    raw_id_fields = ("player",)
    exclude = ("digest",)  # a confirmation link is never shown here


@admin.register(SeatingAudit)
class SeatingAuditAdmin(ReadOnlyAdmin):  # append-only: a database trigger refuses changes
    list_display = ("round", "action", "user", "at", "reason")
    list_filter = ("action", "round__tournament")
    search_fields = ("reason",)


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("player", "table", "seat", "faction")
    list_filter = ("round__tournament", "faction")
    search_fields = ("player__name",)
    raw_id_fields = ("player", "table", "round")


@admin.register(PlayerChange)
class PlayerChangeAdmin(ReadOnlyAdmin):
    list_display = ("player", "at", "user")
    list_filter = ("player__tournament",)
    search_fields = ("player__name",)
    raw_id_fields = ("player",)


@admin.register(Series)
class SeriesAdmin(ReadOnlyAdmin):
    list_display = ("name", "format", "owner", "created_at")
    search_fields = ("name",)


@admin.register(Person)
class PersonAdmin(ReadOnlyAdmin):
    list_display = ("name", "listed_by_initials", "created_at")
    list_filter = ("listed_by_initials",)
    search_fields = ("name", "email")


@admin.register(PersonLink)
class PersonLinkAdmin(ReadOnlyAdmin):
    """The record of who linked whom: read-only, like every audit."""

    list_display = ("player", "action", "from_person", "to_person", "user", "at")
    list_filter = ("action",)


@admin.register(JudgeInvitation)
class JudgeInvitationAdmin(ReadOnlyAdmin):
    """Who agreed to judge which tournament: answered by the accounts themselves, never here."""

    list_display = ("tournament", "user", "role", "how", "invited_by", "created_at", "accepted_at")
    list_filter = ("role", "how")
