"""The WSGI application gunicorn serves (`config.wsgi:application`)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# The OpenAPI schema takes seconds to generate: made while the server starts (in gunicorn's
# master when it preloads the application, shared by every worker it forks), never by a request.
from config import schema  # noqa: E402  (needs the settings loaded above)

schema.warm()
