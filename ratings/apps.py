from django.apps import AppConfig

from ratings import effects


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "People's ratings"

    def ready(self) -> None:
        # Filing or reopening a report, and a head judge's link or unlink, schedule a
        # recompute; scoring and tournament stay unaware of ratings.
        effects.connect()
