from django.apps import AppConfig


class WebConfig(AppConfig):
    """The pages, API, admin, template tags and management commands (no models)."""

    name = "web"
    verbose_name = "Pages and API"

    def ready(self) -> None:
        # The admin registrations of every app live in this package (autodiscovery finds
        # `web.admin`, which imports them).
        pass
