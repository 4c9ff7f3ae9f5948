"""The admin shows the platform's records for reading only. Every one of them is written by a
command (tournament, seating, clocks, the game log, reports, ratings), which checks who may
write it, validates and locks, and runs what the write causes after it commits; a form here
would do none of that. Adding, changing and deleting are not offered, in lists or inlines."""

from __future__ import annotations

from typing import Any

from django.contrib import admin


class _NoWrites:
    """Nobody adds, changes or deletes through the admin: it only shows."""

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(_NoWrites, admin.ModelAdmin):  # type: ignore[type-arg]
    pass


class ReadOnlyInline(_NoWrites, admin.TabularInline):  # type: ignore[type-arg]
    extra = 0
    can_delete = False
