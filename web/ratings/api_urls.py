from django.urls import path

from web.ratings import api

urlpatterns = [
    path("people/", api.PeopleView.as_view(), name="api-people"),
    path("people/<int:pk>/", api.PersonView.as_view(), name="api-person"),
    path("series/", api.SeriesListView.as_view(), name="api-series-list"),
    path("series/<int:pk>/", api.SeriesView.as_view(), name="api-series"),
]
