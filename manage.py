#!/usr/bin/env python
"""Django's command-line utility for the tournament platform."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    from config.env import ConfigError

    try:
        from django.conf import settings

        settings.INSTALLED_APPS  # noqa: B018 - load the settings now, to report a bad value first
        execute_from_command_line(sys.argv)
    except ConfigError as exc:
        # One clear line instead of a traceback: the operator fixes the environment.
        sys.exit(f"configuration error: {exc}")


if __name__ == "__main__":
    main()
