from django.urls import path

from web.venue import api

urlpatterns = [
    path("tournaments/<int:pk>/export/", api.ExportView.as_view(), name="venue-api-export"),
]
