"""Pages carry a Content-Security-Policy that allows no inline script, and none is needed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/api/docs/", "/healthz", "/api/tournaments/"])
def test_every_answer_forbids_inline_and_foreign_scripts(client: Any, url: str) -> None:
    policy = client.get(url)["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"


@pytest.mark.django_db
def test_the_api_docs_page_loads_its_start_up_script_from_a_file(client: Any) -> None:
    html = client.get("/api/docs/").content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)


@pytest.mark.parametrize("template", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_no_template_has_an_inline_script_or_handler(template: Path) -> None:
    text = template.read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), "inline <script>"
    assert not re.search(r"\son[a-z]+\s*=", text), "inline event handler"


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/tables/{table}/clock/{bad}/", "/rounds/{round}/clocks/{bad}/"])
def test_the_clock_views_escape_an_unknown_action(client: Any, head_judge: Any, url: str) -> None:
    from tests.factories import make_seated_table

    table = make_seated_table()
    client.force_login(head_judge)
    response = client.post(url.format(table=table.pk, round=table.round_id, bad="<script>alert(1)</script>"))
    assert response.status_code == 404
    assert "<script>" not in response.content.decode()
    assert "&lt;script&gt;" in response.content.decode()
