"""A body over the upload limit (DATA_UPLOAD_MAX_MEMORY_SIZE) gets 413 naming the limit: JSON
from the API (its schema promises JSON), a line of text for a page; nothing is written."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings

from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def _too_big() -> str:
    return json.dumps({"name": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10), "format": "wbc"})


@pytest.mark.parametrize("url", ["/api/tournaments/", "/api/engine/evaluate/"])
def test_an_api_body_over_the_limit_is_a_json_413_naming_the_limit(
    client: Any, head_judge: Any, url: str
) -> None:
    client.force_login(head_judge)
    response = client.post(url, _too_big(), content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["field"] == "body"
    assert str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE) in body["detail"] and "MB" in body["detail"]
    assert not Tournament.objects.exists()


def test_a_page_form_over_the_limit_is_a_413_naming_the_limit(client: Any, head_judge: Any) -> None:
    client.force_login(head_judge)
    response = client.post("/tournaments/new/", {"name": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)})
    assert response.status_code == 413
    assert str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE) in response.content.decode()
