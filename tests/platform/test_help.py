"""The guides are served by the platform at /help/ (read at the venue without internet)."""

from __future__ import annotations

import re
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


@pytest.mark.django_db
def test_each_guide_shows_screenshots_the_browser_tests_take_served_at_help(client: Any) -> None:
    for slug in ("head-judge", "table-judge", "player"):
        page = client.get(f"/help/{slug}/").content.decode()
        images = re.findall(r'<img alt="([^"]+)" src="\.\./screenshots/([\w-]+)\.png"|<img src="\.\./screenshots/([\w-]+)\.png" '
                            r'alt="([^"]+)"', page)
        names = [m[1] or m[2] for m in images]
        assert len(names) >= 2 and all(m[0] or m[3] for m in images), (slug, images)
        for name in names:
            # Relative to /help/GUIDE/: /help/screenshots/NAME.png.
            answer = client.get(f"/help/screenshots/{name}.png")
            assert answer.status_code == 200 and answer["Content-Type"] == "image/png", name
            assert b"".join(answer.streaming_content)[:8] == b"\x89PNG\r\n\x1a\n"
    assert client.get("/help/screenshots/no-such-picture.png").status_code == 404
