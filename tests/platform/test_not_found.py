"""A missing object answers JSON under /api/ (as the schema promises) and a page elsewhere."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/tournaments/-1/standings/", "/api/no-such-thing/", "/api/tables/999999/report/"])
def test_api_404_is_json(client: Any, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert "detail" in response.json()


@pytest.mark.django_db
def test_page_404_is_a_page(client: Any) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert b"Not found" in response.content
    assert b"/no-such-page/" in response.content
