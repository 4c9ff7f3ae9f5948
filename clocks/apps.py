from importlib import import_module

from django.apps import AppConfig


class ClocksConfig(AppConfig):
    name = "clocks"
    verbose_name = "Round and table clocks"

    def ready(self) -> None:
        # A filed report stops its table's clock; closing a round stops all of its tables'.
        # The handlers call the clock services, whose models load after this module: they are
        # registered here, once the models are ready (clocks.effects).
        import_module("clocks.effects").connect()
