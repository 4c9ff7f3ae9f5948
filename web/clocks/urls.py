from django.urls import path

from web.clocks import screen_views, views

urlpatterns = [
    path("tournaments/<int:pk>/screen/", screen_views.room_screen, name="clocks-room-screen"),
    path("rounds/<int:pk>/timer/", screen_views.round_timer_screen, name="clocks-round-timer"),
    path("rounds/<int:pk>/clocks/", views.round_dashboard, name="clocks-round"),
    path("rounds/<int:pk>/clocks/<str:action>/", views.round_action, name="clocks-round-action"),
    path("tables/<int:pk>/clock/", views.table_clock_page, name="clocks-table"),
    path("tables/<int:pk>/clock/<str:action>/", views.table_action, name="clocks-table-action"),
]
