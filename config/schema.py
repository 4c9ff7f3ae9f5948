"""`/api/schema/`: the OpenAPI schema, generated once per process instead of per request.

Generating it walks every view and serializer (about 3 s on one core); it depends on the code
only (the schema is public, the same for everyone), so each process keeps the first one it
makes, and `config.wsgi` makes it while the server starts (gunicorn's master, which preloads
the application, before forking the workers), so no request pays for it.
"""

from __future__ import annotations

import threading
from typing import Any

from drf_spectacular.views import SpectacularAPIView
from rest_framework.response import Response

_lock = threading.Lock()
_made: dict[Any, Any] = {}


def schema(generator_class: Any = None, *, urlconf: Any = None, version: Any = None, patterns: Any = None) -> Any:
    """The public schema (generated on the first call of this process)."""
    key = (urlconf, version)
    found = _made.get(key)
    if found is not None:
        return found
    with _lock:
        found = _made.get(key)
        if found is None:
            if generator_class is None:
                generator_class = SpectacularAPIView.generator_class
            found = generator_class(urlconf=urlconf, api_version=version, patterns=patterns).get_schema(
                request=None, public=True
            )
            _made[key] = found
    return found


def warm() -> None:
    """Generate the schema now (gunicorn's master, before the workers are forked)."""
    schema()


class SchemaView(SpectacularAPIView):
    def _get_schema_response(self, request: Any) -> Response:
        if not self.serve_public or self.patterns is not None:
            return super()._get_schema_response(request)  # type: ignore[no-any-return]
        version = self.api_version or request.version or self._get_version_parameter(request)
        return Response(
            data=schema(self.generator_class, urlconf=self.urlconf, version=version),
            headers={"Content-Disposition": f'inline; filename="{self._get_filename(request, version)}"'},
        )
