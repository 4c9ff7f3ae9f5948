"""The languages the platform ships: the reader's choice (footer switcher, Django's
`/i18n/setlang/`) or their browser's, `<html lang>` naming it; a tournament's `language` for its
printed sheets and room screen; the API's refusals in the reader's language where marked."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_platform_ships_english_spanish_french_and_german() -> None:
    assert [code for code, _name in settings.LANGUAGES] == ["en", "es", "fr", "de"]
    assert "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE
    assert any(str(path).endswith("locale") for path in settings.LOCALE_PATHS)


def test_html_lang_follows_the_browser_language(client: Any) -> None:
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9").content.decode()
    assert '<html lang="es">' in page
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert '<html lang="en">' in page  # not shipped: English


def test_the_footer_switcher_keeps_the_choice(client: Any) -> None:
    page = client.get("/").content.decode()
    assert 'action="/i18n/setlang/"' in page and 'name="language"' in page
    assert all(f'value="{code}"' in page for code, _name in settings.LANGUAGES)
    answer = client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert answer.status_code == 302 and answer["Location"] == "/"
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<html lang="de">' in page  # the choice wins over the browser's
    assert '<option value="de" lang="de" selected>' in page


def test_a_tournament_has_a_language_the_api_sets(judge_client: Any, tournament: Tournament) -> None:
    assert judge_client.get(f"/api/tournaments/{tournament.pk}/").json()["language"] == "en"
    answer = judge_client.patch(f"/api/tournaments/{tournament.pk}/", {"language": "fr"}, format="json")
    assert answer.status_code == 200 and answer.json()["language"] == "fr"
    tournament.refresh_from_db()
    assert tournament.language == "fr"


@pytest.mark.parametrize("code", ["it", "", "english", 7])
def test_a_language_not_shipped_is_refused_naming_the_field(
    judge_client: Any, tournament: Tournament, code: Any
) -> None:
    answer = judge_client.patch(f"/api/tournaments/{tournament.pk}/", {"language": code}, format="json")
    assert answer.status_code == 400
    assert "language" in answer.content.decode()
    tournament.refresh_from_db()
    assert tournament.language == "en"


def test_the_room_screen_is_in_the_tournament_language(client: Any, tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(language="de")
    page = client.get(f"/tournaments/{tournament.pk}/screen/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<html lang="de">' in page


def test_an_api_refusal_detail_follows_accept_language(api_client: Any, tournament: Tournament) -> None:
    english = api_client.patch(f"/api/tournaments/{tournament.pk}/", {"name": "x"}, format="json")
    spanish = api_client.patch(
        f"/api/tournaments/{tournament.pk}/", {"name": "x"}, format="json", HTTP_ACCEPT_LANGUAGE="es"
    )
    assert english.status_code == spanish.status_code and english.status_code in (401, 403)
    assert english.json()["detail"] != spanish.json()["detail"]
    assert "autenticación" in spanish.json()["detail"]


def test_a_public_page_rendered_once_for_everyone_is_rendered_once_per_language(
    client: Any, tournament: Tournament
) -> None:
    """The standings page and its live part are kept once per version for visitors without a
    session: a Spanish reader after an English one still reads Spanish, and the English after."""
    url = f"/tournaments/{tournament.pk}/standings/"
    assert "Standings CSV" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    spanish = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
    assert '<html lang="es">' in spanish.content.decode() and "Standings CSV" not in spanish.content.decode()
    assert "Accept-Language" in spanish["Vary"]
    assert "Standings CSV" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
