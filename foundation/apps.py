from django.apps import AppConfig


class FoundationConfig(AppConfig):
    name = "foundation"
    verbose_name = "Commands and their answers"
