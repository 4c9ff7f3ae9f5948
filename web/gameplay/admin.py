"""Admin views of the game records: read-only, since the log is append-only."""

from __future__ import annotations

from django.contrib import admin

from foundation.models import IdempotencyRecord
from gameplay.models import Game, GameEvent, GameSnapshot, PhoneSeen
from web.read_only_admin import ReadOnlyAdmin


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("table", "ruleset", "tracking", "seq", "updated_at")
    list_select_related = ("table__round__tournament",)


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "type", "author", "created_at", "reason")
    list_filter = ("type",)
    list_select_related = ("game__table__round__tournament", "author")


@admin.register(GameSnapshot)
class GameSnapshotAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "created_at")


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(ReadOnlyAdmin):
    list_display = ("scope", "key", "user", "status", "created_at")
    list_filter = ("status",)
    list_select_related = ("user",)


@admin.register(PhoneSeen)
class PhoneSeenAdmin(ReadOnlyAdmin):
    list_display = ("table", "highest_seq", "behind_at_seq", "refilled", "reported_at", "reported_by")
    list_select_related = ("table__round__tournament", "reported_by")
