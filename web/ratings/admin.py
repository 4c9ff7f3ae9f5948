"""Ratings in the admin, read-only: only a recompute writes them (ratings.services)."""

from typing import Any

from django.contrib import admin

from ratings.models import PersonRating, RatingHistory, RatingRun


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(PersonRating)
class PersonRatingAdmin(ReadOnly):
    list_display = ("person", "ordinal", "mu", "sigma", "games")
    search_fields = ("person__name",)


@admin.register(RatingHistory)
class RatingHistoryAdmin(ReadOnly):
    list_display = ("person", "report", "filed_at", "won", "ordinal", "games")


@admin.register(RatingRun)
class RatingRunAdmin(ReadOnly):
    list_display = ("recomputed_at", "games", "replayed")
