from django.urls import path

from web.gameplay import board_views, views

urlpatterns = [
    path("sw.js", views.service_worker, name="table-service-worker"),
    path("my/tables/", views.my_tables, name="my-tables"),
    path("signed-in/", views.after_sign_in, name="after-sign-in"),
    path("tables/<int:pk>/judge/", views.judge_link, name="table-judge-link"),
    path("tables/<int:pk>/", views.table_page, name="gameplay-table"),
    path("tables/<int:pk>/board.svg", board_views.board_svg, name="gameplay-board-svg"),
    path("tables/<int:pk>/board/", board_views.board_panel, name="gameplay-board-panel"),
    path("tables/<int:pk>/history/", views.table_history, name="gameplay-history"),
    path("tables/<int:pk>/report/", views.table_report, name="gameplay-report"),
]
