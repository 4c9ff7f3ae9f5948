from django.urls import path

from gameplay import views

urlpatterns = [
    path("sw.js", views.service_worker, name="table-service-worker"),
    path("tables/<int:pk>/", views.table_page, name="gameplay-table"),
    path("tables/<int:pk>/history/", views.table_history, name="gameplay-history"),
    path("tables/<int:pk>/report/", views.table_report, name="gameplay-report"),
]
