"""Judges sign in with Django auth; repeated wrong passwords lock the account (django-axes)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.django_db
def test_sign_in_page_renders(client: Any) -> None:
    response = client.get("/accounts/login/")
    assert response.status_code == 200
    assert b"Sign in" in response.content


@pytest.mark.django_db
def test_sign_in_works(client: Any, head_judge: Any, password: str) -> None:
    response = client.post("/accounts/login/", {"username": "head", "password": password})
    assert response.status_code == 302
    assert client.get("/").context["user"].is_authenticated


@pytest.mark.django_db
def test_brute_force_is_locked_out(client: Any, head_judge: Any, password: str, settings: Any) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "head", "password": "wrong"}, REMOTE_ADDR="10.0.0.9")
    response = client.post("/accounts/login/", {"username": "head", "password": password}, REMOTE_ADDR="10.0.0.9")
    assert response.status_code == 429
    assert b"Too many sign-in attempts" in response.content
