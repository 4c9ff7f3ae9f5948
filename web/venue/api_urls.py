from django.urls import path

from web.venue import api

urlpatterns = [
    path("tournaments/<int:pk>/export/", api.ExportView.as_view(), name="venue-api-export"),
    path("tournaments/<int:pk>/changes/", api.ChangesView.as_view(), name="venue-api-changes"),
    path("venue/followed/", api.FollowableView.as_view(), name="venue-api-followed"),
]
