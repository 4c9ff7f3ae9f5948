"""The pages' scripts read their words from Django's JavaScript catalogue (domain djangojs),
served by this server at an address naming the language (no CDN), loaded before the scripts,
and kept by the table pages' service worker for a phone without a connection."""

from __future__ import annotations

import re
from typing import Any

import pytest


def test_each_language_has_its_catalogue(client: Any) -> None:
    spanish = client.get("/jsi18n/es/")
    assert spanish.status_code == 200
    assert spanish["Content-Type"].startswith("text/javascript")
    assert spanish["Content-Language"] == "es"
    body = spanish.content.decode()
    assert '"Reintentar"' in body and '"Sin conexi\\u00f3n con el servidor."' in body
    assert "globals.gettext" in body and "globals.interpolate" in body
    assert '"Wiederholen"' not in body and '"Erneut versuchen"' in client.get("/jsi18n/de/").content.decode()
    assert '"R\\u00e9essayer"' in client.get("/jsi18n/fr/").content.decode()


def test_a_catalogue_made_once_is_served_whole_in_its_own_language_whatever_the_page_asked_in(client: Any) -> None:
    first = client.get("/jsi18n/de/").content
    # Asked from a page in another language, and after other catalogues: the same German words.
    client.get("/jsi18n/fr/", HTTP_ACCEPT_LANGUAGE="es")
    again = client.get("/jsi18n/de/", HTTP_ACCEPT_LANGUAGE="fr")
    assert again.content == first and again["Content-Language"] == "de"
    assert again["Cache-Control"] == "public, max-age=3600"


def test_the_catalogue_travels_compressed(client: Any) -> None:
    plain = client.get("/jsi18n/es/")
    packed = client.get("/jsi18n/es/", HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip" and not plain.has_header("Content-Encoding")
    assert len(packed.content) * 3 < len(plain.content)


def test_an_unknown_language_has_no_catalogue(client: Any) -> None:
    assert client.get("/jsi18n/tlh/").status_code == 404


@pytest.mark.django_db
def test_a_page_loads_the_catalogue_of_its_language_before_its_scripts(client: Any) -> None:
    client.cookies["django_language"] = "fr"
    html = client.get("/").content.decode()
    scripts = re.findall(r'<script src="([^"]+)"', html)
    assert scripts[0] == "/jsi18n/fr/"
    assert '<html lang="fr">' in html


def test_the_service_worker_keeps_the_catalogue_for_offline_use(client: Any) -> None:
    client.cookies["django_language"] = "de"
    worker = client.get("/sw.js").content.decode()
    assert '"/jsi18n/de/"' in worker
    assert 'var CATALOGUES = "/jsi18n/xx/".replace("xx/", "");' in worker
    assert "url.pathname.indexOf(CATALOGUES) === 0" in worker


@pytest.mark.parametrize(
    ("lang", "heading", "text"),
    [
        ("es", "Sin conexión", "Esta página de mesa aún no se abrió en este teléfono."),
        ("fr", "Hors ligne", "Cette page de table n\\u0027a pas encore été ouverte sur ce téléphone."),
        ("de", "Offline", "Diese Tischseite wurde auf diesem Telefon noch nicht geöffnet."),
    ],
)
def test_the_service_workers_offline_page_reads_in_the_language_it_was_served_in(
    client: Any, lang: str, heading: str, text: str
) -> None:
    client.cookies["django_language"] = lang
    worker = client.get("/sw.js").content.decode()
    assert f'new Response("\\u003Ch1\\u003E{heading}\\u003C/h1\\u003E\\u003Cp\\u003E{text}\\u003C/p\\u003E",' in worker
    assert "This table page" not in worker
