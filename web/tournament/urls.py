from django.urls import path

from web.tournament import account_views, desk_views, edit_views, format_views, seat_views, views

urlpatterns = [
    path("accounts/me/", account_views.account_page, name="account"),
    path("tournaments/new/", views.tournament_new, name="tournament-new"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament-detail"),
    path("tournaments/<int:pk>/edit/", edit_views.tournament_edit, name="tournament-edit"),
    path("tournaments/<int:pk>/format/", format_views.format_page, name="tournament-format"),
    path(
        "tournaments/<int:pk>/format.<str:kind>",
        format_views.format_download,
        name="tournament-format-download",
    ),
    path("tournaments/<int:pk>/players/", views.players, name="tournament-players"),
    path("tournaments/<int:pk>/players/import/", views.players_import, name="tournament-import"),
    path("tournaments/<int:pk>/players/<int:player_pk>/edit/", desk_views.player_edit, name="tournament-player-edit"),
    path("tournaments/<int:pk>/players/badges/", desk_views.badges, name="tournament-badges"),
    path("check-in/<int:player_pk>/<str:token>/", desk_views.self_check_in, name="tournament-self-check-in"),
    path("rounds/<int:pk>/", views.round_page, name="tournament-round"),
    path("rounds/<int:pk>/edit/", edit_views.round_edit, name="tournament-round-edit"),
    path("rounds/<int:pk>/seat/", seat_views.seat_page, name="tournament-seat-round"),
    path("rounds/<int:pk>/seat/draw/", seat_views.seat_draw, name="tournament-seat-draw"),
    path("rounds/<int:pk>/seat/publish/", seat_views.seat_publish, name="tournament-seat-publish"),
    path("rounds/<int:pk>/seat/swap/", seat_views.seat_swap, name="tournament-seat-swap"),
    path("rounds/<int:pk>/seat/latecomer/", seat_views.seat_latecomer, name="tournament-seat-latecomer"),
    path("rounds/<int:pk>/seat/no-show/", seat_views.seat_no_show, name="tournament-seat-no-show"),
    path("rounds/<int:pk>/seat/judge/", seat_views.seat_judge, name="tournament-seat-judge"),
    path("rounds/<int:pk>/seat/trade/", seat_views.seat_trade, name="tournament-seat-trade"),
    path("rounds/<int:pk>/seat/undrawn/", seat_views.seat_take_undrawn, name="tournament-seat-undrawn"),
    path("tables/<int:pk>/keep/", seat_views.keep_cards, name="tournament-keep-cards"),
    path("rounds/<int:pk>/final/", views.final, name="tournament-final"),
    path("rounds/<int:pk>/print/seating/", views.print_seating, name="tournament-print-seating"),
    path("rounds/<int:pk>/print/reports/", views.print_reports, name="tournament-print-reports"),
]
