"""The guides are served by the platform at /help/ (read at the venue without internet)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.django_db
def test_help_lists_the_three_guides_and_renders_each_from_markdown(client: Any) -> None:
    index = client.get("/help/")
    assert index.status_code == 200
    html = index.content.decode()
    for slug, title in (("head-judge", "head judge"), ("table-judge", "table judge"), ("player", "player")):
        assert f'href="/help/{slug}/"' in html
        page = client.get(f"/help/{slug}/").content.decode()
        assert "<h1>" in page and title in page.split("<h1>", 1)[1].split("</h1>", 1)[0]
        assert "<h2>" in page and "##" not in page  # Markdown rendered, not shown raw
    assert 'href="/help/"' in client.get("/").content.decode()  # every page's footer links them


@pytest.mark.django_db
def test_an_unknown_guide_is_not_found(client: Any) -> None:
    assert client.get("/help/nothing/").status_code == 404
