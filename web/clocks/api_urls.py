from django.urls import path

from web.clocks import api

urlpatterns = [
    path("tables/<int:pk>/clock/", api.TableClockView.as_view(), name="clocks-api-table"),
    path("tables/<int:pk>/clock/call/", api.TableCallView.as_view(), name="clocks-api-call"),
    path(
        "tables/<int:pk>/clock/call/stop/",
        api.TableCallStopView.as_view(),
        name="clocks-api-call-stop",
    ),
    path(
        "tables/<int:pk>/clock/<str:action>/",
        api.TableClockActionView.as_view(),
        name="clocks-api-table-action",
    ),
    path("rounds/<int:pk>/clocks/", api.RoundClocksView.as_view(), name="clocks-api-round"),
    path("rounds/<int:pk>/timer/", api.RoundTimerView.as_view(), name="clocks-api-round-timer"),
    path(
        "rounds/<int:pk>/clocks/<str:action>/",
        api.RoundClocksActionView.as_view(),
        name="clocks-api-round-action",
    ),
]
