from django.urls import path

from web.scoring import views

urlpatterns = [
    path("tournaments/<int:pk>/standings/", views.standings_page, name="scoring-standings"),
    path("tournaments/<int:pk>/standings.csv", views.standings_csv, name="scoring-standings-csv"),
    path("tournaments/<int:pk>/reports.csv", views.reports_csv, name="scoring-reports-csv"),
    path("tournaments/<int:pk>/awards/", views.awards_page, name="scoring-awards"),
    path("tournaments/<int:pk>/players/<int:player_pk>/", views.player_page, name="scoring-player"),
    path("tables/<int:pk>/filed-report/", views.report_page, name="scoring-report"),
]
