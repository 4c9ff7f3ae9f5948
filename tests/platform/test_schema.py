"""The OpenAPI schema is served and is a valid OpenAPI document."""

from __future__ import annotations

from typing import Any

import pytest
from openapi_spec_validator import validate


@pytest.mark.django_db
def test_schema_validates(client: Any) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    validate(schema)
    assert schema["info"]["title"] == "Dune tournament platform API"


@pytest.mark.django_db
def test_docs_page_served(client: Any) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()
