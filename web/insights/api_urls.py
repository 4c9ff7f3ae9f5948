from django.urls import path

from web.insights import api

urlpatterns = [
    path(
        "tournaments/<int:pk>/event-report/", api.EventReportView.as_view(), name="insights-api-event-report"
    ),
]
