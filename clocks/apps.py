from importlib import import_module

from django.apps import AppConfig


class ClocksConfig(AppConfig):
    name = "clocks"
    verbose_name = "Round and table clocks"

    def ready(self) -> None:
        # A filed report stops its table's clock; closing a round stops all of its tables'.
        # The receivers call the clock services, whose models load after this module: Django
        # connects an app's receivers here, once the models are ready (clocks.signals).
        import_module("clocks.signals").connect()
