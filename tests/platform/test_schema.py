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


@pytest.mark.django_db
def test_the_schema_is_generated_once_per_process_as_the_server_starts(
    client: Any, monkeypatch: Any
) -> None:
    """Generating the schema takes seconds; the server makes it as it loads the application
    (config.wsgi, in gunicorn's master before forking), so no request generates it again."""
    import runpy

    from drf_spectacular.generators import SchemaGenerator

    from config import schema

    monkeypatch.setattr(schema, "_made", {})
    runpy.run_module("config.wsgi")
    first = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the schema was generated again")

    monkeypatch.setattr(SchemaGenerator, "get_schema", never)
    again = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert again.status_code == 200 and again.json() == first
    validate(first)
