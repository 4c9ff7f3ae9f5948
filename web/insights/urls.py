from django.urls import path

from web.insights import views

urlpatterns = [
    path("tournaments/<int:pk>/event-report/", views.event_report_page, name="insights-event-report"),
    path("tournaments/<int:pk>/event-report.csv", views.event_report_csv, name="insights-event-report-csv"),
    path(
        "tournaments/<int:pk>/event-report/charts.css",
        views.event_report_charts_css,
        name="insights-event-report-charts-css",
    ),
]
