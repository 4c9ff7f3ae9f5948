"""A page signed in without going through the sign-in form, for the browser tests whose subject
is a page behind it (tests/e2e/test_signin.py and the `sign_in` fixture keep the form itself
tested): the password is checked as the form checks it, the session is made on the server as
the form makes it, and only its cookie is handed to the browser. The form costs three page loads
(the form, its answer, the landing page) that such a test never looks at."""

from __future__ import annotations

from typing import Any


def sign_in_by_session(page: Any, base: str, username: str, password: str) -> None:
    """Sign `page`'s browser context in as `username` on the live server at `base`."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    user = get_user_model().objects.get(username=username)
    assert user.is_active and user.check_password(password), f"{username} cannot sign in with that password"
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": base, "httpOnly": True, "sameSite": "Lax"}]
    )
