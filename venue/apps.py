from django.apps import AppConfig

from venue import effects


class VenueConfig(AppConfig):
    name = "venue"
    verbose_name = "Venue kit: export, import and backups"

    def ready(self) -> None:
        # A filed report is backed up at once; scoring stays unaware of backups.
        effects.connect()
