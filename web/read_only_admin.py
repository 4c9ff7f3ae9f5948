"""The admin of records no one edits by hand: append-only logs and audits, and what only a
recompute writes. Shown for reading; adding, changing and deleting are not offered."""

from __future__ import annotations

from typing import Any

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False
