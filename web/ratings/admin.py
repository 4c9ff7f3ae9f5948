"""Ratings in the admin, read-only: only a recompute writes them (ratings.services)."""


from django.contrib import admin

from ratings.models import PersonRating, RatingHistory, RatingRun
from web.read_only_admin import ReadOnlyAdmin


@admin.register(PersonRating)
class PersonRatingAdmin(ReadOnlyAdmin):
    list_display = ("person", "ordinal", "mu", "sigma", "games")
    search_fields = ("person__name",)


@admin.register(RatingHistory)
class RatingHistoryAdmin(ReadOnlyAdmin):
    list_display = ("person", "report", "filed_at", "won", "ordinal", "games")


@admin.register(RatingRun)
class RatingRunAdmin(ReadOnlyAdmin):
    list_display = ("recomputed_at", "games", "replayed")
