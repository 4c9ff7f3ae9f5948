"""The deployment's settings for gunicorn started by a test (tests/gameplay/web_processes.py):
unchanged but for the static files, named as they are in the source (a test collects none)."""

from config.settings import *  # noqa: F403

STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
