from django.urls import path, register_converter

from scoring import api


class SignedIntConverter:
    """Like `<int:...>` but also routes negative ids to the view, which answers a JSON 404
    (the schema says "integer", so API clients may send any integer)."""

    regex = "-?[0-9]+"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(SignedIntConverter, "scoring_id")

urlpatterns = [
    path("tables/<scoring_id:pk>/report/", api.ReportView.as_view(), name="scoring-api-report"),
    path(
        "tables/<scoring_id:pk>/report/reopen/",
        api.ReopenReportView.as_view(),
        name="scoring-api-report-reopen",
    ),
    path("tournaments/<scoring_id:pk>/standings/", api.StandingsView.as_view(), name="scoring-api-standings"),
    path("tournaments/<scoring_id:pk>/finalists/", api.FinalistsView.as_view(), name="scoring-api-finalists"),
    path("tournaments/<scoring_id:pk>/awards/", api.AwardsView.as_view(), name="scoring-api-awards"),
]
