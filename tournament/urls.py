from django.urls import path

from tournament import views

urlpatterns = [
    path("tournaments/new/", views.tournament_new, name="tournament-new"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament-detail"),
    path("tournaments/<int:pk>/players/", views.players, name="tournament-players"),
    path("tournaments/<int:pk>/players/import/", views.players_import, name="tournament-import"),
    path("rounds/<int:pk>/", views.round_page, name="tournament-round"),
    path("rounds/<int:pk>/seat/", views.seat_round, name="tournament-seat-round"),
    path("rounds/<int:pk>/final/", views.final, name="tournament-final"),
    path("rounds/<int:pk>/print/seating/", views.print_seating, name="tournament-print-seating"),
    path("rounds/<int:pk>/print/reports/", views.print_reports, name="tournament-print-reports"),
]
