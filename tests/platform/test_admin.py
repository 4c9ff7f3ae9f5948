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


def admins() -> list[Any]:
    return [admin.site._registry[model] for model in platform_models() if model in admin.site._registry]


@pytest.mark.django_db
@pytest.mark.parametrize("model_admin", admins(), ids=lambda a: a.model._meta.label)
def test_no_admin_page_adds_changes_or_deletes_a_record_commands_write(rf: Any, model_admin: Any,
                                                                        make_user: Any) -> None:
    """Every platform record is written by a command (who may, validation, lock, what follows
    after commit): the admin, even a superuser's, only shows it, its inlines too."""
    request = rf.get("/admin/")
    request.user = make_user("root", is_superuser=True, is_staff=True)
    for shown in [model_admin, *model_admin.get_inline_instances(request)]:
        what = f"{type(shown).__name__} ({shown.model._meta.label})"
        adds = shown.has_add_permission(request) if shown is model_admin else shown.has_add_permission(request, None)
        assert not adds, f"{what} offers adding"
        assert not shown.has_change_permission(request, None), f"{what} offers changing"
        assert not shown.has_delete_permission(request, None), f"{what} offers deleting"


@pytest.mark.django_db
def test_a_superuser_posting_an_admin_form_changes_nothing(client: Any, make_user: Any) -> None:
    from tests.factories import make_round, make_tournament
    from tournament.models import Round

    round_ = make_round(make_tournament(format="wbc"))
    client.force_login(make_user("root", is_superuser=True, is_staff=True))
    answer = client.post(f"/admin/tournament/round/{round_.pk}/change/",
                         {"tournament": round_.tournament_id, "number": round_.number, "state": "finished"})
    assert answer.status_code == 403
    assert Round.objects.get(pk=round_.pk).state == round_.state
    assert client.post("/admin/tournament/round/add/", {}).status_code == 403
