from typing import Any

from django.contrib import admin

from scoring.models import GameReport, ReportEntry, ReportRevision


class NoDeleteAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """A filed report and its history are the record of a table's result: never deleted here
    (nor by deleting the tournament or table they belong to, which the admin then refuses)."""

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


class ReportRevisionInline(admin.TabularInline):
    model = ReportRevision
    extra = 0
    can_delete = False
    readonly_fields = ("action", "version", "data", "user", "reason", "at")


@admin.register(GameReport)
class GameReportAdmin(NoDeleteAdmin):
    list_display = ("table", "tournament", "state", "version", "filed_at")
    list_filter = ("state", "tournament")
    # Reports change only through scoring.services (validation, lock, cache invalidation).
    readonly_fields = (
        "table",
        "tournament",
        "data",
        "state",
        "version",
        "filed_by",
        "filed_at",
        "reopened_by",
        "reopened_at",
        "reopen_reason",
    )
    inlines = [ReportRevisionInline]


@admin.register(ReportRevision)
class ReportRevisionAdmin(NoDeleteAdmin):
    list_display = ("report", "action", "version", "user", "at")
    readonly_fields = ("report", "action", "version", "data", "user", "reason", "at")

    def has_add_permission(self, request: Any) -> bool:
        return False


@admin.register(ReportEntry)
class ReportEntryAdmin(NoDeleteAdmin):
    """Derived from the filed reports (an index for players' games); read-only here."""

    list_display = ("player", "result", "round_number", "report")
    list_filter = ("tournament", "result")
    search_fields = ("player__name",)

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False
