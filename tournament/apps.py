from importlib import import_module

from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Tournaments, players, rounds and seating"

    def ready(self) -> None:
        # A published round, a seated final and a closed final tell the players by email;
        # the composers read the models, which load after this module (tournament.messages).
        import_module("tournament.messages").connect()
