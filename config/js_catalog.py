"""The JavaScript catalogue of one shipped language (Django's `JavaScriptCatalog`, domain
`djangojs`), at an address naming its language.

Pages load the catalogue of the language they are served in, from this server (no CDN), before
their own scripts, which read their words through `gettext()` / `interpolate()`. The language
is in the address so that a phone's service worker keeps the catalogue its table page names and
serves it without a connection; a change of language loads another address.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.views.i18n import JavaScriptCatalog


class LanguageCatalog(JavaScriptCatalog):
    """`/jsi18n/<lang>/`: the djangojs catalogue of `lang`, one of settings.LANGUAGES (else 404)."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        lang = kwargs.pop("lang")
        if lang not in dict(settings.LANGUAGES):
            raise Http404("no such language")
        with translation.override(lang):
            response = super().get(request, *args, **kwargs)
        response["Cache-Control"] = "public, max-age=3600"
        response["Content-Language"] = lang
        return response
