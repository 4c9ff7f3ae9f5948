from django.urls import path

from web.tournament import api, format_api, judges_api, me_views, registration_views

urlpatterns = [
    path("formats/", format_api.FormatListView.as_view(), name="api-formats"),
    path("formats/<str:key>/", format_api.FormatDetailView.as_view(), name="api-format"),
    path("tournaments/<int:pk>/format/", format_api.TournamentFormatView.as_view(), name="api-tournament-format"),
    path("tournaments/", api.TournamentListView.as_view(), name="api-tournaments"),
    path("tournaments/<int:pk>/", api.TournamentDetailView.as_view(), name="api-tournament"),
    path("tournaments/<int:pk>/invitations/", judges_api.InvitationsView.as_view(), name="api-tournament-invitations"),
    path("tournaments/<int:pk>/invitations/<str:username>/", judges_api.InvitationView.as_view(),
         name="api-tournament-invitation"),
    path("tournaments/<int:pk>/table-judge-accounts/", judges_api.MadeAccountsView.as_view(),
         name="api-tournament-table-judge-accounts"),
    path("account/invitations/", judges_api.MyInvitationsView.as_view(), name="api-account-invitations"),
    path("account/invitations/<int:pk>/accept/", judges_api.AnswerView.as_view(accept=True),
         name="api-account-invitation-accept"),
    path("account/invitations/<int:pk>/decline/", judges_api.AnswerView.as_view(accept=False),
         name="api-account-invitation-decline"),
    path("tournaments/<int:pk>/players/", api.PlayerListView.as_view(), name="api-tournament-players"),
    path(
        "tournaments/<int:pk>/players/import/",
        api.PlayerImportView.as_view(),
        name="api-tournament-players-import",
    ),
    path("tournaments/<int:pk>/rounds/", api.RoundListView.as_view(), name="api-tournament-rounds"),
    path("tournaments/<int:pk>/registrations/", registration_views.RegistrationsView.as_view(),
         name="api-tournament-registrations"),
    path("registrations/<str:token>/confirm/", registration_views.ConfirmView.as_view(), name="api-registration-confirm"),
    path("me/<str:token>/", me_views.MeView.as_view(), name="api-me"),
    path("me/<str:token>/confirmations/", me_views.MeConfirmationsView.as_view(), name="api-me-confirmations"),
    path("players/<int:pk>/private-link/", me_views.PrivateLinkView.as_view(), name="api-player-private-link"),
    path("players/<int:pk>/", api.PlayerDetailView.as_view(), name="api-player"),
    path("players/<int:pk>/person/", api.PlayerPersonView.as_view(), name="api-player-person"),
    path("rounds/<int:pk>/", api.RoundDetailView.as_view(), name="api-round"),
    path("rounds/<int:pk>/checkins/", api.CheckInView.as_view(), name="api-round-checkins"),
    path("rounds/<int:pk>/seating/", api.SeatingView.as_view(), name="api-round-seating"),
    path("rounds/<int:pk>/seating/publish/", api.PublishView.as_view(), name="api-round-seating-publish"),
    path("rounds/<int:pk>/seating/swap/", api.SwapView.as_view(), name="api-round-seating-swap"),
    path(
        "rounds/<int:pk>/seating/latecomer/", api.LatecomerView.as_view(), name="api-round-seating-latecomer"
    ),
    path("rounds/<int:pk>/no-shows/", api.NoShowListView.as_view(), name="api-round-no-shows"),
    path("rounds/<int:pk>/no-shows/<int:player>/", api.NoShowDetailView.as_view(), name="api-round-no-show"),
    path("rounds/<int:pk>/seating/factions/", api.FactionView.as_view(), name="api-round-seating-factions"),
    path("rounds/<int:pk>/final/picks/", api.FinalPickView.as_view(), name="api-round-final-picks"),
    path("rounds/<int:pk>/tables/", api.TablesView.as_view(), name="api-round-tables"),
]
