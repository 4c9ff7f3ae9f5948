
from django.contrib import admin

from clocks.models import CallTimer, ClockExtension, ClockHistory, ClockPause, TableClock
from web.read_only_admin import ReadOnlyAdmin, ReadOnlyInline


class PauseInline(ReadOnlyInline):
    model = ClockPause
    extra = 0


class ExtensionInline(ReadOnlyInline):
    model = ClockExtension
    extra = 0


@admin.register(TableClock)
class TableClockAdmin(ReadOnlyAdmin):
    list_display = ("table", "limit_key", "state", "started_at", "paused_at", "time_up_at", "waived")
    list_filter = ("state", "limit_key", "waived")
    inlines = [PauseInline, ExtensionInline]
    readonly_fields = ("version", "updated_at", "armed_for")


@admin.register(ClockHistory)
class ClockHistoryAdmin(ReadOnlyAdmin):  # append-only: a database trigger refuses changes
    list_display = ("clock", "at", "kind", "from_state", "to_state", "by", "reason")
    list_filter = ("kind",)


@admin.register(ClockPause)
class ClockPauseAdmin(ReadOnlyAdmin):
    list_display = ("clock", "started_at", "ended_at", "round_wide", "reason")


@admin.register(ClockExtension)
class ClockExtensionAdmin(ReadOnlyAdmin):
    list_display = ("clock", "minutes", "reason", "by", "at")


@admin.register(CallTimer)
class CallTimerAdmin(ReadOnlyAdmin):
    list_display = ("table", "action", "faction", "started_at", "ends_at", "state", "game_seq")
    list_filter = ("action", "state")
