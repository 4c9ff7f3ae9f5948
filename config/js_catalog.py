"""The JavaScript catalogue of one shipped language (Django's `JavaScriptCatalog`, domain
`djangojs`), at an address naming its language.

Pages load the catalogue of the language they are served in, from this server (no CDN), before
their own scripts, which read their words through `gettext()` / `interpolate()`. The language
is in the address so that a phone's service worker keeps the catalogue its table page names and
serves it without a connection; a change of language loads another address.
"""

from __future__ import annotations

import threading
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.views.i18n import JavaScriptCatalog

#: A language's catalogue as served (its body and type), made once per process: the catalogues
#: are the compiled files the process started with, and every page load asks for one.
_made: dict[str, tuple[bytes, str]] = {}
_making = threading.Lock()


class LanguageCatalog(JavaScriptCatalog):
    """`/jsi18n/<lang>/`: the djangojs catalogue of `lang`, one of settings.LANGUAGES (else 404)."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        lang = kwargs.pop("lang")
        if lang not in dict(settings.LANGUAGES):
            raise Http404("no such language")
        made = _made.get(lang)
        if made is None:
            with _making, translation.override(lang):
                made = _made.get(lang)
                if made is None:
                    rendered = super().get(request, *args, **kwargs)
                    made = _made[lang] = (rendered.content, rendered["Content-Type"])
        response = HttpResponse(made[0], content_type=made[1])
        response["Cache-Control"] = "public, max-age=3600"
        response["Content-Language"] = lang
        return response
