from django.urls import path

from web.scoring import api

urlpatterns = [
    path("tables/<int:pk>/report/", api.ReportView.as_view(), name="scoring-api-report"),
    path("tables/<int:pk>/report/draft/", api.ReportDraftView.as_view(), name="scoring-api-report-draft"),
    path(
        "tables/<int:pk>/report/reopen/",
        api.ReopenReportView.as_view(),
        name="scoring-api-report-reopen",
    ),
    path("tournaments/<int:pk>/standings/", api.StandingsView.as_view(), name="scoring-api-standings"),
    path("tournaments/<int:pk>/finalists/", api.FinalistsView.as_view(), name="scoring-api-finalists"),
    path("tournaments/<int:pk>/awards/", api.AwardsView.as_view(), name="scoring-api-awards"),
]
