from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config import health, views
from gameplay.engine_api import EvaluateView

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("accounts/login/", views.sign_in, name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file, so the page needs no inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/engine/evaluate/", EvaluateView.as_view(), name="engine-evaluate"),
    path("api/", include("tournament.api_urls")),
    path("api/", include("gameplay.api_urls")),
    path("api/", include("scoring.api_urls")),
    path("api/", include("clocks.api_urls")),
    path("api/", include("insights.api_urls")),
    path("api/", include("ratings.api_urls")),
    path("api/", include("venue.api_urls")),
    path("", include("tournament.urls")),
    path("", include("gameplay.urls")),
    path("", include("scoring.urls")),
    path("", include("clocks.urls")),
    path("", include("insights.urls")),
    path("", include("ratings.urls")),
    path("", include("venue.urls")),
]

handler400 = "config.views.bad_request"
handler404 = "config.views.not_found"
handler500 = "config.views.server_error"
