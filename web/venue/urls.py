from django.urls import path

from web.venue import views

urlpatterns = [
    path("tournaments/<int:pk>/backups/latest/", views.latest_backup, name="venue-latest-backup"),
]
