from django.urls import path

from web.gameplay import api

urlpatterns = [
    path("tables/<int:pk>/game/", api.GameView.as_view(), name="gameplay-api-game"),
    path("tables/<int:pk>/game/events/", api.GameEventsView.as_view(), name="gameplay-api-events"),
    path("tables/<int:pk>/game/seen/", api.PhoneSeenView.as_view(), name="gameplay-api-seen"),
]
