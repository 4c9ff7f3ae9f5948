"""A judge adds the platform to a phone's home screen: every page links a favicon and the web
app manifest, whose icons are our own static files."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.staticfiles import finders


@pytest.mark.django_db
def test_pages_link_the_manifest_and_an_icon_served_from_our_static_files(client: Any) -> None:
    html = client.get("/").content.decode()
    manifest = re.search(r'<link rel="manifest" href="([^"]+)"', html)
    icon = re.search(r'<link rel="icon" href="/static/([^"]+)"', html)
    assert manifest and icon, "the page links no manifest or no icon"
    assert finders.find(icon[1])
    answer = client.get(manifest[1])
    assert answer.status_code == 200 and answer["Content-Type"] == "application/manifest+json"
    body = answer.json()
    assert body["name"] and body["start_url"] == "/" and body["display"] == "standalone"
    sizes = {icon["sizes"] for icon in body["icons"]}
    assert {"192x192", "512x512"} <= sizes  # what a phone needs to offer "Add to home screen"
    for entry in body["icons"]:
        assert finders.find(entry["src"].removeprefix("/static/")), entry


@pytest.mark.django_db
def test_favicon_ico_leads_to_the_icon(client: Any) -> None:
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301 and finders.find(answer["Location"].removeprefix("/static/"))
