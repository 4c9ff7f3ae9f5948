"""Reports in the admin, read-only: a report is filed, reopened and corrected only through
scoring's commands (validation, lock, revision, what follows a filing)."""

from django.contrib import admin

from scoring.models import GameReport, ReportEntry, ReportRevision, ResultConfirmation
from web.read_only_admin import ReadOnlyAdmin, ReadOnlyInline


class ReportRevisionInline(ReadOnlyInline):
    model = ReportRevision


@admin.register(GameReport)
class GameReportAdmin(ReadOnlyAdmin):
    list_display = ("table", "tournament", "state", "version", "filed_at")
    list_filter = ("state", "tournament")
    inlines = [ReportRevisionInline]


@admin.register(ReportRevision)
class ReportRevisionAdmin(ReadOnlyAdmin):
    list_display = ("report", "action", "version", "user", "at")


@admin.register(ReportEntry)
class ReportEntryAdmin(ReadOnlyAdmin):
    """Derived from the filed reports (an index for players' games)."""

    list_display = ("player", "result", "round_number", "report")
    list_filter = ("tournament", "result")
    search_fields = ("player__name",)


@admin.register(ResultConfirmation)
class ResultConfirmationAdmin(ReadOnlyAdmin):  # a player's word, written through their private link only
    list_display = ("report", "player", "agree", "at")
