from django.urls import path

from tournament import views

urlpatterns = [
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament-detail"),
]
