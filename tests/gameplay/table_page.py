"""Helpers for tests of the table page's forms: its address, a signed-in judge, the game's
sequence number and position, and one form's HTML out of a page."""

from __future__ import annotations

from typing import Any

from django.test import Client

from gameplay.models import Game


def url(table: Any) -> str:
    return f"/tables/{table.pk}/"


def web(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def seq_of(table: Any) -> int:
    return Game.objects.get(table=table).seq


def position(table: Any) -> dict[str, Any]:
    return dict(Game.objects.get(table=table).position)


def form_of(html: str, action: str) -> str:
    """The form posting `action`, from its opening tag's hook to its closing tag."""
    start = html.index(f'data-action="{action}"')
    return html[start:html.index("</form>", start)]
