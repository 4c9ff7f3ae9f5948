from django.urls import path

from gameplay import views

urlpatterns = [
    path("tables/<int:pk>/", views.table_page, name="gameplay-table"),
    path("tables/<int:pk>/history/", views.table_history, name="gameplay-history"),
    path("tables/<int:pk>/report/", views.table_report, name="gameplay-report"),
]
