from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerSplitView

from config import health, help
from config.js_catalog import LanguageCatalog
from config.schema import SchemaView
from web import password_reset, views
from web.gameplay.engine_api import EvaluateView

#: The API, tried first and the game's paths first within it: a table judge's post, the request
#: an event day sends most, is resolved after the fewest patterns (no path of one part of the API
#: is a path of another, so their order decides nothing else).
api_patterns = [
    path("", include("web.gameplay.api_urls")),
    path("schema/", SchemaView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file, so the page needs no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("engine/evaluate/", EvaluateView.as_view(), name="engine-evaluate"),
    path("", include("web.tournament.api_urls")),
    path("", include("web.scoring.api_urls")),
    path("", include("web.clocks.api_urls")),
    path("", include("web.insights.api_urls")),
    path("", include("web.ratings.api_urls")),
    path("", include("web.venue.api_urls")),
]

urlpatterns = [
    path("api/", include(api_patterns)),
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("manifest.webmanifest", views.manifest, name="web-manifest"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("help/", help.help_index, name="help"),
    path("help/screenshots/<slug:name>.png", help.help_screenshot, name="help-screenshot"),
    path("help/<slug:slug>/", help.help_page, name="help-guide"),
    # The footer's language switcher posts here; the choice is kept in a cookie.
    path("i18n/", include("django.conf.urls.i18n")),
    # The words of the pages' scripts, one catalogue per language (a phone's service worker keeps it).
    path("jsi18n/<str:lang>/", LanguageCatalog.as_view(domain="djangojs"), name="javascript-catalog"),
    path("accounts/login/", views.sign_in, name="login"),
    path("accounts/session/", views.session_state, name="session-state"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # A judge's forgotten password: Django's views, the message through the outbox.
    path("accounts/password-reset/", password_reset.reset, name="password_reset"),
    path("accounts/password-reset/sent/", password_reset.reset_done, name="password_reset_done"),
    path("accounts/password-reset/<uidb64>/<token>/", password_reset.reset_confirm, name="password_reset_confirm"),
    path("accounts/password-reset/done/", password_reset.reset_complete, name="password_reset_complete"),
    path("admin/login/", views.admin_sign_in, name="admin-sign-in"),
    path("admin/", admin.site.urls),
    path("", include("web.tournament.urls")),
    path("", include("web.gameplay.urls")),
    path("", include("web.scoring.urls")),
    path("", include("web.clocks.urls")),
    path("", include("web.insights.urls")),
    path("", include("web.ratings.urls")),
    path("", include("web.venue.urls")),
    path("", include("web.mail.urls")),
]

handler400 = "web.views.bad_request"
handler403 = "web.views.permission_denied"
handler404 = "web.views.not_found"
handler500 = "web.views.server_error"
