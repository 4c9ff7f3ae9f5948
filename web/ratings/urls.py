from django.urls import path

from web.ratings import views

urlpatterns = [
    path("people/", views.people_page, name="people"),
    path("people/<int:pk>/", views.person_page, name="person"),
    path("series/", views.series_mine, name="series-mine"),
    path("series/<int:pk>/", views.series_page, name="series"),
    path("players/<int:pk>/person/", views.player_person_page, name="player-person"),
]
