"""Every model of the platform has a page in the Django admin, and each list page opens."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin

APPS = ("foundation", "tournament", "gameplay", "scoring", "clocks", "ratings")


def platform_models() -> list[Any]:
    return [model for model in apps.get_models() if model._meta.app_label in APPS]


@pytest.mark.parametrize("model", platform_models(), ids=lambda m: m._meta.label)
def test_model_is_in_the_admin(model: Any) -> None:
    assert model in admin.site._registry


@pytest.mark.django_db
@pytest.mark.parametrize("model", platform_models(), ids=lambda m: m._meta.label)
def test_admin_list_page_opens(client: Any, head_judge: Any, model: Any) -> None:
    client.force_login(head_judge)
    response = client.get(f"/admin/{model._meta.app_label}/{model._meta.model_name}/")
    assert response.status_code == 200
