from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "People's ratings"

    def ready(self) -> None:
        # Filing, reopening or changing a report, and a head judge's link or unlink, schedule
        # a recompute; scoring and tournament stay unaware of ratings.
        from ratings import signals

        signals.connect()
